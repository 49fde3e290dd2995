"""The memory browser: memory as it is — new from the last flush, Layer 1, Layer 2, pending, dormant, history.

It opens on what the last flush proposed when there is some (where a user looks first). An edit is
the user's word, kept as written; Forget asks and can be undone (Undo, or Restore on a forgotten
memory); Delete asks and removes the memory's words from memory for good.

Reading happens on the GUI thread (SQLite in WAL mode lets it read while a
flush writes); every change (approve, reject, edit, forget, pin) runs on a
worker so a busy database never freezes the window. Approve, Reject and Merge duplicates say what they did
("1 approved") with Undo, on the review queue's line (``decision_line.py``, ``core/memory/undo.py``); the facts
under a memory are ``memory_facts.py``'s.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QMessageBox,
                               QPlainTextEdit, QPushButton, QTabBar, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                               QWidget)

from ...core.memory import Action, Kind, MemoryRecord, State, View
from ...core.memory.undo import Decision, last_decision
from ...core.memory.preferences import versions as preference_versions
from ...core.memory.review_item import ReviewItem
from ...core.memory.service import MemoryService
from ...core.personas.library import PersonaRegistry
from ...core.settings import Settings
from ...core.types import Clock
from . import review_words as words
from .decision_line import DecisionLine
from .memory_facts import MemoryFacts
from .memory_words import memory_words
from .tier_words import tier_words
from ..kit.confirm import ask_yes_no
from ..kit.detail_splitter import DetailSplitter, EvidenceList
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..chat.rating_buttons import RatingButtons
from ..translation import arg
from ..kit.workers import Failure, TaskRunner
from ..kit.tab_style import keep_tails
from ..kit.times import shown_time
from .merge_button import MergeDuplicatesButton

FILTERS = tuple(View)
TIER_COLUMN = 6


class MemoryBrowser(QDialog):
    """Signals:
        memory_changed(): a change was applied (the chat prompt changes with it).
        action_failed(Failure): a change was refused.
    """

    memory_changed = Signal()
    action_failed = Signal(object)

    def __init__(self, memory: MemoryService, settings: Settings, personas: PersonaRegistry, clock: Clock,
                 runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.memory = memory
        self.personas = personas
        self.settings = settings
        self.clock = clock
        self.runner = runner
        self.records: list = []
        self.tiers: dict = {}  # memory id → {"tier", "digest"} of the records shown
        self.review_row: ReviewItem | None = None  # the open review of the selected memory
        self.busy = False
        self.setWindowTitle(self.tr("Memory"))
        self.resize(900, 680)

        self.tabs = QTabBar(self)
        keep_tails(self.tabs)
        for view in FILTERS:
            self.tabs.addTab(memory_words.view_name(view))
        self.tabs.setCurrentIndex(FILTERS.index(View.NEW if memory.in_view(View.NEW) else View.LAYER1))
        self.tabs.currentChanged.connect(lambda _i: self.refresh())
        self.table = QTreeWidget(self)
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels([self.tr("Memory"), self.tr("Topic"), self.tr("State"),
                                    self.tr("Confidence"), self.tr("Days"), self.tr("Pinned"), self.tr("Talked about")])
        header = self.table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 7):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.currentItemChanged.connect(lambda *_: self.show_detail())

        self.text_edit = QPlainTextEdit(self)
        self.text_edit.setMaximumHeight(64)
        self.facts = QLabel(self)
        self.facts.setWordWrap(True)
        self.facts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.history = QTreeWidget(self)
        self.history.setRootIsDecorated(False)
        self.history.setHeaderLabels([self.tr("Wording"), self.tr("State"), self.tr("Held from"), self.tr("Until")])
        history_header = self.history.header()
        history_header.setStretchLastSection(False)
        history_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            history_header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.evidence = EvidenceList(self, memory.tz)
        self.save_text_button = QPushButton(self.tr("Save wording"), self)
        self.save_text_button.setToolTip(self.tr("Your words are kept as written, as lasting memory"))
        self.save_text_button.clicked.connect(self.edit_selected)
        self.approve_button = QPushButton(self.tr("Approve"), self)
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button = QPushButton(self.tr("Reject"), self)
        self.reject_button.clicked.connect(self.reject_selected)
        self.pin_button = QPushButton(self.tr("Pin"), self)
        self.pin_button.clicked.connect(self.toggle_pin)
        self.forget_button = QPushButton(self.tr("Forget"), self)
        self.forget_button.clicked.connect(self._forget_or_restore)
        self.delete_button = QPushButton(self.tr("Delete…"), self)
        self.delete_button.setToolTip(self.tr("Remove its words from memory for good (the messages you wrote stay)"))
        self.delete_button.clicked.connect(self.delete_selected)
        self.rating = RatingButtons(self)  # 👍 lasts longer, 👎 lowers its confidence and asks for review
        self.rating.rated.connect(self.rate_selected)
        actions = QHBoxLayout()
        for button in (self.save_text_button, self.approve_button, self.reject_button, self.pin_button,
                       self.forget_button, self.delete_button):
            actions.addWidget(button)
        actions.addWidget(self.rating)
        actions.addStretch(1)
        self.outcome = DecisionLine(memory, runner, self)  # what the last change did, with Undo
        self.message, self.undo_button = self.outcome.message, self.outcome.undo_button
        self.outcome.undo_started.connect(lambda: self._hold(True))
        self.outcome.undone.connect(self._undone)
        self.outcome.failed.connect(self._apply_failed)
        self._undo_id = ""
        self._decision = False  # the change running is a review decision (Undo: ``core/memory/undo.py``)
        self.facts_words = MemoryFacts(memory, settings, personas)

        detail = QWidget(self)
        col = QVBoxLayout(detail)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.text_edit)
        col.addLayout(actions)
        col.addWidget(self.facts)
        sides = QHBoxLayout()  # the history and the evidence side by side: the list above keeps the height
        self.history.setMinimumHeight(self.history.fontMetrics().height() * 7)  # its header and a few versions
        for title, view, share in ((self.tr("History (oldest first)"), self.history, 3),
                                   (self.tr("Evidence: what you said"), self.evidence, 2)):
            side = QVBoxLayout()
            side.addWidget(QLabel(title, detail))
            side.addWidget(view, 1)
            sides.addLayout(side, share)
        col.addLayout(sides, 1)
        col.addWidget(self.outcome)
        splitter = DetailSplitter(self.table, detail, self)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        self.merge_button = MergeDuplicatesButton(memory, runner, self.outcome, self)  # says what it did there
        close.addButton(self.merge_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.merge_button.merged.connect(lambda: (self.refresh(self.merge_button.kept), self.memory_changed.emit()))
        self.merge_button.failed.connect(self._apply_failed)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(splitter, 1)
        layout.addWidget(close)
        self.refresh()

    # ---- words (the rest: gui/memory/memory_words.py) ---------------------------
    def when(self, stamp) -> str:
        return shown_time(stamp, self.memory.tz)  # the user's zone, as Search and the review queue show it

    # ---- reading ---------------------------------------------------------
    def view(self) -> View:
        return FILTERS[max(self.tabs.currentIndex(), 0)]

    def set_view(self, view: View | str) -> None:
        self.tabs.setCurrentIndex(FILTERS.index(View(view)))

    def refresh(self, select: str = "") -> None:
        select = select or self.current_id()
        self.records = self.memory.in_view(self.view())
        self.tiers = self.memory.tiers(self.records)
        self.table.clear()
        chosen = None
        for record in self.records:
            tier = self.tiers[record.id]
            item = QTreeWidgetItem(self.table, [
                record.text, memory_words.topic(record.slot), memory_words.state_name(record.state),
                f"{record.confidence:.2f}" if record.confidence is not None else "", str(record.days),
                "📌" if record.pinned else "",
                "" if record.state is State.QUEUED else  # waiting: not talked about as memory yet
                tier_words.name(tier["tier"]) + (" ▣" if tier["digest"] else "")])
            item.setData(0, Qt.ItemDataRole.UserRole, record.id)
            item.setToolTip(0, record.text)
            item.setToolTip(1, memory_words.topic_tip(record.slot))
            if tier["digest"]:
                item.setToolTip(TIER_COLUMN, self.tr("▣ Summed up: the prompt carries its topic's summary instead"))
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
                       self.forget_button, self.delete_button):
            button.setEnabled(has and not self.busy)
        self.review_row = None
        self.rating.set_rating(self.memory.rating(record.id) if has else "")
        self.rating.setEnabled(has and record.live and not self.busy)
        if not has:
            self.text_edit.clear()
            self.approve_button.setText(self.tr("Approve"))
            self.facts.setText(self.tr("No memory here yet."))
            return
        history_state = record.history
        self.text_edit.setPlainText(record.text)
        self.text_edit.setReadOnly(history_state)
        self.save_text_button.setEnabled(not history_state and not self.busy)
        queue = self.memory.queue()
        own = next((row for row in queue if row.memory_id == record.id), None)  # it waits for review
        self.review_row = own
        self.approve_button.setEnabled(own is not None and not self.busy)
        self.reject_button.setEnabled(own is not None and not self.busy)
        if own is not None and own.action == Action.JUDGE:  # approving applies the judge's leaning
            lean = words.leaning(own)
            self.approve_button.setText(arg(self.tr("Approve: %1"), words.verdict_name(lean)))
            self.approve_button.setToolTip(words.verdict_effect(lean) + "\n"
                                           + self.tr("To decide otherwise, use the review queue."))
        else:
            self.approve_button.setText(self.tr("Approve"))
            self.approve_button.setToolTip("")
        self.pin_button.setText(self.tr("Unpin") if record.pinned else self.tr("Pin"))
        self.pin_button.setEnabled((bool(record.pinned) or not history_state) and not self.busy)
        forgotten = record.state is State.FORGOTTEN
        self.forget_button.setText(self.tr("Restore") if forgotten else self.tr("Forget"))
        self.forget_button.setToolTip(self.tr("Put it back where it was") if forgotten else
                                      self.tr("Take it out of the prompt (you can undo it; its history is kept)"))
        self.forget_button.setEnabled((forgotten or not history_state) and not self.busy)
        versions = (preference_versions(self.memory.history(record.id)) if record.kind == Kind.PREFERENCE
                    else {})  # a preference's older versions weigh less
        evidence = self.memory.evidence(record.id)
        tier = self.tiers.get(record.id) or self.memory.tier(record)
        self.facts.setText(self.facts_words.text(record, tier, queue, evidence))
        for version in self.memory.history(record.id):
            item = QTreeWidgetItem(self.history, [version.text, memory_words.state_name(version.state),
                                                  self.when(version.valid_at), self.when(version.invalid_at)])
            item.setToolTip(0, version.text)
            item.setData(0, Qt.ItemDataRole.UserRole, version.id)
            if version.id in versions:  # "v1 ×0.50": a preference's older version, kept with less weight
                v = versions[version.id]
                item.setText(0, arg(self.tr("v%1 ×%2: %3"), v["version"], f"{v['weight']:.2f}", version.text))
            if version.id == record.id:  # the one selected above
                font = item.font(0)
                font.setBold(True)
                for column in range(4):
                    item.setFont(column, font)
                item.setText(0, "▶ " + item.text(0))
        self.evidence.add_messages(evidence, record.text)

    # ---- changing (off the GUI thread) -------------------------------------
    def _apply(self, name: str, fn, select: str = "", undo_id: str = "", decision: bool = False) -> None:
        """Run ``fn`` on a worker; ``undo_id``: the memory Undo restores after it (a Forget), ``decision``: it is a
        review decision, said as the review queue says it ("1 approved") with its Undo."""
        if self.busy:
            return
        self._hold(True)
        self._undo_id, self._decision = undo_id, decision
        self.outcome.saving()
        self._select_after = select
        store = self.memory.store
        self.runner.start(name, lambda _report: (fn(), last_decision(store) if decision else None),
                          on_finished=self._applied, on_failed=self._apply_failed)

    def _hold(self, busy: bool) -> None:
        self.busy = busy
        self.show_detail()

    def _applied(self, done: tuple) -> None:
        if not alive(self):
            return
        result, decision = done
        self.busy = False
        if self._decision:
            self.outcome.show_decision(decision)
        elif self._undo_id:
            self.outcome.say(self.tr("Forgotten. Undo puts it back."), undo=self.undo_forget)
        else:
            self.outcome.say(self.tr("Done."))
        new_id = (result.id if isinstance(result, MemoryRecord) else "") or self._select_after  # (not a ReviewItem's)
        self.refresh(new_id)
        self.memory_changed.emit()

    def _undone(self, decision: Decision) -> None:
        """The last decision is back (``DecisionLine``): read the list again, where it was."""
        self.busy = False
        self.refresh()
        self.memory_changed.emit()

    def _apply_failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.busy = False
        self.outcome.say(f"{headline(failure)}\n{explanation(failure)}")
        self.show_detail()
        self.action_failed.emit(failure)

    def approve_selected(self) -> None:
        """Approve the review waiting on the selected memory (its own, not one that targets it)."""
        memory, memory_id, row = self.memory, self.current_id(), self.review_row
        if memory_id and row is not None:
            self._apply("approve", lambda: memory.approve(str(row.id)), memory_id, decision=True)

    def reject_selected(self) -> None:
        memory, memory_id, row = self.memory, self.current_id(), self.review_row
        if memory_id and row is not None:
            self._apply("reject", lambda: memory.reject(str(row.id)), memory_id, decision=True)

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
            return ask_yes_no(self, QMessageBox.Icon.Question, self.tr("Forget"),
                              self.tr("Forget this memory? It leaves the prompt; you can undo this, and its "
                                      "history is kept."),
                              lambda: self.forget_selected(confirmed=True))
        self._apply("forget", lambda: memory.forget(memory_id), memory_id, undo_id=memory_id)
        return None

    def _forget_or_restore(self) -> None:
        record = self.current()
        if record is not None and record.state is State.FORGOTTEN:
            self.restore(record.id)
        else:
            self.forget_selected()

    def restore(self, memory_id: str) -> None:
        memory = self.memory
        self._apply("restore", lambda: memory.restore(memory_id), memory_id)

    def undo_forget(self) -> None:
        """Undo the forget just done (the button shows after it)."""
        if self._undo_id:
            self.restore(self._undo_id)

    def delete_selected(self, confirmed: bool = False) -> QMessageBox | None:
        """Delete for real after a (non-blocking) confirmation; returns the question box when one is shown."""
        memory, memory_id = self.memory, self.current_id()
        if not memory_id:
            return None
        if not confirmed:
            return ask_yes_no(self, QMessageBox.Icon.Warning, self.tr("Delete"),
                              self.tr("Delete this memory and its history for good? Its words leave memory and "
                                      "the prompt; the messages you wrote stay in the archive. This cannot be "
                                      "undone."),
                              lambda: self.delete_selected(confirmed=True))
        self._apply("delete", lambda: memory.delete(memory_id))
        return None

    def rate_selected(self, rating: str) -> None:
        memory, memory_id = self.memory, self.current_id()
        if memory_id:
            self._apply("rate", lambda: memory.rate(memory_id, rating), memory_id)

    def toggle_pin(self) -> None:
        record = self.current()
        if record is None:
            return
        memory, pinned = self.memory, not bool(record.pinned)
        self._apply("pin", lambda: memory.pin(record.id, pinned), record.id)
