"""The user's own controls in the main window: off the record, pause memory, never remember this.

The main window builds one ``YourControls(window)`` after its menus. It adds to the Chat menu "Off the record"
(a toggle per persona: ``ChatService.set_off_record``; a persona listed in ``off_record.personas`` starts off
it) and "Clear off-the-record messages…"; to the Memory menu "Pause memory" (``core/memory/pause.py``) and
"Never remember…" (``gui/memory/never_dialog.py``). While a conversation is off the record a banner above the composer
says so plainly, the window's title carries it, and the status bar says when memory is paused — all in the
window's language. Nothing here holds a rule: the core decides, the CLI has the same (``cli/memory.py``, ``cli/privacy.py``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMessageBox, QPushButton

from ...core.errors import KnownError
from ..kit.confirm import ask_yes_no
from ..failures import show_failure
from ..translation import arg
from ..kit.workers import Failure

# An amber frame reads as "take note" on light and dark themes; the fill stays the palette's.
BANNER_STYLE = "QFrame#off_record_banner { border: 2px solid #b26a00; border-radius: 4px; }"


class YourControls(QObject):
    """The toggles and the banner (``window.controls``)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.app = window.app
        chat_menu, memory_menu = self._menu_with(window.quit_action), self._menu_with(window.flush_action)
        self.off_record_action = QAction(self.tr("Off the record"), window)
        self.off_record_action.setCheckable(True)
        self.off_record_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.off_record_action.setToolTip(self.tr("Nothing said off the record is remembered: no flush reads it, "
                                                  "and it is removed after a set number of hours."))
        self.off_record_action.toggled.connect(self.set_off_record)
        self.clear_action = QAction(self.tr("Clear off-the-record messages…"), window)
        self.clear_action.triggered.connect(self.ask_clear)
        chat_menu.insertActions(window.send_key_action, [self.off_record_action, self.clear_action])
        chat_menu.insertSeparator(window.send_key_action)
        self.pause_action = QAction(self.tr("Pause memory"), window)
        self.pause_action.setCheckable(True)
        self.pause_action.setToolTip(self.tr("While memory is paused, a flush keeps your messages and remembers "
                                             "nothing new from them."))
        self.pause_action.toggled.connect(self.set_paused)
        self.never_action = QAction(self.tr("Never remember…"), window)
        self.never_action.triggered.connect(self.open_never_remember)
        memory_menu.addSeparator()
        memory_menu.addActions([self.pause_action, self.never_action])

        self.banner = OffRecordBanner(self.ask_clear, window)
        column = window.centralWidget().layout()
        column.insertWidget(column.indexOf(window.composer), self.banner)
        self.paused_label = QLabel(window)
        self.paused_label.setObjectName("memory_paused")
        window.statusBar().addPermanentWidget(self.paused_label)
        window.persona_box.currentIndexChanged.connect(lambda _index: self.refresh())
        window.gate_changed.connect(lambda _gate: self.refresh())  # after a turn, a flush, every minute
        self.refresh()

    def _menu_with(self, action: QAction):
        for top in self.window.menuBar().actions():
            if top.menu() is not None and action in top.menu().actions():
                return top.menu()
        raise LookupError("the main window's menu is missing")

    # ---- state ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show what is true now: this persona off the record or not, memory paused or not."""
        off = self.app.chat.off_record(self.window.persona_id())
        for action, value in ((self.off_record_action, off), (self.pause_action, self.app.pause.is_on())):
            action.blockSignals(True)
            action.setChecked(value)
            action.blockSignals(False)
        self.banner.show_state(off, self.app.settings.off_record.hours)
        title = QCoreApplication.translate("MainWindow", "monchat")
        self.window.setWindowTitle(arg(self.tr("%1 — off the record"), title) if off else title)
        self.paused_label.setText(self.tr("Memory paused") if self.pause_action.isChecked() else "")
        self.paused_label.setToolTip(self.tr("A flush keeps your messages and remembers nothing new from them. "
                                             "Memory → Pause memory turns it back on.")
                                     if self.pause_action.isChecked() else "")

    def set_off_record(self, value: bool) -> None:
        self.app.chat.set_off_record(self.window.persona_id(), value)
        self.refresh()
        self.window.reload_conversation()
        self.window.refresh_meter()

    def set_paused(self, value: bool) -> None:
        try:
            self.app.pause.pause() if value else self.app.pause.resume()
        except KnownError as exc:
            self.window.dialogs.append(show_failure(self.window, Failure.from_known(exc)))
        self.refresh()

    # ---- dialogs -------------------------------------------------------------------------------
    def ask_clear(self) -> QMessageBox:
        """Ask, then remove every off-the-record message now (``monchat offrecord clear``)."""
        box = ask_yes_no(self.window, QMessageBox.Icon.Question, self.tr("Clear off-the-record messages"),
                         self.tr("Remove every message said off the record now? They cannot be brought back."),
                         self.clear)
        self.window.dialogs.append(box)
        return box

    def clear(self) -> int:
        try:
            removed = self.app.logbook.off_record.clear()
        except KnownError as exc:
            self.window.dialogs.append(show_failure(self.window, Failure.from_known(exc)))
            return 0
        self.window.statusBar().showMessage(self.tr("%n off-the-record message(s) removed.", "", removed), 15000)
        self.window.reload_conversation()
        self.window.refresh_meter()
        return removed

    def open_never_remember(self, parent=None):
        from ..memory.never_dialog import NeverRulesDialog
        dialog = NeverRulesDialog(self.app.never, self.window.runner, parent or self.window)
        dialog.changed.connect(self.window.refresh_meter)  # a forgotten memory leaves the prompt
        return self.window._open(dialog)


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
