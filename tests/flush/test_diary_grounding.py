"""A diary page rests on the day's words: one that cites none of them, or says what the messages it cites do
not, is refused and owed (asked for again at the next flush), as a page in the assistant's words is.

SmolLM2 wrote "I'm a food blogger. I love eating sushi" about a user who never said so, citing nothing;
its recorded English page is the request's own profile line. The oracle plays those pages here.
"""

from __future__ import annotations

import json

import pytest

DAY = "2026-11-23"
EVENINGS = {
    "en": ["I'm moving from Osaka to Fukuoka next month.", "A shiba inu called Kuro, he loves long walks.",
           "Tonight I cooked okonomiyaki."],
    "ja": ["来月、大阪から福岡に引っ越す。", "柴犬のクロは長い散歩が大好き。", "今夜はお好み焼きを作った。"],
}
# Pages a model that retells the day writes: its own telling ("spent", "looks forward", "一日") is not invention.
RETOLD = {
    "en": "The user spent the evening on the move from Osaka to Fukuoka next month; Kuro, their shiba inu, "
          "loves long walks. Dinner was okonomiyaki they cooked.",
    "ja": "大阪から福岡への引っ越しを控えた一日。柴犬のクロは散歩が大好きで、夜はお好み焼きを作った。",
}
INVENTED = {  # what no message says: mostly new words (a life), or one name or number in a page of the day's words
    "en": ["I'm a food blogger. I love eating sushi.", "They went to Paris with their dog.",
           "The user is moving from Osaka to Fukuoka next month; Kuro, their shiba inu, loves long walks in Paris.",
           "The user is moving from Osaka to Fukuoka next month with Kuro, their shiba inu, who is two and loves "
           "long walks."],
    "ja": ["フードブロガーとして寿司を食べ歩いている。", "クロとパリに行った。",
           "来月、大阪から福岡に引っ越す。柴犬のクロは長い散歩が大好きで、パリにも行った。",
           "来月、大阪から福岡に引っ越す。二匹の柴犬は長い散歩が大好き。"],
}


def evening(world, language: str) -> list[str]:
    return [world.say(f"{DAY}T2{n}:00:00+09:00", text) for n, text in enumerate(EVENINGS[language])]


def page(text: str, cited: list[str]):
    return lambda day, lines: {"text": text, "cited": cited}


def owed(world) -> list[str]:
    return json.loads(world.app.store.get_state("diary_owed") or "[]")


def refused(world, capsys, report) -> bool:
    """No page, the day owed, and the report says why."""
    return (world.cli_json(capsys, "diary") == [] and owed(world) == [DAY]
            and any(e.startswith(f"diary {DAY}") and "asks for that page again" in e for e in report.errors))


@pytest.mark.parametrize("language", sorted(EVENINGS))
def test_a_page_that_retells_the_day_is_kept(world, capsys, language):
    ids = evening(world, language)
    world.oracle.diary = page(RETOLD[language], ["d1", "d2", "d3"])
    report = world.flush(f"{DAY}T23:30:00+09:00")
    [kept] = world.cli_json(capsys, "diary")
    assert (kept["text"], kept["messages"]) == (RETOLD[language], ids) and not report.errors


@pytest.mark.parametrize("language,invented", [pytest.param(lang, text, id=f"{lang}-{n}") for lang in sorted(INVENTED)
                                               for n, text in enumerate(INVENTED[lang])])
def test_a_page_that_says_what_its_messages_do_not_is_refused_and_asked_for_again(world, capsys, language, invented):
    ids = evening(world, language)
    world.oracle.diary = page(invented, ["d1", "d2", "d3"])
    report = world.flush(f"{DAY}T23:30:00+09:00")
    assert refused(world, capsys, report), report.errors

    world.oracle.diary = None  # the oracle's own page: the day's messages, citing them all
    world.say("2026-11-24T09:00:00+09:00", EVENINGS[language][2])  # the next flush comes with a new day
    report = world.flush("2026-11-24T12:00:00+09:00")
    pages = {p["date"]: p for p in world.cli_json(capsys, "diary")}
    assert sorted(pages) == [DAY, "2026-11-24"] and pages[DAY]["messages"] == ids
    assert owed(world) == [] and not report.errors


@pytest.mark.parametrize("language", sorted(EVENINGS))
def test_a_page_citing_none_of_the_days_messages_is_refused(world, capsys, language):
    evening(world, language)
    world.oracle.diary = page(EVENINGS[language][0], ["d9", "m1"])  # the user's own words, citing nothing shown
    report = world.flush(f"{DAY}T23:30:00+09:00")
    assert refused(world, capsys, report)
    assert any("cites none of the day's messages" in e for e in report.errors)


@pytest.mark.parametrize("language", sorted(EVENINGS))
def test_a_page_rests_on_the_messages_it_cites_not_on_the_rest_of_the_day(world, capsys, language):
    evening(world, language)
    world.oracle.diary = page(RETOLD[language], ["d3"])  # the move and the dog are in d1 and d2 only
    report = world.flush(f"{DAY}T23:30:00+09:00")
    assert refused(world, capsys, report)


@pytest.mark.parametrize("language,empty", [("en", "1."), ("ja", "。。。")])
def test_a_page_that_says_nothing_is_refused(world, capsys, language, empty):
    evening(world, language)
    world.oracle.diary = page(empty, ["d1"])
    report = world.flush(f"{DAY}T23:30:00+09:00")
    assert refused(world, capsys, report)
    assert any("the page says nothing" in e for e in report.errors)


def test_the_recorded_smollm2_page_of_the_requests_own_profile_line_is_refused(world, capsys):
    evening(world, "en")
    recorded = "This week against the last snapshot: Emotional 4 (+2) id_of_a_user_line 2 (+2) role_user_5 (+2)"
    world.oracle.diary = page(recorded, ["d1", "d2", "d3"])
    report = world.flush(f"{DAY}T23:30:00+09:00")
    assert refused(world, capsys, report)


# SmolLM2's English page of 2026-12-02 (/tmp/eve, an evening in Sendai): the user's first sentence, then a
# sentence nobody said, over and over until max_tokens. Its added words are few next to the page's, so only the
# loop rule refuses it.
LOOPED = ("I moved to Sendai last spring for a new job. " + "I'm a bit of a rebel. " * 18 + "I'm")
LOOPED_EVENING = ["I moved to Sendai last spring for a new job.", "I usually cycle to work along the river.",
                  "Tonight I cooked curry with too much ginger.", "My sister Aiko visits next weekend."]


def test_a_page_that_loops_is_refused_and_owed(world, capsys):
    for n, text in enumerate(LOOPED_EVENING):
        world.say(f"{DAY}T2{n}:00:00+09:00", text)
    world.oracle.diary = page(LOOPED, ["d1", "d2", "d3", "d4"])
    report = world.flush(f"{DAY}T23:30:00+09:00")
    assert refused(world, capsys, report)
    assert any("over and over" in e for e in report.errors)


def test_a_page_that_says_a_short_thing_twice_is_kept(world, capsys):
    for n, text in enumerate(LOOPED_EVENING):
        world.say(f"{DAY}T2{n}:00:00+09:00", text)
    world.oracle.diary = page("I moved to Sendai last spring for a new job. Cycled to work along the river. "
                              "Cooked curry, too much ginger, too much ginger.", ["d1", "d2", "d3"])
    world.flush(f"{DAY}T23:30:00+09:00")
    [kept] = world.cli_json(capsys, "diary")
    assert kept["text"].startswith("I moved to Sendai")
