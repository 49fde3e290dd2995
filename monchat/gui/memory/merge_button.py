"""The Memory window's "Merge duplicates…": memories already kept that say the same thing become one.

``core/memory/merge.py`` decides what is alike (the rule the flush and the queue fold by) and which one is kept;
this button shows how many would merge, asks (never blocking), and merges on a worker; the window's decision line
(``decision_line.py``) then says how many were merged, with Undo (``core/memory/undo.py``).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from ...core.memory.merge import duplicate_groups, merge_duplicates
from ...core.memory.service import MemoryService
from ...core.memory.undo import last_decision
from .decision_line import DecisionLine
from ..kit.confirm import ask_yes_no
from ..kit.lifetime import alive
from ..kit.workers import TaskRunner
from ..translation import arg

SHOWN_GROUPS = 6  # the question lists this many groups at most


class MergeDuplicatesButton(QPushButton):
    """Signals:
        merged(): memory changed (what was done is written in ``outcome``, the window's decision line, with Undo).
        failed(Failure): the merge was refused.
    """

    merged = Signal()
    failed = Signal(object)

    def __init__(self, memory: MemoryService, runner: TaskRunner, outcome: DecisionLine,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.outcome = outcome
        self.setText(self.tr("Merge duplicates…"))
        self.setToolTip(self.tr("Memories that say the same thing become one, with their evidence together"))
        self.memory = memory
        self.runner = runner
        self.kept = ""  # the memory the last merge kept (the window selects it)
        self.clicked.connect(lambda: self.ask())

    def ask(self, confirmed: bool = False) -> QMessageBox | None:
        """Ask before merging (returns the question box), or merge when ``confirmed``."""
        groups = duplicate_groups(self.memory)
        if not groups:
            self.outcome.say(self.tr("No two memories say the same thing: nothing to merge."))
            return None
        if not confirmed:
            lines = [arg(self.tr("“%1” ×%2"), group[0].text, len(group)) for group in groups[:SHOWN_GROUPS]]
            if len(groups) > SHOWN_GROUPS:
                lines.append(self.tr("and %n more", "", len(groups) - SHOWN_GROUPS))
            text = "\n".join([self.tr("%n memories say the same thing as another one:", "",
                                      sum(len(g) - 1 for g in groups)), *lines,
                              self.tr("Merge each group into one memory, with all of its evidence? The others go "
                                      "into its history.")])
            return ask_yes_no(self.window(), QMessageBox.Icon.Question, self.tr("Merge duplicates"), text,
                              lambda: self.ask(confirmed=True))
        memory = self.memory
        self.setEnabled(False)
        self.outcome.saving()
        self.runner.start("merge duplicates", lambda _report: (merge_duplicates(memory), last_decision(memory.store)),
                          on_finished=self._done, on_failed=self._failed)
        return None

    def _done(self, done) -> None:
        if not alive(self):
            return
        merged, decision = done
        self.setEnabled(True)
        self.kept = merged[0].kept if merged else ""
        if merged:
            self.outcome.show_decision(decision)  # "2 memories merged …", with Undo
        else:  # merged meanwhile (a flush, the CLI)
            self.outcome.say(self.tr("No two memories say the same thing: nothing to merge."))
        self.merged.emit()

    def _failed(self, failure) -> None:
        if alive(self):
            self.setEnabled(True)
            self.failed.emit(failure)
