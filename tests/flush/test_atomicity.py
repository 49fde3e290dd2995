"""A flush changes everything or nothing: dry runs, nothing to flush, backend errors, cancel."""

from __future__ import annotations

import threading

import pytest

from monchat.core.errors import BackendUnreachable, KnownError
from monchat.core.flush.records import FlushCancelled
from tests.flush.conftest import Judgement, Rule

TABLES = ("messages", "memories", "evidence", "review_queue", "flush_runs", "verdicts", "memory_events", "kv")
SENDAI, KANAZAWA, LATE = "仙台に住んでいる", "金沢に住んでいる", "最近よく眠れない"


def snapshot(world) -> dict:
    """Everything a flush could change: every row, the log files, memory.md."""
    db = world.app.store.db
    state = {t: [tuple(r) for r in db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()] for t in TABLES}
    state["logs"] = {p.name: p.read_bytes() for p in sorted(world.app.paths.logs_dir.glob("*.jsonl"))}
    md = world.app.paths.memory_md
    state["memory.md"] = md.read_bytes() if md.exists() else None
    return state


@pytest.fixture
def pending_world(world):
    """Sendai is remembered; Kanazawa and a sleepless night wait in the logs."""
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9),
                          Rule("眠れ", LATE, "health/sleep", "habit", 0.7, persona="lifestyle")]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-28T01:00:00+09:00", "最近よく眠れないんだ")
    world.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    world.clock.now = world.clock.now.replace(day=29, hour=20)
    return world


def test_dry_run_writes_nothing_and_shows_the_proposed_changes(pending_world, capsys):
    world = pending_world
    before = snapshot(world)
    assert before["logs"] and before["memory.md"] is not None

    report = world.flusher.run(dry_run=True, seed=7)
    assert report.dry_run and report.run_id is None
    assert report.queued == 1 and report.promoted["layer2"] >= 1
    proposed = sorted((c.kind, c.text) for c in report.changes)
    assert ("queued", KANAZAWA) in proposed and ("new", LATE) in proposed
    assert snapshot(world) == before

    out = world.cli(capsys, "flush", "--dry-run", "--seed", "7")
    assert out.startswith("Dry run — nothing was written.") and KANAZAWA in out
    data = world.cli_json(capsys, "flush", "--dry-run", "--seed", "7")
    assert data["dry_run"] is True and data["queued"] == 1
    assert snapshot(world) == before

    real = world.flusher.run(seed=7)  # what the dry run proposed is what happens
    assert sorted((c.kind, c.text) for c in real.changes) == proposed
    assert world.mem(KANAZAWA).state == "queued" and world.log_files() == []


def test_dry_run_before_any_flush_leaves_no_memory_file(world):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    before = snapshot(world)
    assert before["memory.md"] is None
    report = world.flush("2026-11-23T22:00:00+09:00", dry_run=True)
    assert [c.kind for c in report.changes][:2] == ["new", "layer1"]
    assert snapshot(world) == before
    assert world.app.chat.gate().unflushed_files == 1


def test_nothing_to_flush_says_so(world, capsys):
    assert world.cli(capsys, "flush") == "Nothing to flush: no new messages in the logs.\n"
    data = world.cli_json(capsys, "flush")
    assert data["nothing_to_flush"] is True and data["llm_calls"] == 0 and data["gate"] == "ok"
    assert world.oracle.json_calls == 0
    assert world.rows("flush_runs") == []

    world.say("2026-11-23T21:10:00+09:00", "こんばんは")
    assert world.flush("2026-11-23T22:00:00+09:00").nothing_to_flush is False
    assert world.flush().nothing_to_flush is True


@pytest.mark.parametrize("failing", ["filter", "judge"])
def test_a_backend_error_changes_nothing_and_keeps_the_logs(pending_world, failing):
    world = pending_world
    before = snapshot(world)
    calls, failed = [], []

    def fail(n, kind):  # the second filter call fails, or the judge's (the diary's may run beside them)
        calls.append(kind)
        if kind == failing and (kind == "judge" or calls.count("filter") == 2):
            failed.append(kind)
            raise BackendUnreachable("Ollama is not running at http://127.0.0.1:9.", "Start it with `ollama serve`.")

    world.oracle.on_call = fail
    with pytest.raises(KnownError) as raised:
        world.flusher.run(seed=7)
    assert isinstance(raised.value, BackendUnreachable) and raised.value.hint
    assert failed == [failing]
    assert snapshot(world) == before
    assert world.app.chat.gate().unflushed_files == 2

    world.oracle.on_call = None  # the backend is back: the same logs flush as if nothing happened
    report = world.flusher.run(seed=7)
    assert report.messages_archived == 2 and world.log_files() == []


@pytest.mark.parametrize("where", ["second LLM call", "judge progress", "consolidate progress", "rebuild progress"])
def test_cancel_raises_flush_cancelled_and_changes_nothing(pending_world, where):
    world = pending_world
    before = snapshot(world)
    cancel = threading.Event()
    start = world.oracle.json_calls

    def on_call(n, kind):
        if where == "second LLM call" and n == start + 2:
            cancel.set()

    def progress(p):
        if where == f"{p.stage} progress":
            cancel.set()

    world.oracle.on_call = on_call
    with pytest.raises(FlushCancelled) as raised:
        world.flusher.run(seed=7, cancel=cancel, progress=progress)
    assert isinstance(raised.value, KnownError)
    assert snapshot(world) == before

    world.oracle.on_call = None
    assert world.flusher.run(seed=7).messages_archived == 2
