"""One meaning per verdict wherever it is applied; one statement retires every memory it replaces.

The flush applies a sure verdict; the review queue applies the verdict a user chooses for an unsure
one. Both go through the memory domain's transitions, so the same verdict ends in the same memory.
"""

from __future__ import annotations

import pytest

from tests.flush.conftest import Judgement, Rule

GREEN, GREEN_AGAIN, MERGED = "毎食緑茶を飲む", "緑茶をよく飲んでいる", "毎食よく緑茶を飲んでいる"


def snapshot(world) -> list[tuple]:
    """Every memory as content (ids differ between worlds; what they say, link and rest on must not)."""
    memories = {m.id: m for m in world.store.all()}
    epoch = world.clock().timestamp()
    return sorted((m.text, str(m.state), memories[m.superseded_by].text if m.superseded_by else None,
                   m.layer(epoch), m.kind, m.days, tuple(sorted(m.evidence)), m.contradictions,
                   round(m.confidence, 6), m.valid_at, m.invalid_at, bool(m.pinned))
                  for m in memories.values())


def _green_tea(world, kind: str, confidence: float) -> None:
    """Day 1 states a habit of green tea; day 3 says it again, and the judge calls it a MERGE."""
    world.oracle.rules = [Rule("緑茶を飲", GREEN, "drink/daily", kind, 0.9),
                          Rule("緑茶ばかり", GREEN_AGAIN, "drink/daily", kind, 0.9)]
    world.oracle.judgements = {(GREEN, GREEN_AGAIN): Judgement("MERGE", confidence, MERGED)}
    world.say("2026-11-23T12:00:00+09:00", "毎食、緑茶を飲んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T12:00:00+09:00", "最近も緑茶ばかり")
    world.flush("2026-11-25T22:00:00+09:00")


@pytest.mark.parametrize("kind", ["fact", "explicit"])
def test_a_merge_approved_in_review_ends_where_a_sure_merge_in_a_flush_does(make_world, kind):
    # "fact": the kept memory is a candidate, so a sure MERGE applies at once; "explicit": it is in
    # Layer 1, so even a sure MERGE waits for the user, who approves it.
    sure, unsure = make_world("sure"), make_world("unsure")
    _green_tea(sure, kind, 0.9)
    _green_tea(unsure, kind, 0.3)
    if kind == "explicit":
        [row] = sure.queue()
        assert row["action"] == "merge" and row["text"] == MERGED
        sure.memory.approve(str(row["id"]))
    [row] = unsure.queue()
    assert row["action"] == "judge" and row["verdict"] == "MERGE" and row["merged_text"] == MERGED
    unsure.memory.approve(str(row["id"]))

    assert snapshot(unsure) == snapshot(sure)
    merged = unsure.mem(MERGED)
    assert unsure.mem(GREEN).superseded_by == merged.id and unsure.mem(GREEN).state == "superseded"
    assert merged.days == 2 and merged.state == "active"  # the evidence of both statements, two days
    assert unsure.queue() == [] and sure.queue() == []
    assert MERGED in unsure.prompt() and GREEN not in unsure.prompt()
    assert unsure.prompt() == sure.prompt()


def test_merge_chosen_for_another_leaning_uses_both_wordings(world):
    world.oracle.rules = [Rule("緑茶を飲", GREEN, "drink/daily", "fact", 0.9),
                          Rule("緑茶ばかり", GREEN_AGAIN, "drink/daily", "fact", 0.9)]
    world.oracle.judgements = {(GREEN, GREEN_AGAIN): Judgement("SUPERSEDE", 0.3)}  # no merged wording
    world.say("2026-11-23T12:00:00+09:00", "毎食、緑茶を飲んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T12:00:00+09:00", "最近も緑茶ばかり")
    world.flush("2026-11-25T22:00:00+09:00")
    [row] = world.queue()
    world.memory.approve(str(row["id"]), verdict="merge")
    merged = world.memory.get(row["memory_id"])
    assert merged.text == f"{GREEN} / {GREEN_AGAIN}"  # as a flush words a MERGE the judge left unworded
    assert world.mem(GREEN).superseded_by == merged.id
    assert merged.days == 2 and sorted(merged.evidence) == sorted(world.said)
    actions = [e["action"] for e in world.memory.events(merged.id)]
    assert "merged" in actions and actions[-1] == "approved"


