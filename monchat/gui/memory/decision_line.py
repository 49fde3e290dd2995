"""The line under a memory list that says what the last decision did ("8 approved, 5 rejected", "2 memories merged")
and offers Undo for it: the review queue and the Memory window show the same one.

Undo runs ``core/memory/undo.py``'s ``undo_last`` on a worker — the one record of the last decision, whichever window
made it — and the owner reads its list again when ``undone`` arrives. The line can also say something else with an
Undo of the owner's own (the Memory window's Forget: Undo restores).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ...core.memory.service import MemoryService
from ...core.memory.undo import Decision, undo_last
from ..kit.lifetime import alive
from ..kit.workers import Failure, TaskRunner


WIDEST = 900  # px: a longer line wraps (a refusal's explanation); a shorter one stays one line beside Undo


class DecisionLine(QWidget):
    """Signals:
        undo_started(): Undo was clicked; the owner holds its buttons until ``undone`` or ``failed``.
        undone(Decision): the last decision was put back.
        failed(Failure): Undo was refused (memory changed since); the line says why.
    """

    undo_started = Signal()
    undone = Signal(object)
    failed = Signal(object)

    def __init__(self, memory: MemoryService, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.memory, self.runner = memory, runner
        self._own_undo: Callable[[], None] | None = None  # an Undo of the owner's (None: the last decision's)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.undo_button = QPushButton(self.tr("Undo"), self)
        self.undo_button.setToolTip(self.tr("Put the last decision back as it was"))
        self.undo_button.clicked.connect(self.undo)
        self.undo_button.setVisible(False)
        row = QHBoxLayout(self)  # Undo right after the words it undoes
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.message)
        row.addWidget(self.undo_button)
        row.addStretch(1)

    def say(self, text: str, undo: Callable[[], None] | None = None) -> None:
        """Show ``text``; with ``undo``, an Undo button that calls it (none without)."""
        self._show(text)
        self._own_undo = undo
        self.undo_button.setVisible(undo is not None)

    def saving(self) -> None:
        self.say(self.tr("Saving…"))

    def show_decision(self, decision: Decision | None) -> None:
        """Say what ``decision`` did, with Undo; ``None`` (nothing kept to undo): "Done."."""
        if decision is None:
            self.say(self.tr("Done."))
            return
        self._show(self.decided_text(decision))
        self._own_undo = None
        self.undo_button.setVisible(True)

    def _show(self, text: str) -> None:
        """A wrapping label is as narrow as it may be: give it its longest line's width (up to ``WIDEST``)."""
        metrics = self.message.fontMetrics()
        self.message.setMinimumWidth(min(max((metrics.horizontalAdvance(line) for line in text.splitlines()),
                                             default=0) + 8, WIDEST))
        self.message.setText(text)

    def decided_text(self, decision: Decision) -> str:
        parts = [self.tr("%n approved", "", decision.approved) if decision.approved else "",
                 self.tr("%n rejected", "", decision.rejected) if decision.rejected else "",
                 self.tr("%n memories merged into the one that says the same; their evidence is together now.",
                         "", len(decision.merged)) if decision.merged else ""]
        return self.tr(", ").join(p for p in parts if p)

    def undone_text(self, decision: Decision) -> str:
        if decision.queue_ids:
            return self.tr("Undone: %n items wait for review again.", "", len(decision.queue_ids))
        return self.tr("Undone: %n merged memories are back as they were.", "", len(decision.merged))

    def undo(self) -> None:
        """Undo what the line offers: the owner's own undo, or the last decision (on a worker)."""
        self.undo_button.setVisible(False)
        if self._own_undo is not None:
            own, self._own_undo = self._own_undo, None
            own()
            return
        self.undo_started.emit()
        memory = self.memory
        self.runner.start("undo decision", lambda _report: undo_last(memory), on_finished=self._undone,
                          on_failed=self._failed)

    def _undone(self, decision: Decision) -> None:
        if not alive(self):
            return
        self.say(self.undone_text(decision))
        self.undone.emit(decision)

    def _failed(self, failure: Failure) -> None:
        if alive(self):
            self.failed.emit(failure)
