"""A restored backup never brings consent to a cloud: this machine asks again, in the terminal too.

The backup is a real one made from a folder whose settings name a public OpenAI-compatible server and
whose database says yes to it. After ``monchat restore``, ``monchat chat -m`` (no terminal to ask at)
sends and logs nothing and says why; at a terminal (a real pty) it asks, and a no sends nothing.
Before: the consent row was restored and ``chat -m`` sent memory and conversation without asking.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.privacy.cloud import CloudConsent
from tests.test_cli_backends import logged, run

REPO = Path(__file__).resolve().parents[1]
PUBLIC = "https://api.example.invalid/v1"


def planted_backup(tmp_path: Path, monkeypatch) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    (source / "settings.toml").write_text(f'[backend]\nname = "openai"\nmodel = "gpt-x"\n\n[openai]\n'
                                          f'base_url = "{PUBLIC}"\n', encoding="utf-8")
    app = build_app(str(source))
    dest = app.backends.planned_destination(None)
    assert dest is not None and not dest.local
    CloudConsent(app.store).grant(dest)
    app.close()
    monkeypatch.setenv("MONCHAT_HOME", str(source))
    assert cli.main(["backup", str(tmp_path / "planted.zip")]) == 0
    return tmp_path / "planted.zip"


def test_chat_without_a_terminal_sends_nothing_to_a_cloud_named_by_a_restored_backup(tmp_path, monkeypatch):
    backup = planted_backup(tmp_path, monkeypatch)
    home = tmp_path / "restored"
    assert run(home, "restore", str(backup)).returncode == 0

    done = run(home, "chat", "-m", "私の秘密の話")
    assert done.returncode == 2, done.stderr
    assert "api.example.invalid" in done.stderr and "not agreed to send to" in done.stderr
    assert "nothing was sent or logged" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "logs").exists() or logged(home) == []
    flush = run(home, "flush")  # a flush would send the logs there: asked too
    assert flush.returncode == 2 and "not agreed to send to" in flush.stderr
    app = build_app(str(home))
    try:
        assert CloudConsent(app.store).needed(app.backends.planned_destination(None))  # the window asks too
    finally:
        app.close()


def test_chat_at_a_terminal_asks_and_a_no_sends_nothing(tmp_path, monkeypatch):
    backup = planted_backup(tmp_path, monkeypatch)
    home = tmp_path / "restored"
    assert run(home, "restore", str(backup)).returncode == 0
    master, slave = pty.openpty()
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC"}
    process = subprocess.Popen([sys.executable, "-m", "monchat", "chat", "-m", "私の秘密の話"], stdin=slave,
                               stdout=slave, stderr=slave, env=env, cwd=REPO)
    os.close(slave)
    seen = b""
    try:
        while b"[y/N]" not in seen:
            ready, _, _ = select.select([master], [], [], 30)
            assert ready, seen
            seen += os.read(master, 4096)
        os.write(master, b"n\n")
        assert process.wait(timeout=30) == 2
        while select.select([master], [], [], 0.5)[0]:
            try:
                seen += os.read(master, 4096)
            except OSError:
                break
    finally:
        process.kill()
        os.close(master)
    text = seen.decode("utf-8", "replace")
    assert "is not on this computer or your network" in text and "your memory" in text
    assert "Nothing was sent to openai" in text
    assert not (home / "logs").exists() or logged(home) == []
