"""The markers conftest applies (tests/support/markers.py): found from what a test does, held at run time.

Plain ``pytest`` leaves out ``gui``, ``subprocess``, ``embedded``, ``llama_server`` and ``slow``; these tests
check that a test starting monchat in a new process is marked without anyone writing it, that one the search
missed fails instead of slowing the fast run, and that the fast run keeps at least 60 % of the tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.markers import TESTS, conftests_of, marks_for, starts_interpreter

ROOT = TESTS.parent


def monchat_version() -> str:
    """A helper two calls away from the test: the search follows it to sys.executable."""
    return _run_monchat("--version")


def _run_monchat(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "monchat", *args], capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


def test_a_test_that_starts_monchat_in_a_new_process_is_marked_subprocess(request):
    assert monchat_version().strip()
    assert request.node.get_closest_marker("subprocess") is not None


def marks(relative: str, function: str, fixtures=()) -> set[str]:
    path = ROOT / relative
    return marks_for(path, function, list(fixtures), conftests_of(path))


def test_the_search_finds_each_kind():
    assert marks("tests/test_markers.py",
                 "test_a_test_that_starts_monchat_in_a_new_process_is_marked_subprocess") == {"subprocess"}
    assert marks("tests/test_llama_server.py", "test_doctor_finds_the_server_takes_no_schema_with_one_tiny_request",
                 ["server_4096"]) >= {"llama_server", "embedded", "subprocess", "slow"}
    assert marks("tests/gui/test_composer.py", "test_ctrl_enter_mode", ["composer", "qtbot"]) == {"gui"}
    # through a module-scoped fixture that calls a method (World.run) of a class in the module
    assert "subprocess" in marks("tests/test_e2e_growing.py", "test_rate_a_reply_up_down_and_none", ["grown"])
    # through a function nested in the test
    assert "subprocess" in marks("tests/test_your_controls_cli.py",
                                 "test_python_m_monchat_never_rules_and_an_unknown_action", ["home"])
    # through a helper of another test module imported inside the test
    assert "subprocess" in marks("tests/test_openai_server_faults.py",
                                 "test_terminal_chat_talks_with_the_persona_of_the_terminals_language",
                                 ["home", "fake"])
    # through a method of a class imported from another test module (User.run of test_e2e_growing)
    assert "subprocess" in marks("tests/test_tiny_model_flush.py", "test_every_junk_proposal_is_dropped_with_its_rule",
                                 ["flushed"])
    assert marks("tests/test_your_controls_cli.py", "test_chat_off_record_then_flush_sends_none_of_it",
                 ["ollama", "home", "capsys"]) == set()
    # a test that only needs llama-cpp-python says so, and is found by it
    assert "embedded" in marks("tests/test_warm_start.py", "test_the_embedded_turn_after_a_warm_up_reuses_the_prefix")
    assert marks("tests/test_store.py", "test_a_blank_database_is_migrated_and_recorded", ["tmp_path"]) == set()
    assert marks("tests/flush/test_consolidation.py", "test_anything", ["world", "home"]) == set()


def test_what_counts_as_starting_an_interpreter():
    assert starts_interpreter((None, [sys.executable, "-m", "monchat", "status"], None, None))
    assert starts_interpreter((None, [sys.executable.encode(), b"-c", b"pass"], None, None))
    assert starts_interpreter(("/usr/bin/python3", ["python3", "-c", "pass"], None, None))
    assert starts_interpreter((None, ["/somewhere/.venv/bin/monchat", "chat"], None, None))
    assert not starts_interpreter((None, ["git", "status"], None, None))
    assert not starts_interpreter((None, "xdg-open /tmp", None, None))


INNER_CONFTEST = ("from tests.conftest import pytest_configure, pytest_collection_modifyitems, "
                  "pytest_runtest_setup, pytest_runtest_teardown  # noqa\n")
INNER_TESTS = '''
import subprocess
import sys


def test_found():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_hidden():
    python = getattr(sys, "exec" + "utable")  # out of the search's sight
    subprocess.run([python, "-c", "pass"], check=True)


def test_no_process():
    subprocess.run(["true"], check=True)
'''


def test_a_test_that_starts_python_unseen_fails_and_says_why(tmp_path):
    (tmp_path / "conftest.py").write_text(INNER_CONFTEST, encoding="utf-8")
    (tmp_path / "test_inner.py").write_text(INNER_TESTS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("CI", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert "ERROR test_inner.py::test_hidden" in out and "has no `subprocess` marker" in out, out
    assert "PASSED test_inner.py::test_found" in out and "PASSED test_inner.py::test_no_process" in out, out
    assert "ERROR test_inner.py::test_found" not in out, out


def test_the_default_run_holds_at_least_60_percent_of_the_tests():
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    found = re.search(r"(\d+)/(\d+) tests collected", done.stdout)
    assert found, done.stdout[-2000:] + done.stderr[-2000:]
    fast, total = int(found.group(1)), int(found.group(2))
    assert fast >= 0.6 * total, (fast, total)


def test_every_marker_is_explained_in_the_testing_doc():
    from tests.support.markers import MARKERS
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in text for name in MARKERS)
    assert Path(ROOT / "pyproject.toml").read_text(encoding="utf-8").count('"not (gui or subprocess or embedded '
                                                                             'or llama_server or slow)"') == 1


def test_ci_runs_exactly_the_readmes_test_command_and_it_runs_everything():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[2]
    command = readme.split("#")[0].strip().removeprefix("bash scripts/setup && ")
    assert command.startswith(".venv/bin/python -m pytest ") and ' -m "" ' in f"{command} "
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in [line.strip() for line in ci]


class _Item:
    def __init__(self, nodeid: str, *marks: str):
        self.nodeid, self.marks = nodeid, set(marks)

    def get_closest_marker(self, name):
        return name if name in self.marks else None


def test_the_heaviest_modules_start_first_the_windows_last_and_a_modules_tests_stay_together_in_order():
    from tests.support.markers import heaviest_first
    items = [_Item("tests/a.py::one"), _Item("tests/a.py::two"), _Item("tests/gui/b.py::one", "gui"),
             _Item("tests/c.py::one", "embedded", "slow"), _Item("tests/c.py::two"),
             _Item("tests/d.py::one", "llama_server", "embedded"), _Item("tests/e.py::one")]
    order = [item.nodeid for item in heaviest_first(items)]
    assert order == ["tests/d.py::one", "tests/c.py::one", "tests/c.py::two", "tests/a.py::one", "tests/a.py::two",
                     "tests/e.py::one", "tests/gui/b.py::one"]  # the window's modules last


def test_xdist_keeps_that_order():
    # By default loadscope sorts modules by their number of tests, which sends the real-model modules (few, long
    # tests) to the end of the run, where each runs alone.
    addopts = Path(ROOT / "pyproject.toml").read_text(encoding="utf-8").split("addopts = ", 1)[1].split("]", 1)[0]
    assert '"--dist", "loadscope", "--no-loadscope-reorder"' in addopts
