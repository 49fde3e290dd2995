"""Near-duplicates: when two proposed changes are the same change (the one rule, for the flush and the queue).

A flush folds the proposals several personas make alike into one item (``flush/fold.py``); the review
queue shows the items waiting for review that are alike as one row, decided together (``review_groups``:
``MemoryService.queue_groups``, and the row count every "waiting for review (N)" shows). Both ask this module,
so "alike" means the same thing everywhere.

What is near-identical: the same slot (case, width, spaces and ``-``/``_`` aside), the same kind
family (a retraction only with retractions, a preference only with preferences) and the same words
in the same order, where a word may differ in case, width, punctuation and ending (Latin words
compare by the stem ``guard.units`` uses) and a leading "the user" / 「ユーザーは」 is no word.
A text without any word is alike to nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from .guard import units
from .review_item import ReviewItem
from ..vocabulary.states import Kind

T = TypeVar("T")

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


def change_key(slot: str, kind: str, text: str) -> tuple:
    """What two proposals must share to be one change."""
    return slot_key(slot), family(kind), wording_key(text)


def group_alike(things: Iterable[T], key: Callable[[T], tuple]) -> list[list[T]]:
    """``things`` in groups of the alike (``key`` ends with ``change_key``'s words), in the order of each
    group's first; a thing whose words are empty stays alone."""
    groups: dict[Hashable, list[T]] = {}
    for n, thing in enumerate(things):
        k = key(thing)
        groups.setdefault(k if k and k[-1] else (k, n), []).append(thing)
    return list(groups.values())


def review_groups(rows: Iterable[ReviewItem], memory_of: Callable[[str], object | None]) -> list[list[ReviewItem]]:
    """The open review rows (``review_queue``) as the review queue shows them: the rows proposing the same change
    (one action on one target, one slot, the same words) in one group, shown and decided as one; oldest first.

    The one place a review count comes from: the queue window's rows, the Memory menu's "Review queue (N)", the
    flush window's "Open review queue (N)", ``monchat memory queue`` and ``monchat status`` all count these groups,
    never the items in them. ``memory_of`` finds a row's memory (its slot and kind)."""
    def key(row: ReviewItem) -> tuple:
        memory = memory_of(row.memory_id)
        return (row.action, row.target_id or "",
                *change_key(getattr(memory, "slot", ""), getattr(memory, "kind", ""), row.text or ""))
    return group_alike(rows, key)
