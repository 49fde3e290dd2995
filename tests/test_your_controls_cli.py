"""The user's own controls through ``monchat …`` and ``python -m monchat``: chat --off-record, offrecord
status|clear|default, memory pause|resume, memory never add|list|remove|matches|forget, status.

Chats and flushes go through the real ``ollama`` client to the loopback fake Ollama, which records every
request: an off-the-record conversation must be in none a flush sends, and a paused flush sends none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from monchat.cli import main as cli
from tests.support.quiet_ollama import quiet_ollama, run_json

REPO = Path(__file__).resolve().parents[1]
OLLAMA = ["--backend", "ollama", "--model", "llama3.2"]
SECRET = "I am secretly planning to quit my job at Hanamaru"


@pytest.fixture
def ollama(home):
    yield from quiet_ollama()


def test_chat_off_record_then_flush_sends_none_of_it(ollama, home, capsys):
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "-m", "I had ramen for dinner."]) == 0
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "--off-record", "-m", SECRET]) == 0
    assert SECRET not in "".join(p.read_text() for p in (home / "logs").glob("*.jsonl"))
    status = run_json(capsys, "status")
    assert status["off_record"]["messages"] == 2 and status["memory_paused"] is None
    before = len(ollama.requests)
    assert cli.main([*OLLAMA, "flush"]) == 0
    sent = [json.dumps(r["body"], ensure_ascii=False) for r in ollama.requests[before:]]
    assert len(sent) >= 4 and all("Hanamaru" not in body for body in sent)
    assert any("ramen" in body for body in sent)
    [hit] = run_json(capsys, "search", "Hanamaru")
    assert hit["off_record"] is True and hit["role"] == "user"
    capsys.readouterr()
    assert cli.main(["search", "Hanamaru"]) == 0
    assert "(off the record) I am secretly" in capsys.readouterr().out
    assert run_json(capsys, "offrecord", "clear") == {"removed": 2}
    assert run_json(capsys, "search", "Hanamaru") == []


def test_a_persona_default_and_on_record_override(ollama, home, capsys):
    assert run_json(capsys, "offrecord", "default", "on", "--persona", "hana") == {"persona": "hana",
                                                                                  "off_record": True}
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "-m", SECRET]) == 0
    assert list((home / "logs").glob("*.jsonl")) == []
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "--on-record", "-m", "on the record now"]) == 0
    assert "on the record now" in "".join(p.read_text() for p in (home / "logs").glob("*.jsonl"))
    assert run_json(capsys, "offrecord")["personas"] == ["hana"]
    run_json(capsys, "offrecord", "default", "off", "--persona", "hana")
    assert run_json(capsys, "offrecord")["personas"] == []


def test_pause_memory_flush_asks_nothing_and_status_says_so(ollama, home, capsys):
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "-m", "Remember: I live in Sendai."]) == 0
    assert run_json(capsys, "memory", "pause")["paused"] is True
    assert run_json(capsys, "status")["memory_paused"]
    capsys.readouterr()
    assert cli.main(["status"]) == 0
    assert "memory is paused since" in capsys.readouterr().out
    before = len(ollama.requests)
    report = run_json(capsys, *OLLAMA, "flush")
    assert report["memory_paused"] is True and report["messages_archived"] == 2
    assert ollama.requests[before:] == []
    assert run_json(capsys, "memory", "resume") == {"paused": False, "was_paused": True}
    assert run_json(capsys, "status")["memory_paused"] is None


def test_python_m_monchat_never_rules_and_an_unknown_action(home):
    env = {**os.environ, "MONCHAT_HOME": str(home), "LANG": "C.UTF-8"}

    def run(*argv):
        return subprocess.run([sys.executable, "-m", "monchat", *argv], cwd=REPO, env=env, capture_output=True,
                              text=True, timeout=120)
    assert run("memory", "never", "add", "my", "ex").returncode == 0
    assert run("memory", "never", "add", "健康").returncode == 0
    listed = run("memory", "never", "list", "--json")
    assert [r["text"] for r in json.loads(listed.stdout)] == ["my ex", "健康"]
    assert run("memory", "never", "remove", "健康").returncode == 0
    assert "never:     1 never-remember rule(s)" in run("status").stdout
    bad = run("memory", "never", "sing")
    assert bad.returncode == 2 and "Unknown action 'sing'" in bad.stderr
    empty = run("memory", "never", "add")
    assert empty.returncode == 2 and "The rule is empty" in empty.stderr
    gone = run("memory", "never", "remove", "nothing-like-it")
    assert gone.returncode == 2 and "no never-remember rule" in gone.stderr
    off = run("chat", "--off-record", "--persona", "nobody", "-m", "my secret")  # kept, off the record, and said
    assert off.returncode == 2 and "no surface persona 'nobody'" in off.stderr
    assert list((home / "logs").glob("*.jsonl")) == [] and list((home / "off_record").glob("*.jsonl"))


def test_an_off_record_message_can_be_deleted_like_any_other(ollama, home, capsys):
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "--off-record", "-m", SECRET]) == 0
    [hit] = run_json(capsys, "search", "Hanamaru")
    deleted = run_json(capsys, "message", "delete", hit["id"], "--yes")
    assert deleted["log_lines"] == 1
    assert run_json(capsys, "search", "Hanamaru") == []


def test_an_off_record_reply_cannot_be_rated(ollama, home, capsys):
    """A rating changes memory (a 👎 sends what the reply relied on to review): not from off the record."""
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "--off-record", "-m", SECRET]) == 0
    reply = next(h for h in run_json(capsys, "search", "Hello") if h["role"] == "assistant")
    assert cli.main(["rate", reply["id"], "down"]) == 2
    assert "said off the record cannot be rated" in capsys.readouterr().err


def test_offrecord_on_and_off_at_the_interactive_prompt(ollama, home, monkeypatch, capsys):
    import io

    class Typed(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.setattr(sys, "stdin", Typed(f"/offrecord on\n{SECRET}\n/offrecord off\nI had ramen\n"))
    assert cli.main([*OLLAMA, "chat", "--persona", "hana"]) == 0
    assert "Off the record: no flush reads" in capsys.readouterr().out
    logged = "".join(p.read_text() for p in (home / "logs").glob("*.jsonl"))
    assert "I had ramen" in logged and "Hanamaru" not in logged
    assert "Hanamaru" in "".join(p.read_text() for p in (home / "off_record").glob("*.jsonl"))
