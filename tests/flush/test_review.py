"""The review queue stays true to the memories it is about.

A queued change is answered by the user or, past its deadline, returns to
candidate; it never confirms silently, and it never waits on a memory that is
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
    assert world.app.status()["review_queue"] == 0
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
