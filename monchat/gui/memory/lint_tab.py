"""The inbox's Lint tab: knowledge lint's findings (core/background/lint.py), and Check now.

Check now runs lint on a worker as ``monchat lint`` does (``App.lint``: under the flush lock; its LLM step
only to a backend the user may send to), then lists the findings again. Each finding is told in the window's language from its kind; the memories are shown in their
own words. A contradiction reaches memory only through the review queue, never from here.
"""

from __future__ import annotations


from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QHBoxLayout, QHeaderView, QLabel, QPushButton, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from ...core.background.lint_service import LintService
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..translation import arg
from .memory_words import memory_words
from ..kit.workers import Failure, TaskRunner


class LintTab(QWidget):
    """Signals:
        checked(bool): Check now ended (True: lint ran and the list is current; False: it failed).
    """

    checked = Signal(bool)

    def __init__(self, lint: LintService, parent: QWidget | None = None, runner: TaskRunner | None = None) -> None:
        """Args:
            lint: the lint service (``App.lint``): the findings, and Check now.
            runner: Check now's worker pool; without it no button.
        """
        super().__init__(parent)
        self.lint = lint
        self.runner = runner
        self.check_button = QPushButton(self.tr("Check now"), self)
        self.check_button.setToolTip(self.tr("Run knowledge lint now, as each flush does (monchat lint)"))
        self.check_button.clicked.connect(self.check_now)
        self.check_button.setVisible(runner is not None)
        self.outcome = QLabel(self)
        self.outcome.setWordWrap(True)
        self.findings = QTreeWidget(self)
        self.findings.setHeaderLabels([self.tr("Finding"), self.tr("Memories"), self.tr("Check"), self.tr("Status")])
        header = self.findings.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Stretch,
                                       QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        self.findings.setRootIsDecorated(False)
        self.empty = QLabel(self.tr("Nothing found: each flush checks your memory for broken links, values that "
                                    "do not fit their topic and contradictions. A fix is only ever proposed in "
                                    "the review queue, after a second check."), self)
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(self.check_button)
        row.addWidget(self.outcome, 1)
        layout.addLayout(row)
        layout.addWidget(self.empty)
        layout.addWidget(self.findings)

    def check_now(self) -> None:
        """Run lint on a worker; the list is refreshed when it ends, a failure is shown beside the button."""
        check = self.lint.run
        self.check_button.setEnabled(False)
        self.outcome.setText(self.tr("Checking…"))
        self.runner.start("lint", lambda _report: check(consented_only=True),
                          on_finished=self._checked, on_failed=self._check_failed)

    def _checked(self, summary: dict) -> None:
        if not alive(self):
            return
        self.check_button.setEnabled(True)
        text = arg(self.tr("Checked: %1 new, %2 rechecked, %3 queued for review, %4 resolved."),
                   summary["marked"], summary["confirmed"], summary["applied"], summary["resolved"])
        if summary.get("skipped_cloud"):
            text += " " + arg(self.tr("The model check was left out: %1 is a cloud service you have not agreed "
                                      "to send to yet (a chat or a flush asks)."), summary["skipped_cloud"])
        self.outcome.setText(text)
        self.reload()
        self.checked.emit(True)

    def _check_failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.check_button.setEnabled(True)
        self.outcome.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.checked.emit(False)

    def finding_text(self, finding: dict) -> str:
        kind, detail = finding["kind"], finding["detail"]
        if kind == "slot_name":
            return arg(self.tr("Filed under “%1”, usually filed as “%2”"), memory_words.topic(detail.get("slot", ""), True),
                       memory_words.topic(detail.get("canonical", ""), True))
        if kind == "value":
            return {"date": self.tr("Filed as a date, but names no date"),
                    "place": self.tr("Filed as a place, but is only a date or a number"),
                    "age": self.tr("Filed as an age, but gives no one age")}.get(detail.get("family"), kind)
        return {"orphan_successor": self.tr("Replaced by a memory that does not exist"),
                "orphan_evidence": self.tr("Cites messages that are in no archive"),
                "cycle": self.tr("A chain of replacements comes back to its start"),
                "malformed": self.tr("Malformed: empty text, filed under no topic and detail, or a value "
                                     "out of range"),
                "contradiction": self.tr("These may contradict each other")}.get(kind, kind)

    def status_text(self, status: str) -> str:
        return {"marked": self.tr("marked: checked again at the next flush"),
                "confirmed": self.tr("still holds"),
                "applied": self.tr("waiting in the review queue"),
                "resolved": self.tr("resolved")}.get(status, status)

    def step_text(self, step: str) -> str:
        return {"structure": self.tr("structure"), "grounding": self.tr("grounding"),
                "llm": self.tr("model check")}.get(step, step)

    def reload(self) -> None:
        self.findings.clear()
        rows = self.lint.findings()
        for f in rows:
            words = " / ".join(t or m for t, m in zip(f["texts"], f["memory_ids"]))
            item = QTreeWidgetItem([self.finding_text(f), words, self.step_text(f["step"]), self.status_text(f["status"])])
            item.setToolTip(0, "\n".join(filter(None, (item.text(0), f["detail"].get("reason")))))
            item.setToolTip(1, ", ".join(f["memory_ids"]))
            self.findings.addTopLevelItem(item)
        self.empty.setVisible(not rows)
