"""The Memory menu's windows: Flush, Memory, Review queue (with its count), Inbox.

Memory, the review queue and the inbox open as windows beside the chat (not modal): a user reads their
memory while chatting. The flush window is not modal either: once a flush runs, chat is open again
(``FlushGate.flushing``), and the gate is read again when the flush starts and ends. A flush that leaves
items waiting for review ends with "Open review queue (N)"; the menu shows the same count: the rows the queue
shows, near-duplicates as one (``MemoryService.review_rows``), never the items in them.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from ...core.chat.warm import warm_task
from ..kit.lifetime import alive


class MemoryMenu(QObject):
    """Opens the Memory menu's windows for ``window`` (the main window) and keeps the review count shown."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.review_count = 0
        self.flush_dialogs: list = []  # the flush windows opened, told the count (never imported to look for them)
        self._reload_after_turn = False
        window.turn_finished.connect(self._after_turn)
        window.turn_failed.connect(self._after_turn)

    # ---- the review count --------------------------------------------------
    def refresh_review_count(self) -> None:
        """Count the open review items off the GUI thread; the menu item then says how many."""
        w = self.window
        if w.closing:
            return
        memory = w.app.memory
        w.runner.start("review count", lambda _report: memory.review_rows(), on_finished=self._show_count)

    def _show_count(self, count: int) -> None:
        """The queue's rows (near-duplicates as one, ``MemoryService.review_rows``): the menu item and an open
        flush window's "Open review queue (N)" say the number of rows the queue window shows."""
        if not alive(self.window):
            return
        self.review_count = count
        action = self.window.queue_action
        action.setText(self.tr("Review queue (%n)…", "", count) if count else self.tr("Review queue…"))
        self.flush_dialogs = [dialog for dialog in self.flush_dialogs if alive(dialog)]
        for dialog in self.flush_dialogs:
            dialog.show_review_rows(count)

    # ---- windows -------------------------------------------------------------
    def open_flush(self):
        w = self.window
        if not w.cloud.allows(None, w.open_flush):
            return None
        from ..flush.dialog import FlushDialog
        dialog = FlushDialog(w.app.flush, w.app.personas, w.runner, w)
        dialog.flush_started.connect(w.refresh_gate)  # chat opens again while it runs
        dialog.flush_finished.connect(self._flushed)
        dialog.flush_failed.connect(lambda _failure: w.refresh_gate())
        dialog.review_requested.connect(w.open_review_queue)
        self.flush_dialogs.append(dialog)
        return w._open(dialog, modal=False)

    def _flushed(self, report) -> None:
        w = self.window
        if w.turns.current is not None:  # a reply is being written meanwhile: its bubbles stay as they are
            self._reload_after_turn = True
        else:
            w.reload_conversation()
        w.refresh_gate()
        w.refresh_meter()
        self.refresh_review_count()
        if report.run_id is not None and w.app.settings.background.warm_start:  # core/chat/warm.py
            w.runner.start("warm start", warm_task(w.app.chat, w.app.consent, w.persona_id()))

    def _after_turn(self, _result) -> None:
        if self._reload_after_turn:
            self._reload_after_turn = False
            self.window.reload_conversation()

    def open_memory(self):
        from .browser import MemoryBrowser
        w = self.window
        dialog = MemoryBrowser(w.app.memory, w.app.settings, w.app.personas, w.app.clock, w.runner, w)
        dialog.memory_changed.connect(self._memory_changed)
        return w._open(dialog, modal=False)

    def open_review_queue(self):
        from .review_queue import ReviewQueueDialog
        w = self.window
        for old in w.dialogs:  # one queue window: "Open review queue" again shows the one already open
            if isinstance(old, ReviewQueueDialog) and alive(old) and old.isVisible():
                old.refresh()
                old.activateWindow()
                return old
        dialog = ReviewQueueDialog(w.app.memory, w.app.personas, w.app.settings, w.runner, w)
        dialog.memory_changed.connect(self._memory_changed)
        return w._open(dialog, modal=False)

    def open_inbox(self):
        from .inbox import InboxDialog
        w = self.window
        dialog = InboxDialog(w.app.inbox, w, w.runner, w.app.lint)
        dialog.memory_changed.connect(self._memory_changed)
        return w._open(dialog, modal=False)

    def _memory_changed(self) -> None:
        self.window.refresh_meter()
        self.refresh_review_count()
