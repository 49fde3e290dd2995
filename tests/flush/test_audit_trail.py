"""What each rule writes down: changes, audit events, review rows, ledger rows and stamps.

The rule tests in test_consolidation.py check outcomes (states, layers, the
prompt). These check the record a user reads afterwards (`memory history`,
the review queue, the flush report) field by field, so that a rule that does
the right thing but records it wrongly — no run id, no stamp, the wrong
reason, the wrong evidence — fails too. Found by mutation testing
(scripts/mutation, docs/testing.md).
"""

from __future__ import annotations

import json

import pytest

from monchat.core.types import format_ts
from tests.flush.conftest import Judgement, Rule, at

SENDAI, DROP_SENDAI = "仙台に住んでいる", "仙台の話はもう忘れて"
RUST, DROP_RUST = "Rustを勉強したい", "Rustの勉強はやめる"
GO = "Goを勉強したい"


def events(world, memory_id: str) -> list[tuple]:
    return [(e["action"], json.loads(e["detail"]), e["run_id"], e["at"]) for e in world.store.events(memory_id)]


def changes(report) -> list[tuple]:
    return [(c.kind, c.memory_id, c.text, c.old_text, c.layer, [e["id"] for e in c.evidence]) for c in report.changes]


def stamp(when: str) -> str:
    return format_ts(at(when))


