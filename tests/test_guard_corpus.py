"""The guard judged on both sides at once, over a labelled corpus (``tests/data/guard_corpus/``, issue 43).

Each case's verdict (kept, review, dropped) is checked, so every rule and word list of the guard stands on cases:
taking a rule out keeps some junk or drops some honest distillation, and a case here fails. The figures the
corpus gives (``benchmarks/run --only guard``) are held to the issue's goal: no junk kept, at most 3 % of the
honest cases dropped, in each language.
"""

from __future__ import annotations

import pytest

from monchat.core.memory.guard import GuardRule, check_item, content_words, loops, restated, touches
from monchat.core.memory.guard_lean import negation_turned, turned
from monchat.core.memory.guard_unsure import MAX_UNSURE_ADDED, UNSURE_REASON, invented_claim, is_unsure, swapped
from monchat.core.memory.guard_words import CATEGORY_EN, CATEGORY_JA, DISTILLING_EN, DISTILLING_JA
from tests.support.guard_corpus import LANGUAGES, cases, recorded_cases, tally, verdict

CASES = cases()
MAX_HONEST_DROPPED_PCT = 3.0


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_each_case_gets_its_verdict(case):
    got, rule = verdict(case)
    assert got == case["verdict"], f"{case['id']} ({case['label']}, {case['kind']}): {got} by {rule or 'no rule'}"
    if case["label"] == "junk":
        assert got != "kept"


def test_the_corpus_is_large_enough_on_both_sides():
    for language in LANGUAGES:
        mine = [case for case in CASES if case["lang"] == language]
        assert sum(case["label"] == "honest" for case in mine) >= 100, language
        assert sum(case["label"] == "junk" for case in mine) >= 100, language
    assert sum(case["label"] == "honest" for case in CASES) >= 200
    assert sum(case["label"] == "junk" for case in CASES) >= 200


def test_no_junk_is_kept_and_few_honest_cases_are_dropped_in_each_language():
    figures = tally(CASES)
    for language in LANGUAGES:
        assert figures[language]["junk_kept"] == 0, figures[language]["junk_kept_by_kind"]
        assert figures[language]["honest_dropped_pct"] <= MAX_HONEST_DROPPED_PCT, \
            figures[language]["honest_dropped_cases"]


def test_every_recorded_smollm2_item_is_refused():
    recorded = recorded_cases()
    assert len(recorded) >= 10  # both evenings' filter answers
    assert all(verdict(case)[0] == "dropped" for case in recorded)


# ---- the rules added for recall, one by one -----------------------------------------------------------
def test_a_reinforcement_in_the_kept_memorys_words_is_the_users():
    memory = "Runs 30 minutes every morning"
    jog = ["went for my morning jog, still keeping it up"]
    assert check_item(memory, "exercise/running", jog) is GuardRule.NOT_THEIR_WORDS  # without the memory
    assert restated(memory, [memory, "Drinks green tea"]) == [memory]
    assert touches(memory, jog)  # "morning": the memory and the line meet
    assert check_item(memory, "exercise/running", jog, known_texts=[memory]) is None
    assert check_item("毎朝30分走っている", "exercise/running", ["今朝もジョギングしてきた、続いてるよ"],
                      known_texts=["毎朝30分走っている"]) is None


def test_a_kept_memory_never_lends_its_words_to_a_line_about_something_else():
    assert check_item("Has a cat", "pet/cat", ["I have a dog"], known_texts=["Has a cat"]) is GuardRule.NOT_THEIR_WORDS
    assert check_item("猫を飼っている", "pet/cat", ["犬を飼っている"], known_texts=["猫を飼っている"]) \
        is GuardRule.NOT_THEIR_WORDS
    # a memory the item does not restate lends nothing
    assert restated("Has a dog called Kuro", ["Drinks green tea", "Lives in Osaka"]) == []


@pytest.mark.parametrize("text, said", [("User's editor is VS Code", "I write it all in VS Code"),
                                        ("Hobby is bouldering", "Bouldering is what keeps me sane"),
                                        ("エディタはVS Code", "全部VS Codeで書いてる"),
                                        ("趣味はボルダリング", "ボルダリングのおかげで正気を保ってる")])
def test_a_category_noun_is_a_distilling_word(text, said):
    assert check_item(text, "misc/note", [said]) is None


def test_the_lists_are_per_language_and_hold_no_claim():
    assert {"editor", "hobby", "hometown"} <= CATEGORY_EN and {"趣味", "出身", "好物"} <= set(CATEGORY_JA)
    assert {"usually", "user", "morning"} <= DISTILLING_EN and {"ユーザー", "最近", "朝"} <= set(DISTILLING_JA)
    for claim in ("dog", "cat", "coffee", "tea", "osaka", "password"):
        assert claim not in DISTILLING_EN | CATEGORY_EN
    for claim in ("犬", "猫", "珈琲", "緑茶"):
        assert claim not in DISTILLING_JA + CATEGORY_JA


