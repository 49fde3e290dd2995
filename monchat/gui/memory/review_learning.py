"""Settings → Memory: the auto-approve thresholds your review decisions taught, and a button to forget them.

The numbers are ``core/memory/learning.py``'s (the same ``monchat status`` and ``monchat settings`` show);
Reset acts at once, like ``monchat settings reset-learning`` (it is not a setting waiting for Save).
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.memory.learning import ReviewLearning
from ..failures import headline
from ..kit.lifetime import alive
from ..translation import arg
from ..kit.workers import TaskRunner


class ReviewLearningView(QWidget):
    def __init__(self, learning: ReviewLearning, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.learning = learning
        self.runner = runner
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.reset_button = QPushButton(self.tr("Reset what reviews taught"), self)
        self.reset_button.setToolTip(self.tr("Forget your approve/reject decisions so far: the approval threshold "
                                             "alone decides again (at once)"))
        self.reset_button.clicked.connect(self.reset)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.label)
        column.addWidget(self.reset_button)
        self.refresh()

    def refresh(self) -> None:
        base = self.learning.base
        entries = self.learning.summary()
        if not entries:
            self.label.setText(arg(self.tr("Nothing learned yet: every topic is approved by itself at confidence "
                                           "%1 or more."), f"{base:.2f}"))
        else:
            self.label.setText("\n".join(
                arg(self.tr("%1: lasting memory approved by itself from confidence %2 — %3 approved, %4 rejected"),
                    e["topic"], f"{e['threshold']:.2f}", e["approved"], e["rejected"]) for e in entries))
        self.reset_button.setEnabled(bool(entries))

    def reset(self) -> None:
        learning = self.learning
        self.reset_button.setEnabled(False)
        self.runner.start("reset review learning", lambda _report: learning.reset(),
                          on_finished=lambda _result: alive(self) and self.refresh(),
                          on_failed=lambda failure: alive(self) and self.label.setText(headline(failure)))
