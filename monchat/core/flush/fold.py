"""Stage 2b, fold: one item per change, however many filter personas proposed it.

Input: the validated items of one flush. Output: the items with every group of near-identical
proposals folded into one, which records its proposers (``Item.proposers``); the judge then asks
about it once and the review queue shows it once. Several personas saying the same thing is
more support ("repetition strengthens"), never more rows: the folded item has the best score of
the group, the union of its evidence and, with mixed kinds, the loosest kind (``memory/rules.py``).

What is near-identical is ``memory/alike.py``'s rule (the review queue shows alike items as one row by
the same rule): the same slot, the same kind family and the same words in the same order, beyond the sentence's frame
(``alike_words``: "works as a nurse" is "is a nurse").

Deliberately not folded:
- Texts that share their words in another order or with one word more. A bag of words (what
  ``words.units`` compares for grounding) equates "moved from Osaka to Fukuoka" with "moved from
  Fukuoka to Osaka", and "I have no car" with "I have a car" (short words are not units). A false
  fold silently loses a different change; a missed fold only leaves two rows, which the judge also
  compares (an earlier item of the same slot is a candidate).
- The same text in another slot. The slot is what a change is matched, versioned and replaced by:
  "Tokyo" in ``home/city`` and in ``work/city`` are two facts, and choosing one slot for both would
  decide which kept memory the change replaces.
"""

from __future__ import annotations

from dataclasses import replace

from ..memory.alike import change_key, group_alike
from ..memory.rules import REQUIRED_DAYS
from ..types import Coded
from .records import Item


def fold_key(item: Item) -> tuple:
    return change_key(item.slot, item.kind, item.text)


def fold_items(items: list[Item]) -> tuple[list[Item], list[dict]]:
    """Fold near-identical proposals (see the module's docstring); the order of first proposals is kept.

    Returns:
        The items, each with ``proposers`` set, and one record per fold of two or more proposals:
        ``{"text", "slot", "personas", "proposals"}`` (the report's ``folded``).
    """
    folded, records = [], []
    for group in group_alike(items, fold_key):  # no words at all: nothing to call identical
        item = _fold(group)
        folded.append(item)
        if len(group) > 1:
            records.append({"text": item.text, "slot": item.slot, "personas": list(item.proposers),
                            "proposals": len(group)})
    return folded, records


def _fold(group: list[Item]) -> Item:
    """One item for a group: the best-scored wording, every proposer, all the evidence."""
    position = {id(item): n for n, item in enumerate(group)}
    best = max(group, key=lambda i: (i.score, -position[id(i)]))
    proposers = list(dict.fromkeys(i.persona for i in group))
    if len(group) == 1:
        return replace(best, proposers=proposers)
    first = min(group, key=lambda i: i.first_epoch)
    evidence = list(dict.fromkeys(mid for i in group for mid in i.evidence))
    return replace(best, score=max(i.score for i in group), evidence=evidence, first_epoch=first.first_epoch,
                   first_ts=first.first_ts, kind=_loosest(group, best.kind), proposers=proposers,
                   unsure=best.unsure if all(i.unsure for i in group) else "")  # one sure proposal: sure


def _loosest(group: list[Item], preferred: str) -> str:
    """The kind whose Layer 1 rule needs the fewest days (the representative's kind on a tie)."""
    need = {i.kind: REQUIRED_DAYS.get(i.kind, 99) for i in group}
    fewest = min(need.values())
    return preferred if need.get(preferred) == fewest else next(k for k, n in need.items() if n == fewest)


def fold_notes(records: list[dict]) -> list[Coded]:
    """The run's notes on what was folded: who proposed the same change (or one persona, how often)."""
    notes = []
    for fold in records:
        who = ", ".join(fold["personas"])
        notes.append(
            Coded(f"{who} proposed the same change; it is one item: {fold['text']}", "folded", who, fold["text"])
            if len(fold["personas"]) > 1 else
            Coded(f"{who} proposed the same change {fold['proposals']} times; it is one item: {fold['text']}",
                  "repeated", who, fold["proposals"], fold["text"]))
    return notes
