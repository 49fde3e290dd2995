"""Shared fixtures: a private MONCHAT_HOME per test, a clean environment, Qt offscreen.

Under ``CI=true`` a skip is a failure: a machine set up by ``scripts/setup`` has
llama-cpp-python, the SmolLM2 model and Xvfb, so a test that skips there lost
its dependency, and a green run would hide it. Only a reason in
``ALLOWED_CI_SKIPS`` (one a user would accept on such a machine) may skip.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# llama.cpp's OpenMP threads wait passively, as monchat sets before it loads llama.cpp (core/backends/llama_support.py):
# set here, before a test's `importorskip("llama_cpp")` loads the library in this process (OpenMP reads it once, at
# load) and before the tests start llama_cpp.server. Waiting actively, they spun: two 2-thread runs side by side (the
# two workers) took 42-47 s of CPU for what took 4.9 s passively (128 tokens of SmolLM2, load 8), and one real-server
# flush of test_llama_server took 13 minutes at load 8-9.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# Every HTTP client the tests build (ollama's, openai's: httpx) reads a trust store at construction: the machine's
# 144 roots (or certifi's 117) took 16-20 ms of CPU a client, and a flush through a loopback server builds several
# (test_hostile_background: 42-46 s of CPU before, 25-29 s after). No test speaks TLS (nothing may need the network),
# so the tests and the interpreters they start trust one certificate whose key was thrown away
# (tests/data/tls/no-one.pem): a TLS connection a test made by mistake would fail its verification, not quietly
# succeed. Set over the machine's own SSL_CERT_FILE (the shared machine sets one; httpx reads it before certifi).
os.environ["SSL_CERT_FILE"] = str(Path(__file__).resolve().parent / "data" / "tls" / "no-one.pem")

import pytest

from tests.support import markers
from tests.support.db_template import discard_template, use_migrated_template
from tests.support.ram_tmp import use_ram_disk

# Temporary files (every tmp_path, the database template, what the interpreters tests start write) on /dev/shm when
# it has room, before pytest picks its tmp_path root: syncs cost nothing there (tests/support/ram_tmp.py).
RAM_DISK = use_ram_disk()

# Substrings of skip reasons that stay skips under CI=true. None today: every skip in the suite is
# a missing dependency that scripts/setup installs.
ALLOWED_CI_SKIPS: tuple[str, ...] = ()


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _fail_unexpected_skip(report) -> None:
    if not (report.skipped and running_in_ci()) or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if any(allowed in reason for allowed in ALLOWED_CI_SKIPS):
        return
    report.outcome = "failed"
    report.longrepr = (f"skipped under CI=true, where a skip is a failure: {reason}\n"
                       "Run scripts/setup (it installs the embedded extra and Xvfb), or add the reason to "
                       "ALLOWED_CI_SKIPS in tests/conftest.py if a user would accept it.")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_unexpected_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield  # a module-level importorskip skips the whole file at collection
    _fail_unexpected_skip(outcome.get_result())


# ---- markers: conftest applies them from what each test does (tests/support/markers.py) ------------------------

SPAWNS = markers.SpawnGuard()
if not getattr(sys, "_monchat_spawn_guard", None):  # one audit hook per interpreter (it cannot be removed)
    sys._monchat_spawn_guard = SPAWNS
    sys.addaudithook(SPAWNS)
SPAWNS = sys._monchat_spawn_guard


def pytest_configure(config):
    for name, text in markers.MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")


@pytest.hookimpl(tryfirst=True)  # before -m deselects by them
def pytest_collection_modifyitems(config, items):
    from importlib.util import find_spec
    no_llama = find_spec("llama_cpp") is None
    for item in items:
        path = Path(str(item.fspath)).resolve()
        function = getattr(item, "originalname", None) or item.name.split("[")[0]
        for name in sorted(markers.marks_for(path, function, list(getattr(item, "fixturenames", ())),
                                             markers.conftests_of(path))):
            if item.get_closest_marker(name) is None:
                item.add_marker(name)
        if no_llama and (item.get_closest_marker("embedded") or item.get_closest_marker("llama_server")):
            item.add_marker(pytest.mark.skip(
                reason="llama-cpp-python is not installed (pip install -e '.[test-real]', or bash scripts/setup)"))
    items[:] = markers.heaviest_first(items)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    SPAWNS.started = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    yield
    started, SPAWNS.started = SPAWNS.started, None
    if started and item.get_closest_marker("subprocess") is None:
        pytest.fail("this test started a new Python interpreter but has no `subprocess` marker, so plain `pytest` "
                    f"runs it: {started[0]!r}. tests/support/markers.py did not find it in the test's source; "
                    "reach sys.executable from the test, a fixture or a helper it calls by name.", pytrace=False)


for _name in ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_GENAI_API_VERSION",
              "GEMINI_API_KEY", "GOOGLE_API_KEY", "OLLAMA_HOST"):
    os.environ.pop(_name, None)
# The interpreters the tests start (xdist's workers, every `python -m monchat`) keep Python's bytecode cache
# (__pycache__, ignored by git) even where PYTHONDONTWRITEBYTECODE is set (the shared 2-core machine sets it): without
# the cache every one of them compiled monchat's modules afresh. `-m subprocess` of test_slash_everywhere and test_cli
# took 33.3 s of CPU without it, 23.1 s with it (2026-12-04, load 7-9).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ["NO_PROXY"] = "127.0.0.1,localhost"
os.environ["no_proxy"] = "127.0.0.1,localhost"


# Modules whose tests are about migrating a blank database: their Store migrates for itself.
MIGRATES_FOR_ITSELF = {"test_store.py", "test_db_template.py"}


@pytest.fixture(autouse=True)
def _isolated_home(request, tmp_path, monkeypatch):
    """Every test gets its own data folder and no real keyring; a new database starts as a migrated copy."""
    home = tmp_path / "monchat-home"
    if request.node.path.name not in MIGRATES_FOR_ITSELF:
        use_migrated_template(monkeypatch)
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OLLAMA_HOST"):
        monkeypatch.delenv(name, raising=False)
    yield home


def pytest_sessionfinish(session):
    discard_template()  # each xdist worker made its own, and removes it


@pytest.fixture
def home(_isolated_home):
    return _isolated_home


@pytest.fixture
def shared(tmp_path) -> Path:
    """The folder a sync tool keeps in step between two devices (a USB stick, Dropbox, Syncthing's folder)."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    return folder


@pytest.fixture(autouse=True)
def _no_leftover_log_handlers():
    """`monchat.cli.main` run in-process adds a file handler under that test's home; drop it after."""
    import logging

    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)
