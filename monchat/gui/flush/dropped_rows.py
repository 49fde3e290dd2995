"""The finished flush dialog's rows for proposals a flush dropped, each with why in the window's language.

``monchat flush`` prints every dropped proposal with its reason; the dialog shows the same, so a flush
whose only proposal was, say, the assistant's words does not look as if nothing had been proposed. A drop
by the guard (``core/memory/guard.py``) carries its rule's code, worded here.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from ...core.memory.guard import GuardRule
from ...core.memory.never import NEVER_RULE
from ...core.vocabulary.states import DropCategory


class DroppedWords(QObject):
    def kind(self) -> str:
        return self.tr("Dropped")

    def rule(self, rule: str) -> str:
        """Why the guard dropped it, from its rule's code."""
        return {
            GuardRule.NO_STATEMENT: self.tr("Says nothing: only a number, a list marker, punctuation or one "
                                            "repeated syllable"),
            GuardRule.BAD_SLOT: self.tr("The model gave it no real topic, only a placeholder or a word copied "
                                        "from its instructions"),
            GuardRule.ASSISTANTS_WORDS: self.tr("The assistant's words, not yours"),
            GuardRule.ECHOES_INSTRUCTIONS: self.tr("Repeats the filter's own instructions, not your words"),
            GuardRule.LOOPS: self.tr("Says one sentence over and over: the model was stuck in a loop"),
            GuardRule.NOT_THEIR_WORDS: self.tr("Shares nothing with your messages it cites"),
            GuardRule.ADDS_WORDS: self.tr("Says something your messages it cites do not"),
            NEVER_RULE: self.tr("Matches one of your “never remember” rules"),
        }.get(rule, rule)

    def reason(self, category: str) -> str:
        """Why, from the drop's category (``core/flush/records.py`` ``Dropped.category``)."""
        return {DropCategory.EVIDENCE: self.tr("Not backed by your own messages"),
                DropCategory.WORDS: self.tr("Not in your words (the assistant's, or none of the line it cites)"),
                DropCategory.INVALID: self.tr("Not a well-formed proposal"),
                DropCategory.LIMIT: self.tr("Over the persona's limit of proposals"),
                DropCategory.NO_TARGET: self.tr("Nothing kept to take back"),
                DropCategory.NEVER: self.tr("Matches one of your “never remember” rules"),
                DropCategory.KNOWN: self.tr("Already known: it repeats a memory you have")}.get(category, category)


def add_dropped_rows(tree: QTreeWidget, dropped: list[dict]) -> None:
    """One row per dropped proposal (its text), with the reason (the guard's rule, if it dropped it) as its
    child row."""
    words = DroppedWords(tree)
    for entry in dropped:
        text = entry.get("text") or "—"
        item = QTreeWidgetItem(tree, [words.kind(), text])
        item.setToolTip(1, text)
        rule = entry.get("rule") or ""
        reason = words.rule(rule) if rule else words.reason(entry.get("category") or DropCategory.EVIDENCE)
        child = QTreeWidgetItem(item, ["", reason])
        child.setToolTip(1, reason)
        item.setExpanded(True)
