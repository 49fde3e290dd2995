"""An API key echoed by a server never lands in monchat.log, on stderr, in doctor --json or a crash report.

The real ``openai`` client talks to the loopback fake made to answer 401 with "Incorrect API key
provided: <the key>" (as OpenAI-compatible servers do), through ``python -m monchat`` as a user runs it.
Before: the key was in 12 lines of one session.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from monchat.core import redact
from monchat.core.crash import write_crash_report
from monchat.core.errors import AuthFailed
from tests.fakes.fake_openai import running_fake_openai
from tests.test_cli_backends import run

KEY = "sk-proj-Zq8v3LkP0s9TtY7wXcR2mN5bJ4hG6fD1"
MODEL = "qwen2.5-7b-instruct"


@pytest.fixture
def echoing():
    with running_fake_openai() as fake:
        fake.api_key = "sk-the-right-one-0000"
        fake.echo_key = True
        yield fake


def test_a_key_echoed_in_a_401_is_hidden_from_stderr_the_log_and_doctor(home, echoing):
    assert run(home, "settings", "set", "openai.base_url", echoing.url).returncode == 0
    env = {"OPENAI_API_KEY": KEY}
    chat = run(home, "--backend", "openai", "--model", MODEL, "--verbose", "chat", "-m", "聞こえる？", env=env)
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    doctor = run(home, "--backend", "openai", "--model", MODEL, "doctor", "--json", env=env)
    status = run(home, "--backend", "openai", "--model", MODEL, "status", env=env)

    assert chat.returncode == 4 and "did not accept the API key" in chat.stderr
    assert "Incorrect API key provided: [API key hidden]" in chat.stderr  # the server's words, minus the key
    report = json.loads(doctor.stdout)
    checks = [c for s in report["sections"] if s.get("backend") == "openai" for c in s["checks"]]
    assert any("[API key hidden]" in c["detail"] for c in checks)
    assert any("Bearer" in str(r["headers"].get("authorization")) for r in echoing.requests)  # it was sent
    log = (home / "monchat.log").read_text(encoding="utf-8")
    assert "[API key hidden]" in log
    for where in (chat.stderr, chat.stdout, doctor.stdout, doctor.stderr, status.stdout, status.stderr, log):
        assert KEY not in where and KEY[8:30] not in where


def test_every_other_way_out_hides_the_key(monkeypatch, tmp_path):
    """Errors, log records (arguments and tracebacks), crash reports, and keys from the keyring."""
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    keyring_key = "AIzaSyD-keyring-only-value-123"
    redact.remember(keyring_key)
    error = AuthFailed(f"rejected {KEY}", f"not {keyring_key}")
    assert KEY not in str(error) and keyring_key not in error.hint

    records = []
    handler = logging.Handler()
    handler.setFormatter(redact.RedactingFormatter("%(message)s"))
    handler.emit = lambda record: records.append(handler.format(record))
    logger = logging.getLogger("test.redact")
    logger.addHandler(handler)
    try:
        logger.warning("key %s", KEY)
        try:
            raise ValueError(f"boom {keyring_key}")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    assert records and all(KEY not in r and keyring_key not in r for r in records)
    assert "boom [API key hidden]" in records[1]

    path = write_crash_report(tmp_path, f"Traceback … {KEY}")
    assert KEY not in Path(path).read_text(encoding="utf-8")
    assert redact.redact("short") == "short"  # a placeholder like "none" is no key
