"""What leaves the computer, in the GUI: the question before a cloud's first message or flush,
and links in replies (http(s) only, after showing where they go)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import log_message
from tests.gui.test_chat_window import send
from tests.support.scripted import ScriptedBackend


class CloudBackend(ScriptedBackend):
    """A scripted backend that says it is a cloud service."""

    name = "gemini"

    def where(self) -> str:
        return "https://cloud.example/v1"

    def is_local(self) -> bool:
        return False


def answer(box: QMessageBox, accept: bool) -> None:
    button = next(b for b in box.buttons()
                  if (box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole) == accept)
    button.click()


class TestCloud:
    @pytest.fixture
    def backend(self):
        return CloudBackend(delay=0.002)

    def test_the_first_message_to_a_cloud_asks_what_is_sent_and_nothing_goes_before_yes(
            self, window, backend, app, qtbot):
        window.composer.edit.setPlainText("hello")
        window.composer.submit()
        box = window.cloud.box
        assert box is not None and box.isVisible()
        for words in ("cloud.example", "this persona's text", "your memory", "last 12 hours"):
            assert words in box.text()
        assert backend.history == [] and app.logbook.files() == []  # nothing sent, nothing logged yet
        answer(box, accept=False)
        assert backend.history == [] and window.composer.edit.toPlainText() == "hello"

        backend.enqueue("hi!")
        window.composer.submit()
        with qtbot.waitSignal(window.turn_finished, timeout=5000):
            answer(window.cloud.box, accept=True)
        assert len(backend.history) == 1

        backend.enqueue("again")
        send(window, qtbot, "second")  # asked once: no question this time
        assert window.cloud.box is None and len(backend.history) == 2

    def test_regenerating_asks_too_when_the_cloud_was_not_agreed_to(self, window, backend, app, qtbot):
        log_message(app, 0.2, "hi")
        log_message(app, 0.1, "hello from before", role="assistant")
        window.reload_conversation()
        window.turns.regenerate()
        assert window.cloud.box is not None and backend.history == []
        answer(window.cloud.box, accept=False)
        assert backend.history == []

    def test_a_flush_to_a_cloud_asks_first(self, window, app, qtbot):
        log_message(app, 1, "something to flush")
        assert window.memory_menu.open_flush() is None
        box = window.cloud.box
        assert box is not None and "unflushed logs" in box.text()
        answer(box, accept=True)
        assert any(type(d).__name__ == "FlushDialog" and d.isVisible() for d in window.dialogs)


def test_a_local_backend_never_asks(window, backend, qtbot):
    backend.enqueue("hi")
    send(window, qtbot, "hello")
    assert window.cloud.box is None and len(backend.history) == 1


@pytest.fixture
def opened(window):
    urls = []
    window.links.opener = urls.append
    return urls


def reply_with(window, backend, qtbot, text):
    backend.enqueue(text)
    send(window, qtbot, "links please")
    return window.chat_view.bubbles[-1]


def test_a_file_link_in_a_reply_is_never_opened(window, backend, qtbot, opened):
    bubble = reply_with(window, backend, qtbot, "see [your notes](file:///etc/passwd)")
    assert not bubble.body.openExternalLinks() and not bubble.body.openLinks()
    bubble.body.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert opened == [] and window.links.box is None
    assert "only web links" in window.statusBar().currentMessage()


def test_a_web_link_opens_only_after_showing_where_it_goes(window, backend, qtbot, opened):
    bubble = reply_with(window, backend, qtbot, "see [the docs](https://example.com/guide)")
    bubble.body.anchorClicked.emit(QUrl("https://example.com/guide"))
    box = window.links.box
    assert box is not None and "example.com" in box.text() and "https://example.com/guide" in box.text()
    assert opened == []
    answer(box, accept=False)
    assert opened == []
    bubble.body.anchorClicked.emit(QUrl("https://example.com/guide"))
    answer(window.links.box, accept=True)
    assert opened == [QUrl("https://example.com/guide")]
