"""The guard's rules, one by one, in English and Japanese (``monchat/core/memory/guard.py``).

Each rule is shown breaking on what small models were seen answering, and holding for the
distillations a good model writes (the flush tests' items, the filter prompt's own example).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from monchat.core.flush.answer import instruction_texts
from monchat.core.memory.guard import (GuardRule, adds_words, bad_slot, check_item, echoes, is_statement,
                                       shares_nothing)
from monchat.core.personas.library import PersonaRegistry
from monchat.core.prompts import PromptLibrary

ROOT = Path(__file__).resolve().parents[1]
MOVED = "I moved from Osaka to Fukuoka last month"
MOVED_JA = "先月大阪から福岡に引っ越しました"


def instructions(persona_id: str) -> list[str]:
    """What a filter request tells the model as ``persona_id``: the shipped prompt, part and schema words."""
    registry = PersonaRegistry(ROOT / "personas", ROOT / "no-user-surface", ROOT / "no-user-filter")
    prompts = PromptLibrary(ROOT / "prompts")
    persona = registry.filter_persona(persona_id)
    return instruction_texts(prompts.render("filter.md.j2"), prompts.render("filter_persona.md.j2", persona=persona))


# ---- no statement ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["1.", "2.", "3)", "42", "…", "!!!", "- ", "バルバババ…", "ババババババ", "hahaha",
                                  "ラバラバラバラバ", "猫", "ok", "。。。", "ーーー"])
def test_no_statement(text):
    assert not is_statement(text)
    assert check_item(text, "food/ramen", ["I had ramen 1. 2. バルバババ 猫 ok haha"]) is GuardRule.NO_STATEMENT


@pytest.mark.parametrize("text", ["猫好き", "Rust", "I had ramen", "ギターを練習する", "Rust async", "緑茶を飲む",
                                  "バナナが好き"])
def test_a_short_statement_is_one(text):
    assert is_statement(text)


# ---- the slot ----------------------------------------------------------------------------------
@pytest.mark.parametrize("slot", ["id_of_a_user_line", "role_id_1", "skill_id_1", "evidence", "reason", "text",
                                  "slot", "kind", "score", "tea", "", "misc/3", "health/item0", "skill/skill_1",
                                  "subject/attribute", "food/evidence", "user/id", "role_1/x", "food/", "/ramen",
                                  "食べ物/ラーメン", "food/123", "a/b/c/d/e"])
def test_bad_slot(slot):
    assert bad_slot(slot)
    assert check_item("ラーメンが好き", slot, ["ラーメンが好き"]) is GuardRule.BAD_SLOT


@pytest.mark.parametrize("slot", ["food/ramen", "skill/rust-async", "communication/answer-length", "game/ff7",
                                  "study/jlpt_n2", "home/city", "drink/daily", "hobby/guitar", "misc/note",
                                  "skill/rust_async", "pet/dog", "tech/c++", "tech/node.js", "game/2048_puzzle"])
def test_a_slot_of_words_is_fine(slot):
    assert not bad_slot(slot)


# ---- the assistant's words ---------------------------------------------------------------------
def test_the_assistants_list_item_citing_an_unrelated_line_is_the_assistants_words():
    assert check_item("1. UIはPySide6", "tech/ui", ["今日はラーメンを食べた"],
                      ["おすすめの構成です。\n1. UIはPySide6\n2. DBはSQLite"]) is GuardRule.ASSISTANTS_WORDS


# ---- echoes of the request's instructions ------------------------------------------------------
SMOLLM2 = "Project. Your talent is intellect, worries, unsolved problems, growth. Your mood is …"


@pytest.mark.parametrize("text", [SMOLLM2, "Project", "intellect: expertise, worries, unsolved problems, growth",
                                  "what the user works on and the tools they use", "id of a user line",
                                  "general knowledge that says nothing about the user",
                                  "a hidden memory filter of a personal chat app"])
def test_the_model_reading_its_own_instructions_echoes_them(text):
    said = ["今日もサーバを書いた"]
    assert echoes(text, instructions("project"), said)
    assert check_item(text, "work/tools", said, [], instructions("project")) is GuardRule.ECHOES_INSTRUCTIONS


def test_the_persona_text_of_another_language_user_line_echoes_too():
    text = "daily life in detail: food and drink, shopping, home, routines"
    assert check_item(text, "daily/life", ["今日は晴れ"], [], instructions("lifestyle")) is \
        GuardRule.ECHOES_INSTRUCTIONS


@pytest.mark.parametrize("text, said", [
    ("Often talks about sukiyaki; seems to like a slightly sweet warishita",
     "sukiyaki again tonight, I made the warishita slightly sweet"),  # the prompt's own example, said by the user
    ("Rust async", "I finally got my Rust async code to compile"),
    ("Works on a parser and is stuck on lifetimes", "I work on a parser and I'm stuck on lifetimes"),
])
def test_a_distillation_that_shares_words_with_the_prompt_is_not_an_echo(text, said):
    assert not echoes(text, instructions("project"), [said])
    assert check_item(text, "work/parser", [said], [], instructions("project")) is None


# ---- not their words -----------------------------------------------------------------------------
@pytest.mark.parametrize("text, said", [("Loves every animal deeply", "猫を二匹飼ってる"),
                                        ("string", "I had ramen"), ("unknown pet", "覚えてないの？"),
                                        ("旅行が趣味", "I had ramen"), ("Likes jazz", "今日は晴れ")])
def test_text_sharing_nothing_with_its_line_is_not_their_words(text, said):
    assert shares_nothing(text, [said])
    assert check_item(text, "misc/note", [said]) is GuardRule.NOT_THEIR_WORDS


def test_one_shared_kanji_is_something_shared():
    assert check_item("娘がいる", "family/daughter", ["娘と公園に行った"]) is None


# ---- adds words ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, said, added", [
    (f"{MOVED}, and my password is hunter2", MOVED, ["password", "hunter2"]),
    (f"{MOVED_JA}。暗証番号は1234です。", MOVED_JA, ["暗", "証", "番", "号", "1234"]),
    ("Moved to Osaka", "I moved to Fukuoka", ["osaka"]),
    ("Has 3 cats", "I have two cats", ["3"]),
    ("猫を3匹飼っている", "猫を二匹飼ってる", ["3"]),
    ("仙台の実家に帰省した", "週末は帰省してた", ["仙", "台", "実", "家"]),
    ("Practises guitar with Mira", "guitar again tonight", ["mira"]),
    ("コーヒーはエスプレッソが好き", "コーヒーはブラック", ["エスプレッソ"]),
])
def test_what_the_cited_lines_do_not_say_is_added(text, said, added):
    assert adds_words(text, [said]) == added
    assert check_item(text, "misc/note", [said]) is GuardRule.ADDS_WORDS


@pytest.mark.parametrize("text, said", [
    ("Often talks about sukiyaki; seems to like a slightly sweet warishita",
     "sukiyaki again tonight, I made the warishita slightly sweet"),
    ("I practise the guitar", "guitar again tonight"),
    ("Has two cats", "I have 2 cats"),
    ("Baking sourdough", "I baked sourdough bread today"),
    ("Studies Rust", "studying rust these days"),
    ("東京で働いている", "覚えておいて、東京のオフィスで働いている"),
    ("緑茶を毎日飲む", "朝は緑茶"),
    ("毎朝コーヒーを飲む", "朝はやっぱりコーヒー"),
    ("猫を2匹飼っている", "猫を二匹飼ってる"),
    ("ブラックコーヒーが好き", "コーヒーはブラック、ギターの音も好き"),
    ("ユーザーはよくすき焼きの話をする。割り下は少し甘めが好きらしい", "昼はすき焼きを食べた。割り下は少し甘めが好き"),
    ("やっぱり短い答えが好き", "やっぱり短くていい"),
    ("asked my dog's name again", "what's my dog's name again?"),
])
def test_a_distillation_in_the_users_words_adds_nothing(text, said):
    assert adds_words(text, [said]) == []
    assert check_item(text, "misc/note", [said], [], instructions("base")) is None


def test_a_word_the_user_said_before_is_theirs_too():
    """A correction keeps its subject when the user's kept memory holds it."""
    said = ["違うよ、飲まないって言ったよね"]
    assert check_item("コーヒーは飲まない", "drink/coffee", said) is GuardRule.ADDS_WORDS
    assert check_item("コーヒーは飲まない", "drink/coffee", said, known_texts=["朝はコーヒーを飲む"]) is None


# ---- the order and the words ---------------------------------------------------------------------
def test_the_first_rule_broken_is_the_one_reported():
    assert check_item("1.", "role_id_1", [MOVED]) is GuardRule.NO_STATEMENT
    assert check_item("Project", "role_id_1", [MOVED], [], instructions("project")) is GuardRule.BAD_SLOT
    assert check_item(MOVED, "home/city", [MOVED], [], instructions("project")) is None


def test_every_rule_has_an_english_line():
    assert all(rule.description and "\n" not in rule.description for rule in GuardRule)
