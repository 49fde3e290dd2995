"""The guard's comparisons at their edges, from the survivors of its mutmut run (issue 44).

``bash scripts/mutation --module guard`` changed ``monchat/core/memory/guard.py`` one step at a time and these
changes passed every test of the module's row: a Japanese sentence said three times no longer a loop, a kept
memory no longer lending its words to the line that reinforces it, a name ("Go"), a number word or a letter of
another script never counted as an added word, two cited lines read as one run-on line. Each test here says what
the user gets on both sides of the edge, and was seen failing under its mutants (the module's ``--resume`` run).
The survivors left standing are listed in docs/testing.md ("Mutation testing per guarantee module").
"""

from __future__ import annotations

import pytest

from monchat.core.memory.guard import (LOOP_MIN_CHARS, MAX_SLOT_PARTS, MIN_WORD, RESTATES_SHARE, GuardRule,
                                       adds_words, bad_slot, check_item, copies_assistant, echoes, is_statement,
                                       loops, meaningful_share, restated, share, shares_nothing, units)


# ---- a statement, a slot ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["ラリホーラリホーラリホーラリホー", "abcabcabcabc"])
def test_a_syllable_of_three_or_four_letters_said_four_times_says_nothing(text):
    assert not is_statement(text)
    assert check_item(text, "misc/note", [text]) is GuardRule.NO_STATEMENT


@pytest.mark.parametrize("text", ["ラリホーラリホーラリホー", "abcabcabc"])
def test_the_same_syllable_said_three_times_is_a_statement(text):
    assert is_statement(text)


@pytest.mark.parametrize("slot", ["drink/green tea", "tech/lang/python/async"])
def test_a_slot_with_a_space_or_of_max_slot_parts_is_fine(slot):
    assert MAX_SLOT_PARTS == 4
    assert not bad_slot(slot)


@pytest.mark.parametrize("slot", ["tech/lang/python/async/io", "food/<what>", "<category>/ramen", "food/ramen!"])
def test_one_part_too_many_or_a_sign_in_a_part_is_a_bad_slot(slot):
    assert bad_slot(slot)
    assert check_item("ラーメンが好き", slot, ["ラーメンが好き"]) is GuardRule.BAD_SLOT


# ---- what texts are compared by ------------------------------------------------------------------------------
def test_a_latin_word_of_min_word_letters_is_a_unit_and_a_shorter_one_is_not():
    assert MIN_WORD == 3
    assert units("cat") == {"cat"}
    assert units("ox") == set()


def test_a_lone_cjk_letter_is_a_unit_and_a_run_gives_each_of_its_bigrams():
    assert units("猫") == {"猫"}
    assert units("東京都") == {"東京", "京都"}


def test_a_text_with_nothing_to_compare_shares_nothing():
    # share() also grounds the digest (background/digest.py): a text without units is grounded in nothing
    assert share("!!", "anything at all") == 0.0
    assert meaningful_share("the and of", ["the and of"]) == 0.0


def test_one_source_text_is_read_as_a_text_not_as_letters():
    assert meaningful_share("sourdough", "sourdough bread") == 1.0
    assert meaningful_share("sourdough", ["sourdough bread"]) == 1.0


# ---- two cited lines are two lines, never one run-on line -----------------------------------------------------
# Each of these texts shares a word at the edge of a line: glued to the next line's first word it would be lost.
def test_the_users_words_over_two_lines_are_not_the_assistants():
    cited = ["I play guitar", "tonight again"]
    assistant = ["Plays guitar tonight with friends"]
    assert not copies_assistant("Plays guitar tonight", cited, assistant)
    assert check_item("Plays guitar tonight", "hobby/guitar", cited, assistant) is None
    assert copies_assistant("Plays guitar tonight", ["I had rice"], assistant)


def test_instructions_over_two_lines_are_echoed_and_evidence_over_two_lines_is_not():
    text = "sourdough baguettes"
    assert echoes(text, ["the schema", "sourdough", "baguettes"], ["I had rice"])
    assert not echoes(text, [text], ["I made sourdough", "baguettes too"])
    assert echoes(text, [text], ["I had rice"])


def test_a_category_noun_said_at_the_end_of_a_cited_line_is_something_shared():
    assert not shares_nothing("tools", ["my tools", "ok"])
    assert shares_nothing("tools", ["my bread", "ok"])


def test_function_words_count_only_when_a_text_has_nothing_else():
    assert shares_nothing("Likes jazz with the band", ["the weather was nice with rain"])
    assert not shares_nothing("with them", ["with them"])


