"""Rules that meet inside one flush: several changes of a kind, and items that build on earlier items.

A flush weighs its items one after another, and a later item may aim at what an
earlier one just became (a merged memory, a memory superseded a moment ago).
Each test here failed a mutant that left every single-change test green
(scripts/mutation, docs/testing.md).
"""

from __future__ import annotations

from tests.flush.conftest import Judgement, Rule, at

RAMEN, MISO, MERGED = "ラーメンが好き", "特に味噌ラーメン", "ラーメンが好きで、特に味噌ラーメン"
SOBA, TEMPURA, SOBA_MERGED = "蕎麦が好き", "天ぷら蕎麦が一番", "蕎麦が好きで、天ぷら蕎麦が一番"
RUST, GO, ZIG = "Rustを勉強したい", "Goを勉強したい", "Zigを勉強する"
GUITAR, STRINGS = "ギターを練習する", "弦を張り替えた"


def test_two_merges_in_one_flush_are_both_counted(world):
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "fact", 0.9),
                          Rule("蕎麦食べた", SOBA, "food/soba", "fact", 0.9),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.9),
                          Rule("天ぷら", TEMPURA, "food/soba", "fact", 0.9)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.9, MERGED),
                               (SOBA, TEMPURA): Judgement("MERGE", 0.9, SOBA_MERGED)}
    world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.say("2026-11-23T19:30:00+09:00", "夜は蕎麦食べた")
    world.flush("2026-11-23T20:00:00+09:00")

    world.say("2026-11-24T12:30:00+09:00", "味噌が一番")
    world.say("2026-11-24T19:30:00+09:00", "天ぷらがのったのが一番")
    report = world.flush("2026-11-24T20:00:00+09:00")
    assert world.mem(RAMEN).superseded_by == world.mem(MERGED).id
    assert world.mem(SOBA).superseded_by == world.mem(SOBA_MERGED).id
    assert report.superseded == 2  # one count per merge, not "at least one"