GYM, RUN, WALK = "ジムに通っている", "毎朝ランニングしている", "運動は散歩だけにしている"


def _exercise(world, gym_kind: str) -> None:
    world.oracle.rules = [Rule("ジム", GYM, "exercise/routine", gym_kind, 0.9),
                          Rule("ランニング", RUN, "exercise/routine", "fact", 0.9),
                          Rule("散歩だけ", WALK, "exercise/routine", "correction", 0.9)]
    world.oracle.judgements = {(GYM, WALK): Judgement("SUPERSEDE", 0.9), (RUN, WALK): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.say("2026-11-23T07:10:00+09:00", "毎朝ランニングもしてる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T19:00:00+09:00", "運動はもう全部やめて、今は散歩だけ")
    world.flush("2026-11-25T22:00:00+09:00")


def test_one_statement_supersedes_every_memory_it_replaces(world):
    _exercise(world, "fact")
    walk = world.mem(WALK)
    assert world.mem(GYM).superseded_by == walk.id and world.mem(GYM).state == "superseded"
    assert world.mem(RUN).superseded_by == walk.id and world.mem(RUN).state == "superseded"
    assert [m.text for m in world.store.live()] == [WALK]
    prompt = world.prompt()
    assert WALK in prompt and GYM not in prompt and RUN not in prompt
    assert [m.text for m in world.memory.history(walk.id)][-1] == WALK
    assert {m.text for m in world.memory.history(walk.id)} == {GYM, RUN, WALK}
    report = world.store.runs(1)[0]
    assert sorted(c["old_text"] for c in report["changes"] if c["kind"] == "superseded") == sorted([GYM, RUN])


def test_a_lasting_memory_among_those_replaced_still_waits_for_review(world):
    _exercise(world, "explicit")  # the gym was said outright: Layer 1 after one day
    walk = world.mem(WALK)
    assert world.mem(RUN).superseded_by == walk.id  # a candidate: replaced at once
    assert world.mem(GYM).superseded_by is None and world.mem(GYM).state == "active"
    [row] = world.queue()
    assert (row["action"], row["memory_id"], row["target_id"]) == ("supersede", walk.id, world.mem(GYM).id)

    world.memory.approve(str(row["id"]))
    assert world.mem(GYM).superseded_by == walk.id
    assert [m.text for m in world.store.live()] == [WALK]


def test_rejecting_the_lasting_part_keeps_it_and_the_new_memory(world):
    _exercise(world, "explicit")
    [row] = world.queue()
    world.memory.reject(str(row["id"]))
    assert world.mem(GYM).state == "active" and world.mem(GYM).superseded_by is None
    assert world.mem(WALK).state == "active"  # the statement itself was never in question
    assert world.mem(RUN).superseded_by == world.mem(WALK).id


def test_one_retraction_takes_back_every_memory_it_names(world):
    quit_both = "ジムもランニングもやめた"
    world.oracle.rules = [Rule("ジムに", GYM, "exercise/routine", "fact", 0.9),
                          Rule("毎朝ランニング", RUN, "exercise/routine", "fact", 0.9),
                          Rule("やめた", quit_both, "exercise/routine", "retraction", 0.9)]
    world.oracle.judgements = {(GYM, quit_both): Judgement("SUPERSEDE", 0.9),
                               (RUN, quit_both): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.say("2026-11-23T07:10:00+09:00", "毎朝ランニングもしてる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T19:00:00+09:00", "ジムもランニングもやめた")
    world.flush("2026-11-25T22:00:00+09:00")
    retraction = world.mem(quit_both)
    for text in (GYM, RUN):
        assert world.mem(text).state == "retracted" and world.mem(text).superseded_by == retraction.id
    assert world.store.live() == []
