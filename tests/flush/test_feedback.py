"""The feedback loop (issue 14): 👍/👎 on memories and replies, access reinforcement, review learning,
and an expired supersession set aside as pending — each through the real flush with the oracle backend."""

from __future__ import annotations

import json

import pytest

from monchat.core.errors import InputError, NotFound
from monchat.core.memory import learning, reliance
from monchat.core.memory.rules import effective_confidence
from tests.flush.conftest import Judgement, Rule, at

ALLERGY = "猫アレルギーがある"
SENDAI, KANAZAWA = "仙台に住んでいる", "金沢に住んでいる"


def _two_kept(world):
    """Two lasting memories (explicit, said outright: Layer 1 on one day)."""
    world.oracle.rules = [Rule("猫", ALLERGY, "health/allergy", "explicit", 0.9),
                          Rule("仙台", SENDAI, "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.say("2026-11-23T21:01:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.layer(ALLERGY) == world.layer(SENDAI) == 1


def _reply(world, when: str, user: str, reply: str):
    """One real chat turn (ChatService) at ``when``: the reply's log line names its prompt's memory."""
    world.clock.now = at(when)
    world.oracle.chat_reply = reply
    return world.app.chat.send(user).reply


# ---- 👍/👎 on a memory ---------------------------------------------------------------
def test_rating_a_memory_down_lowers_its_confidence_and_sends_it_to_review(world):
    _two_kept(world)
    allergy = world.mem(ALLERGY)
    result = world.memory.rate(allergy.id, "down")
    memory = world.mem(ALLERGY)
    assert memory.confidence == pytest.approx(0.45)  # 0.9 × DOWN_FACTOR
    assert memory.state == "queued" and f"- {ALLERGY}" not in world.prompt()
    [row] = world.queue()
    assert (row["id"], row["memory_id"], row["action"]) == (result["review"], allergy.id, "rated")
    assert world.memory.rating(allergy.id) == "down"

    world.memory.rate(allergy.id, "down")  # idempotent: the same rating again changes nothing more
    assert world.mem(ALLERGY).confidence == pytest.approx(0.45) and len(world.queue()) == 1

    world.say("2026-11-24T10:00:00+09:00", "天気が崩れそう")  # a flush later the rating still holds
    world.flush("2026-11-24T11:00:00+09:00")
    assert world.mem(ALLERGY).confidence == pytest.approx(0.45) and world.mem(ALLERGY).state == "queued"

    world.memory.approve(str(row["id"]))  # the user keeps it: lasting again, at the lowered confidence
    assert world.layer(ALLERGY) == 1 and world.mem(ALLERGY).confidence == pytest.approx(0.45)


def test_clearing_a_memory_rating_undoes_it(world):
    _two_kept(world)
    allergy = world.mem(ALLERGY).id
    world.memory.rate(allergy, "down")
    world.memory.rate(allergy, "none")
    memory = world.mem(ALLERGY)
    assert (memory.confidence, memory.state, world.memory.rating(allergy)) == (0.9, "active", "")
    assert world.queue() == [] and world.rows("review_queue")[0]["status"] == "withdrawn"
    assert f"- {ALLERGY}" in world.prompt()

    world.memory.rate(allergy, "up")
    world.memory.rate(allergy, "down")  # re-rating replaces: the 👍's boost is undone, then the 👎 applied
    memory = world.mem(ALLERGY)
    assert (memory.boost, memory.confidence, memory.state) == (1.0, pytest.approx(0.45), "queued")


def test_a_memory_that_is_history_cannot_be_rated(world):
    _two_kept(world)
    old = world.mem(SENDAI).id
    world.memory.edit(old, "仙台市に住んでいる")
    with pytest.raises(InputError):
        world.memory.rate(old, "up")
    with pytest.raises(InputError):
        world.memory.rate(world.mem("仙台市に住んでいる").id, "sideways")


def test_thumbs_up_extends_the_half_life_through_the_flush(make_world):
    """A fact decays; the same week later the rated one is still lasting, the unrated one went dormant."""
    worlds = [make_world("rated"), make_world("unrated")]
    for world in worlds:
        world.settings.half_life_days = 2.0
        world.oracle.rules = [Rule("緑茶", "毎食緑茶を飲む", "drink/daily", "fact", 0.9)]
        world.oracle.judgements = {("毎食緑茶を飲む", "毎食緑茶を飲む"): Judgement("SAME", 0.95)}
        world.say("2026-11-23T12:00:00+09:00", "毎食、緑茶を飲んでる")
        world.flush("2026-11-23T22:00:00+09:00")
        world.say("2026-11-24T12:00:00+09:00", "今日も緑茶")
        world.flush("2026-11-24T22:00:00+09:00")
        assert world.layer("毎食緑茶を飲む") == 1
    rated, unrated = worlds
    rated.memory.rate(rated.mem("毎食緑茶を飲む").id, "up")
    assert (unrated.mem("毎食緑茶を飲む").boost, rated.mem("毎食緑茶を飲む").boost) == (2.0, 4.0)  # +1 evidence, +2 👍
    for world in worlds:  # 13.6 days without support, each boost 16.4/30 of the way back to 1×:
        world.say("2026-12-08T11:00:00+09:00", "天気が崩れそう")  # 0.9 × 0.5^(13.6 / (2 × 1.55)) = 0.04 < 0.1,
        world.flush("2026-12-08T12:00:00+09:00")  # rated: 0.9 × 0.5^(13.6 / (2 × 2.64)) = 0.15
    assert unrated.mem("毎食緑茶を飲む").state == "dormant"
    assert rated.mem("毎食緑茶を飲む").state == "active" and "毎食緑茶を飲む" in rated.prompt()


# ---- 👍/👎 on a reply ------------------------------------------------------------------
def test_a_reply_rated_down_lowers_only_the_memories_it_relied_on(world, capsys):
    _two_kept(world)
    reply = _reply(world, "2026-11-24T09:00:00+09:00", "週末どこ行こう",
                   "猫アレルギーがあるなら、猫カフェはやめておこうね。")
    assert reply.memory_revision == world.memory.revision()  # the log line names the prompt it was written with

    out = world.cli_json(capsys, "rate", reply.id, "down")
    assert out["relied_on"] == [world.mem(ALLERGY).id]
    assert set(out["in_prompt"]) == {world.mem(ALLERGY).id, world.mem(SENDAI).id}
    assert world.mem(ALLERGY).confidence == pytest.approx(0.675)  # 0.9 × REPLY_DOWN_FACTOR
    assert world.mem(SENDAI).confidence == 0.9  # in the prompt, but the reply did not use it
    assert world.mem(ALLERGY).state == "active"  # a reply's 👎 asks no review

    world.flush("2026-11-24T10:00:00+09:00")  # the reply is archived under the same id: the rating survives
    assert world.app.feedback.rating("message", reply.id) == "down"
    assert world.rows("messages", "ts_epoch")[-1]["memory_revision"] == reply.memory_revision
    assert world.mem(ALLERGY).confidence == pytest.approx(0.675)

    world.cli(capsys, "rate", reply.id, "none")  # undone after the flush too
    assert world.mem(ALLERGY).confidence == 0.9 and world.app.feedback.rating("message", reply.id) == ""


def test_a_reply_rated_up_lengthens_the_half_life_of_what_it_relied_on(world):
    _two_kept(world)
    reply = _reply(world, "2026-11-24T09:00:00+09:00", "週末どこ行こう", "仙台に住んでいるなら、松島はどう？")
    result = world.app.feedback.rate_message(reply.id, "up")
    assert result["relied_on"] == [world.mem(SENDAI).id]
    assert world.mem(SENDAI).boost == pytest.approx(1.0 + reliance.REPLY_UP_STEP)
    assert world.mem(ALLERGY).boost == 1.0


def test_only_replies_can_be_rated_and_unknown_ids_are_not_found(world):
    _two_kept(world)
    user_id = world.say("2026-11-24T09:00:00+09:00", "こんにちは")
    with pytest.raises(InputError):
        world.app.feedback.rate_message(user_id, "down")
    with pytest.raises(NotFound):
        world.app.feedback.rate_message("nope", "down")


# ---- access reinforcement ----------------------------------------------------------------
def test_a_reply_that_used_a_memory_boosts_it_at_the_flush(world):
    _two_kept(world)
    _reply(world, "2026-11-24T09:00:00+09:00", "週末どこ行こう", "仙台に住んでいるなら、松島はどう？")
    world.flush("2026-11-24T10:00:00+09:00")
    assert world.mem(SENDAI).boost == pytest.approx(1.0 + reliance.USE_STEP)  # relied on in a reply
    assert world.mem(ALLERGY).boost == 1.0  # in the prompt, not used


def test_reinforcement_is_capped_at_ten_times_and_decays_back_over_thirty_days(world):
    world.oracle.rules = [Rule("緑茶", "毎食緑茶を飲む", "drink/daily", "fact", 0.9)]
    world.oracle.judgements = {("毎食緑茶を飲む", "毎食緑茶を飲む"): Judgement("SAME", 0.95)}
    for n in range(12):  # twelve flushes in one evening, each with new evidence
        world.say(f"2026-11-23T18:{n:02d}:00+09:00", f"緑茶をまた飲んだ ({n})")
        world.flush(f"2026-11-23T18:{n:02d}:30+09:00")
        if n == 3:
            assert world.mem("毎食緑茶を飲む").boost == pytest.approx(4.0, abs=0.01)  # created, then +1 per reinforcement
    memory = world.mem("毎食緑茶を飲む")
    assert memory.boost == reliance.BOOST_CAP == 10.0
    start = memory.boost_epoch
    assert reliance.boost_now(memory.boost, start, start + 15 * 86400) == pytest.approx(5.5)  # half-way back
    assert reliance.boost_now(memory.boost, start, start + 30 * 86400) == 1.0
    assert reliance.boost_now(memory.boost, start, start + 90 * 86400) == 1.0
    # Decay is slower by the boost: half-life 90 days × 10 at the moment of the last reinforcement.
    now = at("2026-11-23T18:11:30+09:00")
    memory.last_evidence_epoch = now.timestamp() - 90 * 86400
    assert effective_confidence(memory, now, 90.0) == pytest.approx(0.9 * 0.5 ** 0.1)


# ---- review learning ---------------------------------------------------------------------
def _queued_then(world, n: int, text: str, slot: str, score: float, decide: str | None) -> None:
    world.oracle.rules = [Rule(f"話{n}", text, slot, "explicit", score)]
    world.say(f"2026-11-2{3 + n}T21:00:00+09:00", f"覚えておいて、{text}")
    world.flush(f"2026-11-2{3 + n}T22:00:00+09:00")
    if decide:
        [row] = world.queue()
        getattr(world.memory, decide)(str(row["id"]))


PARTS = ("sleep", "diet", "eyes", "skin")  # slots of words: "health/item0" is a numbered placeholder the guard drops


def test_approvals_lower_the_threshold_for_their_topic_within_bounds_and_reset_undoes_it(world, capsys):
    for n in range(4):  # four Layer 1 proposals about health the user approved
        _queued_then(world, n, f"健康の話{n}", f"health/{PARTS[n]}", 0.6, "approve")
    [entry] = learning.summary(world.app.store, world.settings.auto_approve_confidence)
    assert (entry["topic"], entry["action"], entry["approved"], entry["rejected"]) == ("health", "layer1", 4, 0)
    assert entry["threshold"] == pytest.approx(0.8 - 0.15 * 4 / 6)  # 0.70
    assert world.app.status.report()["review_learning"] == [entry]
    assert "# learned from your reviews: health: 0.70 (setting 0.80; 4 approved, 0 rejected)" \
        in world.cli(capsys, "settings", "show").splitlines()  # a TOML comment: the output stays valid TOML
    assert "learned:   auto-approve health: 0.70" in world.cli(capsys, "status")

    _queued_then(world, 4, "健康の話4", "health/teeth", 0.72, None)  # similar case: approved by itself now
    assert world.layer("健康の話4") == 1 and world.queue() == []
    _queued_then(world, 5, "住まいの話5", "home/rent", 0.72, None)  # another topic: the setting decides
    assert world.mem("住まいの話5").state == "queued"

    world.cli(capsys, "settings", "reset-learning")
    assert learning.summary(world.app.store, 0.8) == []
    world.memory.reject(str(world.queue()[0]["id"]))
    _queued_then(world, 6, "健康の話6", "health/back", 0.72, None)  # after the reset: asked again
    assert world.mem("健康の話6").state == "queued"


def test_the_learned_offset_never_reaches_its_bound():
    for approved, rejected in ((10_000, 0), (0, 10_000), (3, 1), (0, 0)):
        offset = learning.offset(approved, rejected)
        assert abs(offset) < learning.LEARN_BOUND
    assert learning.offset(0, 5) > 0 > learning.offset(5, 0)
    assert learning.threshold(0.95, {("a", "layer1"): {"offset": 0.14}}, "a/b", "layer1") == 1.0


# ---- a review past its deadline ------------------------------------------------------------
def test_a_queued_supersession_past_its_deadline_is_set_aside_as_pending(world):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-24T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-24T20:00:00+09:00")
    [row] = world.queue()
    assert row["action"] == "supersede" and world.mem(KANAZAWA).state == "queued"

    world.say("2026-12-02T10:00:00+09:00", "天気が崩れそう")  # past the 7-day deadline, unanswered
    world.flush("2026-12-02T11:00:00+09:00")
    assert world.rows("review_queue")[0]["status"] == "expired"
    assert world.mem(KANAZAWA).state == "pending"  # never confirmed silently, and not a candidate again
    assert world.mem(SENDAI).state == "active" and f"- {SENDAI}" in world.prompt()
    assert KANAZAWA not in world.prompt()


def test_cli_memory_rate(world, capsys):
    _two_kept(world)
    allergy = world.mem(ALLERGY).id
    out = world.cli_json(capsys, "memory", "rate", allergy, "down")
    assert (out["rating"], out["review"]) == ("down", world.queue()[0]["id"])
    text = world.cli(capsys, "memory", "rate", allergy, "none")
    assert "cleared" in text and world.mem(ALLERGY).confidence == 0.9
    shown = json.loads(world.cli(capsys, "memory", "show", allergy, "--json"))
    assert shown["rating"] == "" and shown["boost"] == 1.0
