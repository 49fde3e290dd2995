"""Stage 2b, fold: one item per change, however many filter personas proposed it.

Input: the validated items of one flush. Output: the items with every group of near-identical
proposals folded into one, which records its proposers (``Item.proposers``); the judge then asks
about it once and the review queue shows it once. Several personas saying the same thing is
more support ("repetition strengthens"), never more rows: the folded item has the best score of
the group, the union of its evidence and, with mixed kinds, the loosest kind (``memory/rules.py``).

What is near-identical: the same slot (case, width, spaces and ``-``/``_`` aside), the same kind
family (a retraction only with retractions, a preference only with preferences) and the same words
in the same order, where a word may differ in case, width, punctuation and ending (Latin words
compare by the stem ``words.units`` uses) and a leading "the user" / 「ユーザーは」 is no word.

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

import re
import unicodedata
from dataclasses import replace

from ..memory.rules import REQUIRED_DAYS
from ..memory.states import Kind
from .records import Item
from .words import units

# A subject the filters put in front of a statement about the user; it adds nothing to compare.
LEADING_SUBJECT = re.compile(r"^(?:the\s+user'?s?\b|user'?s?\b|ユーザーは|ユーザーが|ユーザーの)\s*")


def slot_key(slot: str) -> str:
    """A slot as folding compares it: ``Home / City`` and ``home/city`` are one slot."""
    folded = unicodedata.normalize("NFKC", slot).casefold()
    parts = [re.sub(r"[\s_\-]+", "_", part.strip()).strip("_") for part in folded.split("/")]
    return "/".join(parts)


def wording_key(text: str) -> tuple[str, ...]:
    """The words of ``text`` in order, each as it is compared (a Latin word by its ``units`` stem)."""
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    folded = LEADING_SUBJECT.sub("", folded)
    words = []
    for run in re.findall(r"[a-z0-9']+|[^\W\da-z_]+", folded):
        run = run.strip("'")
        if not run:
            continue
        stem = units(run) if run.isascii() else set()
        words.append(next(iter(stem)) if len(stem) == 1 else run)
    return tuple(words)


def family(kind: str) -> str:
    """Kinds that may fold together: a retraction takes back, a preference versions, the rest state."""
    return kind if kind in (Kind.RETRACTION, Kind.PREFERENCE) else "statement"


def fold_key(item: Item) -> tuple:
    return slot_key(item.slot), family(item.kind), wording_key(item.text)


def fold_items(items: list[Item]) -> tuple[list[Item], list[dict]]:
    """Fold near-identical proposals (see the module's docstring); the order of first proposals is kept.

    Returns:
        The items, each with ``proposers`` set, and one record per fold of two or more proposals:
        ``{"text", "slot", "personas", "proposals"}`` (the report's ``folded``).
    """
    groups: dict[tuple, list[Item]] = {}
    for item in items:
        key = fold_key(item)
        if not key[2]:  # no words at all: nothing to call identical
            key = (key, id(item))
        groups.setdefault(key, []).append(item)
    folded, records = [], []
    for group in groups.values():
        item = _fold(group)
        folded.append(item)
        if len(group) > 1:
            records.append({"text": item.text, "slot": item.slot, "personas": list(item.proposers),
                            "proposals": len(group)})
    return folded, records


def _fold(group: list[Item]) -> Item:
    """One item for a group: the best-scored wording, every proposer, all the evidence."""
    position = {id(item): n for n, item in enumerate(group)}
    best = max(group, key=lambda i: (i.grounded, i.score, -position[id(i)]))
    proposers = list(dict.fromkeys(i.persona for i in group))
    if len(group) == 1:
        return replace(best, proposers=proposers)
    first = min(group, key=lambda i: i.first_epoch)
    evidence = list(dict.fromkeys(mid for i in group for mid in i.evidence))
    return replace(best, score=max(i.score for i in group), evidence=evidence, first_epoch=first.first_epoch,
                   first_ts=first.first_ts, kind=_loosest(group, best.kind), proposers=proposers)


def _loosest(group: list[Item], preferred: str) -> str:
    """The kind whose Layer 1 rule needs the fewest days (the representative's kind on a tie)."""
    need = {i.kind: REQUIRED_DAYS.get(i.kind, 99) for i in group}
    fewest = min(need.values())
    return preferred if need.get(preferred) == fewest else next(k for k, n in need.items() if n == fewest)