def test_retracting_an_active_layer1_memory_waits_for_review_and_records_why(world):
    world.oracle.rules = [Rule("覚えておいて", SENDAI, "home/city", "explicit", 0.9),
                          Rule("忘れて", DROP_SENDAI, "home/city", "retraction", 0.85)]
    world.oracle.judgements = {(SENDAI, DROP_SENDAI): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    sendai = world.mem(SENDAI)
    assert sendai.state == "active"

    said = world.say("2026-11-27T21:00:00+09:00", "仙台の話はもう忘れて")
    report = world.flush("2026-11-27T22:00:00+09:00")
    drop, kept = world.mem(DROP_SENDAI), world.mem(SENDAI)
    assert drop.state == "retraction" and kept.state == "active" and kept.superseded_by is None
    [row] = world.queue()
    assert {k: row[k] for k in ("memory_id", "action", "target_id", "text", "old_text", "reason", "confidence",
                                "created_at", "run_id", "verdict", "status")} == {
        "memory_id": drop.id, "action": "retract", "target_id": sendai.id, "text": DROP_SENDAI,
        "old_text": SENDAI, "reason": "takes back an active Layer 1 memory", "confidence": 0.9,
        "created_at": stamp("2026-11-27T22:00:00+09:00"), "run_id": report.run_id, "verdict": None,
        "status": "open"}
    assert row["deadline_epoch"] == at("2026-12-04T22:00:00+09:00").timestamp()  # 7 days to answer
    assert ("queued", drop.id, DROP_SENDAI, SENDAI, 0, [said]) in changes(report)
    assert report.queued == 1 and report.superseded == 0
    [verdict] = [v for v in world.rows("verdicts") if v["run_id"] == report.run_id]
    assert (verdict["memory_id"], verdict["target_id"]) == (drop.id, sendai.id)  # the item became the retraction

    world.clock.now = at("2026-11-28T09:00:00+09:00")
    world.memory.approve(str(row["id"]))
    kept = world.mem(SENDAI)
    assert (kept.state, kept.superseded_by) == ("retracted", drop.id)
    assert kept.superseded_at == kept.updated_at == stamp("2026-11-28T09:00:00+09:00")
    assert kept.invalid_at == drop.valid_at == stamp("2026-11-27T21:00:00+09:00")
    assert ("retracted", {"by": drop.id}, None, stamp("2026-11-28T09:00:00+09:00")) in events(world, sendai.id)
    assert SENDAI not in world.prompt()


def _two_plans(world, rust: float, go: float):
    world.oracle.rules = [Rule("Rustを勉強", RUST, "study/language", "fact", 0.8),
                          Rule("Goを勉強", GO, "study/language", "fact", 0.8),
                          Rule("やめる", DROP_RUST, "study/language", "retraction", 0.8)]
    world.oracle.judgements = {(RUST, DROP_RUST): Judgement("SUPERSEDE", rust, reasoning="Rustの話"),
                               (GO, DROP_RUST): Judgement("SUPERSEDE", go, reasoning="Goの話")}
    world.say("2026-11-24T21:00:00+09:00", "Rustを勉強したいんだよね")
    world.say("2026-11-24T21:05:00+09:00", "Goを勉強したいとも思う")
    world.flush("2026-11-24T22:00:00+09:00")
    said = world.say("2026-11-27T21:00:00+09:00", "やっぱり勉強はやめる")
    return said, world.flush("2026-11-27T22:00:00+09:00")


def test_an_unsure_retraction_asks_about_the_likeliest_target_and_says_how_sure(world):
    said, report = _two_plans(world, rust=0.4, go=0.6)
    drop, rust, go = world.mem(DROP_RUST), world.mem(RUST), world.mem(GO)
    assert rust.state == go.state == "candidate" and drop.state == "retraction"
    [row] = world.queue()
    assert (row["memory_id"], row["action"], row["target_id"], row["confidence"]) == (drop.id, "retract", go.id, 0.6)
    assert row["reason"] == "unsure whether this takes back the kept memory (confidence 0.60): Goの話"
    assert (row["old_text"], row["run_id"]) == (GO, report.run_id)
    assert ("queued", drop.id, DROP_RUST, GO, 0, [said]) in changes(report)
    assert report.superseded == 0


def test_a_sure_retraction_of_a_candidate_is_applied_and_recorded(world):
    said, report = _two_plans(world, rust=0.9, go=0.1)
    drop, rust = world.mem(DROP_RUST), world.mem(RUST)
    when = stamp("2026-11-27T22:00:00+09:00")
    assert (rust.state, rust.superseded_by, rust.superseded_at, rust.updated_at) == ("retracted", drop.id, when, when)
    assert rust.invalid_at == drop.valid_at == stamp("2026-11-27T21:00:00+09:00")
    assert rust.layer2_until is None
    assert ("retracted", {"by": drop.id}, report.run_id, when) in events(world, rust.id)
    assert ("retracted", drop.id, DROP_RUST, RUST, 0, [said]) in changes(report)
    assert report.superseded == 1 and world.queue() == []
    assert world.mem(GO).state == "candidate"  # the unsure pair did not take Go back


MORNING, TEA, EVENING = "朝に散歩する", "朝は紅茶を飲む", "夜に散歩する"


def test_two_supersessions_in_one_flush_are_counted_and_each_recorded(world):
    world.oracle.rules = [Rule("朝の散歩", MORNING, "habit/walk", "habit", 0.8),
                          Rule("朝の紅茶", TEA, "drink/morning", "habit", 0.8),
                          Rule("夜の散歩", EVENING, "habit/walk", "habit", 0.8),
                          Rule("ほうじ茶", "朝はほうじ茶を飲む", "drink/morning", "habit", 0.8)]
    world.oracle.judgements = {(MORNING, EVENING): Judgement("SUPERSEDE", 0.9),
                               (TEA, "朝はほうじ茶を飲む"): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-24T07:00:00+09:00", "朝の散歩と朝の紅茶")
    world.flush("2026-11-24T08:00:00+09:00")
    said = world.say("2026-11-26T21:00:00+09:00", "最近は夜の散歩にした、朝はほうじ茶")
    report = world.flush("2026-11-26T22:00:00+09:00")
    assert report.superseded == 2
    for old, new in ((MORNING, EVENING), (TEA, "朝はほうじ茶を飲む")):
        assert world.mem(old).superseded_by == world.mem(new).id
        assert world.mem(old).layer2_until is None  # history leaves Layer 2 too
        assert ("superseded", world.mem(new).id, new, old, 0, [said]) in changes(report)
        assert ("superseded", {"by": world.mem(new).id}, report.run_id, stamp("2026-11-26T22:00:00+09:00")) \
            in events(world, world.mem(old).id)


RAMEN, MISO, MERGED = "ラーメンが好き", "特に味噌ラーメン", "ラーメンが好きで、特に味噌ラーメン"


def test_a_merge_records_the_old_wording_and_both_sources(world):
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "fact", 0.9),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.7)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.9, MERGED)}
    first = world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.flush("2026-11-23T13:00:00+09:00")
    second = world.say("2026-11-23T19:30:00+09:00", "味噌が一番")
    report = world.flush("2026-11-23T20:00:00+09:00")
    old, merged = world.mem(RAMEN), world.mem(MERGED)
    when = stamp("2026-11-23T20:00:00+09:00")
    assert ("merged", merged.id, MERGED, RAMEN, 0, [second]) in changes(report)
    assert ("superseded", {"by": merged.id}, report.run_id, when) in events(world, old.id)
    assert (old.superseded_at, old.updated_at) == (when, when)
    assert merged.state == "candidate" and merged.days == 1  # a fact on one day: not yet Layer 1
    assert world.layer(MERGED) == 2  # evaluated with the new item's score (0.7 ≥ 0.5)
    ledger = {r["message_id"]: r for r in world.ledger(merged.id)}
    assert set(ledger) == {first, second}
    assert ledger[second]["run_id"] == report.run_id and ledger[first]["run_id"] == report.run_id - 1
    assert report.superseded == 1


def test_a_merge_into_an_active_memory_says_why_it_waits(world):
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "explicit", 0.9),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.9)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.85, MERGED)}
    world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.flush("2026-11-23T13:00:00+09:00")
    said = world.say("2026-11-24T12:30:00+09:00", "味噌が一番")
    report = world.flush("2026-11-24T13:00:00+09:00")
    merged = world.mem(MERGED)
    [row] = world.queue()
    assert (row["memory_id"], row["action"], row["target_id"], row["reason"], row["confidence"], row["old_text"]) == (
        merged.id, "merge", world.mem(RAMEN).id, "rewords an active Layer 1 memory", 0.85, RAMEN)
    assert ("queued", merged.id, MERGED, RAMEN, 0, [said]) in changes(report)
    assert report.superseded == 0 and report.queued == 1


