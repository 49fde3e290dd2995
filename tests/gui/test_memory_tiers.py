"""The memory browser shows each memory's tier, and a digest's covered memories (issue 14, point 1).

The memory comes from real flushes (``memory_scenes.cold_food``: the oracle plays the LLM, a hundred
days pass, the cold food slot is digested); the browser reads it through the real MemoryService.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from monchat.app import build_app
from tests.gui import memory_scenes as scenes

JST = timezone(timedelta(hours=9))
DAY1 = datetime(2026, 6, 1, 8, 0, tzinfo=JST)
TIER_COLUMN = 6


@pytest.fixture
def clock():
    return scenes.Clock(DAY1)


@pytest.fixture
def backend():
    return scenes.oracle()


@pytest.fixture
def app(home, backend, clock):
    application = build_app(str(home), pinned_backend=backend, clock=clock, tz=JST)
    yield application
    application.store.close()


def rows(browser) -> dict:
    return {browser.table.topLevelItem(i).text(0): browser.table.topLevelItem(i)
            for i in range(browser.table.topLevelItemCount())}


@pytest.mark.parametrize("language, cold, hot, digest_words", [
    ("en", "not lately ▣", "often", "Summed up as “ラーメンと寿司が好き”, with: "),
    ("ja", "最近は話さない ▣", "よく話す", "要約「ラーメンと寿司が好き」に含まれています: "),
])
def test_the_browser_has_a_tier_column_and_shows_what_a_digest_covers(app, clock, make_window, language, cold,
                                                                       hot, digest_words):
    scenes.cold_food(app, clock, DAY1)
    window = make_window(language)
    browser = window.memory_menu.open_memory()
    browser.set_view("all")
    assert browser.table.headerItem().text(TIER_COLUMN) == ("Talked about" if language == "en" else "話題にした時期")
    shown = rows(browser)
    assert shown[scenes.RAMEN].text(TIER_COLUMN) == cold and shown[scenes.SUSHI].text(TIER_COLUMN) == cold
    assert shown["テニスを始めた"].text(TIER_COLUMN) == hot
    assert shown[scenes.RAMEN].toolTip(TIER_COLUMN).startswith("▣ ") and not shown["テニスを始めた"].toolTip(TIER_COLUMN)
    browser.table.setCurrentItem(shown[scenes.RAMEN])
    facts = browser.facts.text()
    assert digest_words in facts
    covered = facts.split(digest_words, 1)[1].splitlines()[0]
    assert sorted(covered.split("; ")) == sorted([scenes.RAMEN, scenes.SUSHI])
    browser.table.setCurrentItem(shown["テニスを始めた"])
    assert digest_words not in browser.facts.text()
    browser.close()


@pytest.mark.parametrize("language, hot, cold", [("en", "Talked about: often", "Talked about: not lately"),
                                                  ("ja", "話題にした時期: よく話す", "話題にした時期: 最近は話さない")])
def test_the_search_dialogs_days_carry_their_tier(app, clock, make_window, qtbot, language, hot, cold):
    scenes.cold_food(app, clock, DAY1)  # messages on 06-01 and, a hundred days later, 09-09
    window = make_window(language)
    dialog = window.file_menu.open_search()
    qtbot.waitUntil(lambda: dialog.days.count() == 2, timeout=5000)
    tips = {dialog.days.item(i).text()[:10]: dialog.days.item(i).toolTip() for i in range(2)}
    assert tips == {"2026-09-09": hot, "2026-06-01": cold}
    dialog.close()
