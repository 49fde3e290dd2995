"""What prune writes down when Layer 2 ends, a memory decays or the cap puts it to sleep.

The outcome tests (test_consolidation.py) check states and the prompt; these check the row,
the event and the report a user reads in `memory history`, and the boundaries themselves.
Each failed a mutant of prune.py that left the outcome tests green (scripts/mutation).
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from monchat.core.types import format_ts
from tests.flush.conftest import Rule, at

QUIET, JOG = "猫アレルギーがある", "毎朝ジョギングする"


def events(world, memory_id: str) -> list[tuple]:
    return [(e["action"], json.loads(e["detail"]), e["run_id"], e["at"]) for e in world.store.events(memory_id)]


def test_a_memory_waiting_for_review_is_never_in_layer2_so_nothing_expires(world):
    world.oracle.rules = [Rule("猫", QUIET, "health/allergy", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.mem(QUIET).state == "queued" and world.layer(QUIET) == 0  # waiting means waiting (issue 45)

    world.say("2026-11-24T21:00:00+09:00", "今日は天気がいい")
    report = world.flush("2026-11-24T22:00:00+09:00")  # exactly 24 hours later
    memory = world.mem(QUIET)
    assert (memory.state, memory.layer2_until) == ("queued", None)  # still waiting, never in Layer 2
    assert all(e[0] != "expired" for e in events(world, memory.id)) and report.changes == []


def _jogging(world, confidence: float):
    world.settings.half_life_days = 10.0
    world.oracle.rules = [Rule("ジョギング", JOG, "health/running", "habit", confidence)]
    for day in ("23", "24", "25"):
        world.say(f"2026-11-{day}T07:00:00+09:00", "朝ジョギングした")
    world.flush("2026-11-25T08:00:00+09:00")
    assert world.mem(JOG).state == "active"


@pytest.mark.parametrize("days, state", [(30, "active"), (31, "dormant")])
def test_decay_puts_a_memory_to_sleep_only_below_the_floor_and_says_why(world, days, state):
    _jogging(world, 0.8)
    # 30 days after the last run: 0.8 × 0.5^(30/10) = 0.1 exactly, the floor itself: still awake
    when = format_ts(at("2026-11-25T07:00:00+09:00") + timedelta(days=days))
    world.say(when, "今日は天気がいい")
    report = world.flush(when)
    memory = world.mem(JOG)
    assert memory.state == state
    if state == "dormant":
        assert memory.updated_at == when
        assert ("dormant", {"reason": "decayed"}, report.run_id, when) in events(world, memory.id)
    else:
        assert "dormant" not in [c.kind for c in report.changes]


def test_the_cap_on_decaying_memories_says_why_and_stamps_the_one_put_to_sleep(world):
    world.oracle.rules = [Rule("ジョギング", JOG, "health/running", "habit", 0.9),
                          Rule("ストレッチ", "夜にストレッチする", "health/stretch", "habit", 0.8)]
    for day in ("23", "24", "25"):
        world.say(f"2026-11-{day}T07:00:00+09:00", "朝ジョギングした")
        world.say(f"2026-11-{day}T22:00:00+09:00", "夜にストレッチした")
    world.flush("2026-11-25T23:00:00+09:00")
    assert world.mem(JOG).state == world.mem("夜にストレッチする").state == "active"

    world.settings.layer1_cap = 1  # lowered by the user: the next flush applies it
    world.say("2026-11-26T21:00:00+09:00", "今日は天気がいい")
    report = world.flush("2026-11-26T22:00:00+09:00")
    when = format_ts(at("2026-11-26T22:00:00+09:00"))
    weaker = world.mem("夜にストレッチする")
    assert world.mem(JOG).state == "active" and weaker.state == "dormant"  # 0.8 < 0.9, as recent
    assert weaker.updated_at == when
    assert ("dormant", {"reason": "over the Layer 1 cap of 1"}, report.run_id, when) in events(world, weaker.id)


def test_between_equally_weak_memories_the_cap_puts_the_older_to_sleep(world):
    # The cap weighs confidence × recency: 0.9 said 30 days ago (recency 0.5) and 0.45 said just now
    # (recency 1) weigh the same, 0.45. The older evidence goes to sleep first (the ids of these two
    # sort the other way, so a tie broken by id alone would put the fresh one to sleep).
    old, fresh = "猫を二匹飼っている", "蕎麦アレルギーがある"
    world.oracle.rules = [Rule("猫", old, "pets/cat", "explicit", 0.9),
                          Rule("蕎麦", fresh, "health/allergy", "explicit", 0.45)]
    world.say("2026-11-01T09:00:00+09:00", "覚えておいて：猫を二匹飼ってる")
    world.say("2026-11-01T09:30:00+09:00", "覚えておいて：蕎麦アレルギー")
    world.flush("2026-11-01T10:00:00+09:00")
    world.memory.approve(world.mem(fresh).id)  # 0.45: approved by the user
    assert world.mem(old).state == world.mem(fresh).state == "active"

    world.settings.layer1_cap = 1
    world.say("2026-12-01T09:00:00+09:00", "覚えておいて：蕎麦アレルギー")  # the same words: reinforced
    world.flush("2026-12-01T09:00:00+09:00")  # the soba line was said this very moment: recency 1
    assert world.mem(fresh).last_evidence_epoch == at("2026-12-01T09:00:00+09:00").timestamp()
    assert (world.mem(old).state, world.mem(fresh).state) == ("dormant", "active")