COFFEE, BLACK_TEA = "毎朝コーヒーを飲む", "今朝は紅茶にした"


def test_a_contradiction_is_recorded_on_the_memory_it_contradicts(world):
    world.oracle.rules = [Rule("コーヒー", COFFEE, "drink/morning", "habit", 0.9, persona="lifestyle"),
                          Rule("紅茶", BLACK_TEA, "drink/morning", "habit", 0.8, persona="lifestyle")]
    world.oracle.judgements = {(COFFEE, BLACK_TEA): Judgement("CONTRADICT", 0.9)}
    world.say("2026-11-23T08:00:00+09:00", "朝はやっぱりコーヒー")
    world.flush("2026-11-23T09:00:00+09:00")
    tea = world.say("2026-11-24T08:00:00+09:00", "今朝は紅茶にした")
    report = world.flush("2026-11-24T09:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert coffee.updated_at == stamp("2026-11-24T09:00:00+09:00")
    row = next(r for r in world.ledger(coffee.id) if r["message_id"] == tea)
    assert (row["contradicts"], row["run_id"], row["kind"], row["persona"], row["day"], row["session"]) == (
        1, report.run_id, "habit", "lifestyle", "2026-11-24", "2026-11-24_06")
    assert ("contradicted", coffee.id, COFFEE, "", 0, [tea]) in changes(report)
    [verdict] = world.rows("verdicts")[-1:]
    assert verdict["memory_id"] == coffee.id  # the verdict row points at the memory it touched


def test_a_candidate_habit_contradicted_twice_goes_pending(world):
    world.oracle.rules = [Rule("コーヒー", COFFEE, "drink/morning", "habit", 0.9),
                          Rule("紅茶", BLACK_TEA, "drink/morning", "habit", 0.8)]
    world.oracle.judgements = {(COFFEE, BLACK_TEA): Judgement("CONTRADICT", 0.9)}
    world.say("2026-11-23T08:00:00+09:00", "朝はやっぱりコーヒー")
    world.flush("2026-11-23T09:00:00+09:00")
    world.say("2026-11-24T08:00:00+09:00", "今朝は紅茶にした")
    world.flush("2026-11-24T09:00:00+09:00")
    assert world.mem(COFFEE).state == "candidate"
    second = world.say("2026-11-25T08:00:00+09:00", "今日も紅茶")
    report = world.flush("2026-11-25T09:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert (coffee.state, coffee.contradictions, coffee.updated_at) == (
        "pending", 2, stamp("2026-11-25T09:00:00+09:00"))
    assert [c.kind for c in report.changes if c.memory_id == coffee.id][:2] == ["contradicted", "pending"]
    assert ("pending", coffee.id, COFFEE, "", 0, [second]) in changes(report)
    assert COFFEE not in world.prompt()

    world.say("2026-11-26T08:00:00+09:00", "朝はやっぱりコーヒー")  # support for a pending memory
    world.flush("2026-11-26T09:00:00+09:00")
    assert [m.text for m in world.store.all()].count(COFFEE) == 1  # reinforced, not a second copy
    assert world.mem(COFFEE).days == 2 and world.mem(COFFEE).state == "pending"


def test_reinforcing_an_approved_memory_does_not_send_it_back_to_review(world):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    world.memory.approve(world.mem(quiet).id)
    assert world.mem(quiet).state == "active"
    world.say("2026-11-25T21:00:00+09:00", "猫カフェは無理、アレルギーだから")
    report = world.flush("2026-11-25T22:00:00+09:00")
    assert world.mem(quiet).state == "active" and world.queue() == []
    assert [c.kind for c in report.changes if c.memory_id == world.mem(quiet).id] == ["reinforced"]


GUITAR, AFTER_DINNER = "ギターを練習する", "夕飯のあとにギターを弾く"


def test_an_item_judged_the_same_as_an_earlier_item_of_the_same_flush_reinforces_it(world):
    world.oracle.rules = [Rule("練習", GUITAR, "hobby/guitar", "habit", 0.7),
                          Rule("夕飯", AFTER_DINNER, "hobby/guitar", "habit", 0.9)]
    world.oracle.judgements = {(GUITAR, AFTER_DINNER): Judgement("SAME", 0.9)}
    first = world.say("2026-11-23T07:00:00+09:00", "朝ギターを練習した")
    second = world.say("2026-11-23T20:00:00+09:00", "夕飯のあとギター")
    report = world.flush("2026-11-23T21:00:00+09:00")
    assert [m.text for m in world.store.all()] == [GUITAR]  # one memory, not two
    guitar = world.mem(GUITAR)
    assert guitar.evidence == [first, second]
    assert (guitar.score, guitar.confidence) == (0.9, 0.9)  # the stronger statement counts
    assert guitar.last_evidence_epoch == at("2026-11-23T20:00:00+09:00").timestamp()
    assert {r["run_id"] for r in world.ledger(guitar.id)} == {report.run_id}
    assert ("reinforced", guitar.id, GUITAR, "", 0, [second]) in changes(report)
    assert {v["memory_id"] for v in world.rows("verdicts")} == {guitar.id}


def test_reinforcing_a_kept_memory_stamps_it_and_keeps_the_stronger_score(world):
    world.oracle.rules = [Rule("練習", GUITAR, "hobby/guitar", "habit", 0.9),
                          Rule("夕飯", AFTER_DINNER, "hobby/guitar", "habit", 0.6)]
    world.oracle.judgements = {(GUITAR, AFTER_DINNER): Judgement("SAME", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "朝ギターを練習した")
    world.flush("2026-11-23T08:00:00+09:00")
    said = world.say("2026-11-24T20:00:00+09:00", "夕飯のあとギター")
    report = world.flush("2026-11-24T21:00:00+09:00")
    guitar = world.mem(GUITAR)
    assert (guitar.score, guitar.confidence, guitar.days) == (0.9, 0.9, 2)  # a weaker repeat lowers nothing
    assert guitar.updated_at == stamp("2026-11-24T21:00:00+09:00")
    assert guitar.last_evidence_epoch == at("2026-11-24T20:00:00+09:00").timestamp()
    assert next(r for r in world.ledger(guitar.id) if r["message_id"] == said)["run_id"] == report.run_id
    assert ("reinforced", guitar.id, GUITAR, "", 0, [said]) in changes(report)


JOG = "毎朝ジョギングする"


def test_new_support_wakes_a_dormant_memory_and_the_rules_decide_again(world):
    world.settings.half_life_days = 10.0
    world.oracle.rules = [Rule("ジョギング", JOG, "health/running", "habit", 0.9)]
    for day in ("23", "24", "25"):
        world.say(f"2026-11-{day}T07:00:00+09:00", "朝ジョギングした")
    world.flush("2026-11-25T08:00:00+09:00")
    world.say("2026-12-30T07:00:00+09:00", "今日は天気がいい")
    world.flush("2026-12-30T08:00:00+09:00")
    assert world.mem(JOG).state == "dormant"  # decayed below 0.1 after 35 days

    said = world.say("2026-12-31T07:00:00+09:00", "久しぶりにジョギングした")
    report = world.flush("2026-12-31T08:00:00+09:00")
    jog = world.mem(JOG)
    assert jog.state == "active" and jog.days == 4  # woken, and 4 days of a habit: Layer 1 again
    kinds = [c.kind for c in report.changes if c.memory_id == jog.id]
    assert kinds[:2] == ["reinforced", "layer1"]
    assert said in jog.evidence


KANAZAWA = "金沢に住んでいる"


def test_superseding_an_active_memory_says_why_it_waits(world):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.95)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    said = world.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    report = world.flush("2026-11-29T20:00:00+09:00")
    kanazawa = world.mem(KANAZAWA)
    [row] = world.queue()
    assert (row["memory_id"], row["action"], row["target_id"], row["reason"], row["confidence"], row["old_text"],
            row["text"]) == (kanazawa.id, "supersede", world.mem(SENDAI).id, "replaces an active Layer 1 memory",
                             0.95, SENDAI, KANAZAWA)
    assert ("queued", kanazawa.id, KANAZAWA, SENDAI, 0, [said]) in changes(report)
    [verdict] = [v for v in world.rows("verdicts") if v["run_id"] == report.run_id]
    assert verdict["memory_id"] == kanazawa.id


def test_a_layer1_promotion_in_review_names_no_target(world):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.6)]
    said = world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    report = world.flush("2026-11-23T22:00:00+09:00")
    memory = world.mem(quiet)
    [row] = world.queue()
    assert (row["action"], row["target_id"], row["old_text"], row["text"], row["confidence"], row["verdict"]) == (
        "layer1", None, "", quiet, 0.6, None)
    assert row["reason"] == "reached Layer 1 on 1 day(s) of evidence; confidence 0.60 is below 0.80"
    assert ("queued", memory.id, quiet, "", 0, [said]) in changes(report)


