"""The judge's answer is bounded by its batch: one verdict per pair shown, only those pairs' ids.

A small model otherwise goes on adding verdicts until its answer is cut off; a grammar built from the
schema (llama.cpp's) then cannot name a pair that was not asked about. Through the real flush.
"""

from __future__ import annotations

from monchat.core.flush.judge import JUDGE_SCHEMA
from tests.flush.conftest import Rule
from tests.support.oracle import parse_pairs

GUITAR = "ギターを練習する"


def test_each_judge_call_allows_one_verdict_per_pair_it_shows_and_only_their_ids(world):
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.7)]
    world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した")
    world.flush("2026-11-23T23:30:00+09:00")
    world.oracle.rules = [Rule("指", "ギターの練習で指が痛くなる", "hobby/guitar", "habit", 0.7),
                          Rule("ベース", "ベースも弾く", "hobby/guitar", "fact", 0.7)]
    world.say("2026-11-25T21:00:00+09:00", "ギターの練習で指が痛い、ベースも少し")
    world.flush("2026-11-25T23:30:00+09:00")
    calls = world.oracle.judge_calls
    assert calls, "the second flush judges the new guitar item against the kept one"
    for call in calls:
        verdicts = call["schema"]["properties"]["verdicts"]
        shown = [pair_id for pair_id, _old, _new in parse_pairs(call["user"])]
        assert verdicts["maxItems"] == len(shown) >= 1
        assert verdicts["items"]["properties"]["pair"]["enum"] == shown
        assert verdicts["items"]["required"] == JUDGE_SCHEMA["properties"]["verdicts"]["items"]["required"]


def test_a_small_answer_room_judges_fewer_pairs_per_call(world):
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.7)]
    world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した")
    world.flush("2026-11-23T23:30:00+09:00")
    world.oracle.JSON_ANSWER_RESERVE = 300  # room for three verdicts (VERDICT_TOKENS 100), as a small model has
    world.oracle.rules = [Rule("指", "ギターの練習で指が痛くなる", "hobby/guitar", "habit", 0.7),
                          Rule("ベース", "ベースも弾く", "hobby/guitar", "fact", 0.7),
                          Rule("弦", "弦を張り替えた", "hobby/guitar", "fact", 0.7)]
    world.say("2026-11-25T21:00:00+09:00", "ギターの練習で指が痛い、ベースも少し、弦を張り替えた")
    world.flush("2026-11-25T23:30:00+09:00")
    sizes = [len(parse_pairs(call["user"])) for call in world.oracle.judge_calls]
    assert sum(sizes) >= 4 and max(sizes) == 3  # every pair judged, never more than three at once
    assert all(call["schema"]["properties"]["verdicts"]["maxItems"] == len(parse_pairs(call["user"]))
               for call in world.oracle.judge_calls)
