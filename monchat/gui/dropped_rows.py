"""The finished flush dialog's rows for proposals a flush dropped, each with why in the window's language.

``monchat flush`` prints every dropped proposal with its reason; the dialog shows the same, so a flush
whose only proposal was, say, the assistant's words does not look as if nothing had been proposed.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem


class DroppedWords(QObject):
    def kind(self) -> str:
        return self.tr("Dropped")

    def reason(self, category: str) -> str:
        """Why, from the drop's category (``core/flush/records.py`` ``Dropped.category``)."""
        return {"evidence": self.tr("Not backed by your own messages"),
                "words": self.tr("Not in your words (the assistant's, or none of the line it cites)"),
                "invalid": self.tr("Not a well-formed proposal"),
                "limit": self.tr("Over the persona's limit of proposals"),
                "no_target": self.tr("Nothing kept to take back")}.get(category, category)


def add_dropped_rows(tree: QTreeWidget, dropped: list[dict]) -> None:
    """One row per dropped proposal (its text), with the reason as its child row."""
    words = DroppedWords(tree)
    for entry in dropped:
        text = entry.get("text") or "—"
        item = QTreeWidgetItem(tree, [words.kind(), text])
        item.setToolTip(1, text)
        reason = words.reason(entry.get("category") or "evidence")
        child = QTreeWidgetItem(item, ["", reason])
        child.setToolTip(1, reason)
        item.setExpanded(True)