def test_a_memory_that_becomes_history_closes_its_own_open_review(world):
    green, barley = "毎食緑茶を飲む", "麦茶に切り替えた"
    world.oracle.rules = [Rule("緑茶", green, "drink/daily", "explicit", 0.6),
                          Rule("麦茶", barley, "drink/daily", "habit", 0.8)]
    world.oracle.judgements = {(green, barley): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-25T12:00:00+09:00", "覚えておいて、ご飯のたびに緑茶を飲んでる")
    world.flush("2026-11-25T13:00:00+09:00")
    [row] = world.queue()
    assert row["memory_id"] == world.mem(green).id  # waiting for approval as Layer 1
    world.say("2026-11-28T12:00:00+09:00", "最近は麦茶に切り替えた")
    world.flush("2026-11-28T13:00:00+09:00")
    assert world.mem(green).superseded_by == world.mem(barley).id
    [closed] = world.rows("review_queue")
    assert (closed["status"], closed["resolved_at"]) == ("superseded", stamp("2026-11-28T13:00:00+09:00"))
    assert world.queue() == []


def test_a_pair_the_judge_left_unanswered_goes_to_review_with_that_reason(world):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("帰省", "仙台の実家に帰省した", "home/city", "fact", 0.8)]
    world.oracle.judgements = {(SENDAI, "仙台の実家に帰省した"): Judgement("PERHAPS", 0.9)}  # not a verdict
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-28T12:00:00+09:00", "週末は仙台の実家に帰省してた")
    world.flush("2026-11-28T22:00:00+09:00")
    [row] = world.queue()
    assert (row["action"], row["confidence"]) == ("judge", 0.0)
    assert row["reason"] == "the judge could not tell how this relates to the kept memory; decide yourself"


