"""The review queue: changes a flush would not make alone, waiting for a yes or a no.

A queued item never confirms silently; unanswered past its deadline it goes back
to being a candidate (the flush does that). Approve and reject run on a worker.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget, QPushButton, QSplitter,
                               QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from .failures import explanation, headline
from .lifetime import alive
from .workers import Failure, TaskRunner


class ReviewQueueDialog(QDialog):
    """Signals:
        memory_changed(): an item was approved or rejected.
        action_failed(Failure): the change was refused.
    """

    memory_changed = Signal()
    action_failed = Signal(object)

    def __init__(self, app, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.runner = runner
        self.memory = app.services["memory"]
        self.rows: list[dict] = []
        self.busy = False
        self.setWindowTitle(self.tr("Review queue"))
        self.resize(860, 560)
        self.intro = QLabel(self.tr("These changes to your lasting memory wait for your decision. "
                                    "Nothing here is used until you approve it."), self)
        self.intro.setWordWrap(True)
        self.table = QTreeWidget(self)
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels([self.tr("Proposal"), self.tr("Replaces"), self.tr("Action"),
                                    self.tr("Confidence"), self.tr("Decide by")])
        self.table.setColumnWidth(0, 300)
        self.table.setColumnWidth(1, 200)
        self.table.currentItemChanged.connect(lambda *_: self.show_detail())
        self.reason = QLabel(self)
        self.reason.setWordWrap(True)
        self.evidence = QListWidget(self)
        self.evidence.setWordWrap(True)
        self.approve_button = QPushButton(self.tr("Approve"), self)
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button = QPushButton(self.tr("Reject"), self)
        self.reject_button.clicked.connect(self.reject_selected)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        detail = QWidget(self)
        col = QVBoxLayout(detail)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.reason)
        col.addWidget(QLabel(self.tr("Evidence: what you said"), detail))
        col.addWidget(self.evidence, 1)
        col.addLayout(buttons)
        col.addWidget(self.message)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(detail)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(splitter, 1)
        layout.addWidget(close)
        self.refresh()

    def action_name(self, action: str) -> str:
        return {"layer1": self.tr("Add to lasting memory"), "supersede": self.tr("Replace"),
                "merge": self.tr("Merge"), "retract": self.tr("Take back"),
                "judge": self.tr("Decide: same thing or not?")}.get(action, action)

    def refresh(self) -> None:
        self.rows = self.memory.queue()
        self.table.clear()
        for row in self.rows:
            deadline = row.get("deadline_epoch")
            when = datetime.fromtimestamp(deadline).strftime("%Y-%m-%d") if deadline else ""
            confidence = row.get("confidence")
            item = QTreeWidgetItem(self.table, [
                row.get("text") or "", row.get("old_text") or "", self.action_name(row.get("action") or ""),
                f"{confidence:.2f}" if isinstance(confidence, (int, float)) else "", when])
            item.setData(0, Qt.ItemDataRole.UserRole, row["id"])
            item.setToolTip(0, row.get("text") or "")
        if self.table.topLevelItemCount():
            self.table.setCurrentItem(self.table.topLevelItem(0))
        if not self.rows:
            self.reason.setText(self.tr("Nothing is waiting for review."))
        self.show_detail()

    def current(self) -> dict | None:
        item = self.table.currentItem()
        if item is None:
            return None
        queue_id = item.data(0, Qt.ItemDataRole.UserRole)
        return next((r for r in self.rows if r["id"] == queue_id), None)

    def show_detail(self) -> None:
        row = self.current()
        self.evidence.clear()
        self.approve_button.setEnabled(row is not None and not self.busy)
        self.reject_button.setEnabled(row is not None and not self.busy)
        if row is None:
            return
        self.reason.setText(self.tr("Why: {reason}").format(reason=row.get("reason") or "—"))
        for message in self.memory.evidence(row["memory_id"]):
            when = str(message.get("ts", ""))[:16].replace("T", " ")
            self.evidence.addItem(f"{when}  {message.get('text', '')}")

    def _apply(self, name: str, fn) -> None:
        if self.busy:
            return
        self.busy = True
        self.show_detail()
        self.message.setText(self.tr("Saving…"))
        self.runner.start(name, lambda _report: fn(), on_finished=self._applied, on_failed=self._failed)

    def _applied(self, _result) -> None:
        if not alive(self):
            return
        self.busy = False
        self.message.setText(self.tr("Done."))
        self.refresh()
        self.memory_changed.emit()

    def _failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.busy = False
        self.message.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.show_detail()
        self.action_failed.emit(failure)

    def approve_selected(self) -> None:
        row, memory = self.current(), self.memory
        if row is not None:
            self._apply("approve", lambda: memory.approve(str(row["id"])))

    def reject_selected(self) -> None:
        row, memory = self.current(), self.memory
        if row is not None:
            self._apply("reject", lambda: memory.reject(str(row["id"])))
