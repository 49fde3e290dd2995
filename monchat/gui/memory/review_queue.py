"""The review queue: changes a flush would not make alone, waiting for a yes or a no.

A queued item never confirms silently; unanswered past its deadline it goes back
to being a candidate (the flush does that). Approve and reject run on a worker.
Several rows can be selected (Shift/Ctrl-click, Select all): Approve and Reject then decide all of them
in one transaction (``MemoryService.decide_many``), so eight junk items go with one selection and one click.
Items that propose the same change (near-duplicates, ``MemoryService.queue_groups``: the rule the flush folds by)
are one row, "×3", with each of them in the detail; deciding the row decides all of them.
A decision says what it did ("8 approved, 5 rejected") with Undo (``core/memory/undo.py``; the line is
``decision_line.py``'s, the Memory window's too), and the list keeps its place. Before deciding, the detail says what approving does to judge items among the chosen ones (the model's
leaning) and when a decision teaches the auto-approve rule (``core/memory/learning.py``; imports never do).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel,
                               QMenu, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from ...core.errors import KnownError
from ...core.memory import Action, Verdict
from ...core.memory.learning import LEARNED_ACTIONS, topic_of
from ...core.memory.review_item import ReviewItem
from ...core.memory.rules import leaning
from ...core.memory.service import MemoryService
from ...core.memory.undo import Decision, last_decision
from ...core.store.messages import MessageArchive
from ...core.vocabulary.states import FROM_OUTSIDE
from ...core.personas.library import PersonaRegistry
from ...core.settings import Settings
from . import review_words as words
from .decision_line import DecisionLine
from .memory_words import memory_words
from .review_said_again import show_said_again
from ..failures import explanation, headline
from ..kit.detail_splitter import DetailSplitter, EvidenceList
from ..kit.lifetime import alive
from ..kit.times import shown_time
from ..translation import arg
from ..kit.workers import Failure, TaskRunner


class ReviewQueueDialog(QDialog):
    """Signals:
        memory_changed(): an item was approved or rejected.
        action_failed(Failure): the change was refused.
    """

    memory_changed = Signal()
    action_failed = Signal(object)

    def __init__(self, memory: MemoryService, personas: PersonaRegistry, settings: Settings, runner: TaskRunner,
                 parent: QWidget | None = None, archive: MessageArchive | None = None) -> None:
        """Args:
            personas: the persona registry, for the names of the filter personas that proposed an item.
            archive: the messages a waiting item's "said again" lines are read from (None: none are shown).
        """
        super().__init__(parent)
        self.memory = memory
        self.personas = personas
        self.settings = settings
        self.runner, self.archive = runner, archive
        self.rows: list[ReviewItem] = []  # every open item
        self.groups: dict[int, list[ReviewItem]] = {}  # a row's first item's number → the alike items it stands for
        self.busy = False
        self.setWindowTitle(self.tr("Review queue"))
        self.resize(860, 680)
        self.intro = QLabel(self.tr("These changes to your lasting memory wait for your decision. "
                                    "Nothing here is used until you approve it."), self)
        self.intro.setWordWrap(True)
        self.table = QTreeWidget(self)
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setHeaderLabels([self.tr("Proposal"), self.tr("Current memory"), self.tr("Action"),
                                    self.tr("Confidence"), self.tr("Decide by")])
        header = self.table.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Stretch,
                                       QHeaderView.ResizeMode.ResizeToContents,
                                       QHeaderView.ResizeMode.ResizeToContents,
                                       QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        self.table.currentItemChanged.connect(lambda *_: self.show_detail())
        self.table.itemSelectionChanged.connect(self.show_detail)
        self.reason = QLabel(self)
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.evidence = EvidenceList(self, memory.tz)  # the user's zone, as Search and the Memory window show times
        self.approve_button = QPushButton(self.tr("Approve"), self)
        self.approve_button.clicked.connect(self.approve_selected)
        # For a judgement: approve as another verdict than the judge's leaning.
        self.verdict_menu = QMenu(self)
        self.verdict_actions: dict[str, QAction] = {}
        for verdict in Verdict:
            action = self.verdict_menu.addAction(arg(self.tr("%1 — %2"), words.verdict_name(verdict),
                                                     words.verdict_effect(verdict)))
            action.setData(str(verdict))
            action.triggered.connect(lambda _checked=False, v=verdict: self.approve_selected(v))
            self.verdict_actions[verdict] = action
        self.other_verdict_button = QPushButton(self.tr("Approve as…"), self)
        self.other_verdict_button.setToolTip(self.tr("Decide yourself how the two relate"))
        self.other_verdict_button.setMenu(self.verdict_menu)
        metrics = self.other_verdict_button.fontMetrics()  # room for the whole text and the menu arrow
        self.other_verdict_button.setMinimumWidth(metrics.horizontalAdvance(self.other_verdict_button.text()) + 48)
        self.reject_button = QPushButton(self.tr("Reject"), self)
        self.reject_button.clicked.connect(self.reject_selected)
        self.select_all_button = QPushButton(self.tr("Select all"), self)
        self.select_all_button.setToolTip(self.tr("Select every item, then approve or reject them all at once"))
        self.select_all_button.clicked.connect(self.table.selectAll)
        self.effect = QLabel(self)  # what the Approve button will do (for a judgement)
        self.effect.setWordWrap(True)
        self.outcome = DecisionLine(memory, runner, self)  # what the last decision did ("8 approved"), with Undo
        self.message, self.undo_button = self.outcome.message, self.outcome.undo_button
        self.outcome.undo_started.connect(self._undoing)
        self.outcome.undone.connect(self._undone)
        self.outcome.failed.connect(self._failed)
        buttons = QHBoxLayout()
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.other_verdict_button)
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        buttons.addWidget(self.select_all_button)
        detail = QWidget(self)
        col = QVBoxLayout(detail)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.reason)
        self.evidence_label = QLabel(self.tr("Evidence: what you said"), detail)
        col.addWidget(self.evidence_label)
        col.addWidget(self.evidence, 1)
        col.addLayout(buttons)
        col.addWidget(self.effect)
        col.addWidget(self.outcome)
        splitter = DetailSplitter(self.table, detail, self)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(splitter, 1)
        layout.addWidget(close)
        self.refresh()

    def action_name(self, row: ReviewItem) -> str:
        action = row.action
        if action == Action.JUDGE:
            return arg(self.tr("Decide (leaning: %1)"), words.verdict_name(words.leaning(row)))
        if row.sync_conflict:  # held as a merge, but nothing is merged: the user picks one device's version
            return self.tr("Choose a device's version")
        return words.action_name(action)

    def refresh(self, at_row: int = 0) -> None:
        """Read the queue again; the row at ``at_row`` (or the last) becomes current, so a decision keeps the place."""
        scrolled = self.table.verticalScrollBar().value()
        groups = self.memory.queue_groups()
        self.groups = {group[0].id: group for group in groups}
        self.rows = [row for group in groups for row in group]
        self.table.clear()
        for group in groups:
            row = group[0]
            deadline = min((r.deadline_epoch for r in group if r.deadline_epoch), default=None)
            when = datetime.fromtimestamp(deadline, self.memory.tz).strftime("%Y-%m-%d") if deadline else ""
            text = row.text or ""
            item = QTreeWidgetItem(self.table, [
                arg(self.tr("%1  ×%2"), text, len(group)) if len(group) > 1 else text,
                row.old_text or "", self.action_name(row),
                words.confidence_text(row.confidence) if row.confidence is not None else "", when])
            item.setData(0, Qt.ItemDataRole.UserRole, row.id)
            for column in (0, 1, 2):
                item.setToolTip(column, item.text(column))
            if len(group) > 1:
                item.setToolTip(0, self.tr("%n alike proposals of the same change: approving or rejecting this row "
                                           "decides all of them", "", len(group)))
        if self.table.topLevelItemCount():
            self.table.setCurrentItem(self.table.topLevelItem(min(at_row, self.table.topLevelItemCount() - 1)))
            self.table.verticalScrollBar().setValue(scrolled)
        if not self.rows:
            self.reason.setText(self.tr("Nothing is waiting for review."))
        self.show_detail()

    def select(self, queue_id: int) -> None:
        """Make current the row of item ``queue_id`` (the row of its group when it has alike items)."""
        first = next((first for first, group in self.groups.items() if any(r.id == queue_id for r in group)),
                     queue_id)
        for i in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == first:
                self.table.setCurrentItem(item)
                return

    def current(self) -> ReviewItem | None:
        item = self.table.currentItem()
        if item is None:
            return None
        queue_id = item.data(0, Qt.ItemDataRole.UserRole)
        return next((r for r in self.rows if r.id == queue_id), None)

    def selected_rows(self) -> list[ReviewItem]:
        """The items of the selected rows (every alike item of a row), in the table's order."""
        ids = {item.data(0, Qt.ItemDataRole.UserRole) for item in self.table.selectedItems()}
        return [r for first, group in self.groups.items() if first in ids for r in group]

    def proposer_name(self, proposer: str) -> str:
        return words.persona_name(self.personas, proposer)

    def show_detail(self) -> None:
        row = self.current()
        self.evidence.clear()
        self.evidence.setVisible(True)
        many = len(self.selected_rows())
        judge = row is not None and row.action == Action.JUDGE and many <= 1
        self.approve_button.setEnabled(row is not None and not self.busy)
        self.reject_button.setEnabled(row is not None and not self.busy)
        self.select_all_button.setEnabled(len(self.rows) > 1 and many < len(self.rows) and not self.busy)
        self.other_verdict_button.setVisible(judge)
        self.other_verdict_button.setEnabled(judge and not self.busy)
        self.approve_button.setText(self.tr("Approve"))
        self.reject_button.setText(self.tr("Reject"))
        self.approve_button.setToolTip("")
        self.effect.setText("\n".join(t for t in (self.judges_text(), self.teaching_text()) if t))
        if many > 1 and len(self.table.selectedItems()) == 1:  # one row of alike items: all of them
            self.approve_button.setText(self.tr("Approve all %n", "", many))
            self.reject_button.setText(self.tr("Reject all %n", "", many))
        elif many > 1:  # the buttons decide every selected item; the detail shows the current one
            self.approve_button.setText(self.tr("Approve %n selected", "", many))
            self.reject_button.setText(self.tr("Reject %n selected", "", many))
        if row is None:
            return
        sources = list(dict.fromkeys(p for r in self.groups.get(row.id, [row]) for p in r.proposers))  # every alike's
        why = arg(self.tr("Why: %1"), words.reason(replace(row, proposers=sources), self.settings.flush.judge_confidence))
        self.reason.setText("\n".join(t for t in (why, words.held(row), words.proposed_by(row, self.proposer_name),
                                                  self.alike_text(row)) if t))
        if judge:
            lean = words.leaning(row)
            self.approve_button.setText(arg(self.tr("Approve: %1"), words.verdict_name(lean)))
            self.approve_button.setToolTip(words.verdict_effect(lean))
            self.effect.setText("\n".join(t for t in (words.verdict_effect(lean), self.teaching_text()) if t))
            for verdict, action in self.verdict_actions.items():
                action.setVisible(verdict != lean)
        else:
            self.approve_button.setToolTip("")
        compare = bool(row.target_id) and row.action != Action.LAYER1
        if compare:  # both sides, so the user can see what each rests on
            self._evidence_heading(arg(self.tr("Evidence for the proposal “%1”"), row.text or ""))
        said = self._evidence_lines(*[member.memory_id for member in self.groups.get(row.id, [row])])  # alike too
        if compare:
            self._evidence_heading(arg(self.tr("Evidence for the current memory “%1”"), row.old_text or ""))
            said += self._evidence_lines(row.target_id)
        self.evidence_label.setText(words.origin_heading(row, said) or (  # an import, another app: where from
            self.tr("Evidence: what you said") if said else self.tr("Evidence: nothing you said here")))
        show_said_again(self.evidence, self.memory.memories, self.archive,
                        *self.groups.get(row.id, [row]))  # each alike item's: waiting, not evidence yet
        if row.quoted:  # what the imported file quotes: shown apart, as the file's words, never as evidence
            self._evidence_heading(words.quoted_heading(row))
            self.evidence.add_messages([{"ts": q.get("said_at") or "", "text": q["text"]} for q in row.quoted])
        self.evidence.setVisible(self.evidence.topLevelItemCount() > 0)  # the heading says there is nothing

    def deciding(self) -> list[ReviewItem]:
        """The items Approve and Reject would decide now."""
        chosen = self.selected_rows()
        row = self.current()
        return chosen if chosen else [row] if row is not None else []

    def judges_text(self) -> str:
        """For a bulk approve: the judge items among the chosen, each with the verdict approving applies."""
        chosen = self.selected_rows()
        judges = [r for r in chosen if r.action == Action.JUDGE]
        if len(chosen) < 2 or not judges:
            return ""
        return "\n".join([self.tr("%n of these ask how two memories relate; Approve applies the model's leaning to "
                                   "each (approve one alone to decide otherwise):", "", len(judges))]
                         + [arg(self.tr("“%1”: %2"), r.text or "", words.verdict_name(leaning(r))) for r in judges])

    def teaching_text(self) -> str:
        """Whether deciding the chosen items teaches the auto-approve rule (Settings → Memory), and for what."""
        chosen = [r for r in self.deciding() if r.action in LEARNED_ACTIONS]
        teach = [r for r in chosen if r.held not in FROM_OUTSIDE]
        lines = []
        if teach:
            slots = {getattr(self.memory.memories.get(r.memory_id), "slot", "") for r in teach}
            topics = self.tr(", ").join(sorted({memory_words.topic_name(topic_of(slot)) for slot in slots}))
            lines.append(arg(self.tr("Your decision teaches the auto-approve rule for %1: approving lowers the "
                                     "confidence from which such memories are kept without asking, rejecting raises "
                                     "it (Settings → Memory)."), topics))
        if len(teach) < len(chosen):
            lines.append(self.tr("Imported items and other apps' proposals teach the auto-approve rule nothing."))
        return "\n".join(lines)

    def alike_text(self, row: ReviewItem) -> str:
        """The alike items a row stands for, each with its number and words ("" for a row of one)."""
        group = self.groups.get(row.id, [])
        if len(group) < 2:
            return ""
        return "\n".join([self.tr("This row stands for %n alike proposals; Approve and Reject decide all of them:",
                                   "", len(group))]
                         + [arg(self.tr("#%1 (%2): “%3”"), r.id, shown_time(r.created_at, self.memory.tz)[:10],
                                r.text or "") for r in group])

    def _evidence_heading(self, text: str) -> None:
        self.evidence.add_heading(text)

    def _evidence_lines(self, *memory_ids: str) -> int:
        """Show what these memories rest on, each message once (alike items often rest on the same words); return
        how many messages that is."""
        lines: dict = {}
        for memory_id in memory_ids:
            try:
                found = self.memory.evidence(memory_id)
            except KnownError:  # the memory went away meanwhile (a flush, the CLI): nothing to show
                found = []
            for message in found:
                lines.setdefault(message["id"], message)
        about = " ".join(r.text or "" for r in self.rows if r.memory_id in memory_ids)  # the sentence it rests on
        self.evidence.add_messages(sorted(lines.values(), key=lambda m: str(m.get("ts") or "")), about)
        return len(lines)

    def _apply(self, name: str, fn) -> None:
        if self.busy:
            return
        self.busy = True
        self.show_detail()
        self.outcome.saving()
        store = self.memory.store
        self.runner.start(name, lambda _report: (fn(), last_decision(store))[1], on_finished=self._applied,
                          on_failed=self._failed)

    def _place(self) -> int:
        """The table position of the first selected (or the current) row: where the list stays after a change."""
        rows = [self.table.indexOfTopLevelItem(item) for item in self.table.selectedItems()]
        current = self.table.currentItem()
        return min(rows) if rows else self.table.indexOfTopLevelItem(current) if current is not None else 0

    def _applied(self, decision: Decision | None) -> None:
        if not alive(self):
            return
        self.busy = False
        self.refresh(self._place())
        self.outcome.show_decision(decision)
        self.memory_changed.emit()

    def _undoing(self) -> None:
        """Undo was clicked (``DecisionLine`` reverses the last decision): hold the buttons until it is done."""
        self.busy = True
        self.show_detail()

    def _undone(self, decision: Decision) -> None:
        """The last decision is back; its items come back, the first of them current."""
        self.busy = False
        self.refresh(self._place())
        if decision.queue_ids:
            self.select(decision.queue_ids[0])
        self.memory_changed.emit()

    def _failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.busy = False
        self.outcome.say(f"{headline(failure)}\n{explanation(failure)}")
        self.show_detail()
        self.action_failed.emit(failure)

    def approve_selected(self, verdict: str | None = None) -> None:
        """Approve the selected items; one judgement may be approved as another ``verdict`` than its leaning."""
        row, memory, chosen = self.current(), self.memory, self.selected_rows()
        if len(chosen) > 1:
            self._apply("approve", lambda: memory.decide_many([str(r.id) for r in chosen], approve=True))
            return
        if row is None:
            return
        if row.action != Action.JUDGE or not isinstance(verdict, str):
            verdict = None
        self._apply("approve", lambda: memory.approve(str(row.id), verdict=verdict))

    def reject_selected(self) -> None:
        row, memory, chosen = self.current(), self.memory, self.selected_rows()
        if len(chosen) > 1:
            self._apply("reject", lambda: memory.decide_many([str(r.id) for r in chosen], approve=False))
        elif row is not None:
            self._apply("reject", lambda: memory.reject(str(row.id)))
