"""What a flush records and how it selects its personas; messages written during a flush are not lost."""

from __future__ import annotations

import threading

import pytest

from monchat.core.errors import KnownError, MalformedReply
from monchat.core.flush.records import FlushIncomplete
from monchat.core.personas.library import FilterPersona
from tests.flush.conftest import SEED, Rule


def test_personas_are_base_two_fixed_and_one_drawn_with_a_recorded_seed(world):
    world.app.personas.save_filter(FilterPersona(
        "travel", "旅人格 (travel)", "trips and places", ["trips the user takes"], ["everything else"], 2))
    plans = {seed: world.flusher.plan(seed=seed).personas for seed in range(12)}
    for personas in plans.values():
        assert [p["role"] for p in personas] == ["base", "fixed", "fixed", "random"]
        assert [p["id"] for p in personas[:3]] == ["base", "lifestyle", "project"]
    drawn = {seed: personas[3]["id"] for seed, personas in plans.items()}
    assert set(drawn.values()) == {"emotional", "travel"}  # the rest of the pool, by the seed
    assert all(world.flusher.plan(seed=s).personas[3]["id"] == d for s, d in drawn.items())  # same seed, same draw

    world.settings.seed = -1  # a fresh seed per flush, recorded either way
    world.say("2026-11-23T21:00:00+09:00", "こんばんは")
    report = world.flusher.run()
    [run] = world.flusher.runs(1)
    assert isinstance(report.seed, int) and run["seed"] == report.seed
    assert run["personas"] == report.personas
    assert report.personas == world.flusher.plan(seed=report.seed).personas  # the recorded seed replays the draw
    assert {c["persona"] for c in world.oracle.filter_calls} == {p["id"] for p in report.personas}


def test_the_run_records_personas_items_verdicts_promotions_and_calls(world):
    world.oracle.rules = [Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    report = world.flush("2026-11-23T22:00:00+09:00")
    [run] = world.flusher.runs(1)
    assert run["id"] == report.run_id == 1 and run["seed"] == SEED
    assert run["items"]["base"][0]["text"] == "仙台に住んでいる" and run["items"]["project"] == []
    assert run["promoted"] == {"layer1": 1, "layer2": 0}
    assert run["llm_calls"] == report.llm_calls == 4 + 2 and run["tokens"] > 0  # filters, reflect, diary
    assert run["files"] == ["2026-11-23_18.jsonl"] and run["messages_archived"] == 1
    assert [c["kind"] for c in run["changes"]] == ["new", "layer1"]
    assert run["budget"]["included"] == 1 and run["errors"] == []


def test_a_malformed_answer_is_recorded_not_taken_for_nothing_found(world):
    world.oracle.rules = [Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9)]

    def malformed(n, kind):
        if n == 2:
            raise MalformedReply("The model's answer was not JSON.", "Try again.")

    world.oracle.on_call = malformed
    world.settings.parallel = 1  # one call at a time: the second call is the second persona's
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    # One message cannot be split smaller: that persona never read it, so the flush stops.
    with pytest.raises(FlushIncomplete):
        world.flush("2026-11-23T22:00:00+09:00")
    assert world.flusher.runs(1) == [] and world.log_files()
    # The same failure again, this time accepted. The other personas' answers were kept from the first
    # run and are not asked again, so the failing call is the only one the oracle sees: make it the 2nd.
    world.oracle.json_calls = 1
    report = world.flush("2026-11-23T22:00:00+09:00", accept_partial=True)
    assert len(report.errors) == 1 and "not JSON" in report.errors[0]
    assert world.flusher.runs(1)[0]["errors"] == report.errors
    assert len(report.unread) == 1 and list(report.unread.values())[0] == world.said
    assert world.mem("仙台に住んでいる").state == "active"  # the other personas' work stands


def test_a_message_written_during_the_flush_waits_for_the_next_one(world):
    world.oracle.rules = [Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    late = []

    def write_meanwhile(n, kind):
        if n == 1:  # the user keeps chatting while the filters read
            late.append(world.say("2026-11-23T21:50:00+09:00", "ところで明日は晴れるかな"))

    world.oracle.on_call = write_meanwhile
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.log_files() == ["2026-11-23_18.jsonl"]  # kept: it holds a message not yet archived
    assert late[0] not in world.app.archive.ids()

    world.oracle.on_call = None
    report = world.flush("2026-11-23T23:00:00+09:00")
    assert report.messages_archived == 1 and world.log_files() == []
    assert late[0] in world.app.archive.ids() and world.app.archive.count() == 2


def test_one_flush_at_a_time(world):
    world.say("2026-11-23T21:10:00+09:00", "こんばんは")
    inside, release = threading.Event(), threading.Event()

    def hold(n, kind):
        if n == 1:
            inside.set()
            release.wait(5)

    world.oracle.on_call = hold
    results = []
    thread = threading.Thread(target=lambda: results.append(world.flusher.run(seed=SEED)))
    thread.start()
    try:
        assert inside.wait(5)
        with pytest.raises(KnownError, match="already running"):
            world.flusher.run(seed=SEED)
    finally:
        release.set()
        thread.join(5)
    assert results and results[0].messages_archived == 1


def test_between_flushes_the_prompt_does_not_change(world):
    world.oracle.rules = [Rule("眠れ", "最近よく眠れない", "health/sleep", "habit", 0.7)]
    world.say("2026-11-23T21:30:00+09:00", "最近よく眠れないんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    prompt = world.prompt()
    assert "最近よく眠れない" in prompt
    world.clock.now = world.clock.now.replace(day=26)  # its 24 hours are over, but no flush ran
    assert world.prompt() == prompt  # byte-identical until the next flush (the cache stays warm)
