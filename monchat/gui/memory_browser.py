"""The memory browser: memory as it is — Layer 1, Layer 2, pending, dormant, superseded.

Reading happens on the GUI thread (SQLite in WAL mode lets it read while a
flush writes); every change (approve, reject, edit, forget, pin) runs on a
worker so a busy database never freezes the window.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget, QMessageBox, QPlainTextEdit,
                               QPushButton, QSplitter, QTabBar, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from .failures import explanation, headline
from .lifetime import alive
from .workers import Failure, TaskRunner

FILTERS = ("layer1", "layer2", "pending", "dormant", "superseded", "all")


def matches(record, view: str, epoch: float) -> bool:
    """Whether a memory belongs in a view of the browser."""
    layer = record.layer(epoch)
    if view == "layer1":
        return layer == 1
    if view == "layer2":
        return layer == 2
    if view == "pending":  # set aside, waiting for review, or candidates outside both layers
        return not record.superseded_by and (record.state in ("pending", "queued")
                                             or (record.state == "candidate" and layer == 0))
    if view == "dormant":
        return record.state == "dormant"
    if view == "superseded":
        return bool(record.superseded_by) or record.state in ("superseded", "retracted")
    return True


class MemoryBrowser(QDialog):
    """Signals:
        memory_changed(): a change was applied (the chat prompt changes with it).
        action_failed(Failure): a change was refused.
    """

    memory_changed = Signal()
    action_failed = Signal(object)

    def __init__(self, app, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.runner = runner
        self.memory = app.services["memory"]
        self.records: list = []
        self.busy = False
        self.setWindowTitle(self.tr("Memory"))
        self.resize(900, 640)

        self.tabs = QTabBar(self)
        for view in FILTERS:
            self.tabs.addTab(self.view_name(view))
        self.tabs.currentChanged.connect(lambda _i: self.refresh())
        self.table = QTreeWidget(self)
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels([self.tr("Memory"), self.tr("Topic"), self.tr("State"),
                                    self.tr("Confidence"), self.tr("Days"), self.tr("Pinned")])
        self.table.setColumnWidth(0, 320)
        self.table.currentItemChanged.connect(lambda *_: self.show_detail())

        self.text_edit = QPlainTextEdit(self)
        self.text_edit.setMaximumHeight(80)
        self.facts = QLabel(self)
        self.facts.setWordWrap(True)
        self.facts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.history = QListWidget(self)
        self.evidence = QListWidget(self)
        self.evidence.setWordWrap(True)
        self.save_text_button = QPushButton(self.tr("Save wording"), self)
        self.save_text_button.clicked.connect(self.edit_selected)
        self.approve_button = QPushButton(self.tr("Approve"), self)
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button = QPushButton(self.tr("Reject"), self)
        self.reject_button.clicked.connect(self.reject_selected)
        self.pin_button = QPushButton(self.tr("Pin"), self)
        self.pin_button.clicked.connect(self.toggle_pin)
        self.forget_button = QPushButton(self.tr("Forget"), self)
        self.forget_button.setToolTip(self.tr("Take it out of the prompt for good (its history is kept)"))
        self.forget_button.clicked.connect(self.forget_selected)
        actions = QHBoxLayout()
        for button in (self.save_text_button, self.approve_button, self.reject_button, self.pin_button,
                       self.forget_button):
            actions.addWidget(button)
        actions.addStretch(1)
        self.message = QLabel(self)
        self.message.setWordWrap(True)

        detail = QWidget(self)
        col = QVBoxLayout(detail)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.text_edit)
        col.addLayout(actions)
        col.addWidget(self.facts)
        col.addWidget(QLabel(self.tr("History (oldest first)"), detail))
        col.addWidget(self.history, 1)
        col.addWidget(QLabel(self.tr("Evidence: what you said"), detail))
        col.addWidget(self.evidence, 2)
        col.addWidget(self.message)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(detail)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(splitter, 1)
        layout.addWidget(close)
        self.refresh()

    # ---- words -----------------------------------------------------------
    def view_name(self, view: str) -> str:
        return {"layer1": self.tr("Lasting (Layer 1)"), "layer2": self.tr("Recent (Layer 2)"),
                "pending": self.tr("Pending"), "dormant": self.tr("Dormant"),
                "superseded": self.tr("Superseded"), "all": self.tr("All")}[view]

    def state_name(self, state: str) -> str:
        return {"active": self.tr("active"), "candidate": self.tr("candidate"), "queued": self.tr("waiting for review"),
                "pending": self.tr("pending"), "dormant": self.tr("dormant"), "superseded": self.tr("superseded"),
                "retracted": self.tr("taken back"), "forgotten": self.tr("forgotten"),
                "rejected": self.tr("rejected"), "expired": self.tr("expired")}.get(state, state)

    # ---- reading ---------------------------------------------------------
    def view(self) -> str:
        return FILTERS[max(self.tabs.currentIndex(), 0)]

    def set_view(self, view: str) -> None:
        self.tabs.setCurrentIndex(FILTERS.index(view))

    def refresh(self, select: str = "") -> None:
        select = select or self.current_id()
        epoch = self.app.clock().timestamp()
        self.records = [r for r in self.memory.list(all=True) if matches(r, self.view(), epoch)]
        self.table.clear()
        chosen = None
        for record in self.records:
            item = QTreeWidgetItem(self.table, [
                record.text, record.slot, self.state_name(record.state),
                f"{record.confidence:.2f}" if record.confidence is not None else "", str(record.days),
                "📌" if record.pinned else ""])
            item.setData(0, Qt.ItemDataRole.UserRole, record.id)
            item.setToolTip(0, record.text)
            if record.id == select:
                chosen = item
        if chosen is None and self.table.topLevelItemCount():
            chosen = self.table.topLevelItem(0)
        self.table.setCurrentItem(chosen)
        self.show_detail()

    def current_id(self) -> str:
        item = self.table.currentItem() if hasattr(self, "table") else None
        return item.data(0, Qt.ItemDataRole.UserRole) if item else ""

    def current(self):
        memory_id = self.current_id()
        return next((r for r in self.records if r.id == memory_id), None)

    def show_detail(self) -> None:
        record = self.current()
        self.history.clear()
        self.evidence.clear()
        has = record is not None
        for button in (self.save_text_button, self.approve_button, self.reject_button, self.pin_button,
                       self.forget_button):
            button.setEnabled(has and not self.busy)
        if not has:
            self.text_edit.clear()
            self.facts.setText(self.tr("No memory here yet."))
            return
        history_state = bool(record.superseded_by) or record.state in ("superseded", "retracted", "forgotten",
                                                                       "rejected")
        self.text_edit.setPlainText(record.text)
        self.text_edit.setReadOnly(history_state)
        self.save_text_button.setEnabled(not history_state and not self.busy)
        self.approve_button.setEnabled(record.state == "queued" and not self.busy)
        self.reject_button.setEnabled(record.state == "queued" and not self.busy)
        self.pin_button.setText(self.tr("Unpin") if record.pinned else self.tr("Pin"))
        self.pin_button.setEnabled((bool(record.pinned) or not history_state) and not self.busy)
        self.forget_button.setEnabled(record.state != "forgotten" and not self.busy)
        facts = [self.tr("State: {state}").format(state=self.state_name(record.state)),
                 self.tr("Kind: {kind}").format(kind=record.kind),
                 self.tr("Seen on {days} days").format(days=record.days)]
        if record.valid_at:
            facts.append(self.tr("Valid from {when}").format(when=str(record.valid_at)[:16].replace("T", " ")))
        if record.invalid_at:
            facts.append(self.tr("until {when}").format(when=str(record.invalid_at)[:16].replace("T", " ")))
        if record.contradictions:
            facts.append(self.tr("Contradicted {n} times").format(n=record.contradictions))
        self.facts.setText(" · ".join(facts))
        for version in self.memory.history(record.id):
            mark = "▶ " if version.id == record.id else "   "
            self.history.addItem(f"{mark}{self.state_name(version.state)} · {version.text}")
        for row in self.memory.evidence(record.id):
            when = str(row.get("ts", ""))[:16].replace("T", " ")
            self.evidence.addItem(f"{when}  {row.get('text', '')}")

    # ---- changing (off the GUI thread) -------------------------------------
    def _apply(self, name: str, fn, select: str = "") -> None:
        if self.busy:
            return
        self.busy = True
        self.show_detail()
        self.message.setText(self.tr("Saving…"))
        self._select_after = select
        self.runner.start(name, lambda _report: fn(), on_finished=self._applied, on_failed=self._apply_failed)

    def _applied(self, result) -> None:
        if not alive(self):
            return
        self.busy = False
        self.message.setText(self.tr("Done."))
        new_id = getattr(result, "id", "") or self._select_after
        self.refresh(new_id)
        self.memory_changed.emit()

    def _apply_failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.busy = False
        self.message.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.show_detail()
        self.action_failed.emit(failure)

    def approve_selected(self) -> None:
        memory, memory_id = self.memory, self.current_id()
        if memory_id:
            self._apply("approve", lambda: memory.approve(memory_id), memory_id)

    def reject_selected(self) -> None:
        memory, memory_id = self.memory, self.current_id()
        if memory_id:
            self._apply("reject", lambda: memory.reject(memory_id), memory_id)

    def edit_selected(self) -> None:
        memory, memory_id, text = self.memory, self.current_id(), self.text_edit.toPlainText()
        if memory_id:
            self._apply("edit", lambda: memory.edit(memory_id, text))

    def forget_selected(self, confirmed: bool = False) -> QMessageBox | None:
        """Forget after a (non-blocking) confirmation; returns the question box when one is shown."""
        memory, memory_id = self.memory, self.current_id()
        if not memory_id:
            return None
        if not confirmed:
            box = QMessageBox(QMessageBox.Icon.Question, self.tr("Forget"),
                              self.tr("Forget this memory? It leaves the prompt for good; its history is kept."),
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            yes = box.button(QMessageBox.StandardButton.Yes)
            box.buttonClicked.connect(lambda button: button is yes and self.forget_selected(confirmed=True))
            box.open()
            return box
        self._apply("forget", lambda: memory.forget(memory_id), memory_id)
        return None

    def toggle_pin(self) -> None:
        record = self.current()
        if record is None:
            return
        memory, pinned = self.memory, not bool(record.pinned)
        self._apply("pin", lambda: memory.pin(record.id, pinned), record.id)
