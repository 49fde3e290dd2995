"""Issue 45, point 7 (words and shapes), in English and Japanese: topics in the window's language only, an import's
source in words, one time zone, evidence around its supporting sentence, insights readable in the window, date
lines in a multi-day chat, the Ollama host an empty field means, a gap before the backend's name; and the Memory
window's "Merge duplicates…"."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from PySide6.QtWidgets import QMessageBox

from monchat.app import build_app
from monchat.gui.kit.excerpt import excerpt
from monchat.gui.kit.times import shown_time
from monchat.gui.memory.memory_words import memory_words
from tests.gui import memory_scenes as scenes

JST = timezone(timedelta(hours=9))
DAY1 = datetime(2026, 11, 23, 8, 0, tzinfo=JST)


@pytest.mark.parametrize("language, slot, words", [
    ("ja", "health/sleep", "健康：睡眠"), ("en", "health/sleep", "health: sleep"),
    ("ja", "home/town", "住まい"), ("en", "home/town", "home: town"),
    ("ja", "imported/chatgpt", "ChatGPT から取り込み"), ("en", "imported/chatgpt", "imported from ChatGPT"),
    ("ja", "food/お好み焼き", "食べ物：お好み焼き"),
])
def test_a_topic_is_in_the_window_s_language_or_left_out(translators, language, slot, words):
    translators.install(language)
    assert memory_words.topic(slot) == words


def test_times_are_shown_in_one_zone():
    utc = timezone.utc
    assert shown_time("2026-11-23T21:00:00+09:00", utc) == "2026-11-23 12:00"
    assert shown_time("2026-11-23T12:00:00+00:00", utc) == "2026-11-23 12:00"
    assert shown_time("not a time", utc) == "not a time"


def test_a_long_message_is_shown_around_the_sentence_the_memory_rests_on():
    text = "今日は朝から雨だった。" * 40 + "実は猫を二匹飼っているんだ。" + "それからパンを焼いた。" * 40
    shown = excerpt(text, "猫を二匹飼っている")
    assert "実は猫を二匹飼っているんだ。" in shown and shown.startswith("…") and shown.endswith("…")
    assert excerpt("short", "x") == "short"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_multi_day_chat_has_a_date_line_above_each_day(make_window, language):
    from monchat.core.types import Message, format_ts, new_message_id
    window = make_window(language)
    now = datetime.now().astimezone().replace(hour=12)
    said = [(now - timedelta(days=2), "the day before yesterday"), (now - timedelta(days=2, minutes=-1), "again"),
            (now, "today")]
    view = window.chat_view
    view.set_messages([Message(id=new_message_id(), ts=format_ts(when), role="user", text=text, persona="hana")
                       for when, text in said])
    assert len(view.day_markers) == 2
    assert view.column.indexOf(view.day_markers[0]) == view.column.indexOf(view.bubbles[0]) - 1
    assert view.column.indexOf(view.day_markers[1]) == view.column.indexOf(view.bubbles[2]) - 1
    assert str(now.day) in view.day_markers[1].text()
    view.set_messages([])
    assert view.day_markers == []


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_host_field_shows_ollama_host_when_it_is_set(make_window, monkeypatch, language):
    monkeypatch.setenv("OLLAMA_HOST", "10.0.0.5:11500")
    window = make_window(language)
    dialog = window.open_settings()
    assert dialog.model.ollama_host.placeholderText() == "http://10.0.0.5:11500"
    assert "OLLAMA_HOST" in dialog.model.ollama_host.toolTip()
    dialog.close()


def test_the_backend_name_keeps_a_gap_from_status_hints(window):
    assert window.backend_label.indent() >= 12


@pytest.mark.parametrize("language", ["en", "ja"])
def test_memories_that_say_the_same_thing_are_merged_from_the_memory_window(home, translators, qtbot, language):
    from monchat.gui.kit.workers import TaskRunner
    from monchat.gui.memory.browser import MemoryBrowser
    clock = scenes.Clock(DAY1)
    oracle = scenes.oracle()
    app = build_app(str(home / language), pinned_backend=oracle, clock=clock, tz=JST)
    runner = TaskRunner()
    try:
        scenes.two_cat_wordings(app, oracle, clock, DAY1)
        shown = [m for m in app.memory.list() if "二匹" in m.text]
        assert len(shown) == 2, "the setup stores one sentence in two wordings (COEXIST)"
        translators.install(language)
        browser = MemoryBrowser(app.memory, app.settings, app.personas, clock, runner, None)
        qtbot.addWidget(browser)
        browser.resize(1366, 768)
        browser.show()
        box = browser.merge_button.ask()
        assert isinstance(box, QMessageBox) and "×2" in box.text()
        with qtbot.waitSignal(browser.merge_button.merged, timeout=10000):
            box.button(QMessageBox.StandardButton.Yes).click()
        assert len([m for m in app.memory.list() if "二匹" in m.text]) == 1
        assert browser.message.text() == {"en": "1 memory merged into the one that says the same; their evidence is "
                                                "together now.",
                                          "ja": "1 件の記憶を、同じことを言う記憶にまとめました。根拠も一つになりました。"}[language]
        browser.merge_button.ask()
        assert browser.message.text() == {"en": "No two memories say the same thing: nothing to merge.",
                                          "ja": "同じことを言っている記憶はありません。まとめるものはありません。"}[language]
        browser.close()
    finally:
        assert runner.drain(10000)
        app.store.close()


@pytest.mark.parametrize("language, kind, days", [
    ("en", "imported from ChatGPT", "No message of yours backs it yet"),
    ("ja", "ChatGPT から取り込み", "まだあなたの発言による裏付けはありません")])
def test_an_imported_memory_says_where_it_came_from_not_said_outright_on_0_days(translators, language, kind, days):
    translators.install(language)
    assert memory_words.kind_name("explicit", "imported/chatgpt") == kind
    assert memory_words.evidence_days(0) == days
    assert memory_words.kind_name("explicit", "pet/cat") != kind
