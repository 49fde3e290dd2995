"""SIGKILL the flush process at points before and after the commit, rerun it later, compare every table.

Nothing lost, nothing doubled: killed before the commit, nothing changed and the
rerun (at a later clock) ends exactly as an uninterrupted flush at that clock;
killed after it, the database is already the uninterrupted flush's and the
rerun only finishes the clean-up (memory.md, the log files), changing no row.
Every table is compared (memory_events, the kv state, the FTS index included),
and the files in the home folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.flush import kill_flush

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# Columns that measure the machine or what the run cost, not the flush's outcome: a rerun pays only
# for the answers the killed run had not kept, so its tokens and usage are rightly smaller.
VOLATILE = {("flush_runs", "duration_s"), ("flush_answers", "created_epoch"), ("flush_runs", "tokens"),
            ("flush_runs", "usage")}
REBUILT_LINE = re.compile(r"_Rebuilt [0-9-]+ [0-9:]+\.")


def run_script(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MONCHAT_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    return subprocess.run([sys.executable, "-m", "tests.flush.kill_flush", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def tables(home: Path) -> dict:
    """Every row of every table, read straight from the file (volatile columns left out)."""
    conn = sqlite3.connect(home / "monchat.db")
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        state = {}
        for name in names:
            cursor = conn.execute(f'SELECT * FROM "{name}"')
            columns = [c[0] for c in cursor.description]
            keep = [n for n, c in enumerate(columns) if (name, c) not in VOLATILE]
            state[name] = sorted((tuple(row[n] for n in keep) for row in cursor.fetchall()), key=repr)
        return state
    finally:
        conn.close()


def files(home: Path) -> list[str]:
    """The files a user sees in the home folder (the database's own files aside)."""
    return sorted(str(p.relative_to(home)) for p in home.rglob("*")
                  if p.is_file() and not p.name.startswith("monchat.db"))


def dump(home: Path) -> dict:
    memory_md = home / "memory.md"
    return {"tables": tables(home), "files": files(home),
            "memory.md": memory_md.read_text(encoding="utf-8") if memory_md.exists() else None}


def not_counting_kept_answers(state: dict) -> dict:
    """``state`` without what a flush keeps before its commit on purpose: the model answers it paid
    for (so a rerun does not ask again) and its cross-process lock file."""
    return {**state, "tables": {k: v for k, v in state["tables"].items() if k != "flush_answers"},
            "files": [f for f in state["files"] if f != "flush.lock"]}


def same_but_the_stamp(markdown: str) -> str:
    return REBUILT_LINE.sub("_Rebuilt (when)._", markdown)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("kill") / "prepared"
    done = run_script(home, "prepare")
    assert done.returncode == 0, done.stderr
    return home


def _uninterrupted(prepared: Path, home: Path, at: str) -> dict:
    shutil.copytree(prepared, home)
    done = run_script(home, "flush", "--at", at)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["run_id"] == 2
    return dump(home)


@pytest.fixture(scope="module")
def uninterrupted(prepared, tmp_path_factory) -> dict:
    """The flush as it would have ended at the killed run's clock."""
    return _uninterrupted(prepared, tmp_path_factory.mktemp("kill") / "uninterrupted", kill_flush.FLUSHED_AT)


@pytest.fixture(scope="module")
def uninterrupted_later(prepared, tmp_path_factory) -> dict:
    """The flush as it ends at the rerun's clock."""
    return _uninterrupted(prepared, tmp_path_factory.mktemp("kill") / "later", kill_flush.RERUN_AT)


def test_the_uninterrupted_flush_is_the_story_of_the_week(uninterrupted):
    state = {row[1]: row for row in uninterrupted["tables"]["memories"]}
    columns = ["id", "text", "slot", "kind", "state"]
    by_text = {text: dict(zip(columns, row)) for text, row in state.items()}
    assert by_text["仙台に住んでいる"]["state"] == "active"
    assert by_text["金沢に住んでいる"]["state"] == "queued"  # it would replace an active Layer 1 memory
    assert by_text["ギターを練習する"]["state"] == "active"  # three different days
    assert by_text["Rustを勉強したい"]["state"] == "retracted"
    assert "犬を飼っている" not in state  # only the assistant said it
    logged = len(kill_flush.FIRST_DAY) + len(kill_flush.REST_OF_WEEK)
    assert len(uninterrupted["tables"]["messages"]) == logged
    assert not [f for f in uninterrupted["files"] if f.startswith("logs/")]
    assert uninterrupted["tables"]["memory_events"]  # compared below like every other table


def test_the_uninterrupted_flush_depends_on_its_clock(uninterrupted, uninterrupted_later):
    # Otherwise the later clock of the reruns below would prove nothing.
    assert uninterrupted["tables"]["memories"] != uninterrupted_later["tables"]["memories"]


@pytest.mark.parametrize("point", kill_flush.KILL_POINTS)
def test_a_killed_flush_then_a_later_rerun_ends_like_an_uninterrupted_one(point, prepared, uninterrupted,
                                                                          uninterrupted_later, tmp_path):
    home = tmp_path / point
    shutil.copytree(prepared, home)
    before = dump(home)
    logs_before = [f for f in before["files"] if f.startswith("logs/")]
    assert len(logs_before) >= 3

    killed = run_script(home, "flush", "--kill-at", point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    after_kill = dump(home)
    logs_after_kill = [f for f in after_kill["files"] if f.startswith("logs/")]
    committed = point in kill_flush.AFTER_COMMIT
    if committed:  # the database is the uninterrupted flush's; only the clean-up is unfinished
        assert after_kill["tables"] == uninterrupted["tables"]
        assert logs_after_kill == (logs_before[1:] if point == "logs" else logs_before)
        # memory.md is replaced whole or not at all: rewritten before the first log file goes
        assert after_kill["memory.md"] == (uninterrupted if point == "logs" else before)["memory.md"]
    else:  # died before the commit: nothing changed but the model answers it had paid for
        assert not_counting_kept_answers(after_kill) == not_counting_kept_answers(before)
        kept = {row[0] for row in after_kill["tables"]["flush_answers"]}
        assert kept <= {row[0] for row in uninterrupted["tables"]["flush_answers"]}

    rerun = run_script(home, "flush", "--at", kill_flush.RERUN_AT)
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["nothing_to_flush"] is committed
    final = dump(home)
    if committed:  # the rerun changed no row; it wrote memory.md (at its own clock) and removed the logs
        assert final["tables"] == uninterrupted["tables"]
        assert final["files"] == uninterrupted["files"]
        assert same_but_the_stamp(final["memory.md"]) == same_but_the_stamp(uninterrupted["memory.md"])
    else:
        for table in uninterrupted_later["tables"]:
            assert final["tables"][table] == uninterrupted_later["tables"][table], table
        assert final == uninterrupted_later
    ids = [row[0] for row in final["tables"]["messages"]]
    assert len(ids) == len(set(ids)) == len(kill_flush.FIRST_DAY) + len(kill_flush.REST_OF_WEEK)
