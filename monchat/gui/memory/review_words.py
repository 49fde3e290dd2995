"""Words for review items, from their codes: action, verdict, confidence, the texts involved.

Core's ``reason`` column is English prose for the CLI and the log; the GUI never shows it.
Everything here is worded from the row's fields, so each language says it in its own words.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.memory import Action, Verdict
from ...core.vocabulary.states import FROM_OUTSIDE, Held, Origin
from ...core.memory.review_item import ReviewItem
from ...core.memory.rules import leaning
from ..translation import arg, ui_language
from .memory_words import memory_words


def confidence_text(value) -> str:
    return f"{value:.2f}" if isinstance(value, (int, float)) else "—"




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

    def reason(self, row: ReviewItem, judge_confidence: float = 0.7) -> str:
        """Why the item waits for the user, in the window's language.

        Args:
            row: a ``MemoryService.queue()`` item.
            judge_confidence: the flush's threshold for a sure judgement (a less sure retraction says so).
        """
        action = row.action
        new, old = row.text or "", row.old_text or ""
        confidence = row.confidence
        number = isinstance(confidence, (int, float))
        sure = confidence_text(confidence)
        if row.held == Held.IMPORTED:  # a proposal from outside, said once: where from (``proposed_by`` adds nothing)
            if row.proposers:
                return arg(self.tr("Imported from %1."),
                           self.tr(", ").join(memory_words.source_name(p) for p in row.proposers))
            return self.tr("Imported from another assistant's memory or a monchat export.")
        if row.held == Held.MCP:
            return self.tr("Proposed by another app through monchat's MCP server.")
        if row.held == Held.SYNC_CONFLICT:  # text: the other device's version; old_text: this one's
            if new == old:  # the words agree; what each device did with them does not (pinned, forgotten…)
                return arg(self.tr("Two of your devices did different things with “%1” while they were apart. "
                                   "Approve takes what the other device did; reject keeps what this one did."), new)
            return arg(self.tr("Changed on two of your devices while they were apart. Approve takes the other "
                               "device's “%1”; reject keeps this one's “%2”."), new, old)
        if row.held == Held.UNSURE_WORDS:  # the guard was not sure (core/memory/guard_unsure.py)
            return self.tr("monchat is not sure these are your words: compare them with what you said.")
        if action == Action.LAYER1 and row.sent_from_cut:
            return arg(self.tr("The flush left this out (over its persona's limit) and you sent it here. Approve "
                               "keeps it as lasting memory (confidence %1)."), sure)
        if action == Action.LAYER1:
            return arg(self.tr("Enough evidence has come together, so this becomes lasting memory "
                               "(confidence %1)."), sure)
        if action == Action.RATED:
            return self.tr("You rated this down. Approve keeps it as lasting memory (at its lowered confidence); "
                           "reject drops it.")
        if action == Action.WORDS:
            return self.tr("Not found in your words: the text shares almost nothing with the messages it "
                           "cites. Approve it only if it is true of you.")
        if action == Action.SUPERSEDE:
            return arg(self.tr("Replaces the lasting memory “%1” with “%2”."), old, new)
        if action == Action.MERGE:
            return arg(self.tr("Merges the lasting memory “%1” into the new wording “%2”."), old, new)
        if action == Action.RETRACT:
            if number and confidence < judge_confidence:
                return arg(self.tr("You may have taken back “%1”, but it is not certain (confidence %2). "
                                   "Approve to take it back."), old, sure)
            return arg(self.tr("Takes back “%1”."), old)
        if action == Action.JUDGE:
            if number and confidence <= 0:
                return arg(self.tr("The model gave no usable answer on how this relates to “%1”. "
                                   "Decide yourself."), old)
            return arg(self.tr("Could not decide how this relates to “%1”. The model leans to: %2 "
                               "(confidence %3)."), old, self.verdict_name(leaning(row)), sure)
        return self.action_name(action)

    def proposed_by(self, row: ReviewItem, name=lambda proposer: proposer) -> str:
        """Which filter personas proposed the item: one row, however many proposed the same change.

        Args:
            name: a proposer's shown name (``persona_name``: a filter persona's name; its id only when the
                persona no longer exists, or the source's own words for an import or an MCP app).
        """
        proposers = row.proposers
        if row.held == Held.IMPORTED:  # the file's source, not a persona of ours: ``reason`` names it, once
            return ""
        return arg(self.tr("Proposed by %1."), self.tr(", ").join(name(p) for p in proposers)) if proposers else ""

    def quoted_heading(self, row: ReviewItem) -> str:
        """The heading over the lines an imported item's file quotes ("" when it quotes none): quoted material, never
        the user's words here (issue 36)."""
        return self.tr("Quoted in the file you imported, not said here") if row.quoted else ""

    def origin_heading(self, row: ReviewItem, said: int) -> str:
        """The evidence heading of an item whose words did not come from the user's chat (``ReviewItem.origin``):
        where they came from, and whether a message of the user's backs them ("" for the user's chat: the window
        says "what you said"). A waiting import has none until the user says it again and approves it."""
        source = {Origin.CHATGPT: self.tr("From your ChatGPT memory"), Origin.CLAUDE: self.tr("From your Claude memory"),
                  Origin.MONCHAT_EXPORT: self.tr("From a monchat export you imported"),
                  Origin.PASTED: self.tr("From a list you pasted"),
                  Origin.MCP: self.tr("From another app (through monchat's MCP server)")}.get(row.origin)
        if source is None:
            return ""
        return (arg(self.tr("%1: messages of yours that back it"), source) if said
                else arg(self.tr("%1: no message of yours backs it yet"), source))

    def said_again(self, day: str, text: str) -> str:
        """A line the user said the waiting item's words again in (``core/memory/waiting.said_again``)."""
        return arg(self.tr("Said again on %1: “%2”"), day, text)

    def held(self, row: ReviewItem) -> str:
        """Why a flush held the item back when that is not its action (a model known to be small)."""
        if row.held == Held.MCP:  # the proposal's words are the app's (issue 36: quoted material)
            return self.tr("Its words are that app's, not said here. It becomes memory only if you approve it.")
        if row.held in FROM_OUTSIDE or row.held == Held.UNSURE_WORDS:
            return self.tr("It becomes memory only if you approve it.")
        if row.held != Held.SMALL_MODEL:
            return ""
        return self.tr("It was made with a small model, whose memories are often wrong, so nothing from it "
                       "goes into lasting memory without your yes.")


def persona_name(personas, proposer: str) -> str:
    """A proposer as the user knows it: the filter persona's name in the window's language, else as given."""
    persona = personas.filters.get(proposer) if personas is not None else None
    return persona.texts(ui_language()).name if persona else proposer


_words = ReviewWords()
action_name = _words.action_name
verdict_name = _words.verdict_name
verdict_effect = _words.verdict_effect
reason = _words.reason
proposed_by = _words.proposed_by
held = _words.held
quoted_heading = _words.quoted_heading
origin_heading = _words.origin_heading
said_again = _words.said_again