def test_a_promotion_to_layer1_is_stamped_and_leaves_layer2(world):
    allergy = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", allergy, "health/allergy", "explicit", 0.9)]
    said = world.say("2026-11-23T21:00:00+09:00", "覚えておいて、猫アレルギーなんだ")
    report = world.flush("2026-11-23T22:00:00+09:00")
    memory = world.mem(allergy)
    when = stamp("2026-11-23T22:00:00+09:00")
    assert (memory.state, memory.layer2_until, memory.updated_at) == ("active", None, when)
    assert ("activated", {}, report.run_id, when) in events(world, memory.id)
    assert ("layer1", memory.id, allergy, "", 1, [said]) in changes(report)


SLEEP, TIRED = "最近よく眠れない", "仕事で疲れている"


def test_layer2_promotions_are_counted_recorded_once_and_extended(world):
    world.oracle.rules = [Rule("眠れ", SLEEP, "health/sleep", "habit", 0.7),
                          Rule("疲れ", TIRED, "mood/work", "habit", 0.6)]
    world.oracle.judgements = {(SLEEP, SLEEP): Judgement("SAME", 0.9)}
    first = world.say("2026-11-23T21:30:00+09:00", "最近よく眠れないし仕事で疲れた")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert report.promoted == {"layer1": 0, "layer2": 2}
    assert ("layer2", world.mem(SLEEP).id, SLEEP, "", 2, [first]) in changes(report)
    assert world.mem(SLEEP).layer2_until == at("2026-11-24T22:00:00+09:00").timestamp()

    world.say("2026-11-24T07:00:00+09:00", "昨日も眠れなかった")  # still in Layer 2: extended, not re-announced
    report = world.flush("2026-11-24T08:00:00+09:00")
    assert report.promoted["layer2"] == 1
    assert "layer2" not in [c.kind for c in report.changes if c.memory_id == world.mem(SLEEP).id]
    assert world.mem(SLEEP).layer2_until == at("2026-11-25T08:00:00+09:00").timestamp()


def test_the_rule_functions_on_their_own():
    from monchat.core.memory.rules import required_days
    from monchat.core.memory.rules import effective_confidence, recency
    from monchat.core.memory import MemoryRecord

    assert required_days({"retraction"}) is None  # nothing in Layer 1 comes from a retraction
    assert required_days({"habit", "fact"}) == 2 and required_days({"habit", "correction"}) == 1
    now = at("2026-12-31T12:00:00+09:00")
    half_a_day_ago = now.timestamp() - 43200
    habit = MemoryRecord("h", "t", "s", "habit", "active", confidence=0.8, last_evidence_epoch=half_a_day_ago)
    assert effective_confidence(habit, now, 1.0) == 0.8 * 0.5 ** 0.5  # hours count, not whole days
    unsure = MemoryRecord("u", "t", "s", "habit", "active", confidence=0.0, last_evidence_epoch=half_a_day_ago)
    assert effective_confidence(unsure, now, 1.0) == 0.0
    assert recency(MemoryRecord("n", "t", "s", "fact"), now) == 0.5  # no evidence time: halfway
    assert recency(habit, now) == 1.0 / (1.0 + 0.5 / 30.0)
    month = MemoryRecord("m", "t", "s", "fact", last_evidence_epoch=now.timestamp() - 30 * 86400)
    assert recency(month, now) == 0.5
    future = MemoryRecord("f", "t", "s", "fact", last_evidence_epoch=now.timestamp() + 86400)
    assert recency(future, now) == 1.0  # a clock that went back never makes recency exceed 1


