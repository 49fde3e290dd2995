"""The finished flush window's "Send what was cut to review (N)" (issue 45).

A filter persona keeps at most its limit of proposals a flush; the rest are counted in the result's line ("60 over
the persona's limit") and are not lost: this button puts them in the review queue (``core/flush/cut.queue_cut``, on
a worker, as every database step of the window), then says how many went there. Shown only after a flush that
wrote its run (not a preview) and whose limit cut something.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from ...core.flush.cut import queue_cut
from ...core.vocabulary.states import DropCategory
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..kit.workers import Failure, TaskRunner
from ..translation import arg


class SendCutButton(QPushButton):
    """Signals:
        sent(int): the cut proposals went to the review queue (how many; 0 when all were there already).
    """

    sent = Signal(int)

    def __init__(self, memory, archive, runner: TaskRunner, status: QLabel, parent: QWidget | None = None) -> None:
        """``memory``: the ``MemoryService`` (None: the window cannot send, the button never shows); ``archive``: the
        messages the cut proposals rest on; ``status``: the window's status line, which says what was sent."""
        super().__init__(parent)
        self.memory, self.archive, self.runner, self.status = memory, archive, runner, status
        self.run_id: int | None = None
        self.cut = 0  # what the last flush's limit cut
        self.setToolTip(self.tr("The persona's limit left these proposals out of this flush. In the review queue "
                                "you decide each; nothing becomes memory unless you approve it."))
        self.clicked.connect(self.send)
        self.hide()

    def show_for(self, report) -> None:
        """After a flush: shown with the number its limit cut, when it wrote its run and cut something."""
        cut = (report.accounting or {}).get("dropped", {}).get(DropCategory.LIMIT, 0)
        self.run_id, self.cut = report.run_id, cut
        wrote = self.memory is not None and not report.dry_run and report.run_id is not None
        self.setText(arg(self.tr("Send what was cut to review (%1)"), cut))
        self.setEnabled(True)
        self.setVisible(wrote and cut > 0)

    def send(self) -> None:
        if self.run_id is None or self.memory is None:
            return
        memory, archive, run_id = self.memory, self.archive, self.run_id
        self.setEnabled(False)
        self.setText(self.tr("Sending…"))
        self.runner.start("queue cut", lambda _report: queue_cut(memory, archive, run_id),
                          on_finished=self._sent, on_failed=self._failed)

    def _sent(self, numbers: list[int]) -> None:
        if not alive(self):
            return
        count = len(numbers)
        self.setText(self.tr("Sent to review (%n)", "", count) if count else self.tr("Nothing new to send"))
        said = (self.tr("%n proposal(s) the limit cut now wait for your review.", "", count) if count else
                self.tr("What the limit cut waits for review already, or the lines it rests on were deleted."))
        self.status.setText(arg(self.tr("%1 %2"), self.status.text(), said))
        self.status.show()
        self.sent.emit(count)

    def _failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.setText(arg(self.tr("Send what was cut to review (%1)"), self.cut))
        self.setEnabled(True)
        self.status.setText(f"{headline(failure)}\n{explanation(failure)}")
