"""Run service calls off the GUI thread and get the result back as signals.

After novelWriter's runnables and Anki's ``taskman``: a task takes a snapshot
of what it needs, calls one service function on a pool thread and emits
``progress``/``finished``/``failed``. Workers never touch widgets; errors cross
the thread as data (a :class:`Failure`), never as exceptions.
"""

from __future__ import annotations

import logging
import sqlite3
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from ...core.asking.baton import BATON
from ...core.crash import write_crash_report
from ...core.errors import KnownError, storage_error
from ...core.redact import redact

log = logging.getLogger(__name__)


@dataclass
class Failure:
    """Why a task failed, as data the GUI can word.

    ``known`` failures are the environment's fault or the user's input and
    carry the core's ``code``, ``message`` and ``hint``; the others are our bugs
    and carry the traceback and the crash report written for them.
    """

    code: str
    message: str
    hint: str = ""
    known: bool = True
    details: str = ""
    crash_report: str = ""

    def __post_init__(self) -> None:
        """What the window shows never holds an API key (a server may echo it; core/redact.py)."""
        self.message, self.hint, self.details = redact(self.message), redact(self.hint), redact(self.details)

    @classmethod
    def from_known(cls, exc: KnownError) -> "Failure":
        return cls(code=exc.code, message=exc.message, hint=exc.hint)

    @classmethod
    def from_bug(cls, exc: BaseException, crash_dir: Path | None) -> "Failure":
        details = "".join(traceback.format_exception(exc))
        return cls(code="bug", message=f"{type(exc).__name__}: {exc}", known=False, details=details,
                   crash_report=write_crash_report(crash_dir, details))


class TaskSignals(QObject):
    """Signals of one task; they live on the GUI thread and are emitted from the pool thread."""

    progress = Signal(object)  # whatever the task reports (a text piece, a FlushProgress, …)
    finished = Signal(object)  # the function's return value
    failed = Signal(object)  # a Failure


class Task(QRunnable):
    """Call ``fn(report)`` on a pool thread; ``report(x)`` emits ``progress(x)``."""

    def __init__(self, fn: Callable[[Callable[[Any], None]], Any], crash_dir: Path | None, name: str) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the runner keeps it until its result has been delivered
        self.fn = fn
        self.crash_dir = crash_dir
        self.name = name
        self.signals = TaskSignals()

    def run(self) -> None:
        BATON.background()  # below the window's thread (core/asking/baton.py)
        try:
            result = self.fn(self.signals.progress.emit)
        except KnownError as exc:
            log.info("task %s: %s", self.name, exc.message)
            self.signals.failed.emit(Failure.from_known(exc))
        except (sqlite3.Error, OSError) as exc:
            mapped = storage_error(exc)  # the disk's or the database's fault, worded in one place
            if mapped is None:
                log.exception("task %s crashed", self.name)
                self.signals.failed.emit(Failure.from_bug(exc, self.crash_dir))
            else:
                log.info("task %s: %s (%s)", self.name, mapped.message, exc)
                self.signals.failed.emit(Failure.from_known(mapped))
        except BaseException as exc:  # our bug: it becomes a crash report, never silence
            log.exception("task %s crashed", self.name)
            self.signals.failed.emit(Failure.from_bug(exc, self.crash_dir))
        else:
            self.signals.finished.emit(result)


class TaskRunner(QObject):
    """A private thread pool with the tasks still in flight (so they can be drained)."""

    busy_changed = Signal(bool)

    def __init__(self, crash_dir: Path | None = None, parent: QObject | None = None, max_threads: int = 3) -> None:
        super().__init__(parent)
        self.crash_dir = crash_dir
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._active: set[Task] = set()

    def start(self, name: str, fn: Callable[[Callable[[Any], None]], Any], *,
              on_progress: Callable[[Any], None] | None = None,
              on_finished: Callable[[Any], None] | None = None,
              on_failed: Callable[[Failure], None] | None = None) -> Task:
        """Run ``fn(report)`` off the GUI thread; the callbacks run on the GUI thread.

        Args:
            name: for the log.
            fn: takes a ``report`` callable (emits ``progress``); returns the result.
        """
        task = Task(fn, self.crash_dir, name)
        if on_progress is not None:
            task.signals.progress.connect(on_progress)
        if on_finished is not None:
            task.signals.finished.connect(on_finished)
        if on_failed is not None:
            task.signals.failed.connect(on_failed)
        # Connected last, so the callers' slots have run when the task is released.
        task.signals.finished.connect(lambda _result, t=task: self._release(t))
        task.signals.failed.connect(lambda _failure, t=task: self._release(t))
        was_busy = bool(self._active)
        self._active.add(task)
        if not was_busy:
            self.busy_changed.emit(True)
        self.pool.start(task)
        return task

    def _release(self, task: Task) -> None:
        self._active.discard(task)
        if not self._active:
            self.busy_changed.emit(False)

    def busy(self) -> bool:
        return bool(self._active)

    def drain(self, timeout_ms: int = 15000) -> bool:
        """Wait for every task and deliver its result (which may start another). False on timeout."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            remaining = int((deadline - time.monotonic()) * 1000)
            if remaining <= 0 or not self.pool.waitForDone(remaining):
                return False
            QCoreApplication.sendPostedEvents()
            QCoreApplication.processEvents()
            if not self._active:
                return True