def test_the_cap_weighs_recency_not_only_confidence(world):
    world.settings.layer1_cap = 1
    cat, soba = "猫を二匹飼っている", "蕎麦アレルギーがある"
    world.oracle.rules = [Rule("猫", cat, "pets/cat", "explicit", 0.9),
                          Rule("蕎麦", soba, "health/allergy", "explicit", 0.6)]
    world.say("2026-10-01T21:00:00+09:00", "覚えておいて：猫を二匹飼ってる")
    world.flush("2026-10-01T22:00:00+09:00")
    world.say("2026-11-30T21:00:00+09:00", "覚えておいて：蕎麦アレルギー")
    world.flush("2026-11-30T22:00:00+09:00")
    world.memory.approve(world.mem(soba).id)  # 0.6: approved by the user
    world.say("2026-12-01T09:00:00+09:00", "今日は天気がいい")
    report = world.flush("2026-12-01T10:00:00+09:00")
    # cat: 0.9 × 1/(1 + 61/30) ≈ 0.30; soba: 0.6 × 1/(1 + 0.5/30) ≈ 0.59: the old one sleeps
    assert world.mem(cat).state == "dormant" and world.mem(soba).state == "active"
    assert [c.memory_id for c in report.changes if c.kind == "dormant"] == [world.mem(cat).id]


def test_a_new_memory_row_and_its_events_say_where_it_came_from(world):
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "fact", 0.9, persona="lifestyle"),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.7)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.9, MERGED)}
    first = world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    report = world.flush("2026-11-23T13:00:00+09:00")
    ramen = world.mem(RAMEN)
    when = stamp("2026-11-23T13:00:00+09:00")
    assert (ramen.score, ramen.confidence, ramen.persona, ramen.style, ramen.created_at, ramen.updated_at,
            ramen.created_run, ramen.valid_at) == (0.9, 0.9, "lifestyle", "reinforced", when, when, report.run_id,
                                                   stamp("2026-11-23T12:30:00+09:00"))
    assert events(world, ramen.id)[0] == ("new", {}, report.run_id, when)
    [new] = [c for c in report.changes if c.kind == "new"]
    assert new.evidence == [{"id": first, "ts": stamp("2026-11-23T12:30:00+09:00"), "text": "昼にラーメン食べた"}]

    world.say("2026-11-23T19:30:00+09:00", "味噌が一番")
    report = world.flush("2026-11-23T20:00:00+09:00")
    merged = world.mem(MERGED)
    assert ("merged", {"old_text": RAMEN}, report.run_id, stamp("2026-11-23T20:00:00+09:00")) \
        in events(world, merged.id)


def test_a_woken_habit_with_two_contradictions_goes_pending_not_to_layer1(world):
    world.settings.half_life_days = 10.0
    skipped = "朝はジョギングを休んだ"
    world.oracle.rules = [Rule("ジョギングした", JOG, "health/running", "habit", 0.9),
                          Rule("休んだ", skipped, "health/running", "habit", 0.8)]
    world.oracle.judgements = {(JOG, skipped): Judgement("CONTRADICT", 0.9)}
    for day in ("23", "24", "25"):
        world.say(f"2026-11-{day}T07:00:00+09:00", "朝ジョギングした")
    world.flush("2026-11-25T08:00:00+09:00")
    world.say("2026-12-30T07:00:00+09:00", "今日は天気がいい")
    world.flush("2026-12-30T08:00:00+09:00")
    assert world.mem(JOG).state == "dormant"
    for day in ("30", "31"):  # contradicted twice while dormant: flagged, kept dormant
        world.say(f"2026-12-{day}T09:00:00+09:00", "朝はジョギングを休んだ")
        world.flush(f"2026-12-{day}T10:00:00+09:00")
    assert (world.mem(JOG).state, world.mem(JOG).contradictions) == ("dormant", 2)

    said = world.say("2027-01-01T07:00:00+09:00", "久しぶりにジョギングした")
    report = world.flush("2027-01-01T08:00:00+09:00")
    jog = world.mem(JOG)
    assert (jog.state, jog.days, jog.updated_at) == ("pending", 4, stamp("2027-01-01T08:00:00+09:00"))
    assert ("pending", jog.id, JOG, "", 0, [said]) in changes(report)  # the line that woke it
    assert [c.kind for c in report.changes if c.memory_id == jog.id] == ["reinforced", "pending"]
    assert report.promoted["layer1"] == 0 and JOG not in world.prompt()


def test_every_verdict_on_an_unsure_retraction_points_at_the_retraction(world):
    _, report = _two_plans(world, rust=0.4, go=0.6)
    drop = world.mem(DROP_RUST)
    verdicts = [v for v in world.rows("verdicts") if v["run_id"] == report.run_id]
    assert sorted(v["target_id"] for v in verdicts) == sorted([world.mem(RUST).id, world.mem(GO).id])
    assert {v["memory_id"] for v in verdicts} == {drop.id}  # `memory history` finds the judgement from it


