"""Settings → Model's memory score: the last score on the bundled set of the window's language ("memory score:
5 of 6 kept, 4 of 4 retired, 0 invented") and "Measure on this computer", which runs ``monchat eval`` on that set in
the background with progress and Cancel (``core/evaluation/service.py``; the row is ``kit/download_row.py``'s)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ...core.evaluation.runner import EvalCancelled
from ..failures import headline
from ..kit.download_row import DownloadRow
from ..kit.workers import TaskRunner
from ..translation import arg, ui_language


class ScoreRow(QWidget):
    """The last score, and the row that measures it again."""

    def __init__(self, score, runner: TaskRunner, parent: QWidget | None = None, language: str | None = None) -> None:
        """Args:
            score: a ``MemoryScore`` (``app.py`` ``memory_score``).
            language: ``ja`` or ``en``, the bundled set measured (default: the window's language).
        """
        super().__init__(parent)
        self.score, self.language = score, language or ui_language()
        self.last = QLabel(self)
        self.last.setWordWrap(True)
        self.row = DownloadRow(runner, self)
        self.row.button.setText(self.tr("Measure on this computer"))
        self.row.button.setToolTip(self.tr("Runs a week of made-up conversations through the saved model in a "
                                           "scratch folder (your memory is not touched) and scores what it kept. "
                                           "A small model takes many minutes."))
        self.row.button.clicked.connect(self.measure)
        self.row.show_progress = self._progress  # type: ignore[method-assign]
        self.row.finished.connect(lambda _done: self.show_last())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.last)
        layout.addWidget(self.row)
        self.show_last()

    def show_last(self) -> None:
        result = self.score.last(self.language)
        if result is None:
            self.last.setText(self.tr("Memory score: not measured on this computer yet."))
            return
        self.last.setText(arg(self.tr("Memory score of %1 (%2): %3 of %4 kept, %5 of %6 retired, %7 invented"),
                              result["model"], str(result["started"])[:10], result["present"]["kept"],
                              result["present"]["of"], result["retired"]["retired"], result["retired"]["of"],
                              result["invented"]))

    def measure(self) -> None:
        score, language = self.score, self.language

        def work(report, stop):
            try:
                score.measure(language, lambda done, steps: report((done, steps)), stop)
            except EvalCancelled:
                return False
            return True
        self.row.bar.setRange(0, 0)
        self.row.run("memory score", work, self.tr("Measuring… (the first step is the slowest)"), self._ended)

    def _progress(self, step) -> None:
        done, steps = step
        self.row.bar.setRange(0, steps)
        self.row.bar.setValue(done)
        self.row.state.setText(arg(self.tr("Measuring: step %1 of %2"), done, steps))

    def _ended(self, done: bool, failure) -> str:
        if done:
            return self.tr("Measured.")
        return headline(failure) if failure is not None else self.tr("Cancelled.")
