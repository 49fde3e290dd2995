"""A huge message in the window (issue 25): a bubble paints a bounded part with a note and "Show all", the
reader pages through the whole message, and the search dialog's conversation stays bounded too."""

from __future__ import annotations

import re
import time

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel

from monchat.core.records.long_text import TURN_TEXT_CHARS
from monchat.gui.chat.long_message import PAGE_CHARS, SHOWN_CHARS, LongMessageDialog
from monchat.gui.main import create_main_window
from tests.gui.conftest import log_message
from tests.gui.test_history_dialogs import search_for

HUGE = 5_000_000


def words(n: int) -> str:
    return ("the quick brown fox jumps over the lazy dog " * (n // 44 + 1))[:n]


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)  # "4,980,000" or "4980000", as the locale writes it


@pytest.fixture
def full_window(qtbot, app, translators):
    """The window as ``run_gui`` builds it (with the helpers ``main.py`` attaches)."""
    app.settings.chat.language = "en"
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.meter.meter is not None, timeout=5000)
    yield window
    assert window.shutdown(10000), "workers did not finish"


def test_a_5_mb_message_paints_a_bounded_part_and_show_all_pages_through_it(app, full_window, qtbot):
    message = log_message(app, 0.5, words(HUGE))
    started = time.monotonic()
    bubble = full_window.chat_view.add_message(message)
    qtbot.wait(10)
    assert bubble.body.document().characterCount() <= SHOWN_CHARS + 1  # not 5,000,001
    assert time.monotonic() - started < 5  # laid out whole it took far longer on this machine
    assert bubble.hidden_label.isVisible() and digits(bubble.hidden_label.text()) == str(HUGE - SHOWN_CHARS)
    assert bubble.show_all_button.isVisible()

    bubble.show_all_button.click()
    reader = next(d for d in full_window.dialogs if isinstance(d, LongMessageDialog))
    assert reader.isVisible() and len(reader.text) == HUGE
    assert reader.view.document().characterCount() <= PAGE_CHARS + 1
    assert not reader.previous_button.isEnabled() and reader.next_button.isEnabled()
    reader.next_button.click()
    assert reader.view.toPlainText() == message.text[PAGE_CHARS:2 * PAGE_CHARS]
    assert digits(reader.place.text()).startswith(str(PAGE_CHARS + 1) + str(2 * PAGE_CHARS) + str(HUGE))
    reader.copy_button.click()
    assert len(QGuiApplication.clipboard().text()) == HUGE
    reader.close()


def test_a_message_the_window_read_cut_is_read_whole_for_show_all(app, full_window, qtbot):
    log_message(app, 0.5, words(3_000_000))
    full_window.reload_conversation()
    bubble = next(b for b in full_window.chat_view.bubbles if b.text().startswith("the quick"))
    assert len(bubble.text()) < TURN_TEXT_CHARS + 200  # the window read it cut
    assert bubble.body.document().characterCount() <= SHOWN_CHARS + 1
    assert digits(bubble.hidden_label.text()) == str(3_000_000 - SHOWN_CHARS)
    bubble.show_all_button.click()
    reader = next(d for d in full_window.dialogs if isinstance(d, LongMessageDialog))
    qtbot.waitUntil(lambda: len(reader.text) == 3_000_000, timeout=10000)
    assert reader.view.document().characterCount() <= PAGE_CHARS + 1
    reader.close()


def test_a_short_message_has_no_note(app, full_window):
    bubble = full_window.chat_view.add_message(log_message(app, 0.5, "short"))
    assert not bubble.hidden_label.isVisible() and not bubble.show_all_button.isVisible()


def test_the_search_dialog_shows_a_huge_message_bounded(app, full_window, qtbot):
    log_message(app, 1, "needle " + words(3_000_000))
    dialog = full_window.file_menu.open_search()
    rows = search_for(dialog, qtbot, "needle")
    assert len(rows) == 1 and len(rows[0][3]) <= 201  # a snippet of 200 characters and its "…"
    with qtbot.waitSignal(dialog.conversation_shown, timeout=10000):
        dialog.results.setCurrentItem(dialog.results.topLevelItem(0))
    shown = dialog.conversation.toPlainText()
    assert len(shown) < SHOWN_CHARS + 1000 and digits(shown.splitlines()[-1]).endswith(str(3_000_000 + 7 - SHOWN_CHARS))
    dialog.close()


def test_a_message_the_window_read_cut_is_not_put_in_the_composer_to_edit(app, full_window):
    log_message(app, 0.5, words(3_000_000))
    full_window.reload_conversation()
    full_window.turns.begin_edit_last()
    assert not full_window.turns.editing and full_window.composer.text() == ""  # not 100,000 of 3,000,000
    assert "too long to edit here" in full_window.chat_view.notices()[-1].findChild(QLabel).text()
    full_window.chat_view.clear_notices()
    log_message(app, 0.2, "a short one")
    full_window.reload_conversation()
    full_window.turns.begin_edit_last()
    assert full_window.turns.editing and full_window.composer.text() == "a short one"
