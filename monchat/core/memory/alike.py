"""Near-duplicates: when two proposed changes are the same change (the one rule, for the flush and the queue).

A flush folds the proposals several personas make alike into one item (``flush/fold.py``); the review
queue shows the items waiting for review that are alike as one row, decided together (``review_groups``:
``MemoryService.queue_groups``, and the row count every "waiting for review (N)" shows). Both ask this module,
so "alike" means the same thing everywhere.

What is near-identical: the same slot (case, width, spaces and ``-``/``_`` aside), the same kind
family (a retraction only with retractions, a preference only with preferences) and the same words
in the same order, where a word may differ in case, width, punctuation and ending (Latin words
compare by the stem ``guard.units`` uses), a number may be written in figures, kanji or English words
(猫を二匹 is 猫を2匹, "two cats" is "2 cats", 十二 is 12) and a leading "the user" / 「ユーザーは」 is no word.
Near text is alike too (``alike_words.near_words``): the frame a sentence is built with (articles, the copula,
"works as", 「として働いている」, 「の仕事をしている」) is no word, so "works as a nurse" is "is a nurse"; any other
difference — a number, a negation, a time or tense, a name — keeps two rows.
A text without any word is alike to nothing. An imported memory names no subject (its slot is
``imported/<source>``): it is alike to a proposal of any slot with the same words (``same_change``), so an
import and the flush's proposal saying the same thing are one review row, and approving stores one memory.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from .alike_words import near_words
from .guard import units
from .review_item import ReviewItem
from ..vocabulary.states import Kind

T = TypeVar("T")

# A subject the filters put in front of a statement about the user; it adds nothing to compare.
LEADING_SUBJECT = re.compile(r"^(?:the\s+user'?s?\b|user'?s?\b|ユーザーは|ユーザーが|ユーザーの)\s*")


KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
KANJI_NUMBER = re.compile(r"[〇零一二三四五六七八九十]+")
NUMBER_WORDS = {word: n for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + r")\b")
IMPORTED_SLOT = "imported/"  # the slot of a pasted list's memories (``transfer/memory_import.py``): no subject


def kanji_figures(run: str) -> str:
    """A run of kanji numerals in figures: 二 → 2, 十二 → 12, 二十 → 20, 二〇二六 → 2026; a run that is no number
    (十十) stays as it is."""
    if "十" not in run:
        return "".join(str(KANJI_DIGITS[c]) for c in run)
    head, _, tail = run.partition("十")
    if len(head) > 1 or len(tail) > 1 or "十" in tail:
        return run
    return str(KANJI_DIGITS.get(head, 1) * 10 + KANJI_DIGITS.get(tail, 0))


def slot_key(slot: str) -> str:
    """A slot as folding compares it: ``Home / City`` and ``home/city`` are one slot."""
    folded = unicodedata.normalize("NFKC", slot).casefold()
    parts = [re.sub(r"[\s_\-]+", "_", part.strip()).strip("_") for part in folded.split("/")]
    return "/".join(parts)


def wording_key(text: str) -> tuple[str, ...]:
    """The words of ``text`` in order, each as it is compared (a Latin word by its ``units`` stem)."""
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    folded = LEADING_SUBJECT.sub("", folded)
    folded = KANJI_NUMBER.sub(lambda m: kanji_figures(m.group()), folded)
    words = []
    for run in re.findall(r"[a-z0-9']+|[^\W\da-z_]+", folded):
        run = run.strip("'")
        if not run:
            continue
        if run in NUMBER_WORDS:  # "two cats" is "2 cats"
            words.append(str(NUMBER_WORDS[run]))
            continue
        stem = units(run) if run.isascii() else set()
        words.append(next(iter(stem)) if len(stem) == 1 else run)
    return tuple(words)


def prepared(text: str) -> str:
    """``text`` as near text is read from: folded, without its leading subject, every number in figures."""
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    folded = LEADING_SUBJECT.sub("", folded)
    folded = KANJI_NUMBER.sub(lambda m: kanji_figures(m.group()), folded)
    return NUMBER_WORD.sub(lambda m: str(NUMBER_WORDS[m.group()]), folded)


def family(kind: str) -> str:
    """Kinds that may fold together: a retraction takes back, a preference versions, the rest state."""
    return kind if kind in (Kind.RETRACTION, Kind.PREFERENCE) else "statement"


def change_key(slot: str, kind: str, text: str) -> tuple:
    """What two proposals must share to be one change: the slot, the kind family and the words beyond the frame."""
    return slot_key(slot), family(kind), near_words(prepared(text))


def same_change(a: tuple[str, str, str], b: tuple[str, str, str]) -> bool:
    """Whether two ``(slot, kind, text)`` say the same change: ``change_key`` equal, where an imported memory's slot
    (no subject) matches any slot."""
    ka, kb = change_key(*a), change_key(*b)
    if not ka[-1] or ka[1:] != kb[1:]:
        return False
    return ka[0] == kb[0] or ka[0].startswith(IMPORTED_SLOT) or kb[0].startswith(IMPORTED_SLOT)


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
    groups = group_alike(rows, key)
    # An import names no subject: it joins the group of the same words whatever that group's slot.
    out: list[list[ReviewItem]] = []
    first: dict[tuple, list[ReviewItem]] = {}
    for group in groups:
        action, target, slot, kind_family, words = key(group[0])
        loose = (action, target, kind_family, words)
        earlier = first.get(loose) if words else None
        if earlier is not None and (slot.startswith(IMPORTED_SLOT) or key(earlier[0])[2].startswith(IMPORTED_SLOT)):
            earlier.extend(group)
            continue
        first.setdefault(loose, group)
        out.append(group)
    return out
