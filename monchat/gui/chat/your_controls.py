"""The user's own controls in the main window: off the record, pause memory, never remember this.

The main window builds one ``YourControls`` after its menus, handing it the menus and the services. It adds to
the Chat menu "Off the record" (a toggle per persona: ``ChatService.set_off_record``; a persona listed in
``off_record.personas`` starts off it) and "Clear off-the-record messages…"; to the Memory menu "Pause memory"
(``core/memory/pause.py``) and "Never remember…" (``gui/memory/never_dialog.py``). While a conversation is off the
record a banner above the composer says so plainly, the window's title carries it, and the status bar says when
memory is paused — all in the window's language. Nothing here holds a rule: the core decides, the CLI has the same
(``cli/memory.py``, ``cli/privacy.py``).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMenu, QMessageBox, QPushButton, QWidget

from ...core.errors import KnownError
from ..kit.confirm import ask_yes_no
from ..failures import show_failure
from ..translation import arg
from ..kit.workers import Failure

# An amber frame reads as "take note" on light and dark themes; the fill stays the palette's.
BANNER_STYLE = "QFrame#off_record_banner { border: 2px solid #b26a00; border-radius: 4px; }"


class YourControls(QObject):
    """The toggles and the banner (``window.controls``).

    Signals:
        title_changed(str): the window's title (it says "off the record" while the conversation is).
        said(str): a line for the status bar.
        conversation_changed: what the chat shows changed (off the record switched, its messages removed).
        memory_changed: the prompt's memory changed: the context meter is counted again.
    """

    title_changed = Signal(str)
    said = Signal(str)
    conversation_changed = Signal()
    memory_changed = Signal()

    def __init__(self, chat_menu: QMenu, memory_menu: QMenu, before: QAction, *, chat, pause, settings, off_record,
                 never, runner, dialogs, persona_id: Callable[[], str], parent: QWidget) -> None:
        """Adds its toggles to ``chat_menu`` (before ``before``) and to ``memory_menu``.

        Args:
            chat, pause: the chat service, memory's pause switch; never: returns the never-remember rules.
            off_record: the log's off-the-record part (``Logbook.off_record``); settings: read for its hours.
        """
        super().__init__(parent)
        self.parent_widget = parent
        self.chat, self.pause, self.settings, self.off_record, self.never = chat, pause, settings, off_record, never
        self.runner, self.dialogs, self.persona_id = runner, dialogs, persona_id
        self.off_record_action = QAction(self.tr("Off the record"), parent)
        self.off_record_action.setCheckable(True)
        self.off_record_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.off_record_action.setToolTip(self.tr("Nothing said off the record is remembered: no flush reads it, "
                                                  "and it is removed after a set number of hours."))
        self.off_record_action.toggled.connect(self.set_off_record)
        self.clear_action = QAction(self.tr("Clear off-the-record messages…"), parent)
        self.clear_action.triggered.connect(self.ask_clear)
        chat_menu.insertActions(before, [self.off_record_action, self.clear_action])
        chat_menu.insertSeparator(before)
        self.pause_action = QAction(self.tr("Pause memory"), parent)
        self.pause_action.setCheckable(True)
        self.pause_action.setToolTip(self.tr("While memory is paused, a flush keeps your messages and remembers "
                                             "nothing new from them."))
        self.pause_action.toggled.connect(self.set_paused)
        self.never_action = QAction(self.tr("Never remember…"), parent)
        self.never_action.triggered.connect(self.open_never_remember)
        memory_menu.addSeparator()
        memory_menu.addActions([self.pause_action, self.never_action])

        self.banner = OffRecordBanner(self.ask_clear, parent)  # the window places it above the composer
        self.paused_label = QLabel(parent)  # and this in its status bar
        self.paused_label.setObjectName("memory_paused")

    # ---- state ---------------------------------------------------------------------------------
    def refresh(self, *_args) -> None:
        """Show what is true now: this persona off the record or not, memory paused or not."""
        off = self.chat.off_record(self.persona_id())
        for action, value in ((self.off_record_action, off), (self.pause_action, self.pause.is_on())):
            action.blockSignals(True)
            action.setChecked(value)
            action.blockSignals(False)
        self.banner.show_state(off, self.settings.off_record.hours)
        title = QCoreApplication.translate("MainWindow", "monchat")
        self.title_changed.emit(arg(self.tr("%1 — off the record"), title) if off else title)
        self.paused_label.setText(self.tr("Memory paused") if self.pause_action.isChecked() else "")
        self.paused_label.setToolTip(self.tr("A flush keeps your messages and remembers nothing new from them. "
                                             "Memory → Pause memory turns it back on.")
                                     if self.pause_action.isChecked() else "")

    def set_off_record(self, value: bool) -> None:
        self.chat.set_off_record(self.persona_id(), value)
        self.refresh()
        self.conversation_changed.emit()

    def set_paused(self, value: bool) -> None:
        try:
            self.pause.pause() if value else self.pause.resume()
        except KnownError as exc:
            self.dialogs.keep(show_failure(self.parent_widget, Failure.from_known(exc)))
        self.refresh()

    # ---- dialogs -------------------------------------------------------------------------------
    def ask_clear(self) -> QMessageBox:
        """Ask, then remove every off-the-record message now (``monchat offrecord clear``)."""
        box = ask_yes_no(self.parent_widget, QMessageBox.Icon.Question, self.tr("Clear off-the-record messages"),
                         self.tr("Remove every message said off the record now? They cannot be brought back."),
                         self.clear)
        return self.dialogs.keep(box)

    def clear(self) -> int:
        try:
            removed = self.off_record.clear()
        except KnownError as exc:
            self.dialogs.keep(show_failure(self.parent_widget, Failure.from_known(exc)))
            return 0
        self.said.emit(self.tr("%n off-the-record message(s) removed.", "", removed))
        self.conversation_changed.emit()
        return removed

    def open_never_remember(self, parent=None):
        from ..memory.never_dialog import NeverRulesDialog
        dialog = NeverRulesDialog(self.never(), self.runner, parent or self.parent_widget)
        dialog.changed.connect(self.memory_changed)  # a forgotten memory leaves the prompt
        return self.dialogs.open(dialog)


class OffRecordBanner(QFrame):
    """"Off the record" above the composer, plainly, with a button that clears it now."""

    def __init__(self, on_clear, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("off_record_banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(BANNER_STYLE)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.clear_button = QPushButton(self.tr("Clear now"), self)
        self.clear_button.clicked.connect(on_clear)
        row = QHBoxLayout(self)
        row.addWidget(self.label, 1)
        row.addWidget(self.clear_button)
        self.hide()

    def show_state(self, off: bool, hours: int) -> None:
        self.label.setText(arg(self.tr("<b>Off the record.</b> Nothing you say here is remembered: no flush reads "
                                       "it, and it is removed %1 hours after it is said. Your memory is still used "
                                       "for the replies."), hours) if off else "")
        self.setVisible(off)
