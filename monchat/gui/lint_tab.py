"""The inbox's Lint tab: knowledge lint's findings (core/background/lint.py), read only.

Each finding is told in the window's language from its kind; the memories are shown in their
own words. A contradiction reaches memory only through the review queue, never from here.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..core.background.lint import Lint
from .translation import arg


class LintTab(QWidget):
    def __init__(self, store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lint = Lint(store)
        self.findings = QTreeWidget(self)
        self.findings.setHeaderLabels([self.tr("Finding"), self.tr("Memories"), self.tr("Check"), self.tr("Status")])
        header = self.findings.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Stretch,
                                       QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        self.findings.setRootIsDecorated(False)
        self.empty = QLabel(self.tr("Nothing found: each flush checks your memory for broken links, values that "
                                    "do not fit their slot and contradictions. A fix is only ever proposed in "
                                    "the review queue, after a second check."), self)
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(self.findings)

    def finding_text(self, finding: dict) -> str:
        kind, detail = finding["kind"], finding["detail"]
        if kind == "slot_name":
            return arg(self.tr("The slot %1 is usually called %2"), detail.get("slot", ""), detail.get("canonical", ""))
        if kind == "value":
            return {"date": self.tr("A date slot whose text names no date"),
                    "place": self.tr("A place slot whose text is only a date or a number"),
                    "age": self.tr("An age slot without one age")}.get(detail.get("family"), kind)
        return {"orphan_successor": self.tr("Replaced by a memory that does not exist"),
                "orphan_evidence": self.tr("Cites messages that are in no archive"),
                "cycle": self.tr("A chain of replacements comes back to its start"),
                "malformed": self.tr("Malformed: empty text, a slot not shaped subject/attribute, or a value "
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
