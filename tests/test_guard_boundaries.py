"""The guard's thresholds, each tried on both sides of its boundary (``monchat/core/memory/guard.py``).

A mutation probe (issue 37) changed each comparison by one step — ``<`` to ``<=``, ``>=`` to ``>`` — or took
a clause out, and every neighbouring test still passed: the rules were right, but nothing said where their
edge is. Each test here stands on the edge and was seen failing under its change (``scripts/mutation-pins``
applies them all). The flush-level twins, which show what the user sees, are in
``tests/flush/test_rule_boundaries.py``.
"""

from __future__ import annotations

import pytest

from monchat.core.memory.guard import (LOOP_TIMES, MIN_MEANING, MIN_WORD, GuardRule, adds_words, bad_slot,
                                       check_item, content_words, is_statement, loops)


# ---- a statement weighs at least MIN_MEANING ---------------------------------------------------------
@pytest.mark.parametrize("text", ["gym", "tea", "Art", "猫2", "ab1"])
def test_a_text_of_exactly_the_least_meaning_is_a_statement(text):
    assert MIN_MEANING == 3  # three ASCII letters or digits; a CJK character weighs two
    assert is_statement(text)


@pytest.mark.parametrize("text", ["ok", "UI", "Go!", "猫", "a1"])
def test_a_text_one_short_of_it_says_nothing(text):
    assert not is_statement(text)


def test_a_three_letter_memory_citing_its_line_is_kept():
    assert check_item("gym", "hobby/gym", ["I go to the gym after work"]) is None


# ---- a Latin word of MIN_WORD letters is a content word -------------------------------------------
def test_a_three_letter_word_is_content():
    assert MIN_WORD == 3
    assert [w.shown for w in content_words("has a dog, a cat and a gym")] == ["dog", "cat", "gym"]


def test_a_three_letter_word_the_cited_line_does_not_hold_is_added():
    assert adds_words("has a cat and a dog", ["I have a cat"]) == ["dog"]
    assert check_item("has a cat and a dog", "pet/cat", ["I have a cat"]) is GuardRule.ADDS_WORDS
    assert check_item("goes to the gym", "hobby/gym", ["I go to the pool"]) is not None


def test_a_three_letter_word_the_cited_line_holds_is_not_added():
    assert check_item("has a cat", "pet/cat", ["I have a cat"]) is None


# ---- a sentence said LOOP_TIMES times is a loop --------------------------------------------------------
SENTENCE = "I'm a bit of a rebel."


def test_a_sentence_said_exactly_loop_times_is_a_loop():
    assert LOOP_TIMES == 3
    assert loops(" ".join([SENTENCE] * 3))
    assert loops("I moved to Sendai. " + " ".join([SENTENCE] * 3) + " Then dinner.")


def test_a_sentence_said_one_time_fewer_is_not():
    assert not loops(" ".join([SENTENCE] * 2))


# ---- a slot part naming an id is a schema field -----------------------------------------------------
@pytest.mark.parametrize("slot", ["pet/dog_id", "person_id/name", "memory/line-id", "user_id/city"])
def test_a_slot_with_an_id_word_is_bad(slot):
    assert bad_slot(slot)
    assert check_item("ラーメンが好き", slot, ["ラーメンが好き"]) is GuardRule.BAD_SLOT


@pytest.mark.parametrize("slot", ["pet/dog", "idea/app", "food/idli", "hobby/ride"])
def test_id_inside_a_word_is_fine(slot):
    assert not bad_slot(slot)
