"""Walk (issue 38, point 9): a message over 20,000 characters typed into the window is sent, shown (a bounded
part with "Show all", the reader holding all of it), flushed and found by search — nothing cut, and the window's
event loop answering throughout (``EventLoopProbe``: no backend step on the GUI thread, every ping answered)."""

from __future__ import annotations

import pytest

from monchat.gui.chat.long_message import SHOWN_CHARS, LongMessageDialog
from tests.gui.flush_script import NO_ITEMS
from tests.gui.test_history_dialogs import search_for
from tests.gui.test_responsiveness import EventLoopProbe

LENGTH = 20_500
LAST_WORD = {"en": "zanzibarend", "ja": "終わりの合言葉ザンジバル"}


def long_text(language: str) -> str:
    """``LENGTH`` characters: sentences, line breaks, and a word found nowhere else at the very end."""
    line = ("I walked along the river, counted the herons and wrote it all down.\n" if language == "en"
            else "川沿いを歩いてサギを数え、見たことを全部ノートに書いた。\n")
    tail = " " + LAST_WORD[language]
    return (line * (LENGTH // len(line) + 1))[:LENGTH - len(tail)] + tail


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_20000_character_message_is_sent_shown_flushed_and_found_whole(app, make_window, backend, qtbot, language):
    text = long_text(language)
    assert len(text) == LENGTH
    window = make_window(language)
    probe = EventLoopProbe().watch(backend)
    backend.enqueue(["Thanks, ", "that was long."])
    window.composer.edit.setPlainText(text)
    with qtbot.waitSignal(window.turn_finished, timeout=30000):
        window.composer.submit()
    assert window.composer.text() == ""

    logged = [m for f in app.logbook.files() for m in app.logbook.read(f).messages if m.role == "user"]
    assert [len(m.text) for m in logged] == [LENGTH] and logged[0].text == text  # logged whole
    sent = backend.history[-1][2][-1].content
    assert sent == text  # the model was sent all of it (under the 100,000 a turn sends of one message)

    bubble = next(b for b in window.chat_view.bubbles if b.text().startswith(text[:40]))
    assert bubble.body.document().characterCount() <= SHOWN_CHARS + 1
    assert bubble.hidden_label.isVisible() and bubble.show_all_button.isVisible()
    assert "500" in bubble.hidden_label.text().replace(",", "")  # 20,500 − 20,000 left out of the bubble
    bubble.show_all_button.click()
    reader = next(d for d in window.dialogs if isinstance(d, LongMessageDialog))
    assert reader.text == text
    reader.next_button.click()
    assert reader.view.toPlainText().endswith(LAST_WORD[language])
    reader.close()

    backend.default_reply = NO_ITEMS
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=60000) as done:
        dialog.start_button.click()
    assert done.args[0].messages_archived == 2 and app.logbook.files() == []
    dialog.close()
    probe.assert_never_blocked(at_least=4)

    search = window.file_menu.open_search()
    rows = search_for(search, qtbot, LAST_WORD[language])
    assert len(rows) == 1 and LAST_WORD[language] in rows[0][3]  # the very end of the message, archived
    with qtbot.waitSignal(search.conversation_shown, timeout=10000):
        search.results.setCurrentItem(search.results.topLevelItem(0))
    shown = search.conversation.toPlainText()
    assert LAST_WORD[language] in shown  # the found message is shown where the words are, past its first 20,000
    assert "500" in shown.replace(",", "").split(LAST_WORD[language])[-1]  # as long a part: 500 left out
    cursor = search.conversation.cursorForPosition(search.conversation.viewport().rect().center())
    assert cursor.position() > len(shown) // 2  # scrolled down to them
    search.close()