def test_a_retracted_memory_closes_its_own_open_review(world):
    green, drop = "毎食緑茶を飲む", "緑茶の話は忘れて"
    world.oracle.rules = [Rule("緑茶を飲んでる", green, "drink/daily", "explicit", 0.6),
                          Rule("忘れて", drop, "drink/daily", "retraction", 0.8)]
    world.oracle.judgements = {(green, drop): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-25T12:00:00+09:00", "覚えておいて、ご飯のたびに緑茶を飲んでる")
    world.flush("2026-11-25T13:00:00+09:00")
    [row] = world.queue()
    assert (row["memory_id"], world.mem(green).state) == (world.mem(green).id, "queued")  # 0.6: asks first
    world.say("2026-11-28T12:00:00+09:00", "やっぱり緑茶の話は忘れて")
    world.flush("2026-11-28T13:00:00+09:00")
    assert world.mem(green).superseded_by == world.mem(drop).id and world.mem(green).state == "retracted"
    [closed] = world.rows("review_queue")
    assert (closed["status"], closed["resolved_at"]) == ("superseded", stamp("2026-11-28T13:00:00+09:00"))
    assert world.queue() == []


def test_support_raises_a_memory_scored_zero_to_the_supports_score_and_no_higher(world):
    world.oracle.rules = [Rule("練習", GUITAR, "hobby/guitar", "habit", 0.0),
                          Rule("夕飯", AFTER_DINNER, "hobby/guitar", "habit", 0.6)]
    world.oracle.judgements = {(GUITAR, AFTER_DINNER): Judgement("SAME", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "朝ギターを練習した")
    world.flush("2026-11-23T08:00:00+09:00")
    assert (world.mem(GUITAR).score, world.mem(GUITAR).confidence, world.layer(GUITAR)) == (0.0, 0.0, 0)
    world.say("2026-11-24T20:00:00+09:00", "夕飯のあとギター")
    world.flush("2026-11-24T21:00:00+09:00")
    guitar = world.mem(GUITAR)
    assert (guitar.score, guitar.confidence, guitar.days) == (0.6, 0.6, 2)
    assert world.layer(GUITAR) == 2  # 0.6 ≥ 0.5: in Layer 2 now


def test_approving_a_waiting_memory_moves_it_to_layer1_and_stamps_the_approval(world):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    waiting = world.mem(quiet)
    assert (waiting.state, waiting.layer2_until) == ("queued", None)  # waiting means waiting: not recent (issue 45)

    world.clock.now = at("2026-11-24T09:00:00+09:00")
    world.memory.approve(waiting.id)
    approved = world.mem(quiet)
    when = stamp("2026-11-24T09:00:00+09:00")
    assert (approved.state, approved.layer2_until, approved.updated_at) == ("active", None, when)
    assert ("activated", {}, None, when) in events(world, approved.id)  # approved by hand: no flush run
    assert world.layer(quiet) == 1


def test_a_memory_keeps_the_style_of_the_persona_that_noticed_it(world):
    world.oracle.rules = [Rule("ラーメン", RAMEN, "food/ramen", "fact", 0.9, persona="base"),
                          Rule("コーヒー", COFFEE, "drink/morning", "habit", 0.9, persona="lifestyle")]
    world.say("2026-11-23T08:00:00+09:00", "朝はやっぱりコーヒー")
    world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.flush("2026-11-23T13:00:00+09:00")
    assert (world.mem(RAMEN).persona, world.mem(RAMEN).style) == ("base", "timeline")
    assert (world.mem(COFFEE).persona, world.mem(COFFEE).style) == ("lifestyle", "reinforced")


UNSAID = "Loves every animal deeply"


@pytest.mark.parametrize("score", [0.7, 0.0])
def test_an_item_not_in_the_users_words_is_dropped_with_its_rule_and_leaves_no_trace(world, score):
    """It used to wait for review as "not found in your words"; the guard drops it (issue 22): no memory,
    no review, no audit line, and the run's record lists it with the rule."""
    world.oracle.rules = [Rule("猫", UNSAID, "pets/cat", "explicit", score)]
    said = world.say("2026-11-23T21:00:00+09:00", "猫を二匹飼ってる")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert not world.has(UNSAID) and world.queue() == [] and world.rows("memory_events") == []
    dropped = [d for d in report.dropped_items if d["text"] == UNSAID]
    assert dropped and {(d["rule"], d["category"], tuple(d["evidence"])) for d in dropped} == {
        ("not_their_words", "words", (said,))}
    assert dropped[0]["reason"] == "shares nothing with the user's lines it cites"
    [run] = world.flusher.runs(1)
    assert [d["rule"] for d in run["dropped"] if d["text"] == UNSAID] == ["not_their_words"] * len(dropped)
    assert report.changes == [] and report.promoted == {"layer1": 0, "layer2": 0} and UNSAID not in world.prompt()


def test_an_unanswered_review_expires_on_record_and_the_memory_returns_to_candidate(world):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    [row] = world.queue()

    world.say("2026-12-01T10:00:00+09:00", "天気が崩れそう")  # past the 7-day deadline
    report = world.flush("2026-12-01T11:00:00+09:00")
    when = stamp("2026-12-01T11:00:00+09:00")
    memory = world.mem(quiet)
    assert (memory.state, memory.updated_at) == ("candidate", when)
    [closed] = world.rows("review_queue")
    assert (closed["status"], closed["resolved_at"]) == ("expired", when)
    assert ("expired", {"queue": row["id"], "action": "layer1"}, report.run_id, when) in events(world, memory.id)
    assert ("expired", memory.id, quiet, "", 0, []) in changes(report)


@pytest.mark.parametrize("when, status", [("2026-11-30T22:00:00+09:00", "open"),  # exactly 7 days: still open
                                          ("2026-11-30T22:01:00+09:00", "expired")])
def test_a_review_expires_only_after_its_deadline(world, when, status):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.6)]
    world.say("2026-11-23T21:00:00+09:00", "実は猫アレルギーなんだ")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.queue()[0]["deadline_epoch"] == at("2026-11-30T22:00:00+09:00").timestamp()
    world.say("2026-11-30T21:00:00+09:00", "天気が崩れそう")
    world.flush(when)
    assert world.rows("review_queue")[0]["status"] == status
    assert world.mem(quiet).state == ("queued" if status == "open" else "candidate")


