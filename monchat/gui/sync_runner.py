"""Syncing from the window (issue 41): at start, after each flush and on a timer, off the GUI thread.

``BackgroundSync`` runs ``SyncService.run`` on the window's task runner (``kit/workers.py``), one at a time: a
request while one runs is kept and run once after it (a flush that ended meanwhile is exported then). Another
process's sync (``monchat sync`` in a terminal) holds ``sync.lock``: that is no failure, the timer's next sync does
the work. Nothing runs until this monchat is set up to sync (Settings → Sync). Its state is a short line in the status
bar ("Synced 2 min ago", "Syncing…", "Sync: folder not found"); the full words are its tooltip and the Sync page.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from .kit.lifetime import alive

if TYPE_CHECKING:
    from ..core.sync.service import SyncService
    from .kit.workers import Failure, TaskRunner

SYNC_EVERY_MS = 5 * 60_000  # while the window is open
START_DELAY_MS = 2_000  # the first sync waits for the window's first paint and its own start
TICK_MS = 30_000  # "Synced 2 min ago" is worded again


@dataclass
class Problem:
    """A sync that could not run, as the window words it. ``kind``: missing, unwritable, running or other."""

    kind: str
    message: str = ""
    hint: str = ""


def sync_once(service: SyncService) -> Any:
    """On a pool thread: the ``SyncReport``, or a ``Problem`` for the known ways a sync cannot run (a folder
    unplugged, another sync running); None when this monchat is not set up. Bugs still raise (a crash report)."""
    from ..core.errors import InputError
    from ..core.sync.service import SyncRunning
    device = service.device()
    if device is None:
        return None
    try:
        return service.run()
    except SyncRunning as exc:
        return Problem("running", exc.message, exc.hint)
    except InputError as exc:
        folder = Path(device.folder)
        kind = ("missing" if not folder.is_dir() else "unwritable" if not os.access(folder, os.W_OK | os.X_OK)
                else "other")
        return Problem(kind, exc.message, exc.hint)


class BackgroundSync(QObject):
    """Signals:
        started(): a sync began (the status bar says "Syncing…").
        synced(SyncReport): a sync ended.
        problem(Problem): a sync could not run (not emitted for another process's running sync).
        history_changed(): a sync imported or deleted messages (the conversation is shown again).
        memory_changed(): a sync replayed other devices' decisions or opened a conflict (the review count
            again).
    """

    started, synced, problem = Signal(), Signal(object), Signal(object)
    history_changed, memory_changed = Signal(), Signal()

    def __init__(self, service: Callable[[], SyncService], runner: TaskRunner, wait: Callable[[], Any],
                 parent: QObject | None = None, interval_ms: int = SYNC_EVERY_MS, first_ms: int = START_DELAY_MS) -> None:
        """Starts at once: the first sync ``first_ms`` later, then every ``interval_ms``.

        Args:
            service: returns the app's ``SyncService`` (built on first use).
            wait: true while no sync may start nor the conversation be shown again (the window closes, a reply is
                being written); what was asked meanwhile happens at the next ``after_gate`` (each turn ends with
                one) or tick.
        """
        super().__init__(parent)
        self.service, self.runner, self.wait = service, runner, wait
        self.running = self.again = self.reload = False
        self.last_sync: float | None = None  # time.monotonic() of the last sync that ended well
        self.last_report: Any = None
        self.last_problem: Problem | None = None
        self.label = QLabel()  # the status bar's line (the window adds it); empty while not set up
        self.label.setObjectName("sync_state")
        self.label.setVisible(False)
        self.timer = QTimer(self, interval=interval_ms, timeout=self.sync_now)
        self.tick = QTimer(self, interval=TICK_MS, timeout=self._tick)
        self._flushing, self._files = False, None
        self.timer.start()
        self.tick.start()
        QTimer.singleShot(first_ms, self, self.sync_now)

    # ---- when ------------------------------------------------------------------
    def after_gate(self, gate) -> None:
        """The gate was read again (the window connects ``gate_changed``): a flush that ended, here or in another
        process, is followed by a sync; what waited for a reply to end happens now."""
        ended = self._flushing and not gate.flushing
        archived = self._files is not None and gate.unflushed_files < self._files
        self._flushing, self._files = gate.flushing, gate.unflushed_files
        if ended or archived or self.again:
            self.sync_now()
        self._show_history()

    def _tick(self) -> None:
        self.show_state()
        if self.again:
            self.sync_now()

    def _show_history(self) -> None:
        if self.reload and not self.wait():
            self.reload = False
            self.history_changed.emit()

    def sync_now(self) -> None:
        """Start a sync in the background, unless one runs or the window waits (then once more afterwards)."""
        if self.running or self.wait():
            self.again = True
            return
        service = self.service()
        if self.last_report is None and self.last_problem is None and service.device() is None:
            return  # not set up (one small read): no task on the pool, so a window that never syncs starts none
        self.running, self.again = True, False
        self.runner.start("sync", lambda _report: sync_once(service), on_finished=self._ended,
                          on_failed=self._failed)
        if self.last_report is not None or self.last_problem is not None:  # set up: the first run says nothing
            self.label.setText(self.tr("Syncing…"))
            self.label.setVisible(True)
        self.started.emit()

    def _ended(self, outcome) -> None:
        if not alive(self):
            return
        self.running = False
        if isinstance(outcome, Problem):
            if outcome.kind != "running":  # another process syncs now: not a failure, the timer tries again
                self.last_problem = outcome
                self.problem.emit(outcome)
        elif outcome is not None:
            self.last_sync, self.last_report, self.last_problem = time.monotonic(), outcome, None
            self.reload = self.reload or bool(outcome.imported or outcome.deletions_applied)
            self._show_history()
            if outcome.decisions_applied or outcome.conflicts_opened or outcome.conflicts_decided:
                self.memory_changed.emit()
            self.synced.emit(outcome)
        self.show_state()
        if self.again:
            QTimer.singleShot(0, self, self.sync_now)

    def _failed(self, failure: Failure) -> None:
        """A bug (or a disk fault the core words): shown in the line and its tooltip, the window goes on."""
        self._ended(Problem("other", failure.message, failure.hint))

    # ---- the status bar ------------------------------------------------------------
    def state_text(self) -> str:
        """The short line: empty while not set up and never run."""
        if self.running and (self.last_report is not None or self.last_problem is not None):
            return self.tr("Syncing…")
        if self.last_problem is not None:
            return {"missing": self.tr("Sync: folder not found"),
                    "unwritable": self.tr("Sync: folder cannot be written")}.get(
                self.last_problem.kind, self.tr("Sync stopped (Settings → Sync)"))
        if self.last_sync is None:
            return ""
        minutes = int((time.monotonic() - self.last_sync) // 60)
        text = self.tr("Synced just now") if minutes < 1 else self.tr("Synced %n min ago", "", minutes)
        conflicts = len(self.last_report.conflicts) if self.last_report is not None else 0
        if conflicts:
            text += " · " + self.tr("%n conflict copies", "", conflicts)
        return text

    def show_state(self) -> None:
        if not alive(self.label):
            return
        text = self.state_text()
        self.label.setText(text)
        self.label.setVisible(bool(text))
        problem, report = self.last_problem, self.last_report
        if problem is not None:
            tip = "\n".join(part for part in (problem.message, problem.hint) if part)
        elif report is not None and report.conflicts:
            tip = self.tr("Conflict copies are files a sync tool made; monchat never reads them. "
                          "Settings → Sync lists them.")
        else:
            tip = ""
        self.label.setToolTip(tip)