def test_two_retractions_in_one_flush_are_both_counted(world):
    drop_rust, drop_go = "Rustの勉強はやめる", "Goの勉強もやめる"
    world.oracle.rules = [Rule("Rustを勉強", RUST, "study/rust", "fact", 0.8),
                          Rule("Goを勉強", GO, "study/go", "fact", 0.8),
                          Rule("Rustの勉強は", drop_rust, "study/rust", "retraction", 0.8),
                          Rule("Goの勉強も", drop_go, "study/go", "retraction", 0.8)]
    world.oracle.judgements = {(RUST, drop_rust): Judgement("SUPERSEDE", 0.9),
                               (GO, drop_go): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-24T21:00:00+09:00", "Rustを勉強したいんだよね")
    world.say("2026-11-24T21:05:00+09:00", "Goを勉強したいとも思う")
    world.flush("2026-11-24T22:00:00+09:00")

    world.say("2026-11-27T21:00:00+09:00", "Rustの勉強はやめる")
    world.say("2026-11-27T21:05:00+09:00", "Goの勉強もやめる")
    report = world.flush("2026-11-27T22:00:00+09:00")
    assert world.mem(RUST).superseded_by == world.mem(drop_rust).id
    assert world.mem(GO).superseded_by == world.mem(drop_go).id
    assert world.mem(RUST).state == world.mem(GO).state == "retracted"
    assert report.superseded == 2


def test_an_item_judged_the_same_as_a_merged_item_reinforces_the_merged_memory(world):
    shop = "ラーメン屋によく行く"
    world.oracle.rules = [Rule("ラーメン食べた", RAMEN, "food/ramen", "fact", 0.9),
                          Rule("味噌", MISO, "food/ramen", "fact", 0.9),
                          Rule("ラーメン屋", shop, "food/ramen", "fact", 0.9)]
    world.oracle.judgements = {(RAMEN, MISO): Judgement("MERGE", 0.9, MERGED),
                               (MISO, shop): Judgement("SAME", 0.9)}  # the earlier item of the same flush
    first = world.say("2026-11-23T12:30:00+09:00", "昼にラーメン食べた")
    world.flush("2026-11-23T13:00:00+09:00")

    second = world.say("2026-11-24T12:30:00+09:00", "味噌が一番")
    third = world.say("2026-11-24T19:30:00+09:00", "またラーメン屋に行った")
    report = world.flush("2026-11-24T20:00:00+09:00")
    assert ("item:0", "SAME") in [(v["target_id"], v["verdict"]) for v in world.rows("verdicts")
                                  if v["run_id"] == report.run_id]
    merged = world.mem(MERGED)
    assert not world.has(shop) and not world.has(MISO)  # the third line became support, not a memory
    assert sorted(merged.evidence) == sorted([first, second, third])
    assert ("reinforced", merged.id) in [(c.kind, c.memory_id) for c in report.changes]


def test_a_retraction_whose_first_target_left_earlier_in_the_flush_takes_back_the_next(world):
    # Judged before the flush changed anything, the retraction was sure about two memories. By the
    # time it is weighed, Rust was superseded by Zig (an earlier line of the same flush): the
    # retraction goes on to the next sure target instead of being dropped.
    drop = "勉強はやめる"
    world.oracle.rules = [Rule("Rustを勉強", RUST, "study/language", "fact", 0.8),
                          Rule("Goを勉強", GO, "study/language", "fact", 0.8),
                          Rule("Zig", ZIG, "study/language", "fact", 0.8),
                          Rule("勉強はやめる", drop, "study/language", "retraction", 0.8)]
    world.oracle.judgements = {(RUST, ZIG): Judgement("SUPERSEDE", 0.9),
                               (RUST, drop): Judgement("SUPERSEDE", 0.9),  # sorted first (SUPERSEDE …
                               (GO, drop): Judgement("CONTRADICT", 0.9)}  # … before CONTRADICT)
    world.say("2026-11-24T21:00:00+09:00", "Rustを勉強したいんだよね")
    world.say("2026-11-24T21:05:00+09:00", "Goを勉強したいとも思う")
    world.flush("2026-11-24T22:00:00+09:00")

    world.say("2026-11-27T21:00:00+09:00", "RustじゃなくてZigを勉強する")
    world.say("2026-11-27T21:05:00+09:00", "Goの方はもう勉強はやめる")
    report = world.flush("2026-11-27T22:00:00+09:00")
    rust, go, retraction = world.mem(RUST), world.mem(GO), world.mem(drop)
    assert (rust.state, rust.superseded_by) == ("superseded", world.mem(ZIG).id)
    assert (go.state, go.superseded_by) == ("retracted", retraction.id)
    assert report.dropped_items == [] and report.superseded == 2
    assert GO not in world.prompt()


def test_a_later_item_citing_older_lines_does_not_move_the_last_evidence_back(world):
    # Decay and recency count from the latest support. The guitar item cites the morning and the
    # evening; the strings item (weighed after it, judged the same) cites only noon.
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.8),
                          Rule("弦", STRINGS, "hobby/guitar", "habit", 0.8)]
    world.oracle.judgements = {(GUITAR, STRINGS): Judgement("SAME", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "朝ギターを練習した")
    noon = world.say("2026-11-23T12:00:00+09:00", "昼休みに弦を張り替えた")
    world.say("2026-11-23T20:00:00+09:00", "夜もギターを練習した")
    world.flush("2026-11-23T21:00:00+09:00")
    guitar = world.mem(GUITAR)
    assert not world.has(STRINGS) and noon in guitar.evidence
    assert guitar.last_evidence_epoch == at("2026-11-23T20:00:00+09:00").timestamp()


def test_two_promotions_to_layer1_in_one_flush_are_both_counted(world):
    world.oracle.rules = [Rule("猫", "猫を二匹飼っている", "pets/cat", "explicit", 0.9),
                          Rule("蕎麦", "蕎麦アレルギーがある", "health/allergy", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：猫を二匹飼ってる")
    world.say("2026-11-23T21:01:00+09:00", "覚えておいて：蕎麦アレルギー")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert world.mem("猫を二匹飼っている").state == world.mem("蕎麦アレルギーがある").state == "active"
    assert report.promoted["layer1"] == 2


def test_an_item_whose_first_target_left_earlier_in_the_flush_is_weighed_against_the_next(world):
    # As with retractions: judged against the memories before the flush, weighed after Zig took
    # Rust's place. The contradiction of Go still counts; the item does not become a memory.
    no_go = "Goは勉強しない"
    world.oracle.rules = [Rule("Rustを勉強", RUST, "study/language", "fact", 0.8),
                          Rule("Goを勉強", GO, "study/language", "fact", 0.8),
                          Rule("Zig", ZIG, "study/language", "fact", 0.8),
                          Rule("Goは勉強しない", no_go, "study/language", "fact", 0.8)]
    world.oracle.judgements = {(RUST, ZIG): Judgement("SUPERSEDE", 0.9),
                               (RUST, no_go): Judgement("SUPERSEDE", 0.9),  # sorted before …
                               (GO, no_go): Judgement("CONTRADICT", 0.9)}  # … the contradiction
    world.say("2026-11-24T21:00:00+09:00", "Rustを勉強したいんだよね")
    world.say("2026-11-24T21:05:00+09:00", "Goを勉強したいとも思う")
    world.flush("2026-11-24T22:00:00+09:00")
    world.say("2026-11-27T21:00:00+09:00", "RustじゃなくてZigを勉強する")
    world.say("2026-11-27T21:05:00+09:00", "やっぱりGoは勉強しない")
    world.flush("2026-11-27T22:00:00+09:00")
    assert world.mem(RUST).superseded_by == world.mem(ZIG).id
    assert world.mem(GO).contradictions == 1 and not world.has(no_go)