def test_an_expired_retraction_review_leaves_both_memories_as_they_were(world):
    world.oracle.rules = [Rule("覚えておいて", SENDAI, "home/city", "explicit", 0.9),
                          Rule("忘れて", DROP_SENDAI, "home/city", "retraction", 0.85)]
    world.oracle.judgements = {(SENDAI, DROP_SENDAI): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-24T21:00:00+09:00", "仙台の話はもう忘れて")
    world.flush("2026-11-24T22:00:00+09:00")
    assert [r["action"] for r in world.queue()] == ["retract"]

    world.say("2026-12-02T10:00:00+09:00", "天気が崩れそう")  # the deadline passed unanswered
    report = world.flush("2026-12-02T11:00:00+09:00")
    assert world.rows("review_queue")[0]["status"] == "expired"
    assert world.mem(DROP_SENDAI).state == "retraction"  # a retraction is never a candidate memory
    assert world.mem(SENDAI).state == "active" and f"- {SENDAI}" in world.prompt()
    assert ("expired", world.mem(DROP_SENDAI).id) in [(c.kind, c.memory_id) for c in report.changes]


def test_a_memory_scored_zero_waits_for_review_even_with_enough_days(world):
    quiet = "猫アレルギーがある"
    world.oracle.rules = [Rule("猫", quiet, "health/allergy", "explicit", 0.0)]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて、猫アレルギーなんだ")
    report = world.flush("2026-11-23T22:00:00+09:00")
    memory = world.mem(quiet)
    assert (memory.state, memory.updated_at) == ("queued", stamp("2026-11-23T22:00:00+09:00"))
    [row] = world.queue()
    assert (row["action"], row["confidence"]) == ("layer1", 0.0)
    assert row["reason"] == "reached Layer 1 on 1 day(s) of evidence; confidence 0.00 is below 0.80"
    assert report.promoted["layer1"] == 0


def test_asked_to_approve_every_layer1_change_the_review_says_so(world):
    world.settings.ask_before_layer1 = True
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.95)]
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    [row] = world.queue()
    assert row["reason"] == "reached Layer 1 on 1 day(s) of evidence; you asked to approve every Layer 1 change"


CITY_PLANS = (SENDAI, "金沢に住んでいる", "金沢に引っ越すかも")


def test_an_unsure_item_asks_about_the_likeliest_target(world):
    sendai, kanazawa, maybe = CITY_PLANS
    world.oracle.rules = [Rule("仙台", sendai, "home/city", "fact", 0.8),
                          Rule("金沢に住", kanazawa, "home/city", "fact", 0.8),
                          Rule("引っ越す", maybe, "home/city", "fact", 0.8)]
    world.oracle.judgements = {(sendai, maybe): Judgement("SUPERSEDE", 0.4, reasoning="仙台から"),
                               (kanazawa, maybe): Judgement("SAME", 0.6, reasoning="金沢の話")}
    world.say("2026-11-23T21:10:00+09:00", "仙台の実家の話")
    world.say("2026-11-23T21:15:00+09:00", "金沢に住んでみたい")
    world.flush("2026-11-23T22:00:00+09:00")
    said = world.say("2026-11-27T21:00:00+09:00", "来年は金沢に引っ越すかも")
    report = world.flush("2026-11-27T22:00:00+09:00")
    queued = world.mem(maybe)
    [row] = world.queue()
    assert (row["memory_id"], row["action"], row["target_id"], row["confidence"], row["verdict"]) == (
        queued.id, "judge", world.mem(kanazawa).id, 0.6, "SAME")
    assert row["reason"] == "the judge leaned to SAME but was unsure (confidence 0.60): 金沢の話"
    assert ("queued", queued.id, maybe, kanazawa, 0, [said]) in changes(report)
    verdicts = [v for v in world.rows("verdicts") if v["run_id"] == report.run_id]
    assert len(verdicts) == 2 and {v["memory_id"] for v in verdicts} == {queued.id}
