"""Never-remember rules as the user keeps them, at their edges (issue 44: survivors of ``--module never``).

``bash scripts/mutation --module never`` found ``NeverRules`` (``core/memory/never.py``) run by no fast test of its
row: a rule of 101 characters taken, a rule with a control character taken, a rule removed by a number that is
another rule's, a memory already forgotten offered again for forgetting — no test would notice. And the matcher
(``never_match.py``) had edges no table stood on. Each test here says what the user gets on both sides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timezone

import pytest

from monchat.core.errors import InputError, NotFound
from monchat.core.memory import never_match
from monchat.core.memory.never import MAX_RULE_CHARS, NEVER_RULE, matches_never, never_rules, told
from tests.support.memory_seed import seed, seeded_app  # noqa: F401 (seeded_app: the app fixture)

UTC = timezone.utc


@pytest.fixture(autouse=True)
def fresh_matcher():
    """Each test reads its rules as a fresh process would: ``_compile`` and ``_rule_lemmas`` keep what they read
    (lru_cache), so a rule another test read first would otherwise never be read again here."""
    never_match._compile.cache_clear()
    never_match._rule_lemmas.cache_clear()
    yield
    never_match._compile.cache_clear()
    never_match._rule_lemmas.cache_clear()


# ---- adding a rule --------------------------------------------------------------------------------------------
def test_a_rule_of_max_rule_chars_is_taken_and_one_more_is_refused(app):
    assert MAX_RULE_CHARS == 100
    assert app.never.add("a" * MAX_RULE_CHARS)["text"] == "a" * MAX_RULE_CHARS
    with pytest.raises(InputError) as refused:
        app.never.add("b" * (MAX_RULE_CHARS + 1))
    assert refused.value.message == f"A rule is at most {MAX_RULE_CHARS} printable characters."
    assert refused.value.hint == "Write the topic or word itself, not a sentence about it."
    assert app.never.texts() == ["a" * MAX_RULE_CHARS]


@pytest.mark.parametrize("text", ["my\x00ex", "pass\x07word", "\x1b[31mred"])
def test_a_rule_with_a_control_character_is_refused(app, text):
    with pytest.raises(InputError, match="printable characters"):
        app.never.add(text)
    assert app.never.texts() == []


@pytest.mark.parametrize("text", ["", "   ", "/", " / ", None])
def test_an_empty_rule_is_refused_with_examples(app, text):
    with pytest.raises(InputError) as refused:
        app.never.add(text)
    assert refused.value.message == "The rule is empty."
    assert refused.value.hint == 'Write a topic, a word or a slot family, e.g. "health", "my ex", "password" or "food/".'
    assert app.never.texts() == []


def test_a_rule_is_kept_as_written_with_its_spaces_made_one(app):
    rule = app.never.add("  My   Ex ")
    assert rule["text"] == "My Ex" and rule["created_at"].startswith("20")
    assert app.never.add("my ex")["id"] == rule["id"]  # the same rule folded: one
    assert never_rules(app.store) == ["My Ex"] == app.never.texts()
    assert [r["text"] for r in app.never.list()] == ["My Ex"]


# ---- removing a rule ------------------------------------------------------------------------------------------
def test_a_rule_is_removed_by_its_number_or_by_its_text_in_any_case(app):
    first, second, third = (app.never.add(t) for t in ("health", "my ex", "パスワード"))
    assert app.never.remove(f" {second['id']} ")["text"] == "my ex"
    assert app.never.texts() == ["health", "パスワード"]
    assert app.never.remove("HEALTH")["id"] == first["id"]
    assert app.never.remove("ﾊﾟｽﾜｰﾄﾞ")["id"] == third["id"]  # half-width kana folds to the rule
    assert app.never.texts() == []


def test_a_number_that_is_no_rules_is_read_as_text(app):
    app.never.add("2024")
    other = app.never.add("health")
    assert other["id"] != 2024
    assert app.never.remove("2024")["text"] == "2024"
    assert app.never.texts() == ["health"]


def test_removing_a_rule_that_is_not_there_says_so(app):
    app.never.add("health")
    with pytest.raises(NotFound) as missing:
        app.never.remove("wealth")
    assert missing.value.message == "There is no never-remember rule 'wealth'."
    assert missing.value.hint == "See `monchat memory never list`."
    assert app.never.texts() == ["health"]


# ---- the memories a rule covers -------------------------------------------------------------------------------
def test_the_live_memories_a_rule_covers_are_offered_and_forgotten(app):
    """The seed keeps "Lives in Kanazawa" (home/city, superseding "Lives in Sendai") and queues the green tea."""
    assert app.never.matching() == []  # no rules: nothing
    app.never.add("city")
    app.never.add("tea")
    found = {memory.id: rule for memory, rule in app.never.matching()}
    assert found == {"mem-kanazawa": "city", "mem-tea": "tea"}  # the superseded Sendai is not live
    assert {m.id for m, _ in app.never.matching(["tea"])} == {"mem-tea"}
    assert app.never.matching([]) == []
    assert app.never.forget_matching(["tea"]) == ["mem-tea"]
    assert [m.id for m, _ in app.never.matching()] == ["mem-kanazawa"]  # a forgotten one is not offered again
    assert app.never.forget_matching() == ["mem-kanazawa"]
    assert app.never.matching() == []


@dataclass(frozen=True)
class Filter:  # what ``told`` reads of a filter persona
    id: str
    never: list = field(default_factory=list)


def test_the_filter_personas_are_told_the_rules():
    personas = [Filter("base"), Filter("project")]
    told_ = told(personas, ["health", "my ex"])
    assert [(p.id, p.never) for p in told_] == [("base", ["health", "my ex"]), ("project", ["health", "my ex"])]
    assert personas[0].never == []  # the personas themselves are not changed
    assert NEVER_RULE == "never_remember"


# ---- the matcher's edges --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, slot, rules, expected", [
    ("I like tea", "", ["coffee", "tea", "ea"], "tea"),  # the first rule that covers it, as written
    ("I like tea", "", ["", "/", "tea"], "tea"),  # an empty rule is skipped, not a match
    ("ok", "health", ["health/"], "health/"),  # a family covers its own name
    ("ok", "health/sleep/deep", ["health/sleep"], "health/sleep"),  # and every slot under it
    ("ok", "healthy/food", ["health/"], None),
    ("ok", "sleep/health", ["health/"], None),  # a family is the slot's start, not any part of it
    ("ok", "Health / Sleep", ["health/"], "health/"),  # the slot folded and its spaces dropped
    ("ok", "sleep_quality/night", ["sleep quality"], "sleep quality"),  # a rule's words in the slot's words
    ("talked about sleep quality", "x/y", ["sleep_quality"], "sleep_quality"),
    ("ok", "x/y", ["c++"], None),
    ("I paid $$ for it", "", ["$$"], "$$"),  # signs only: as written
    ("I paid $ for it", "", ["$$"], None),
    ("a c++ and c# person", "", ["c#"], "c#"),
    ("a c## person", "", ["c#"], "c#"),
    ("abc# person", "", ["c#"], None),  # not inside a longer word
    ("the 9/11 memorial", "", ["9/11"], "9/11"),
    ("the 9 / 11 memorial", "", ["9 / 11"], "9 / 11"),
    ("health", "", ["health/"], None),  # a "/" at its end: a family only
    ("my    ex   came", "", ["my ex"], "my ex"),
    ("my ex’s car", "", ["my ex"], "my ex"),  # a typographic apostrophe
    ("my, ex came", "", ["my ex"], None),  # only spaces, "-", "_", "/" or "'" between its words
    ("my-ex came", "", ["my ex"], "my ex"),
    ("ex my came", "", ["my ex"], None),  # in order
    ("my", "", ["my ex"], None),
    ("the cats' toys", "", ["cat"], "cat"),
    ("catss", "", ["cat"], None),
    ("the 12 of us", "", ["1"], None),  # numbers are whole
    ("cat12", "", ["12"], "12"),
    ("stopped", "", ["stop"], "stop"),  # a doubled consonant before -ed
    ("stoppped", "", ["stop"], None),
    ("runing", "", ["running"], None),
    ("seeing", "", ["see"], "see"),
    ("I'm going", "", ["go"], "go"),
    ("saw it", "", ["see"], None),
    ("dies", "", ["die"], "die"),
    ("travelled", "", ["travel"], "travel"),  # a doubled consonant before -ed, British spelling
    ("kindness", "", ["kind"], None),  # the same stem, but -ness is no inflection
    ("playful", "", ["play"], None),
    ("cancellation", "", ["cancel"], None),  # a doubled consonant before anything but -ed or -ing
    ("controller", "", ["control"], None),
    # Japanese: what follows a rule's topic is dropped (particles, auxiliaries, a non-independent verb, a する after
    # a verbal noun); a content word is not
    ("もう別れた", "", ["別れている"], "別れている"),
    ("彼と別れるつもり", "", ["別れた"], "別れた"),
    ("離婚届を出した", "", ["離婚した"], "離婚した"),
    ("勉強が好き", "", ["勉強しています"], "勉強しています"),
    ("仕事を探している", "", ["仕事を辞める"], None),
    ("テニスが好き", "", ["テニスする"], None),  # テニス is no verbal noun: its する stays
])
def test_the_matcher_at_its_edges(text, slot, rules, expected):
    assert matches_never(text, slot, rules) == expected