def test_a_loop_is_refused_even_in_the_users_words():
    text = "I'm moving to Fukuoka. I'm moving to Fukuoka. I'm moving to Fukuoka."
    assert loops(text) and check_item(text, "home/city", ["I'm moving to Fukuoka"]) is GuardRule.LOOPS
    assert check_item("福岡に引っ越す。福岡に引っ越す。福岡に引っ越す。", "home/city", ["福岡に引っ越す"]) is GuardRule.LOOPS


@pytest.mark.parametrize("text, said", [("Likes cilantro", "I hate cilantro, it tastes like soap to me"),
                                        ("Loves long meetings", "I can't stand long meetings"),
                                        ("パクチーが好き", "パクチーは苦手、石けんの味がする")])
def test_liking_what_the_user_dislikes_is_turned_round(text, said):
    assert turned(text, [said])
    assert check_item(text, "food/taste", [said]) is GuardRule.ADDS_WORDS


@pytest.mark.parametrize("text, said", [("Dislikes cilantro", "I hate cilantro, it tastes like soap to me"),
                                        ("Does not like long meetings", "I don't like long meetings"),
                                        ("パクチーが苦手", "パクチーは苦手")])
def test_the_same_leaning_is_not_turned(text, said):
    assert not turned(text, [said])


@pytest.mark.parametrize("text, said", [("Drinks coffee, not green tea", "I don't drink coffee, only green tea"),
                                        ("緑茶ではなくコーヒーを飲む", "コーヒーは飲まない、緑茶だけ")])
def test_saying_no_to_what_the_user_said_yes_to_is_turned_round(text, said):
    assert negation_turned(text, [said])
    assert not negation_turned("Drinks green tea, not coffee", ["I don't drink coffee, only green tea"])
    assert check_item(text, "drink/daily", [said]) is GuardRule.ADDS_WORDS


# ---- unsure: the review queue, not the bin --------------------------------------------------------------
def test_a_words_rule_broken_by_a_distillation_goes_to_review():
    text, said = "Sleeps badly when stressed", ["When I'm stressed I can't sleep at all"]
    rule = check_item(text, "health/sleep", said)
    assert rule is GuardRule.ADDS_WORDS and is_unsure(text, rule, said)
    assert UNSURE_REASON == "monchat is not sure these are your words: compare them with what you said"


def test_a_restated_memory_whose_words_the_line_does_not_show_goes_to_review():
    memory, said = "Goes swimming on weekends", ["pool on Saturday again, 1 km today"]
    rule = check_item(memory, "exercise/swimming", said, known_texts=[memory])
    assert rule is GuardRule.NOT_THEIR_WORDS and is_unsure(memory, rule, said, [memory])
    assert not is_unsure(memory, rule, said, [])  # restating nothing kept: a stranger


@pytest.mark.parametrize("text, said, why", [
    ("Moving to Fukuoka next month, and my password is hunter2", "I'm moving to Fukuoka next month", "a secret"),
    ("Has 3 cats", "I have two cats", "a number"),
    ("Wants to try tonkotsu ramen in Hakata with his wife Yuki", "I want to try tonkotsu ramen in Hakata", "a name"),
    ("Will lead the team in Fukuoka and is getting married", "I will lead the team in Fukuoka", "a claim"),
    ("Has a dog called Kuro", "I have a cat called Kuro", "a swap"),
    ("Daughter started high school", "My daughter started primary school this week", "a swap"),
    ("Allergic to shellfish", "I have a peanut allergy", "too little of theirs"),
    ("Has a black dog, a red car and a blue house", "I have a dog and a house", "too much added"),
])
def test_junk_marks_keep_a_proposal_out_of_review(text, said, why):
    rule = check_item(text, "misc/note", [said])
    assert rule in (GuardRule.ADDS_WORDS, GuardRule.NOT_THEIR_WORDS), why
    assert not is_unsure(text, rule, [said]), why


def test_the_marks_one_by_one():
    assert invented_claim("Will lead the team in Fukuoka and is getting married", ["I will lead the team in Fukuoka"])
    assert not invented_claim("Will lead the team in Fukuoka", ["I will lead the team in Fukuoka"])
    assert invented_claim("離婚のため来月福岡に引っ越す", ["来月、大阪から福岡に引っ越す"])
    assert swapped("has a dog", ["I have a cat"], content_words("has a dog"))
    assert not swapped("has a dog", ["I have a dog"], [])
    said = ["When I'm stressed I can't sleep at all"]
    assert not is_unsure("Sleeps badly when stressed", GuardRule.ADDS_WORDS, [])  # no cited line
    assert not is_unsure("Sleeps badly when stressed", GuardRule.BAD_SLOT, said)  # not a words rule


def test_review_takes_at_most_max_unsure_added_words():
    said = ["When my boss stresses me out I can not sleep"]
    two = "Sleeps badly and restlessly when the boss stresses them"
    three = "Sleeps badly and restlessly when the demanding boss stresses them"
    assert MAX_UNSURE_ADDED == 2
    assert is_unsure(two, check_item(two, "health/sleep", said), said)
    assert not is_unsure(three, check_item(three, "health/sleep", said), said)
