"""Consolidation rules (DESIGN §4–5), each in isolation, through the real FlushService.

The oracle plays the filter personas and the judge; the program decides. Each
test fails if its rule breaks.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from monchat.core.errors import PinOverBudget
from monchat.core.memory.rules import effective_confidence
from monchat.core.memory import MemoryRecord
from tests.flush.conftest import Judgement, Oracle, Rule, at

GUITAR = "ギターを練習する"


def test_repeats_inside_one_session_count_once(world):
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.7)]
    ids = [world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した"),
           world.say("2026-11-23T21:20:00+09:00", "ギターの練習で指が痛い"),
           world.say("2026-11-23T23:40:00+09:00", "寝る前にもう少しギター")]
    assert world.log_files() == ["2026-11-23_18.jsonl"]

    report = world.flush("2026-11-24T00:30:00+09:00")

    guitar = world.mem(GUITAR)
    assert sorted(guitar.evidence) == sorted(ids)  # all three are in the ledger …
    assert {r["session"] for r in world.ledger(guitar.id)} == {"2026-11-23_18"}
    assert guitar.days == 1  # … but one session is one day
    assert guitar.state == "candidate" and world.layer(GUITAR) == 2  # Layer 2 by score, not Layer 1
    assert report.promoted == {"layer1": 0, "layer2": 1}
    assert world.queue() == []


def test_two_sessions_of_one_day_are_still_one_day(world):
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.9)]
    world.say("2026-11-23T07:00:00+09:00", "朝ギターを弾いた")
    world.say("2026-11-23T13:00:00+09:00", "昼休みにもギター")
    world.say("2026-11-23T21:00:00+09:00", "夜もギターを練習")
    world.flush("2026-11-23T23:00:00+09:00")
    guitar = world.mem(GUITAR)
    assert len({r["session"] for r in world.ledger(guitar.id)}) == 3
    assert guitar.days == 1 and guitar.state == "candidate"


@pytest.mark.parametrize("score, state", [(0.9, "active"), (0.6, "queued")])
def test_a_habit_on_three_different_days_reaches_layer1(world, score, state):
    # Three wordings, so the LLM judge (not the exact-words rule) says SAME each time.
    world.oracle.rules = [Rule("1時間", GUITAR, "hobby/guitar", "habit", score),
                          Rule("夕飯", "夕飯のあとにギターを弾く", "hobby/guitar", "habit", score),
                          Rule("朝ギター", "朝にギターを弾いた", "hobby/guitar", "habit", score)]
    world.oracle.judgements = {(GUITAR, None): Judgement("SAME", 0.9)}

    world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した")
    world.flush("2026-11-23T23:00:00+09:00")
    assert world.mem(GUITAR).days == 1 and world.mem(GUITAR).state == "candidate"

    world.say("2026-11-25T20:30:00+09:00", "夕飯のあとまたギター")
    world.flush("2026-11-25T23:00:00+09:00")
    assert world.mem(GUITAR).days == 2 and world.mem(GUITAR).state == "candidate"
    assert [(p.new, p.verdict) for p in world.oracle.judged] == [("夕飯のあとにギターを弾く", "SAME")]

    world.say("2026-11-28T10:00:00+09:00", "今日は朝ギター")
    report = world.flush("2026-11-28T12:00:00+09:00")
    guitar = world.mem(GUITAR)
    assert [m.text for m in world.store.all()] == [GUITAR]  # reinforced, never a second memory
    assert guitar.days == 3
    assert guitar.state == state
    if state == "active":  # confidence ≥ 0.8 and nothing active affected: auto-approved
        assert report.promoted["layer1"] == 1 and report.queued == 0
        assert world.layer(GUITAR) == 1
        assert f"- {GUITAR}" in world.prompt()
    else:  # below 0.8: the review queue decides, never the program
        [row] = world.queue()
        assert (row["memory_id"], row["action"], row["confidence"]) == (guitar.id, "layer1", 0.6)
        assert report.promoted["layer1"] == 0 and report.queued == 1
        assert world.layer(GUITAR) != 1


@pytest.mark.parametrize("score, state", [(0.8, "active"), (0.79, "queued")])
def test_auto_approve_starts_at_exactly_the_threshold(world, score, state):
    assert world.settings.auto_approve_confidence == 0.8
    allergy = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", allergy, "health/allergy", "explicit", score)]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて、猫アレルギーなんだ")
    report = world.flush("2026-11-23T22:00:00+09:00")
    memory = world.mem(allergy)
    assert memory.confidence == score and memory.days == 1
    assert memory.state == state
    assert report.promoted["layer1"] == int(state == "active")
    assert [r["action"] for r in world.queue()] == (["layer1"] if state == "queued" else [])
    assert world.layer(allergy) == (1 if state == "active" else 0)  # queued: in no layer while it waits (#45)


@pytest.mark.parametrize("score, layer", [(0.5, 2), (0.49, 0)])
def test_layer2_starts_at_exactly_the_score_threshold(world, score, layer):
    assert world.settings.layer2_threshold == 0.5
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", score)]
    world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した")
    report = world.flush("2026-11-23T22:00:00+09:00")
    guitar = world.mem(GUITAR)
    assert guitar.state == "candidate"  # a habit on one day: never Layer 1
    assert world.layer(GUITAR) == layer
    assert report.promoted == {"layer1": 0, "layer2": int(layer == 2)}
    assert ("layer2" in [c.kind for c in report.changes]) is (layer == 2)
    assert (GUITAR in world.prompt()) is (layer == 2)


GREEN, BARLEY = "毎食緑茶を飲む", "麦茶に切り替えた"


@pytest.mark.parametrize("confidence, applied", [(0.7, True), (0.69, False)])
def test_a_verdict_at_exactly_the_judge_threshold_is_applied(world, confidence, applied):
    assert world.settings.judge_confidence == 0.7
    # With an escalation model set, a verdict below the threshold is asked again; the pinned oracle
    # is every model, so a second judge call on the same pair is the escalation.
    world.app.settings.backend.escalation = "ollama:big"
    world.oracle.rules = [Rule("緑茶", GREEN, "drink/daily", "habit", 0.8),
                          Rule("麦茶", BARLEY, "drink/daily", "habit", 0.8)]
    world.oracle.judgements = {(GREEN, BARLEY): Judgement("SUPERSEDE", confidence)}
    world.say("2026-11-25T12:00:00+09:00", "ご飯のたびに緑茶を飲んでる")
    world.flush("2026-11-25T13:00:00+09:00")
    world.say("2026-11-28T12:00:00+09:00", "最近は麦茶に切り替えた")
    report = world.flush("2026-11-28T13:00:00+09:00")

    asked = [(p.old, p.new) for p in world.oracle.judged]
    assert asked == [(GREEN, BARLEY)] * (1 if applied else 2)  # at the threshold: no escalation
    [verdict] = world.rows("verdicts")
    assert verdict["confidence"] == confidence and verdict["applied"] == ("yes" if applied else "review")
    green, barley = world.mem(GREEN), world.mem(BARLEY)
    if applied:
        assert green.superseded_by == barley.id and green.state == "superseded"
        assert barley.state == "candidate" and report.superseded == 1 and world.queue() == []
    else:
        assert green.superseded_by is None and green.state == "candidate"
        [row] = world.queue()
        assert (row["action"], row["memory_id"], row["target_id"]) == ("judge", barley.id, green.id)
        assert barley.state == "queued" and report.superseded == 0


def test_a_coexist_at_exactly_the_judge_threshold_is_applied(world):
    daily, ceremony = "毎日緑茶を飲む", "茶道教室で緑茶を飲む"
    world.oracle.rules = [Rule("毎日", daily, "drink/tea", "fact", 0.8),
                          Rule("茶道", ceremony, "drink/tea", "fact", 0.8)]
    world.oracle.judgements = {(daily, ceremony): Judgement("COEXIST", 0.7)}
    world.say("2026-11-25T12:00:00+09:00", "毎日緑茶を飲んでる")
    world.flush("2026-11-25T13:00:00+09:00")
    world.say("2026-11-28T15:00:00+09:00", "茶道教室で緑茶を点てて飲んだ")
    report = world.flush("2026-11-28T16:00:00+09:00")
    assert world.queue() == [] and report.queued == 0  # sure enough: both kept, nothing to ask
    assert world.mem(daily).state == world.mem(ceremony).state == "candidate"
    assert [v["applied"] for v in world.rows("verdicts")] == ["yes"]


def test_the_same_words_in_the_same_slot_reinforce_without_asking(world):
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.9)]
    world.oracle.default = Judgement("COEXIST", 0.95)  # would keep two copies if it were asked
    for day in ("23", "25", "28"):
        world.say(f"2026-11-{day}T21:00:00+09:00", "今夜もギター")
        world.flush(f"2026-11-{day}T23:00:00+09:00")
    assert world.oracle.judged == []
    assert world.mem(GUITAR).days == 3 and world.mem(GUITAR).state == "active"


DAYS = ["2026-11-23T21:00:00+09:00", "2026-11-24T21:00:00+09:00", "2026-11-25T21:00:00+09:00"]


@pytest.mark.parametrize("kind, need", [("explicit", 1), ("correction", 1), ("fact", 2), ("habit", 3)])
@pytest.mark.parametrize("days", [1, 2, 3])
def test_layer1_needs_one_two_or_three_days_by_kind(make_world, kind, need, days):
    world = make_world(f"{kind}-{days}", Oracle([Rule("散歩", "夜に散歩する", "habit/walk", kind, 0.9)]))
    for when in DAYS[:days]:
        world.say(when, "今夜も散歩した")
    world.flush("2026-11-26T08:00:00+09:00")
    walk = world.mem("夜に散歩する")
    assert walk.days == days
    assert (walk.state == "active") is (days >= need)
    assert walk.state in ("active", "candidate")


def test_mixed_kinds_take_the_loosest_rule(world):
    world.oracle.rules = [Rule("ピアノ", "ピアノを弾く", "hobby/piano", "habit", 0.7),
                          Rule("覚えておいて", "ピアノを弾く", "hobby/piano", "explicit", 0.9)]
    world.oracle.judgements = {("ピアノを弾く", "ピアノを弾く"): Judgement("SAME", 0.9)}
    world.say("2026-11-23T21:00:00+09:00", "ピアノを少し弾いた")
    world.flush("2026-11-23T23:00:00+09:00")
    assert world.mem("ピアノを弾く").state == "candidate"  # a habit on one day

    world.say("2026-11-24T21:00:00+09:00", "覚えておいて、趣味はピアノ")
    report = world.flush("2026-11-24T23:00:00+09:00")
    piano = world.mem("ピアノを弾く")
    assert {r["kind"] for r in world.ledger(piano.id)} == {"habit", "explicit"}
    assert piano.kind == "habit" and piano.days == 2  # a habit would need 3 days …
    assert piano.state == "active"  # … but one explicit statement is enough
    assert report.promoted["layer1"] == 1


COFFEE = "毎朝コーヒーを飲む"
TEA = "今朝は紅茶にした"


def _coffee_world(world, days):
    world.oracle.rules = [Rule("コーヒー", COFFEE, "drink/morning", "habit", 0.9),
                          Rule("紅茶", TEA, "drink/morning", "habit", 0.8)]
    world.oracle.judgements = {(COFFEE, COFFEE): Judgement("SAME", 0.9),
                               (COFFEE, TEA): Judgement("CONTRADICT", 0.9)}
    for n in range(days):
        world.say(f"2026-11-{23 + n}T08:00:00+09:00", "朝はやっぱりコーヒー")
        world.flush(f"2026-11-{23 + n}T09:00:00+09:00")


def test_a_contradiction_flags_and_never_decrements(world):
    _coffee_world(world, 2)
    before = world.mem(COFFEE)
    assert (before.days, before.contradictions, before.state) == (2, 0, "candidate")

    # Only the tea rule matches this line: nothing in the same flush supports the coffee memory,
    # so nothing could restore a confidence the contradiction took away.
    tea_id = world.say("2026-11-25T08:00:00+09:00", "今朝は紅茶にした")
    report = world.flush("2026-11-25T09:00:00+09:00")
    assert [(p.old, p.new, p.verdict) for p in world.oracle.judged][-1] == (COFFEE, TEA, "CONTRADICT")
    kinds = [c.kind for c in report.changes if c.memory_id == before.id]
    assert "contradicted" in kinds and "reinforced" not in kinds

    after = world.mem(COFFEE)
    assert after.days == 2  # not decremented
    assert after.confidence == before.confidence == 0.9
    assert after.score == before.score
    assert after.last_evidence_epoch == before.last_evidence_epoch  # a contradiction is not support
    assert after.contradictions == 1
    assert after.state == "candidate"
    row = next(r for r in world.ledger(after.id) if r["message_id"] == tea_id)
    assert row["contradicts"] == 1  # kept in the ledger, flagged
    assert not world.has(TEA)  # the contradiction is evidence on the memory, not a memory of its own
    assert "contradicted" in [c.kind for c in report.changes]


def test_a_contradiction_does_not_cost_a_day_toward_layer1(world):
    # A habit needs 3 distinct days. Two days of support, a contradiction, a third day of support:
    # the contradiction is flagged, and the third day still promotes.
    _coffee_world(world, 2)
    world.say("2026-11-25T08:00:00+09:00", "今朝は紅茶にした")
    world.flush("2026-11-25T09:00:00+09:00")
    assert world.mem(COFFEE).contradictions == 1 and world.mem(COFFEE).days == 2

    world.say("2026-11-26T08:00:00+09:00", "朝はやっぱりコーヒー")
    report = world.flush("2026-11-26T09:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert (coffee.days, coffee.contradictions) == (3, 1)
    assert coffee.state == "active" and world.layer(COFFEE) == 1
    assert report.promoted["layer1"] == 1
    assert f"- {COFFEE}" in world.prompt()


def test_a_habit_with_two_contradictions_goes_pending(world):
    _coffee_world(world, 3)
    assert world.mem(COFFEE).state == "active" and f"- {COFFEE}" in world.prompt()

    world.say("2026-11-26T08:00:00+09:00", "今日も紅茶")
    world.flush("2026-11-26T09:00:00+09:00")
    assert world.mem(COFFEE).state == "active" and world.mem(COFFEE).contradictions == 1

    world.say("2026-11-27T08:00:00+09:00", "紅茶が続いてる")
    report = world.flush("2026-11-27T09:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert coffee.state == "pending" and coffee.contradictions == 2
    assert coffee.days == 3  # the support is still counted
    assert len(world.ledger(coffee.id)) == 5  # every row kept
    assert COFFEE not in world.prompt()
    assert "pending" in [c.kind for c in report.changes]


def test_a_habit_waiting_for_review_is_not_contradicted_by_a_flush(world):
    """Issue 45: waiting means waiting. A habit held for review is not memory yet: a flush records nothing
    against it (the user decides it in the queue); the new statement is a memory of its own."""
    world.oracle.rules = [Rule("コーヒー", COFFEE, "drink/morning", "habit", 0.6),
                          Rule("紅茶", TEA, "drink/morning", "habit", 0.8)]
    world.oracle.judgements = {(COFFEE, TEA): Judgement("CONTRADICT", 0.9)}
    for n in range(3):
        world.say(f"2026-11-{23 + n}T08:00:00+09:00", "朝はやっぱりコーヒー")
        world.flush(f"2026-11-{23 + n}T09:00:00+09:00")
    assert world.mem(COFFEE).state == "queued"  # three days, but 0.6 < 0.8: the user decides

    for day, said in (("26", "今朝は紅茶にした"), ("27", "今日も紅茶")):
        world.say(f"2026-11-{day}T08:00:00+09:00", said)
        report = world.flush(f"2026-11-{day}T09:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert (coffee.state, coffee.contradictions, coffee.days) == ("queued", 0, 3)
    assert [c.kind for c in report.changes if c.memory_id == coffee.id] == []
    assert COFFEE not in world.prompt() and world.mem(TEA).live


def test_two_contradictions_do_not_make_a_fact_pending(world):
    world.oracle.rules = [Rule("東京", "東京で働いている", "work/city", "fact", 0.9),
                          Rule("在宅", "在宅で働いた", "work/city", "fact", 0.8)]
    world.oracle.judgements = {("東京で働いている", "東京で働いている"): Judgement("SAME", 0.9),
                               ("東京で働いている", "在宅で働いた"): Judgement("CONTRADICT", 0.9)}
    world.say("2026-11-23T12:00:00+09:00", "東京のオフィスに出社")
    world.say("2026-11-24T12:00:00+09:00", "今日も東京")
    world.flush("2026-11-24T13:00:00+09:00")
    world.say("2026-11-25T12:00:00+09:00", "今日は在宅")
    world.flush("2026-11-25T13:00:00+09:00")
    world.say("2026-11-26T12:00:00+09:00", "また在宅")
    world.flush("2026-11-26T13:00:00+09:00")
    fact = world.mem("東京で働いている")
    assert fact.contradictions == 2 and fact.state == "active"


SENDAI, KANAZAWA = "仙台に住んでいる", "金沢に住んでいる"


def _sendai_then_kanazawa(world):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    return world.flush("2026-11-29T20:00:00+09:00")


def test_supersession_chain_of_an_active_fact_goes_through_review(world, capsys):
    report = _sendai_then_kanazawa(world)
    sendai, kanazawa = world.mem(SENDAI), world.mem(KANAZAWA)
    # Kanazawa would replace an active Layer 1 memory: queued, Sendai untouched.
    assert kanazawa.state == "queued" and sendai.state == "active" and sendai.superseded_by is None
    [row] = world.queue()
    assert (row["action"], row["memory_id"], row["target_id"]) == ("supersede", kanazawa.id, sendai.id)
    assert report.queued == 1 and report.superseded == 0 and report.promoted["layer1"] == 0

    world.clock.now = at("2026-11-29T21:00:00+09:00")
    world.memory.approve(kanazawa.id)

    sendai, kanazawa = world.mem(SENDAI), world.mem(KANAZAWA)
    assert kanazawa.state == "active" and kanazawa.superseded_by is None
    assert sendai.superseded_by == kanazawa.id
    assert kanazawa.valid_at == "2026-11-29T19:00:00.000+09:00"
    assert sendai.invalid_at == kanazawa.valid_at
    assert sendai.superseded_at == "2026-11-29T21:00:00.000+09:00"
    assert sendai.state == "superseded"
    assert [m.id for m in world.store.live()] == [kanazawa.id]  # active recall: superseded_by IS NULL
    assert [m.id for m in world.memory.history(sendai.id)] == [sendai.id, kanazawa.id]
    assert [m.id for m in world.memory.history(kanazawa.id)] == [sendai.id, kanazawa.id]
    out = world.cli(capsys, "memory", "history", kanazawa.id)
    assert out.index(SENDAI) < out.index(KANAZAWA)
    prompt = world.prompt()
    assert f"- {KANAZAWA}" in prompt and SENDAI not in prompt
    assert world.queue() == []


def test_supersession_of_a_candidate_applies_directly(world):
    green, barley = "毎食緑茶を飲む", "麦茶に切り替えた"
    world.oracle.rules = [Rule("緑茶", green, "drink/daily", "habit", 0.8),
                          Rule("麦茶", barley, "drink/daily", "habit", 0.8)]
    world.oracle.judgements = {(green, barley): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-25T12:00:00+09:00", "ご飯のたびに緑茶を飲んでる")
    world.flush("2026-11-25T13:00:00+09:00")
    world.say("2026-11-28T12:00:00+09:00", "最近は麦茶に切り替えた")
    report = world.flush("2026-11-28T13:00:00+09:00")

    old, new = world.mem(green), world.mem(barley)
    assert old.superseded_by == new.id and old.invalid_at == new.valid_at and old.state == "superseded"
    assert new.state == "candidate" and world.layer(barley) == 2
    assert report.superseded == 1 and report.queued == 0 and world.queue() == []
    prompt = world.prompt()
    assert barley in prompt and green not in prompt


def test_retraction_supersedes_with_no_successor(world):
    rust, drop = "Rustを勉強したい", "Rustの勉強はやめる"
    world.oracle.rules = [Rule("Rustを勉強", rust, "study/language", "fact", 0.8),
                          Rule("やめる", drop, "study/language", "retraction", 0.8)]
    world.oracle.judgements = {(rust, drop): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-24T21:00:00+09:00", "Rustを勉強したいんだよね")
    world.flush("2026-11-24T22:00:00+09:00")
    assert world.layer(rust) == 2 and rust in world.prompt()

    world.say("2026-11-27T21:00:00+09:00", "やっぱりRustの話はやめる")
    report = world.flush("2026-11-27T22:00:00+09:00")
    old, retraction = world.mem(rust), world.mem(drop)
    assert old.state == "retracted" and old.superseded_by == retraction.id
    assert old.invalid_at == retraction.valid_at == "2026-11-27T21:00:00.000+09:00"
    assert retraction.state == "retraction" and retraction.layer(world.clock().timestamp()) == 0
    assert [m.id for m in world.memory.history(old.id)] == [old.id, retraction.id]
    prompt = world.prompt()
    assert rust not in prompt and drop not in prompt
    assert report.superseded == 1
    assert world.store.live() == []


def test_a_retraction_with_nothing_to_take_back_is_dropped_and_recorded(world):
    world.oracle.rules = [Rule("タバコ", "タバコはやめた", "habit/smoking", "retraction", 0.8)]
    message = world.say("2026-11-24T21:00:00+09:00", "タバコはもうやめた")
    report = world.flush("2026-11-24T22:00:00+09:00")
    assert world.store.all() == []
    [dropped] = report.dropped_items
    assert dropped["category"] == "no_target" and dropped["text"] == "タバコはやめた"
    assert dropped["evidence"] == [message]
    assert report.dropped == 0  # `dropped` counts bad evidence; this one is recorded apart
    [run] = world.flusher.runs(1)
    assert run["dropped"] == report.dropped_items


def test_coexist_leaves_both_active(world):
    daily, ceremony = "毎日緑茶を飲む", "茶道教室で緑茶を飲む"
    world.oracle.rules = [Rule("毎日", daily, "drink/daily", "explicit", 0.9),
                          Rule("茶道", ceremony, "drink/tea_ceremony", "explicit", 0.9)]
    world.oracle.judgements = {(daily, ceremony): Judgement("COEXIST", 0.9)}
    world.say("2026-11-25T12:00:00+09:00", "覚えておいて、毎日緑茶を飲んでる")
    world.flush("2026-11-25T13:00:00+09:00")
    world.say("2026-11-28T15:00:00+09:00", "茶道教室で緑茶を点てて飲んだ")
    report = world.flush("2026-11-28T16:00:00+09:00")
    assert (daily, ceremony, "COEXIST") in [(p.old, p.new, p.verdict) for p in world.oracle.judged]
    assert world.mem(daily).state == world.mem(ceremony).state == "active"
    assert world.mem(daily).superseded_by is None
    assert report.superseded == 0 and world.queue() == []
    prompt = world.prompt()
    assert daily in prompt and ceremony in prompt


RAMEN, MISO, MERGED = "ラーメンが好き", "特に味噌ラーメン", "ラーメンが好きで、特に味噌ラーメン"


def test_merge_of_a_candidate_combines_wording_and_evidence(world):
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "fact", 0.9),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.9)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.9, MERGED)}
    first = world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.flush("2026-11-23T13:00:00+09:00")
    second = world.say("2026-11-24T12:30:00+09:00", "味噌が一番")
    report = world.flush("2026-11-24T13:00:00+09:00")

    old, merged = world.mem(RAMEN), world.mem(MERGED)
    assert not world.has(MISO)
    assert old.superseded_by == merged.id and old.state == "superseded"
    assert sorted(merged.evidence) == sorted([first, second]) and merged.days == 2
    assert merged.state == "active"  # a fact on two days
    assert report.superseded == 1
    prompt = world.prompt()
    assert MERGED in prompt and f"- {RAMEN}\n" not in prompt


def test_merge_into_an_active_memory_waits_for_review(world):
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "explicit", 0.9),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.9)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.9, MERGED)}
    world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.flush("2026-11-23T13:00:00+09:00")
    world.say("2026-11-24T12:30:00+09:00", "味噌が一番")
    world.flush("2026-11-24T13:00:00+09:00")
    assert world.mem(RAMEN).state == "active" and world.mem(MERGED).state == "queued"
    [row] = world.queue()
    assert row["action"] == "merge"
    world.memory.approve(str(row["id"]))
    assert world.mem(RAMEN).superseded_by == world.mem(MERGED).id
    assert world.mem(MERGED).state == "active"


def test_the_queue_never_confirms_by_itself(world):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    [row] = world.queue()
    assert row["action"] == "layer1" and world.mem(quiet).state == "queued"

    world.say("2026-11-29T10:00:00+09:00", "今日は天気がいい")  # 6 days later: still waiting
    world.flush("2026-11-29T11:00:00+09:00")
    assert world.mem(quiet).state == "queued" and len(world.queue()) == 1

    world.say("2026-12-01T10:00:00+09:00", "天気が崩れそう")  # past the 7-day deadline
    report = world.flush("2026-12-01T11:00:00+09:00")
    assert world.mem(quiet).state == "candidate"  # back to candidate, never active
    assert world.queue() == []
    assert world.rows("review_queue")[0]["status"] == "expired"
    assert "expired" in [c.kind for c in report.changes]
    assert quiet not in world.prompt()


def test_approve_and_reject_change_the_store(world):
    yes, no = "猫アレルギーがある", "犬が苦手"
    world.oracle.rules = [Rule("猫", yes, "health/allergy", "explicit", 0.6),
                          Rule("犬", no, "pets/dog", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.say("2026-11-23T21:05:00+09:00", "犬はちょっと苦手")
    world.flush("2026-11-23T22:00:00+09:00")
    assert {r["memory_id"] for r in world.queue()} == {world.mem(yes).id, world.mem(no).id}

    world.memory.approve(world.mem(yes).id)
    world.memory.reject(world.mem(no).id)
    assert world.mem(yes).state == "active" and world.mem(no).state == "rejected"
    assert world.queue() == []
    assert sorted(r["status"] for r in world.rows("review_queue")) == ["approved", "rejected"]
    prompt = world.prompt()
    assert yes in prompt and no not in prompt


def test_ask_before_any_layer1_change_queues_everything(world):
    world.settings.ask_before_layer1 = True
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.95),
                          Rule("訂正", "誕生日は3月", "profile/birthday", "correction", 0.95)]
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.say("2026-11-23T21:15:00+09:00", "訂正：誕生日は3月だよ")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert world.mem(SENDAI).state == world.mem("誕生日は3月").state == "queued"
    assert report.promoted["layer1"] == 0 and report.queued == 2
    assert {r["action"] for r in world.queue()} == {"layer1"}
    assert all("approve every Layer 1 change" in r["reason"] for r in world.queue())


HOMETOWN = "仙台の実家に帰省した"


@pytest.mark.parametrize("second, outcome", [(Judgement("SUPERSEDE", 0.55), "review"),
                                             (Judgement("COEXIST", 0.9), "applied")])
def test_low_confidence_is_escalated_then_reviewed(world, monkeypatch, second, outcome):
    escalation = Oracle(model="big-1", default=second)
    world.app.settings.backend.escalation = "ollama:big"
    monkeypatch.setattr(world.app.flush, "escalation", lambda: escalation)  # the escalation backend it asks

    world.oracle.rules = [Rule("覚えておいて", SENDAI, "home/city", "explicit", 0.9),
                          Rule("帰省", HOMETOWN, "home/city", "fact", 0.8)]
    world.oracle.judgements = {(SENDAI, HOMETOWN): Judgement("SUPERSEDE", 0.5)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-28T12:00:00+09:00", "週末は仙台の実家に帰省してた")
    world.flush("2026-11-28T22:00:00+09:00")

    assert [(p.old, p.new) for p in escalation.judged] == [(SENDAI, HOMETOWN)]
    [verdict] = [v for v in world.rows("verdicts") if v["target_id"] == world.mem(SENDAI).id]
    assert verdict["escalated"] == 1 and verdict["model"] == "oracle:big-1"
    assert world.mem(SENDAI).state == "active" and world.mem(SENDAI).superseded_by is None
    if outcome == "review":
        [row] = world.queue()
        assert row["action"] == "judge" and row["target_id"] == world.mem(SENDAI).id
        assert row["memory_id"] == world.mem(HOMETOWN).id and world.mem(HOMETOWN).state == "queued"
        assert verdict["applied"] == "review"
    else:
        assert world.queue() == [] and world.mem(HOMETOWN).state == "candidate"
        assert verdict["applied"] == "yes"


def test_low_confidence_without_escalation_goes_straight_to_review(world):
    world.oracle.rules = [Rule("覚えておいて", SENDAI, "home/city", "explicit", 0.9),
                          Rule("帰省", HOMETOWN, "home/city", "fact", 0.8)]
    world.oracle.judgements = {(SENDAI, HOMETOWN): Judgement("SUPERSEDE", 0.5)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-28T12:00:00+09:00", "週末は仙台の実家に帰省してた")
    world.flush("2026-11-28T22:00:00+09:00")
    [row] = world.queue()
    assert row["action"] == "judge"
    assert world.mem(SENDAI).state == "active"


def test_decay_formula():
    now = at("2026-12-31T00:00:00+09:00")
    habit = MemoryRecord("m", "t", "s", "habit", "active", confidence=0.8,
                         last_evidence_epoch=now.timestamp() - 45 * 86400)
    assert effective_confidence(habit, now, 90) == pytest.approx(0.8 * 0.5 ** 0.5)
    assert effective_confidence(habit, now, 15) == pytest.approx(0.1)
    explicit = MemoryRecord("e", "t", "s", "explicit", "active", confidence=0.8,
                            last_evidence_epoch=habit.last_evidence_epoch)
    assert effective_confidence(explicit, now, 15) == 0.8


JOG, EGG = "毎朝ジョギングする", "卵アレルギーがある"


@pytest.mark.parametrize("days_later, habit_state", [(30, "active"), (32, "dormant")])
def test_an_old_unsupported_habit_goes_dormant_and_an_explicit_one_does_not(world, days_later, habit_state):
    world.settings.half_life_days = 10.0
    world.oracle.rules = [Rule("ジョギング", JOG, "health/running", "habit", 0.9),
                          Rule("卵", EGG, "health/allergy", "explicit", 0.9)]
    world.say("2026-11-23T07:00:00+09:00", "朝ジョギングした")
    world.say("2026-11-24T07:00:00+09:00", "今朝もジョギング")
    last = world.say("2026-11-25T07:00:00+09:00", "ジョギング三日目、覚えておいて卵アレルギーだから朝食は別")
    world.flush("2026-11-25T08:00:00+09:00")
    assert world.mem(JOG).state == world.mem(EGG).state == "active"
    assert world.mem(JOG).last_evidence_epoch == at("2026-11-25T07:00:00+09:00").timestamp()

    later = at("2026-11-25T07:00:00+09:00") + timedelta(days=days_later)
    world.say(later.isoformat(), "今日は天気がいい")
    report = world.flush((later + timedelta(minutes=1)).isoformat())
    # 0.9 × 0.5^(30/10) = 0.1125 stays; 0.9 × 0.5^(32/10) ≈ 0.098 < 0.1 goes dormant
    assert world.mem(JOG).state == habit_state
    assert world.mem(EGG).state == "active"  # explicit statements do not decay
    assert (JOG in world.prompt()) is (habit_state == "active")
    assert ("dormant" in [c.kind for c in report.changes]) is (habit_state == "dormant")
    assert last in world.mem(JOG).evidence


def test_over_the_layer1_cap_the_weakest_goes_dormant(world):
    world.settings.layer1_cap = 2
    world.oracle.rules = [Rule("猫", "猫を二匹飼っている", "pets/cat", "explicit", 0.95),
                          Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("蕎麦", "蕎麦アレルギーがある", "health/allergy", "explicit", 0.85)]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：猫を二匹飼ってる")
    world.say("2026-11-23T21:01:00+09:00", "覚えておいて：仙台に住んでる")
    world.say("2026-11-23T21:02:00+09:00", "覚えておいて：蕎麦アレルギー")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert world.mem("猫を二匹飼っている").state == "active"
    assert world.mem(SENDAI).state == "active"
    weakest = world.mem("蕎麦アレルギーがある")
    assert weakest.state == "dormant"
    assert [c.memory_id for c in report.changes if c.kind == "dormant"] == [weakest.id]
    assert "over the Layer 1 cap of 2" in world.store.events(weakest.id)[-1]["detail"]
    assert "蕎麦" not in world.prompt()


def test_a_pinned_memory_is_never_put_to_sleep_by_the_cap(world):
    world.settings.layer1_cap = 1
    world.oracle.rules = [Rule("猫", "猫を二匹飼っている", "pets/cat", "explicit", 0.95),
                          Rule("蕎麦", "蕎麦アレルギーがある", "health/allergy", "explicit", 0.85)]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：猫を二匹飼ってる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.memory.pin(world.mem("猫を二匹飼っている").id)
    world.say("2026-11-24T21:02:00+09:00", "覚えておいて：蕎麦アレルギー")
    world.flush("2026-11-24T22:00:00+09:00")
    assert world.mem("猫を二匹飼っている").state == "active"
    assert world.mem("蕎麦アレルギーがある").state == "dormant"


def test_the_cap_puts_the_weakest_unpinned_to_sleep_even_when_the_pinned_is_weaker(world):
    world.settings.layer1_cap = 1
    cat, soba = "猫を二匹飼っている", "蕎麦アレルギーがある"
    world.oracle.rules = [Rule("猫", cat, "pets/cat", "explicit", 0.95),
                          Rule("蕎麦", soba, "health/allergy", "explicit", 0.85)]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：蕎麦アレルギー")
    world.flush("2026-11-23T22:00:00+09:00")
    world.memory.pin(world.mem(soba).id)  # the weakest (lower confidence, older evidence), pinned
    world.say("2026-11-24T21:00:00+09:00", "覚えておいて：猫を二匹飼ってる")
    report = world.flush("2026-11-24T22:00:00+09:00")
    kinds = [(c.kind, c.memory_id) for c in report.changes]
    assert ("layer1", world.mem(cat).id) in kinds  # promoted in this flush …
    assert world.mem(soba).state == "active" and world.mem(soba).pinned  # … the pinned stays awake …
    assert [m for k, m in kinds if k == "dormant"] == [world.mem(cat).id]  # … the cap takes the unpinned
    assert world.mem(cat).state == "dormant"
    prompt = world.prompt()
    assert soba in prompt and cat not in prompt


LATELY = "最近よく眠れない"


@pytest.mark.parametrize("second_day, promoted_again, expected_layer", [
    ("2026-11-24T21:00:00+09:00", False, 2),  # 23 h later: still Layer 2
    ("2026-11-24T23:00:00+09:00", False, 0),  # 25 h later: expired
    ("2026-11-24T23:00:00+09:00", True, 2),  # 25 h later but promoted again
])
def test_layer2_lasts_24_hours_unless_promoted_again(world, second_day, promoted_again, expected_layer):
    world.oracle.rules = [Rule("眠れ", LATELY, "health/sleep", "habit", 0.7)]
    world.oracle.judgements = {(LATELY, LATELY): Judgement("SAME", 0.9)}
    world.say("2026-11-23T21:30:00+09:00", "最近よく眠れないんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.layer(LATELY) == 2 and LATELY in world.prompt()

    world.say((at(second_day) - timedelta(minutes=5)).isoformat(),
              "昨日も眠れなかった" if promoted_again else "今日は天気がいい")
    report = world.flush(second_day)
    assert world.layer(LATELY) == expected_layer
    assert (LATELY in world.prompt()) is (expected_layer == 2)
    assert ("expired" in [c.kind for c in report.changes]) is (expected_layer == 0)
    if promoted_again:
        assert world.mem(LATELY).layer2_until == (at(second_day) + timedelta(hours=24)).timestamp()


def test_support_at_the_exact_moment_layer2_expires_is_a_new_layer2_entry(world):
    # Layer 2 ends when its 24 hours are up (prune: until <= now). Support arriving in a flush at that
    # very moment puts the memory back into Layer 2, and the report says so: it had just left.
    world.oracle.rules = [Rule("眠れ", LATELY, "health/sleep", "habit", 0.7)]
    world.say("2026-11-23T21:30:00+09:00", "最近よく眠れないんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    expiry = at("2026-11-24T22:00:00+09:00")
    assert world.mem(LATELY).layer2_until == expiry.timestamp()

    world.say("2026-11-24T21:55:00+09:00", "昨日も眠れなかった")
    report = world.flush(expiry.isoformat())
    sleep = world.mem(LATELY)
    assert ("layer2", sleep.id) in [(c.kind, c.memory_id) for c in report.changes]
    assert report.promoted["layer2"] == 1
    assert sleep.layer2_until == (expiry + timedelta(hours=24)).timestamp() and world.layer(LATELY) == 2


def test_the_budget_leaves_the_weakest_out_keeps_the_pinned_and_says_why(world, capsys):
    world.settings.memory_token_budget = 100
    texts = [("猫", "猫を二匹飼っていて、名前はミケとタマ。ミケは白黒でタマは茶トラ、どちらも保護猫。", 0.95),
             ("仙台", "仙台の街中に住んでいて、休日は定禅寺通りを散歩するのが好き。冬は光のページェントを見に行く。", 0.9),
             ("蕎麦", "蕎麦アレルギーがあるので外食では必ず確認する。うどん屋でも同じ釜を使う店は避けている。", 0.85),
             ("珈琲", "コーヒーは浅煎りが好みで、朝はハンドドリップで淹れる。豆は近所の焙煎所で買っている。", 0.8)]
    # max_items is 3 per persona: two of them come from base, two from lifestyle.
    slots = ("pets/cats", "home/sendai", "health/allergy", "drink/coffee")  # "misc/0": a numbered placeholder
    world.oracle.rules = [Rule(key, text, slots[n], "explicit", score, persona=("base", "lifestyle")[n % 2])
                          for n, (key, text, score) in enumerate(texts)]
    for n, (key, text, _) in enumerate(texts):
        world.say(f"2026-11-23T21:0{n}:00+09:00", f"覚えておいて、{key}のこと：{text}")  # in the user's words
    report = world.flush("2026-11-23T22:00:00+09:00")

    left = report.budget["left_out"]
    assert left and report.budget["budget_tokens"] == 100
    assert all("100-token memory budget" in x["reason"] for x in left)
    weakest = world.mem(texts[-1][1])
    assert weakest.id in [x["id"] for x in left]
    assert texts[0][1] not in [x["text"] for x in left]  # the strongest is kept
    prompt = world.prompt()
    for x in left:
        assert x["text"] not in prompt
    assert "left out of the prompt by the token budget" in world.app.paths.memory_md.read_text(encoding="utf-8")
    assert weakest.id in world.cli(capsys, "memory", "budget")

    world.memory.pin(weakest.id)
    report = world.memory.budget_report()
    assert weakest.id not in [x["id"] for x in report["left_out"]]
    assert texts[-1][1] in world.prompt()

    with pytest.raises(PinOverBudget):  # pinning everything would leave nothing else room: refused in time
        for _, text, _ in texts:
            world.memory.pin(world.mem(text).id)
    report = world.memory.budget_report()
    assert report["pinned_over_budget"] is False and report["used_tokens"] <= 100
    assert 0 < report["pinned_tokens"] <= 100
    assert sum(1 for _, text, _ in texts if world.mem(text).pinned) < len(texts)
