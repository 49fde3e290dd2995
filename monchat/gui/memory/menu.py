"""The Memory menu's windows: Flush, Memory, Review queue (with its count), Inbox.

Memory, the review queue and the inbox open as windows beside the chat (not modal): a user reads their
memory while chatting. The flush window is not modal either: once a flush runs, chat is open again
(``FlushGate.flushing``), and the gate is read again when the flush starts and ends. A flush that leaves
items waiting for review ends with "Open review queue (N)"; the menu shows the same count: the rows the queue
shows, near-duplicates as one (``MemoryService.review_rows``), never the items in them.

The main window hands ``MemoryMenu`` the services its windows use and its ``OpenDialogs``, and connects its
signals; nothing here reaches the window.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from ...core.chat.warm import warm_task
from ..kit.lifetime import alive


class MemoryMenu(QObject):
    """Opens the Memory menu's windows and counts the review queue.

    Signals:
        gate_moved: a flush started, ended or failed: the gate is read again.
        conversation_changed: a flush archived messages (told after a reply being written ends).
        memory_changed: memories changed: the context meter is counted again.
        review_count_changed(str): Memory → Review queue's words, with the queue's rows counted again.
    """

    gate_moved = Signal()
    conversation_changed = Signal()
    memory_changed = Signal()
    review_count_changed = Signal(str)

    def __init__(self, *, memory, flush, chat, personas, settings, clock, inbox, lint, consent, runner, dialogs,
                 persona_id: Callable[[], str], may_flush: Callable[[], bool], busy: Callable[[], bool],
                 closing: Callable[[], bool], parent: QWidget) -> None:
        """``flush``, ``inbox``, ``lint``: each a function that returns the service (built when first opened);
        ``may_flush``: False when a cloud must be agreed to first (it asks); ``busy``: a reply is being written;
        ``closing``: the window is closing (nothing more is counted)."""
        super().__init__(parent)
        self.memory, self.flush, self.chat, self.personas, self.settings = memory, flush, chat, personas, settings
        self.clock, self.inbox, self.lint, self.consent = clock, inbox, lint, consent
        self.runner, self.dialogs, self.parent_widget = runner, dialogs, parent
        self.persona_id, self.may_flush, self.busy, self.closing = persona_id, may_flush, busy, closing
        self.review_count = 0
        self.flush_dialogs: list = []  # the flush windows opened, told the count (never imported to look for them)
        self._reload_after_turn = False

    # ---- the review count --------------------------------------------------
    def refresh_review_count(self) -> None:
        """Count the open review items off the GUI thread; the menu item then says how many."""
        if self.closing():
            return
        memory = self.memory
        self.runner.start("review count", lambda _report: memory.review_rows(), on_finished=self._show_count)

    def _show_count(self, count: int) -> None:
        """The queue's rows (near-duplicates as one, ``MemoryService.review_rows``): the menu item and an open
        flush window's "Open review queue (N)" say the number of rows the queue window shows."""
        if not alive(self):
            return
        self.review_count = count
        self.review_count_changed.emit(self.tr("Review queue (%n)…", "", count) if count
                                       else self.tr("Review queue…"))
        self.flush_dialogs = [dialog for dialog in self.flush_dialogs if alive(dialog)]
        for dialog in self.flush_dialogs:
            dialog.show_review_rows(count)

    # ---- windows -------------------------------------------------------------
    def open_flush(self):
        """The flush window (none while a reply is being written, nor before a cloud it would use is agreed to)."""
        if self.busy() or not self.may_flush():
            return None
        from ..flush.dialog import FlushDialog
        dialog = FlushDialog(self.flush(), self.personas, self.runner, self.parent_widget, memory=self.memory)
        dialog.flush_started.connect(self.gate_moved)  # chat opens again while it runs
        dialog.flush_finished.connect(self._flushed)
        dialog.flush_failed.connect(lambda _failure: self.gate_moved.emit())
        dialog.review_requested.connect(self.open_review_queue)
        dialog.cut_button.sent.connect(lambda _count: self.changed())  # the queue's count again
        self.flush_dialogs.append(dialog)
        return self.dialogs.open(dialog, modal=False)

    def _flushed(self, report) -> None:
        if self.busy():  # a reply is being written meanwhile: its bubbles stay as they are
            self._reload_after_turn = True
        else:
            self.conversation_changed.emit()
        self.gate_moved.emit()
        self.memory_changed.emit()
        self.refresh_review_count()
        if report.run_id is not None and self.settings.background.warm_start:  # core/chat/warm.py
            self.runner.start("warm start", warm_task(self.chat, self.consent, self.persona_id()))

    def after_turn(self, _result=None) -> None:
        """A reply ended (or failed): a flush that ended meanwhile shows its archived chat now."""
        if self._reload_after_turn:
            self._reload_after_turn = False
            self.conversation_changed.emit()

    def open_memory(self):
        from .browser import MemoryBrowser
        dialog = MemoryBrowser(self.memory, self.settings, self.personas, self.clock, self.runner, self.parent_widget)
        dialog.memory_changed.connect(self.changed)
        return self.dialogs.open(dialog, modal=False)

    def open_review_queue(self):
        from .review_queue import ReviewQueueDialog
        for old in self.dialogs:  # one queue window: "Open review queue" again shows the one already open
            if isinstance(old, ReviewQueueDialog) and alive(old) and old.isVisible():
                old.refresh()
                old.activateWindow()
                return old
        dialog = ReviewQueueDialog(self.memory, self.personas, self.settings, self.runner, self.parent_widget,
                                   archive=self.chat.archive)
        dialog.memory_changed.connect(self.changed)
        return self.dialogs.open(dialog, modal=False)

    def open_inbox(self):
        from .inbox import InboxDialog
        dialog = InboxDialog(self.inbox(), self.parent_widget, self.runner, self.lint())
        dialog.memory_changed.connect(self.changed)
        return self.dialogs.open(dialog, modal=False)

    def changed(self) -> None:
        """Memories changed (a dialog here, or another device's decisions a sync replayed): the meter and the review
        count again."""
        self.memory_changed.emit()
        self.refresh_review_count()
