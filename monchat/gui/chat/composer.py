"""The message composer: multi-line, IME-safe Enter, Stop while a reply streams.

Enter sends and Shift+Enter adds a line (or, with "Ctrl+Enter sends", Enter
adds a line). An Enter that confirms a Japanese IME conversion never sends:
pre-edit text is tracked in ``inputMethodEvent``; while it is pending, Enter
belongs to the input method, and an Enter arriving right after the input
method committed its conversion (some platforms deliver both) is ignored too.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSizePolicy, QVBoxLayout,
                               QWidget)

from .gate_look import paused_label, paused_words

# An Enter this soon after an IME commit is the same keystroke that confirmed it.
COMMIT_ENTER_GRACE_S = 0.05
MIN_LINES, MAX_LINES = 2, 8


class MessageEdit(QPlainTextEdit):
    """The text box. ``submitted`` fires on the send keystroke; it never fires during IME pre-edit."""

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctrl_enter_sends = False
        self._preedit = ""
        self._committed_at = 0.0
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().contentsChanged.connect(self._fit_height)
        self._fit_height()

    def _fit_height(self) -> None:
        """Grow with the text from 2 to 8 lines; longer text scrolls."""
        lines = max(MIN_LINES, min(MAX_LINES, self.document().size().height()))
        margins = self.contentsMargins().top() + self.contentsMargins().bottom()
        height = int(lines * self.fontMetrics().lineSpacing() + 2 * self.document().documentMargin() + margins + 2)
        if height != self.height():
            self.setFixedHeight(height)

    def preedit_pending(self) -> bool:
        return bool(self._preedit)

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:  # noqa: N802 (Qt override)
        had_preedit = bool(self._preedit)
        self._preedit = event.preeditString()
        if had_preedit and not self._preedit:
            self._committed_at = time.monotonic()
        super().inputMethodEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() not in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            super().keyPressEvent(event)
            return
        if self._preedit or time.monotonic() - self._committed_at < COMMIT_ENTER_GRACE_S:
            event.accept()  # the input method's Enter: it confirms the conversion, nothing else
            return
        modifiers = event.modifiers()
        ctrl = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
        shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
        sends = ctrl if self.ctrl_enter_sends else (ctrl or not shift)
        if sends:
            event.accept()
            self.submitted.emit()
        else:
            self.insertPlainText("\n")
            event.accept()


class Composer(QWidget):
    """Text box with Send/Stop; while the gate is closed, disabled with the reason shown above it.

    The gate bar's banner carries the Flush button then (one Flush button, not one here too).

    Signals:
        send_requested(str): the user wants to send this text (the composer keeps it until ``clear()``).
        stop_requested(): stop the reply that is streaming.
        cancel_edit_requested(): leave "edit last message" mode.
    """

    send_requested = Signal(str)
    stop_requested = Signal()
    cancel_edit_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._streaming = False
        self._gate_closed = False

        self.edit_banner = QLabel(self)
        self.edit_banner.setText(self.tr("Editing your last message — sending replaces it and its reply."))
        self.cancel_edit_button = QPushButton(self.tr("Cancel edit"), self)
        self.cancel_edit_button.clicked.connect(self.cancel_edit_requested)
        edit_row = QHBoxLayout()
        edit_row.setContentsMargins(0, 0, 0, 0)
        edit_row.addWidget(self.edit_banner, 1)
        edit_row.addWidget(self.cancel_edit_button)
        self.edit_row = QWidget(self)
        self.edit_row.setLayout(edit_row)
        self.edit_row.hide()

        self.edit = MessageEdit(self)
        self.edit.submitted.connect(self.submit)
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setDefault(False)
        self.send_button.clicked.connect(self.submit)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setToolTip(self.tr("Stop the reply (what was written so far is kept)"))
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.hide()
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        self.typing = QWidget(self)
        row = QHBoxLayout(self.typing)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1, Qt.AlignmentFlag.AlignTop)
        row.addLayout(buttons)

        self.paused_label = paused_label(self)  # the window's frame shows the same line at "stop" (gate_look.py)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.addWidget(self.paused_label)  # why the box below is disabled, while the gate is closed
        layout.addWidget(self.edit_row)
        layout.addWidget(self.typing)
        self.set_ctrl_enter_sends(False)

    # ---- state set by the main window -------------------------------------
    def set_ctrl_enter_sends(self, value: bool) -> None:
        self.edit.ctrl_enter_sends = value
        self.edit.setPlaceholderText(
            self.tr("Message — Ctrl+Enter sends, Enter adds a line") if value
            else self.tr("Message — Enter sends, Shift+Enter adds a line"))

    def set_streaming(self, streaming: bool) -> None:
        self._streaming = streaming
        self.stop_button.setVisible(streaming)
        self.send_button.setVisible(not streaming)

    def set_gate_closed(self, closed: bool) -> None:
        """Disable typing, saying why (the banner above has the Flush button), or enable it again."""
        self._gate_closed = closed
        reason = paused_words()
        self.paused_label.setText(reason if closed else "")
        self.paused_label.setVisible(closed)
        self.edit.setEnabled(not closed)
        self.send_button.setEnabled(not closed)
        self.send_button.setToolTip(reason if closed else "")
        self.edit.setToolTip(reason if closed else "")

    def is_gate_closed(self) -> bool:
        return self._gate_closed

    def set_editing(self, editing: bool, text: str = "") -> None:
        self.edit_row.setVisible(editing)
        if editing:
            self.edit.setPlainText(text)
            self.edit.setFocus()

    # ---- text ----------------------------------------------------------
    def text(self) -> str:
        return self.edit.toPlainText()

    def clear(self) -> None:
        self.edit.clear()

    def restore(self, text: str) -> None:
        """Put back a message that could not be sent."""
        if not self.edit.toPlainText().strip():
            self.edit.setPlainText(text)

    def submit(self) -> None:
        if self._streaming or self._gate_closed:
            return
        text = self.edit.toPlainText()
        if text.strip():
            self.send_requested.emit(text)
