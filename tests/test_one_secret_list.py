"""One list of secrets: each secret monchat reads, sent through each way an error leaves (issue 36, case 6).

The secrets: the chat keys (``OPENAI_API_KEY``, ``GEMINI_API_KEY``, ``GOOGLE_API_KEY``), the Hugging Face
token (``HF_TOKEN``, ``HUGGING_FACE_HUB_TOKEN``, its token file), keys from the OS keyring (a file-backed
keyring, tests/fakes/fake_keyring.py) and any secret header's value, registered or not. The ways out: a
server whose error body echoes the request's headers (tests/fakes/echo_headers.py; the fake Hub's
``refuse``), a server that echoes the key alone (fake_openai's ``echo_key``), and an exception whose text
holds every secret at once (our bug: a crash report). Each run is ``python -m monchat`` as a user runs it;
what is checked is raw bytes: stdout, stderr, every file under the data folder (``monchat.log``, crash
reports, the database), ``doctor --json`` and a backup zip (its bytes and each member's).

Before: ``HF_TOKEN`` echoed by a mirror was written to monchat.log (core/redact.py knew three variables).
The values below are shaped like no real key, so only the registry can hide them (the shape rule would
hide an ``hf_…`` token on its own); the header rule has its own test with a value never registered.
"""

from __future__ import annotations

import ast
import json
import logging
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from monchat.core import redact
from monchat.core.privacy import secrets as key_store
from tests.fakes.echo_headers import running_echo_server
from tests.fakes.fake_openai import running_fake_openai
from tests.support.consent import agree_to_cloud
from tests.test_download_bounded import make_model

ROOT = Path(__file__).resolve().parents[1]
VALUES = {"OPENAI_API_KEY": "mc-openai-Zq8v3LkP0s9TtY7w", "GEMINI_API_KEY": "mc-gemini-Hx4c2WnR8pQ1aL6d",
          "GOOGLE_API_KEY": "mc-google-Vb7m3KsT9eJ2uY5o", "HF_TOKEN": "mc-hftoken-Pw2n8DgF4kC7rZ1q",
          "HUGGING_FACE_HUB_TOKEN": "mc-hubtoken-Lr5t1XyB6hN3vM8s"}
KEYRING_KEY = "mc-keyring-Qe9d4GjU2bA7wK3x"
SCRUBBED = [*redact.SECRET_VARIABLES, "HF_TOKEN_PATH", "PYTHON_KEYRING_BACKEND", "MONCHAT_TEST_KEYRING"]


def run(home: Path, *args: str, env: dict | None = None, code: str | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    full = dict(base, MONCHAT_HOME=str(home), TZ="UTC", HF_HOME=str(home.parent / "hf-home"),
                PYTHONPATH=str(ROOT), **(env or {}))
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "monchat", *args]
    return subprocess.run(command, capture_output=True, text=True, env=full, timeout=300, cwd=ROOT)


def leaks(secret: str, home: Path, *runs: subprocess.CompletedProcess) -> list[str]:
    """Where ``secret`` (or a long piece of it) is found: a run's output, a file under ``home``, a backup zip
    (``backup`` puts it beside ``home``), by its bytes and by each member's."""
    pieces = [secret.encode(), secret[-14:].encode()]
    found = [f"{' '.join(r.args[-3:])} {name}" for r in runs
             for name, text in (("stdout", r.stdout), ("stderr", r.stderr)) if any(p.decode() in text for p in pieces)]
    for path in sorted(p for p in [*home.rglob("*"), backup_path(home)] if p.is_file()):
        data = path.read_bytes()
        if any(p in data for p in pieces):
            found.append(path.name)
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                found += [f"{path.name}:{n}" for n in archive.namelist() if any(p in archive.read(n) for p in pieces)]
    return found


def backup_path(home: Path) -> Path:
    return home.parent / f"{home.name}-backup.zip"


def backup(home: Path, env: dict) -> subprocess.CompletedProcess:
    """``monchat backup`` of ``home``, after the runs that met the secret."""
    done = run(home, "backup", str(backup_path(home)), env=env)
    assert done.returncode == 0 and backup_path(home).stat().st_size > 0, done.stderr
    return done


# ---- what is on the list -------------------------------------------------------------------------------

