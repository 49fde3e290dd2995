"""Words for review items, from their codes: action, verdict, confidence, the texts involved.

Core's ``reason`` column is English prose for the CLI and the log; the GUI never shows it.
Everything here is worded from the row's fields, so each language says it in its own words.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.memory import Action, Verdict
from ..translation import arg


def confidence_text(value) -> str:
    return f"{value:.2f}" if isinstance(value, (int, float)) else "—"


def leaning(row: dict) -> str:
    """The verdict approving a judge row applies unless the user picks another (as core does)."""
    return Verdict.parse(row.get("verdict") or "") or Verdict.SUPERSEDE


class ReviewWords:
    """The words; a class so that lupdate files them under the context "ReviewWords"."""

    @staticmethod
    def tr(text: str) -> str:
        return QCoreApplication.translate("ReviewWords", text)

    def action_name(self, action: str) -> str:
        """The short name of a review action (a table column)."""
        return {
            Action.LAYER1: self.tr("Add to lasting memory"),
            Action.WORDS: self.tr("Check the wording"),
            Action.SUPERSEDE: self.tr("Replace"),
            Action.MERGE: self.tr("Merge"),
            Action.RETRACT: self.tr("Take back"),
            Action.JUDGE: self.tr("Decide: same thing or not?"),
            Action.RATED: self.tr("You rated it down"),
        }.get(action, action)

    def verdict_name(self, verdict: str) -> str:
        """How a judge verdict is called on a button or in a menu."""
        return {
            Verdict.SAME: self.tr("The same thing"),
            Verdict.MERGE: self.tr("Merge them"),
            Verdict.SUPERSEDE: self.tr("Replace"),
            Verdict.CONTRADICT: self.tr("Contradicts"),
            Verdict.COEXIST: self.tr("Something else"),
        }.get(verdict, verdict)

    def verdict_effect(self, verdict: str) -> str:
        """What approving a judgement with this verdict does to memory."""
        return {
            Verdict.SAME: self.tr("The new statement becomes more evidence for the kept memory."),
            Verdict.MERGE: self.tr("One memory in the merged wording replaces the kept memory, with the evidence "
                                   "of both; the kept one goes into its history."),
            Verdict.SUPERSEDE: self.tr("The new statement replaces the kept memory, which goes into its history."),
            Verdict.CONTRADICT: self.tr("The new statement is counted against the kept memory."),
            Verdict.COEXIST: self.tr("Both are kept, as two separate memories."),
        }.get(verdict, "")

    def reason(self, row: dict, judge_confidence: float = 0.7) -> str:
        """Why the item waits for the user, in the window's language.

        Args:
            row: a ``MemoryService.queue()`` row.
            judge_confidence: the flush's threshold for a sure judgement (a less sure retraction says so).
        """
        action = row.get("action") or ""
        new, old = row.get("text") or "", row.get("old_text") or ""
        confidence = row.get("confidence")
        number = isinstance(confidence, (int, float))
        sure = confidence_text(confidence)
        if action == "layer1":
            return arg(self.tr("Enough evidence has come together, so this becomes lasting memory "
                               "(confidence %1)."), sure)
        if action == Action.RATED:
            return self.tr("You rated this down. Approve keeps it as lasting memory (at its lowered confidence); "
                           "reject drops it.")
        if action == "words":
            return self.tr("Not found in your words: the text shares almost nothing with the messages it "
                           "cites. Approve it only if it is true of you.")
        if action == "supersede":
            return arg(self.tr("Replaces the lasting memory “%1” with “%2”."), old, new)
        if action == "merge":
            return arg(self.tr("Merges the lasting memory “%1” into the new wording “%2”."), old, new)
        if action == "retract":
            if number and confidence < judge_confidence:
                return arg(self.tr("You may have taken back “%1”, but it is not certain (confidence %2). "
                                   "Approve to take it back."), old, sure)
            return arg(self.tr("Takes back “%1”."), old)
        if action == "judge":
            if number and confidence <= 0:
                return arg(self.tr("The model gave no usable answer on how this relates to “%1”. "
                                   "Decide yourself."), old)
            return arg(self.tr("Could not decide how this relates to “%1”. The judge leans to: %2 "
                               "(confidence %3)."), old, self.verdict_name(leaning(row)), sure)
        return self.action_name(action)

    def proposed_by(self, row: dict) -> str:
        """Which filter personas proposed the item: one row, however many proposed the same change."""
        proposers = row.get("proposers") or []
        return arg(self.tr("Proposed by %1."), self.tr(", ").join(proposers)) if proposers else ""

    def held(self, row: dict) -> str:
        """Why a flush held the item back when that is not its action (a model known to be small)."""
        if row.get("held") != "small_model":
            return ""
        return self.tr("It was made with a small model, whose memories are often wrong, so nothing from it "
                       "goes into lasting memory without your yes.")


_words = ReviewWords()
action_name = _words.action_name
verdict_name = _words.verdict_name
verdict_effect = _words.verdict_effect
reason = _words.reason
proposed_by = _words.proposed_by
held = _words.held
