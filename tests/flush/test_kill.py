"""SIGKILL the flush process at several points, rerun it, and compare with an uninterrupted flush.

Nothing lost, nothing doubled: the same memories (ids, text, state,
supersession), the same evidence ledger, every message archived exactly once,
no log file left, the same memory.md.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

from tests.flush import kill_flush

ROOT = Path(__file__).resolve().parents[2]


def run_script(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MONCHAT_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    return subprocess.run([sys.executable, "-m", "tests.flush.kill_flush", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def dump(home: Path) -> dict:
    """The state that must match, read straight from the files."""
    conn = sqlite3.connect(home / "monchat.db")
    try:
        q = lambda sql: [tuple(r) for r in conn.execute(sql).fetchall()]  # noqa: E731
        return {
            "memories": q("SELECT id, text, slot, kind, state, confidence, pinned, contradictions, valid_at, "
                          "invalid_at, superseded_by, superseded_at, layer2_until, last_evidence_epoch "
                          "FROM memories ORDER BY id"),
            "evidence": q("SELECT memory_id, message_id, day, session, kind, contradicts, run_id, persona "
                          "FROM evidence ORDER BY memory_id, message_id"),
            "messages": q("SELECT id, ts, role, text, day, session FROM messages ORDER BY id"),
            "queue": q("SELECT memory_id, action, target_id, status, deadline_epoch FROM review_queue ORDER BY id"),
            "verdicts": q("SELECT run_id, memory_id, target_id, verdict, confidence, applied FROM verdicts "
                          "ORDER BY id"),
            "runs": q("SELECT id, seed, personas, items, promoted, llm_calls, messages_archived FROM flush_runs "
                      "ORDER BY id"),
            "prompt": q("SELECT value FROM kv WHERE key LIKE 'memory.%' ORDER BY key"),
            "memory.md": (home / "memory.md").read_text(encoding="utf-8"),
            "logs": sorted(p.name for p in (home / "logs").glob("*.jsonl")),
        }
    finally:
        conn.close()


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("kill") / "prepared"
    done = run_script(home, "prepare")
    assert done.returncode == 0, done.stderr
    return home


@pytest.fixture(scope="module")
def uninterrupted(prepared, tmp_path_factory) -> dict:
    home = tmp_path_factory.mktemp("kill") / "uninterrupted"
    shutil.copytree(prepared, home)
    done = run_script(home, "flush")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["run_id"] == 2
    return dump(home)


def test_the_uninterrupted_flush_is_the_story_of_the_week(uninterrupted):
    state = {row[1]: row for row in uninterrupted["memories"]}
    assert state["仙台に住んでいる"][4] == "active"
    assert state["金沢に住んでいる"][4] == "queued"  # it would replace an active Layer 1 memory
    assert state["ギターを練習する"][4] == "active"  # three different days
    assert state["毎食緑茶を飲む"][10] == state["麦茶に切り替えた"][0]  # superseded directly
    assert state["Rustを勉強したい"][4] == "retracted"
    assert "犬を飼っている" not in state  # only the assistant said it
    logged = len(kill_flush.FIRST_DAY) + len(kill_flush.REST_OF_WEEK)
    assert len(uninterrupted["messages"]) == logged
    assert uninterrupted["logs"] == []


@pytest.mark.parametrize("point", kill_flush.KILL_POINTS)
def test_a_killed_flush_then_a_rerun_ends_like_an_uninterrupted_one(point, prepared, uninterrupted, tmp_path):
    home = tmp_path / point
    shutil.copytree(prepared, home)
    before = dump(home)

    killed = run_script(home, "flush", "--kill-at", point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    after_kill = dump(home)
    if point == "committed":  # the commit happened: only the clean-up is left
        assert after_kill["memories"] == uninterrupted["memories"]
        assert after_kill["logs"] == before["logs"] and after_kill["memory.md"] == before["memory.md"]
    else:  # died before the commit: nothing changed at all
        assert after_kill == before

    rerun = run_script(home, "flush")
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["nothing_to_flush"] is (point == "committed")
    final = dump(home)
    for key in uninterrupted:
        assert final[key] == uninterrupted[key], key
    ids = [row[0] for row in final["messages"]]
    assert len(ids) == len(set(ids)) == len(kill_flush.FIRST_DAY) + len(kill_flush.REST_OF_WEEK)