# ---- added words, in every script -----------------------------------------------------------------------------
@pytest.mark.parametrize("text, said, added", [
    ("エスプレッソが好き", "紅茶が好き", ["エスプレッソ"]),  # a katakana word; the line has none
    ("猫が好き", "I like dogs", ["猫"]),  # a kanji; the line is in English
    ("猫を三匹飼っている", "猫を飼ってる", ["三", "匹"]),  # a kanji numeral is shown as written
    ("コーヒーが好き", "ブラックコーヒーが好き", []),  # inside a longer katakana word of the line
    ("アイスコーヒーが好き", "コーヒーが好き", ["アイスコーヒー"]),  # only its end is in the line
    ("Has three cats", "I have cats", ["three"]),  # a number word is shown as written
    ("Learning Go", "I want to learn rust", ["go"]),  # a short capitalised name is a word
    ("Learning Go", "I use VS", ["go"]),
    ("Learning Go", "I want to learn go", []),  # the line says it lower-case: any word of the line counts
    ("Uses VS and Emacs", "I use vim", ["vs", "emacs"]),  # a name does not end the words after it
    ("개", "고양이", ["개"]),  # a one-letter word of another script
    ("да", "нет", ["да"]),  # a two-letter one
    ("кот", "у меня кот", []),
    ("한국", "한국어를 배워요", []),  # a word of another script inside a longer word (its letter pairs)
    ("한국어", "나는 한국어를 배워요", []),
])
def test_an_added_word_is_reported_as_the_item_writes_it(text, said, added):
    assert adds_words(text, [said]) == added


def test_a_word_of_another_script_the_line_does_not_hold_is_added_and_one_it_holds_is_not():
    assert set(adds_words("кот и собака", ["у меня кот"])) == {"и", "собака"}


# ---- a loop: a piece of LOOP_MIN_CHARS, a CJK character weighing two ------------------------------------------
def test_a_japanese_sentence_of_the_least_weight_said_three_times_is_a_loop():
    assert LOOP_MIN_CHARS == 8
    assert loops("猫が好き。猫が好き。猫が好き。")  # 4 characters, weight 8
    assert check_item("猫が好き。猫が好き。猫が好き。", "pet/cat", ["猫が好き"]) is GuardRule.LOOPS
    assert not loops("猫好き。猫好き。猫好き。")  # 3 characters, weight 6


def test_a_short_english_sentence_said_three_times_is_no_loop():
    assert not loops("I ran. I ran. I ran.")  # 4 letters, weight 4
    assert loops("I ran far away. I ran far away. I ran far away.")


# ---- a kept memory the item restates ---------------------------------------------------------------------------
def test_the_memory_an_item_restates_is_found_among_others():
    memory = "Runs 30 minutes daily"
    assert restated("Runs 30 minutes", ["Drinks green tea", memory]) == [memory]
    assert restated("Runs 30 minutes", ["Drinks green tea"]) == []
    assert restated("...", [memory]) == []


@pytest.mark.parametrize("text, memory", [
    ("30 and 45", "Runs 30 and 45 minutes"),  # numbers only
    ("ff7 and ps5", "Plays ff7 and ps5 every night"),  # letters glued to digits only
    ("コーヒー", "ブラックのコーヒー"),  # a katakana word only
])
def test_an_item_of_one_kind_of_word_finds_the_memory_holding_them(text, memory):
    assert restated(text, [memory]) == [memory]


def test_an_item_restates_a_memory_holding_at_least_half_of_its_words():
    assert RESTATES_SHARE == 0.5
    assert restated("sourdough rye", ["sourdough loaves"]) == ["sourdough loaves"]  # 1 of 2
    assert restated("sourdough rye baguettes", ["sourdough loaves"]) == []  # 1 of 3


def test_a_restated_memory_lends_its_words_to_a_reinforcement():
    memory = "Plays ff7 and ps5 every night"
    assert check_item("ff7 and ps5", "game/console", ["played again tonight"], known_texts=[memory]) is None
    assert check_item("ff7 and ps5", "game/console", ["played again tonight"]) is GuardRule.NOT_THEIR_WORDS


# ---- the line touches the memory: one word is enough, a function word is not -----------------------------------
TEA = "Drinks tea with milk"
RUNS = "Runs 30 minutes at dawn"


@pytest.mark.parametrize("memory, slot, said, rule", [
    (TEA, "drink/tea", ["tea again"], None),  # a word of MIN_WORD letters
    (TEA, "drink/tea", ["had my tea", "again today"], None),  # at the end of the first of two lines
    (TEA, "drink/tea", ["more again"], GuardRule.NOT_THEIR_WORDS),
    (TEA, "drink/tea", ["with you again"], GuardRule.NOT_THEIR_WORDS),  # a function word only
    (RUNS, "exercise/run", ["did 30 again"], None),  # a number
    (RUNS, "exercise/run", ["did 31 again"], GuardRule.NOT_THEIR_WORDS),  # another number
    ("Runs 5 km every morning", "exercise/run", ["morning jog done, still at it"], None),  # a distilling word
])
def test_a_reinforcement_needs_its_line_to_touch_the_memory(memory, slot, said, rule):
    assert check_item(memory, slot, said, known_texts=[memory]) is rule


def test_the_items_last_word_and_the_memorys_first_both_touch():
    text, memory = "Takes green tea", "tea, green and hot"
    assert restated(text, [memory]) == [memory]
    assert check_item(text, "drink/tea", ["tea again"], known_texts=[memory]) is None