def _code_strings(path: Path):
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_every_secret_variable_monchat_names_is_on_the_list():
    """A ``…_KEY``/``…_TOKEN`` variable read anywhere in monchat must be one ``redact`` hides."""
    import re
    secret_name = re.compile(r"[A-Z][A-Z0-9_]*_(?:KEY|TOKEN|SECRET|PASSWORD)")
    named = {s for path in (ROOT / "monchat").rglob("*.py") for s in _code_strings(path) if secret_name.fullmatch(s)}
    named.discard("API_KEY")  # not a variable: the reason word of Gemini's "API_KEY_INVALID" (backends/gemini.py)
    assert named, "the scan found no key variable at all: it is broken"
    assert named <= set(redact.SECRET_VARIABLES), named - set(redact.SECRET_VARIABLES)
    assert set(key_store.GEMINI_ENV + key_store.OPENAI_ENV) <= set(redact.SECRET_VARIABLES)
    assert {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"} <= set(redact.SECRET_VARIABLES)  # what huggingface_hub sends


def test_every_keyring_read_registers_what_it_read():
    """A function that reads the OS keyring calls ``register`` too (a key read there is hidden at once)."""
    readers = []
    for path in (ROOT / "monchat").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            calls = {c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
                     for c in ast.walk(node) if isinstance(c, ast.Call)}
            if "get_password" in calls:
                readers.append((path.name, node.name, "register" in calls))
    assert readers and all(registered for _, _, registered in readers), readers


def test_a_secret_header_is_hidden_even_when_its_value_was_never_registered():
    never = "never-registered-credential-4711"
    echoes = [f"Authorization: Bearer {never}", f'{{"authorization": "Bearer {never}", "accept": "*/*"}}',
              f"{{'x-goog-api-key': '{never}'}}", f"api-key={never}&x=1", f"X-Api-Key: {never}",
              f"Proxy-Authorization: Basic {never}", f"GET /v1beta/models?key={never} HTTP/1.1"]
    for text in echoes:
        hidden = redact.redact(text)
        assert never not in hidden and redact.HIDDEN in hidden, text
        assert redact.redact(hidden) == hidden  # hiding twice changes nothing (an error, then its log line)
    assert redact.redact("Authorization: Bearer x") == f"Authorization: Bearer {redact.HIDDEN}"
    for shaped in ("hf_" + "a1B2" * 9, "sk-proj-" + "Zq8v3LkP" * 4, "AIza" + "Sy0-" * 9):
        assert redact.redact(f"token {shaped} echoed") == f"token {redact.HIDDEN} echoed"
    for words in ("Invalid credentials in Authorization header", "a category of cats", "the risk-taking tasks"):
        assert redact.redact(words) == words


def test_the_log_formatter_hides_a_header_in_a_record_and_its_traceback():
    records = []
    handler = logging.Handler()
    handler.setFormatter(redact.RedactingFormatter("%(message)s"))
    handler.emit = lambda record: records.append(handler.format(record))
    logger = logging.getLogger("test.one_secret_list")
    logger.addHandler(handler)
    try:
        try:
            raise RuntimeError("the server said: authorization: Bearer unlisted-value-0815")
        except RuntimeError as exc:
            logger.warning("failed: %r", exc, exc_info=True)
    finally:
        logger.removeHandler(handler)
    assert records and "unlisted-value-0815" not in records[0]


# ---- each secret through each way out -------------------------------------------------------------------

@pytest.mark.parametrize("source", ["OPENAI_API_KEY", "keyring"])
def test_an_openai_key_echoed_with_the_headers_never_leaves(home, tmp_path, source):
    key = VALUES["OPENAI_API_KEY"] if source != "keyring" else KEYRING_KEY
    env = {"OPENAI_API_KEY": key}
    if source == "keyring":
        ring = tmp_path / "keyring.json"
        ring.write_text(json.dumps({key_store.SERVICE: {key_store.OPENAI_KEY_NAME: key}}))
        env = {"PYTHON_KEYRING_BACKEND": "tests.fakes.fake_keyring.FileKeyring", "MONCHAT_TEST_KEYRING": str(ring)}
    with running_echo_server("openai", 400) as server:
        assert run(home, "settings", "set", "openai.base_url", f"{server.url}/v1").returncode == 0
        chat = run(home, "--backend", "openai", "--model", "m", "--verbose", "chat", "-m", "hello", env=env)
        from tests.support.machine_probe import remember_a_probe
        remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
        doctor = run(home, "--backend", "openai", "--model", "m", "doctor", "--json", env=env)
        sent = [h.get("authorization") for _, _, h in server.requests]
    assert f"Bearer {key}" in sent  # it was sent, and echoed
    assert chat.returncode not in (0, 70) and redact.HIDDEN in chat.stderr + chat.stdout
    assert redact.HIDDEN in json.dumps(json.loads(doctor.stdout))
    assert leaks(key, home, chat, doctor, backup(home, env)) == []


@pytest.mark.parametrize("variable", ["GEMINI_API_KEY", "GOOGLE_API_KEY"])
def test_a_gemini_key_echoed_with_the_headers_never_leaves(home, variable):
    key, env = VALUES[variable], {variable: VALUES[variable]}
    with running_echo_server("gemini", 400) as server:
        assert run(home, "settings", "set", "gemini.base_url", server.url).returncode == 0
        agree_to_cloud(home, "gemini")
        chat = run(home, "--backend", "gemini", "--verbose", "chat", "-m", "hello", env=env)
        from tests.support.machine_probe import remember_a_probe
        remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
        doctor = run(home, "--backend", "gemini", "doctor", "--json", env=env)
        sent = [h.get("x-goog-api-key") for _, _, h in server.requests]
    assert key in sent
    assert chat.returncode not in (0, 70) and redact.HIDDEN in chat.stderr
    assert leaks(key, home, chat, doctor, backup(home, env)) == []


def test_a_key_from_the_keyring_echoed_alone_is_hidden(home, tmp_path):
    """An OpenAI-compatible 401 that names the key it got, without the header: only the registry knows it."""
    ring = tmp_path / "keyring.json"
    ring.write_text(json.dumps({key_store.SERVICE: {key_store.OPENAI_KEY_NAME: KEYRING_KEY}}))
    env = {"PYTHON_KEYRING_BACKEND": "tests.fakes.fake_keyring.FileKeyring", "MONCHAT_TEST_KEYRING": str(ring)}
    with running_fake_openai() as fake:
        fake.api_key, fake.echo_key = "the-right-one-0000", True
        assert run(home, "settings", "set", "openai.base_url", fake.url).returncode == 0
        chat = run(home, "--backend", "openai", "--model", "qwen2.5-7b-instruct", "chat", "-m", "hi", env=env)
    assert chat.returncode == 4 and f"Incorrect API key provided: {redact.HIDDEN}" in chat.stderr
    assert leaks(KEYRING_KEY, home, chat, backup(home, env)) == []


@pytest.mark.parametrize("variable", ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"])
def test_a_hub_token_echoed_by_a_mirror_never_leaves(home, tmp_path, monkeypatch, variable):
    from tests.fakes.fake_hub import running_fake_hub
    token, env = VALUES[variable], {variable: VALUES[variable]}
    source = make_model(tmp_path, monkeypatch, 64 * 1024)
    env["MONCHAT_CATALOG"] = os.environ["MONCHAT_CATALOG"]
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        hub.refuse = (401, "resolve")
        pull = run(home, "--verbose", "models", "pull", "tiny", env=dict(env, HF_ENDPOINT=hub.url))
        sent = [h.get("authorization") for h in hub.headers]
    assert f"Bearer {token}" in sent
    assert pull.returncode == 1 and "could not be downloaded" in pull.stderr
    assert "refused" in (home / "monchat.log").read_text(encoding="utf-8")  # the echo was logged, hidden
    assert leaks(token, home, pull, backup(home, env)) == []


def test_the_token_file_huggingface_hub_sends_is_registered_where_it_is_read(tmp_path, monkeypatch):
    from monchat.core.models.catalog import find_model
    from monchat.core.models.download import DownloadError, pull
    from tests.fakes.fake_hub import running_fake_hub
    token = "mc-tokenfile-Kd3s8VnQ1zT6yB4e"
    (tmp_path / "token").write_text(token)
    for variable in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HF_TOKEN_PATH", str(tmp_path / "token"))
    import huggingface_hub.constants  # read once at its import: what a process started with the variable sees
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "token"))
    source = make_model(tmp_path, monkeypatch, 64 * 1024)
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        hub.refuse = (403, "resolve")
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(DownloadError) as raised:
            pull(find_model("tiny"), tmp_path / "models")
    assert f"Bearer {token}" in [h.get("authorization") for h in hub.headers]  # the file's token was sent
    assert token in redact.secrets() and token not in str(raised.value)


def test_an_exception_holding_every_secret_is_hidden_in_the_crash_report(home):
    """Our bug, whose text holds each secret: stderr, monchat.log and the crash report hide them all."""
    code = ("import os, sys; from monchat.cli.main import main; from tests.support.scripted import FailingBackend; "
            "boom = RuntimeError('held: ' + ' '.join(os.environ[v] for v in sys.argv[1].split(','))); "
            "sys.exit(main(sys.argv[2:], pinned_backend=FailingBackend(boom)))")
    crash = run(home, ",".join(VALUES), "chat", "-m", "hello", env=VALUES, code=code)
    assert crash.returncode == 70, crash.stderr
    reports = list((home / "crash").glob("crash-*.txt"))
    assert reports and "held: " + " ".join([redact.HIDDEN] * len(VALUES)) in reports[0].read_text(encoding="utf-8")
    saved = backup(home, VALUES)
    for secret in VALUES.values():
        assert leaks(secret, home, crash, saved) == [], secret
