"""One download row: a start button, Cancel, a progress bar and a line saying how far.

Settings → Model's catalog download and the first start's offer (``settings/model_catalog.py`` ``Download``) and
``ollama pull`` (``settings/model_tools.py`` ``PullControl``) are this row with their own work and words.
One job at a time: a second press while one runs does nothing; Cancel sets the job's stop event; when the
job ends (done, cancelled or failed) the button is free again, the bar hidden, the line says how it ended and
``finished`` says whether it is done.
"""

from __future__ import annotations

import threading
from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from .lifetime import alive
from .workers import Failure, TaskRunner


class DownloadRow(QWidget):
    """Signals:
        finished(bool): the job ended; True when what it fetched is here (False: cancelled or failed).
    """

    finished = Signal(bool)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.button = QPushButton(self)  # its words and what it starts are the subclass's
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.bar = QProgressBar(self)
        self.bar.setVisible(False)
        self.state = QLabel(self)
        self.state.setWordWrap(True)
        self._stop: threading.Event | None = None
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.bar, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.state)

    def busy(self) -> bool:
        return self._stop is not None

    def run(self, task: str, work: Callable, text: str, ended: Callable[[bool, Failure | None], str]) -> bool:
        """Start ``work(report, stop)`` on the runner unless a job runs already; False when one does.
        ``work`` returns False when it was cancelled (anything else: done); each step it reports goes to
        ``show_progress`` while this row is alive.

        Args:
            text: the line while it starts.
            ended: ``(done, failure)`` → the line once it ended.
        """
        if self._stop is not None:
            return False
        stop = threading.Event()
        self._stop = stop
        self.button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.bar.setVisible(True)
        self.state.setText(text)
        self.runner.start(task, lambda report: work(report, stop),
                          on_progress=self._progress,
                          on_finished=lambda result: self._ended(result is not False, None, ended),
                          on_failed=lambda failure: self._ended(False, failure, ended))
        return True

    def show_progress(self, step) -> None:
        """One step the job reported: the subclass shows it on the bar and the line."""

    def _progress(self, step) -> None:
        if alive(self):
            self.show_progress(step)

    def cancel(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self.cancel_button.setEnabled(False)

    def _ended(self, done: bool, failure: Failure | None, ended: Callable[[bool, Failure | None], str]) -> None:
        if not alive(self):
            return
        self._stop = None
        self.button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.bar.setVisible(False)
        self.state.setText(ended(done, failure))
        self.finished.emit(done)
