"""A message too long to show in its bubble, read a page at a time ("Show all" under the bubble).

A bubble paints at most ``SHOWN_CHARS`` characters (a 5 MB paste laid out whole froze the window for
seconds); its note says how much is left out and "Show all" opens this reader. The reader shows one
page of ``PAGE_CHARS`` as plain text, so each step lays out a bounded text however long the message
is. A message the chat window read cut (``core/records/long_text.py``) is read whole by id on a worker first.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QVBoxLayout, QWidget)

from ...core.records.long_text import TURN_TEXT_CHARS, left_out
from ..failures import headline
from ..kit.lifetime import alive
from ..translation import arg

SHOWN_CHARS = 20_000  # what a bubble paints of one message
PAGE_CHARS = 20_000  # what the reader shows at a time


def whole_length(text: str) -> int:
    """The message's length: ``text`` itself, or, when the window read it cut, what the cut mark says."""
    hidden = left_out(text)
    return TURN_TEXT_CHARS + hidden if hidden else len(text)


def shown_part(text: str) -> tuple[str, int]:
    """What a bubble paints of ``text`` and how many characters of the message that leaves out."""
    if len(text) <= SHOWN_CHARS and not left_out(text):
        return text, 0
    shown = text[:SHOWN_CHARS]
    return shown, whole_length(text) - len(shown)


def number(n: int) -> str:
    return QLocale().toString(n)


class LongMessageDialog(QDialog):
    """The whole of one message, a page at a time, with Copy all."""

    def __init__(self, text: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("The whole message"))
        self.text = ""
        self.page = 0
        self.view = QPlainTextEdit(self)
        self.view.setReadOnly(True)
        self.place = QLabel(self)
        self.previous_button = QPushButton(self.tr("Previous page"), self)
        self.next_button = QPushButton(self.tr("Next page"), self)
        self.copy_button = QPushButton(self.tr("Copy all"), self)
        self.previous_button.clicked.connect(lambda: self.show_page(self.page - 1))
        self.next_button.clicked.connect(lambda: self.show_page(self.page + 1))
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text))
        row = QHBoxLayout()
        row.addWidget(self.previous_button)
        row.addWidget(self.place, 1, Qt.AlignmentFlag.AlignCenter)
        row.addWidget(self.next_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.resize(720, 560)
        if text is None:
            self.view.setPlainText(self.tr("Reading the whole message…"))
            self._enable(False)
        else:
            self.set_text(text)

    def set_text(self, text: str) -> None:
        self.text = text
        self.show_page(0)

    def pages(self) -> int:
        return max(1, -(-len(self.text) // PAGE_CHARS))

    def show_page(self, page: int) -> None:
        self.page = min(max(page, 0), self.pages() - 1)
        start = self.page * PAGE_CHARS
        end = min(start + PAGE_CHARS, len(self.text))
        self.view.setPlainText(self.text[start:end])
        self.place.setText(arg(self.tr("Characters %1–%2 of %3 (page %4 of %5)"), number(start + 1 if end else 0),
                               number(end), number(len(self.text)), number(self.page + 1), number(self.pages())))
        self._enable(True)

    def _enable(self, ready: bool) -> None:
        self.previous_button.setEnabled(ready and self.page > 0)
        self.next_button.setEnabled(ready and self.page < self.pages() - 1)
        self.copy_button.setEnabled(ready)

    def set_message(self, message) -> None:
        """The message read whole by id (None: it was deleted or flushed away meanwhile)."""
        if message is None:
            self.failed(self.tr("This message is not in the history any more."))
        else:
            self.set_text(message.text)

    def failed(self, text: str) -> None:
        self.view.setPlainText(text)
        self._enable(False)


class LongMessages:
    """Opens the reader when a bubble's "Show all" is clicked (the main window connects ``show_bubble``)."""

    def __init__(self, history, runner, dialogs, bubbles: Callable[[], list], parent: QWidget) -> None:
        """``history``: the chat's history (reads a message whole by id); ``bubbles``: the bubbles shown."""
        self.history, self.runner, self.dialogs, self.bubbles, self.parent = history, runner, dialogs, bubbles, parent

    def show_bubble(self, bubble) -> LongMessageDialog:
        """The reader for ``bubble``'s message: its own text, or read whole by id when the window read it cut."""
        if left_out(bubble.text()) and bubble.message_id:
            return self.open_long_message(bubble.message_id)
        return self._reader(bubble.text())

    def open_long_message(self, message_id: str = "") -> LongMessageDialog:
        """The reader for a message read whole by id (the last message shown when no id is given)."""
        bubbles = self.bubbles()
        message_id = message_id or (bubbles[-1].message_id if bubbles else "")
        dialog = self._reader(None)
        history = self.history
        self.runner.start("read a whole message", lambda _report: history.message(message_id),
                          on_finished=lambda m: alive(dialog) and dialog.set_message(m),
                          on_failed=lambda failure: alive(dialog) and dialog.failed(headline(failure)))
        return dialog

    def _reader(self, text: str | None) -> LongMessageDialog:
        dialog = LongMessageDialog(text, self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialogs.keep(dialog)
        dialog.show()
        return dialog


def hidden_note(hidden: int) -> str:
    return arg(QCoreApplication.translate("MessageBubble", "%1 more characters are not shown here."), number(hidden))
