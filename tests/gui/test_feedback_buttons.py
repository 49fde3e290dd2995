"""👍/👎 in the window: on a reply (the chat) and on a memory (the browser); the learned threshold in Settings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer

COFFEE, SENDAI = "朝はブラックコーヒーを飲む", "仙台に住んでいる"


@pytest.fixture
def kept(app, backend):
    """Two lasting memories from one flush (said outright, sure enough to be approved by themselves)."""
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "覚えておいて：朝はブラックコーヒーを飲む")
    log_message(app, 2.8, "それと、仙台に住んでいるよ")
    backend.enqueue(item_answer(COFFEE, "drink/morning"), item_answer(SENDAI, "home/city"))
    app.flush.run()
    backend.default_reply = None
    return {m.text: m.id for m in app.memory.list()}


def test_a_reply_rated_down_in_the_chat_lowers_what_it_relied_on(kept, app, backend, window, make_window, qtbot):
    backend.enqueue("朝はブラックコーヒーを飲むなら、眠気は大丈夫だね。")
    window.composer.edit.setPlainText("眠い")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    bubble = window.chat_view.bubbles[-1]
    assert bubble.role == "assistant" and bubble.rating.isVisible()
    user_bubble = window.chat_view.bubbles[-2]
    assert not user_bubble.rating.isVisible()  # only replies are rated

    qtbot.mouseClick(bubble.rating.down, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: app.feedback.rating("message", bubble.message_id) == "down", timeout=5000)
    memories = {m.text: m for m in app.memory.list(all=True)}
    assert memories[COFFEE].confidence == pytest.approx(0.9 * 0.75)  # the reply relied on it
    assert memories[SENDAI].confidence == pytest.approx(0.9)  # in the prompt, not used
    assert bubble.rating.down.isChecked() and not bubble.rating.up.isChecked()

    qtbot.mouseClick(bubble.rating.down, Qt.MouseButton.LeftButton)  # again: cleared
    qtbot.waitUntil(lambda: app.feedback.rating("message", bubble.message_id) == "", timeout=5000)
    assert {m.text: m for m in app.memory.list()}[COFFEE].confidence == pytest.approx(0.9)

    qtbot.mouseClick(bubble.rating.up, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: app.feedback.rating("message", bubble.message_id) == "up", timeout=5000)
    assert bubble.rating.up.isChecked() and not bubble.rating.down.isChecked()
    other = make_window("en")  # another window (as after a restart) shows the stored rating
    assert other.chat_view.bubble(bubble.message_id).rating.up.isChecked()


def test_a_memory_rated_down_in_the_browser_waits_for_review(kept, app, window, qtbot):
    browser = window.memory_menu.open_memory()
    browser.set_view("layer1")
    rows = {browser.table.topLevelItem(i).text(0): browser.table.topLevelItem(i)
            for i in range(browser.table.topLevelItemCount())}
    browser.table.setCurrentItem(rows[COFFEE])
    assert browser.rating.isEnabled() and not browser.approve_button.isEnabled()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        qtbot.mouseClick(browser.rating.down, Qt.MouseButton.LeftButton)
    memory = app.memory.get(kept[COFFEE])
    assert (memory.state, memory.confidence) == ("queued", pytest.approx(0.45))
    browser.set_view("all")
    rows = {browser.table.topLevelItem(i).text(0): browser.table.topLevelItem(i)
            for i in range(browser.table.topLevelItemCount())}
    browser.table.setCurrentItem(rows[COFFEE])
    assert browser.rating.down.isChecked() and browser.approve_button.isEnabled()
    assert "You rated this down" in browser.facts.text()

    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        qtbot.mouseClick(browser.rating.down, Qt.MouseButton.LeftButton)  # cleared: back as it was
    memory = app.memory.get(kept[COFFEE])
    assert (memory.state, memory.confidence) == ("active", pytest.approx(0.9))


def test_settings_show_what_reviews_taught_and_reset_it(app, backend, window, qtbot):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "覚えておいて：朝はブラックコーヒーを飲む")
    backend.enqueue(item_answer(COFFEE, "drink/morning"))
    app.flush.run()
    app.memory.approve(str(app.memory.queue()[0].id))
    dialog = window.open_settings()
    view = dialog.learning
    assert view.label.text() == ("drink: lasting memory approved by itself from confidence 0.75 — 1 approved, "
                                 "0 rejected")  # 0.8 − 0.15 × 1/3
    assert view.reset_button.isEnabled()
    qtbot.mouseClick(view.reset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Nothing learned yet" in view.label.text(), timeout=5000)
    assert not view.reset_button.isEnabled()


def test_the_rating_words_are_japanese_in_the_japanese_window(kept, app, make_window):
    window = make_window("ja")
    dialog = window.open_settings()
    assert "まだ何も学んでいません" in dialog.learning.label.text()
    browser = window.memory_menu.open_memory()
    assert "頼りにした記憶" in browser.rating.down.toolTip()


def test_the_rating_buttons_are_drawn_icons_not_a_font_fallback(qtbot):
    from PySide6.QtCore import Qt
    from monchat.gui.chat.rating_buttons import RatingButtons
    buttons = RatingButtons()
    qtbot.addWidget(buttons)
    for button in (buttons.up, buttons.down):
        assert not button.icon().isNull() and button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
