"""Taking words back in the terminal: ``/edit`` in ``monchat chat`` and ``monchat message delete ID``.

The chat and the flush go through the real ``ollama`` client to the loopback fake Ollama, which records
every request: the taken-back words must be in none that a flush sends.
"""

from __future__ import annotations

import io
import json
import logging
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.types import Message, format_ts, local_now, new_message_id
from tests.fakes.fake_ollama import running_fake_ollama

REPO = Path(__file__).resolve().parents[1]
SECRET = "My secret diary password is hunter2, remember it"
OLLAMA = ["--backend", "ollama", "--model", "llama3.2"]


class TerminalInput(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def main(home):
    """``cli.main`` in this process; no logging handler left behind."""
    before = list(logging.getLogger().handlers)
    level = logging.getLogger().level
    yield cli.main
    root = logging.getLogger()
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


@pytest.fixture
def ollama(main):
    """A loopback Ollama the settings point to; filters answer with no items; background calls off."""
    with running_fake_ollama() as server:
        server.structured_content = json.dumps({"items": []})
        for key, value in (("ollama.host", server.url), ("background.diary", "false"),
                           ("background.reflect", "false"), ("background.lint_llm", "false")):
            assert main(["settings", "set", key, value]) == 0
        yield server


def flush_requests(server, since: int) -> list[str]:
    """The bodies of the structured (filter) requests from the ``since``-th request on, as text."""
    return [json.dumps(r["body"], ensure_ascii=False) for r in server.requests[since:]
            if r["path"] == "/api/chat" and r["body"].get("format")]


def test_edit_in_monchat_chat_then_flush_sends_the_old_words_to_no_filter(main, ollama, home, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", TerminalInput(f"{SECRET}\n/edit I like green tea\n"))
    assert main([*OLLAMA, "chat"]) == 0
    before_flush = len(ollama.requests)
    assert main([*OLLAMA, "flush"]) == 0
    sent = flush_requests(ollama, before_flush)
    assert len(sent) >= 4  # base, two fixed and one random filter persona read the log
    assert all("hunter2" not in body for body in sent)
    assert all("green tea" in body for body in sent)
    capsys.readouterr()
    assert main(["search", "hunter2"]) == 1  # issue 36: the edit took the old words out of every file
    assert not [p for p in home.rglob("*") if p.is_file() and b"hunter2" in p.read_bytes()]  # raw bytes
    assert main(["search", "green tea", "--json"]) == 0
    [hit] = json.loads(capsys.readouterr().out)
    assert hit["replaced"] is False and hit["text"] == "I like green tea"


def log(app, text: str, role: str = "user", minutes_ago: float = 1) -> Message:
    from datetime import timedelta
    message = Message(id=new_message_id(), ts=format_ts(local_now() - timedelta(minutes=minutes_ago)), role=role,
                      text=text, persona="hana")
    app.logbook.append(message)
    return message


def test_message_delete_with_yes_then_flush_sends_the_words_to_no_filter(main, ollama, home, capsys):
    app = build_app(str(home))
    secret = log(app, SECRET, minutes_ago=3)
    log(app, "I like green tea", minutes_ago=2)
    app.close()
    assert main(["message", "delete", secret.id, "--yes", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["ids"] == [secret.id] and done["log_lines"] == 1 and done["archived"] == 0
    before_flush = len(ollama.requests)
    assert main([*OLLAMA, "flush"]) == 0
    sent = flush_requests(ollama, before_flush)
    assert sent and all("hunter2" not in body for body in sent) and all("green tea" in body for body in sent)
    assert main(["search", "hunter2"]) == 1  # found nowhere


def test_message_delete_asks_on_a_terminal_and_no_keeps_it(main, home, monkeypatch, capsys):
    app = build_app(str(home))
    secret = log(app, SECRET)
    app.close()
    monkeypatch.setattr(sys, "stdin", TerminalInput("n\n"))
    assert main(["message", "delete", secret.id]) == 1
    out = capsys.readouterr().out
    assert "for good" in out and "No memory rests on it." in out and "Nothing was deleted." in out
    monkeypatch.setattr(sys, "stdin", TerminalInput("y\n"))
    assert main(["message", "delete", secret.id]) == 0
    assert f"Deleted {secret.id}" in capsys.readouterr().out
    app = build_app(str(home))
    assert app.logbook.read_all().messages == []
    app.close()


def test_message_delete_without_a_terminal_or_yes_deletes_nothing(main, home, monkeypatch, capsys):
    app = build_app(str(home))
    secret = log(app, SECRET)
    app.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["message", "delete", secret.id]) == 2
    assert "--yes" in capsys.readouterr().err
    app = build_app(str(home))
    assert [m.id for m in app.logbook.read_all().messages] == [secret.id]
    app.close()


def run_module(home: Path, *args: str, limit: int | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([sys.executable, "-m", "monchat", *args], env=env, capture_output=True, text=True,
                          timeout=120, preexec_fn=limited if limit else None)


def test_python_m_monchat_message_delete_works_and_an_unknown_id_exits_2(home):
    app = build_app(str(home))
    secret = log(app, SECRET)
    app.close()
    unknown = run_module(home, "message", "delete", "no-such-id", "--yes")
    assert unknown.returncode == 2 and "There is no message 'no-such-id'" in unknown.stderr
    done = run_module(home, "message", "delete", secret.id, "--yes")
    assert done.returncode == 0, done.stderr
    assert f"Deleted {secret.id}" in done.stdout
    assert not list((home / "logs").glob("*.jsonl"))  # its only line went: the file too


def test_a_rewrite_that_cannot_be_written_keeps_the_old_log_file_whole(home):
    """The fault: a file-size limit below the rewritten file's size, as a nearly full disk does to it."""
    app = build_app(str(home))
    secret = log(app, SECRET, minutes_ago=2)
    log(app, "x" * 1_500_000, minutes_ago=1)  # larger than the database, which must stay writable
    [path] = app.logbook.files()
    app.close()
    before = path.read_bytes()
    done = run_module(home, "message", "delete", secret.id, "--yes", limit=1_000_000)
    assert path.read_bytes() == before  # the old file, never a half one
    assert done.returncode not in (0, 70), done.stderr
    assert str(path) in done.stderr, done.stderr  # the log file's rewrite is what failed
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # and no temp file left
