"""Memory, the review queue, the inbox, search, help and the flush open as windows beside the chat, not modal
dialogs: a user reads their memory (or watches a flush) while chatting."""

from __future__ import annotations


def test_the_memory_windows_are_not_modal_and_chat_goes_on(window, backend, qtbot):
    opened = [window.memory_menu.open_memory(), window.memory_menu.open_review_queue(), window.memory_menu.open_inbox(), window.file_menu.open_search()]
    assert all(d.isVisible() and not d.isModal() for d in opened)
    backend.enqueue("Still here.")
    window.composer.edit.setPlainText("chatting with every window open")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert window.chat_view.bubbles[-1].text() == "Still here."
    for dialog in opened:
        dialog.close()
