"""The review queue stays true to the memories it is about.

A queued change is answered by the user or, past its deadline, returns to
candidate (a proposed supersession: pending, ``test_feedback.py``); it never confirms silently, and it never waits on a memory that is
already history.
"""

from __future__ import annotations

from tests.flush.conftest import Judgement, Rule

SENDAI, KANAZAWA = "仙台に住んでいる", "金沢に住んでいる"


def _sendai(world, sendai_score: float):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", sendai_score),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")


def test_superseding_a_queued_memory_closes_its_review(world):
    _sendai(world, 0.6)  # below auto-approval: Sendai waits for review
    [row] = world.queue()
    assert row["memory_id"] == world.mem(SENDAI).id

    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")
    assert world.mem(SENDAI).superseded_by == world.mem(KANAZAWA).id  # not Layer 1: applied directly
    assert world.queue() == []  # nothing left to approve about a memory that is history
    assert world.app.status.report()["review_queue"] == 0
    assert world.rows("review_queue")[0]["status"] != "open"
    assert world.mem(SENDAI).state == "superseded"


def test_forgetting_the_target_of_a_queued_change_releases_the_proposal(world):
    _sendai(world, 0.9)
    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")
    assert world.mem(KANAZAWA).state == "queued"

    world.memory.forget(world.mem(SENDAI).id)
    assert world.queue() == []
    kanazawa = world.mem(KANAZAWA)
    assert kanazawa.state != "queued"  # not stuck waiting on a review that no longer exists
    assert kanazawa.state == "candidate"


def test_editing_the_target_of_a_queued_change_keeps_it_aimed_at_the_current_version(world):
    _sendai(world, 0.9)
    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")
    edited = world.memory.edit(world.mem(SENDAI).id, "仙台市青葉区に住んでいる")
    [row] = world.queue()
    assert row["target_id"] == edited.id

    world.memory.approve(str(row["id"]))
    assert world.memory.get(edited.id).superseded_by == world.mem(KANAZAWA).id
    assert [m.text for m in world.store.live()] == [KANAZAWA]
    prompt = world.prompt()
    assert KANAZAWA in prompt and "青葉区" not in prompt


GREEN, GREEN_AGAIN = "毎食緑茶を飲む", "緑茶をよく飲んでいる"


def _unsure_green(world, leaning: str):
    """Two days about green tea; the judge cannot decide how the second relates to the first."""
    world.oracle.rules = [Rule("緑茶を飲", GREEN, "drink/daily", "fact", 0.9),
                          Rule("緑茶ばかり", GREEN_AGAIN, "drink/daily", "fact", 0.9)]
    world.oracle.judgements = {(GREEN, GREEN_AGAIN): Judgement(leaning, 0.3)}
    world.say("2026-11-23T12:00:00+09:00", "毎食、緑茶を飲んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T12:00:00+09:00", "最近も緑茶ばかり")
    world.flush("2026-11-25T22:00:00+09:00")
    [row] = world.queue()
    assert row["action"] == "judge" and row["verdict"] == leaning
    return row


def test_approving_an_unsure_judgement_applies_the_judges_leaning(world):
    row = _unsure_green(world, "SAME")
    world.memory.approve(str(row["id"]))
    green = world.mem(GREEN)
    assert green.days == 2  # the second day now supports the kept memory
    folded = world.memory.get(row["memory_id"])
    assert folded.state == "superseded" and folded.superseded_by == green.id
    assert world.queue() == []


def test_the_user_can_approve_an_unsure_judgement_as_another_verdict(world):
    row = _unsure_green(world, "SUPERSEDE")
    world.memory.approve(str(row["id"]), verdict="COEXIST")
    assert world.mem(GREEN).superseded_by is None  # the judge's leaning was not applied
    assert world.memory.get(row["memory_id"]).state == "candidate"
    assert world.mem(GREEN).days == 1


def test_a_verdict_is_refused_for_a_review_that_is_not_a_judgement(world):
    import pytest

    from monchat.core.errors import InputError

    _sendai(world, 0.6)  # a Layer 1 promotion waits
    [row] = world.queue()
    with pytest.raises(InputError):
        world.memory.approve(str(row["id"]), verdict="SAME")
