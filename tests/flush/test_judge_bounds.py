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
    world.oracle.rules = [Rule("guitar", "I practise the guitar", "hobby/guitar", "habit", 0.7)]
    world.say("2026-11-23T21:00:00+09:00", "I practised the guitar for an hour tonight")
    world.flush("2026-11-23T23:30:00+09:00")
    world.oracle.JSON_ANSWER_RESERVE = 300  # room for three verdicts (VERDICT_TOKENS 100), as a small model has
    world.oracle.rules = [Rule("fingers", "My fingers hurt from the guitar", "hobby/guitar", "habit", 0.7),
                          Rule("bass", "I play the bass too", "hobby/guitar", "fact", 0.7),
                          Rule("strings", "I changed the strings", "hobby/guitar", "fact", 0.7)]
    world.say("2026-11-25T21:00:00+09:00", "my fingers hurt from the guitar, I play the bass too, changed the strings")
    world.flush("2026-11-25T23:30:00+09:00")
    sizes = [len(parse_pairs(call["user"])) for call in world.oracle.judge_calls]
    assert sum(sizes) >= 4 and max(sizes) == 3  # every pair judged, never more than three at once
    assert all(call["schema"]["properties"]["verdicts"]["maxItems"] == len(parse_pairs(call["user"]))
               for call in world.oracle.judge_calls)


def worst_case_tokens(backend, texts: list[tuple[int, str]], frame: int) -> int:
    """Tokens of an answer whose every text runs to its limit, written like ``sample``, with ``frame`` each."""
    return sum(backend.count_text((sample * limit)[:limit]) + frame for limit, sample in texts)


def test_on_a_small_answer_room_even_a_full_judge_answer_fits(world):
    from monchat.core.flush.judge import VERDICT_FRAME
    world.oracle.rules = [Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.7)]
    world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した")
    world.flush("2026-11-23T23:30:00+09:00")
    world.oracle.JSON_ANSWER_RESERVE = 640  # the embedded model's allowance
    world.oracle.rules = [Rule("指", "ギターの練習で指が痛くなる", "hobby/guitar", "habit", 0.7),
                          Rule("ベース", "ベースも弾く", "hobby/guitar", "fact", 0.7),
                          Rule("弦", "弦を張り替えた", "hobby/guitar", "fact", 0.7)]
    world.say("2026-11-25T21:00:00+09:00", "ギターの練習で指が痛い、ベースも少し、弦を張り替えた")
    world.flush("2026-11-25T23:30:00+09:00")
    assert world.oracle.judge_calls, "the second flush judges its items against the kept one (the first had none)"
    for call in world.oracle.judge_calls:
        item = call["schema"]["properties"]["verdicts"]["items"]["properties"]
        reasoning, merged = item["reasoning"]["maxLength"], item["merged_text"]["maxLength"]
        assert reasoning < 400 and merged < 300  # Japanese takes more tokens a character: shorter than on a server …
        pairs = call["schema"]["properties"]["verdicts"]["maxItems"]
        full = worst_case_tokens(world.oracle, [(reasoning + merged, "ギターの練習で指が痛くなる")] * pairs, VERDICT_FRAME)
        assert full <= 640  # … so that a verdict for every pair, each text at its limit, is not cut off


def test_on_a_small_answer_room_reflect_asks_for_three_short_entries_of_each_and_a_server_for_five(world):
    from monchat.core.background.reflect import SLOT_TOKENS
    world.oracle.rules = [Rule("guitar", "I practise the guitar", "hobby/guitar", "habit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "I practise the guitar every night")
    world.flush("2026-11-23T23:30:00+09:00")
    server = world.oracle.reflect_calls[-1]["schema"]["properties"]["insights"]
    assert (server["maxItems"], server["items"]["properties"]["text"]["maxLength"]) == (5, 300)
    world.oracle.JSON_ANSWER_RESERVE = 640
    world.say("2026-11-24T21:00:00+09:00", "guitar again tonight")
    world.flush("2026-11-24T23:30:00+09:00")
    small = world.oracle.reflect_calls[-1]["schema"]["properties"]
    most, text_max = small["insights"]["maxItems"], small["insights"]["items"]["properties"]["text"]["maxLength"]
    assert most == small["gaps"]["maxItems"] == 3 and text_max < 300
    assert worst_case_tokens(world.oracle, [(text_max, "I practise the guitar")] * 6, SLOT_TOKENS) <= 640
