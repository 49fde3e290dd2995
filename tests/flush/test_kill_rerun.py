"""A flush killed (SIGKILL) after some answers, run again, pays only for the calls it had not made.

``monchat flush`` runs as a user runs it, in its own process, against the loopback Ollama whose
structured answers come from the oracle. The server answers two calls and holds the third; the
process is killed while it waits; the rerun must send only the requests never answered.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.flush.conftest import World
from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle, Rule

pytestmark = pytest.mark.slow

ANSWERED_BEFORE_KILL = 2


@pytest.fixture
def server():
    oracle = Oracle([Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9),
                     Rule("ギター", "ギターをよく練習する", "hobby/guitar", "habit", 0.85,
                          persona="lifestyle")])
    with running_oracle_ollama(oracle) as srv:
        yield srv


def prepare(home: Path) -> Path:
    """A home with a day of logs, written as ChatService writes them (JST slots)."""
    world = World(home)
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：仙台に住んでる")
    world.say("2026-11-23T21:05:00+09:00", "今夜はギターを1時間練習した")
    world.app.store.close()
    return home


def flush_process(home: Path, server) -> subprocess.Popen:
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "JST-9", "OLLAMA_HOST": server.url,
           "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    return subprocess.Popen([sys.executable, "-m", "monchat", "--backend", "ollama", "--model", "llama3.2",
                             "flush", "--json", "--seed", "7"], env=env, cwd=home.parent,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def flush(home: Path, server) -> dict:
    process = flush_process(home, server)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return json.loads(out)


def structured(server) -> list[dict]:
    return [r["body"] for r in server.chat_requests() if "format" in r["body"]]


def memories(home: Path) -> list[tuple]:
    conn = sqlite3.connect(home / "monchat.db")
    try:
        return conn.execute("SELECT text, slot, state FROM memories ORDER BY text").fetchall()
    finally:
        conn.close()


def test_a_killed_flush_run_again_does_not_re_ask_what_was_answered(tmp_path, server):
    reference_home = prepare(tmp_path / "reference")
    flush(reference_home, server)
    reference = len(structured(server))
    assert reference > ANSWERED_BEFORE_KILL + 1 and memories(reference_home)

    home = prepare(tmp_path / "killed")
    start = len(structured(server))
    server.faults = [None] * ANSWERED_BEFORE_KILL + [("stall", 30.0)]  # the third call hangs
    process = flush_process(home, server)
    try:
        deadline = time.monotonic() + 60
        while len(structured(server)) - start <= ANSWERED_BEFORE_KILL:
            assert process.poll() is None, process.communicate()[1]
            assert time.monotonic() < deadline, "the flush never reached its third call"
            time.sleep(0.05)
    finally:
        process.kill()
        process.communicate()
    answered = structured(server)[start:start + ANSWERED_BEFORE_KILL]
    assert memories(home) == []  # killed before its one commit

    report = flush(home, server)
    rerun = structured(server)[start + ANSWERED_BEFORE_KILL + 1:]

    assert len(rerun) == reference - ANSWERED_BEFORE_KILL
    assert not [body for body in rerun if body in answered]
    assert memories(home) == memories(reference_home)
    assert report["messages_archived"] == 2
