"""A flush killed (SIGKILL) after some answers, run again, pays only for the calls it had not made.

``monchat flush`` runs as a user runs it, in its own process (filter calls in parallel, as
configured by default), against the loopback Ollama whose structured answers come from the
oracle. The server answers two calls and holds the rest; the process is killed while it waits;
the rerun must send only the requests never answered.
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


def kept_answers(home: Path) -> int:
    conn = sqlite3.connect(home / "monchat.db")
    try:
        return conn.execute("SELECT count(*) FROM flush_answers").fetchone()[0]
    finally:
        conn.close()


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
    server.faults = [None] * ANSWERED_BEFORE_KILL + [("stall", 30.0)] * reference  # the rest hang
    process = flush_process(home, server)
    try:
        deadline = time.monotonic() + 60
        while (kept_answers(home) < ANSWERED_BEFORE_KILL
               or len(structured(server)) - start <= ANSWERED_BEFORE_KILL):
            assert process.poll() is None, process.communicate()[1]
            assert time.monotonic() < deadline, "the flush never got two answers and asked a third"
            time.sleep(0.05)
    finally:
        process.kill()
        process.communicate()
    first_run = len(structured(server)) - start
    assert memories(home) == [] and kept_answers(home) == ANSWERED_BEFORE_KILL  # killed before its one commit
    server.faults = []

    report = flush(home, server)
    rerun = structured(server)[start + first_run:]

    assert len(rerun) == reference - ANSWERED_BEFORE_KILL  # the two answered requests were not sent again
    assert len({json.dumps(body, sort_keys=True) for body in rerun}) == len(rerun)
    assert memories(home) == memories(reference_home)  # and their kept answers did their part
    assert report["messages_archived"] == 2
