"""Every proposal of a flush accounted for: what became of each item the filters answered.

A filter's item is kept (it goes on to the judge and consolidation), folded into another persona's identical
proposal (``fold.py``), a recall (a question memory could not answer: counted, never a memory) or dropped, with
one reason (``DropCategory``): over its persona's limit, no evidence, the guard's rules (not the user's words,
not well formed), a never-remember rule, already known, or a retraction with nothing to take back. The counts
add up to the proposals; the report, the terminal's summary, the window and the run's row all read this one
record (``FlushReport.accounting``).
"""

from __future__ import annotations

from ..vocabulary.states import DropCategory
from .records import Dropped

# The order the counts are said in: what cut the most proposals in practice first.
DROP_ORDER = (DropCategory.LIMIT, DropCategory.EVIDENCE, DropCategory.KNOWN, DropCategory.WORDS,
              DropCategory.INVALID, DropCategory.NEVER, DropCategory.NO_TARGET)
# The terminal's words for each reason (the window words the codes itself, in its language).
DROP_WORDS = {DropCategory.LIMIT: "over the persona's limit", DropCategory.EVIDENCE: "no evidence in your messages",
              DropCategory.KNOWN: "already known", DropCategory.WORDS: "not your words (the guard)",
              DropCategory.INVALID: "not a well-formed proposal (the guard)",
              DropCategory.NEVER: "a never-remember rule", DropCategory.NO_TARGET: "nothing kept to take back"}


def account(proposals: int, kept: int, folded: int, recalls: int, dropped: list[Dropped], unsure: int = 0) -> dict:
    """The run's accounting: ``{"proposals", "kept", "unsure", "folded", "recalls", "dropped": {category: n}}``;
    every category is present (0 when none), and ``kept + unsure + folded + recalls + sum(dropped) == proposals``
    (``unsure``: sent to review because the guard is not sure they are the user's words, never kept unasked).

    Raises:
        AssertionError: the counts do not add up (a proposal lost on the way: our bug, never hidden).
    """
    by_reason = {str(category): 0 for category in DROP_ORDER}
    for drop in dropped:
        by_reason[str(drop.category)] = by_reason.get(str(drop.category), 0) + 1
    data = {"proposals": proposals, "kept": kept, "unsure": unsure, "folded": folded, "recalls": recalls,
            "dropped": by_reason}
    assert kept + unsure + folded + recalls + sum(by_reason.values()) == proposals, data
    return data


def accounting_line(data: dict) -> str:
    """The terminal's one line: "72 proposals: 10 kept, 60 over the persona's limit, 2 already known"."""
    if not data:
        return ""
    parts = [f"{data['kept']} kept"]
    if data.get("unsure"):
        parts.append(f"{data['unsure']} sent to review (not sure they are your words)")
    if data["folded"]:
        parts.append(f"{data['folded']} the same as another persona's")
    if data["recalls"]:
        parts.append(f"{data['recalls']} recall failure(s), never memories")
    parts += [f"{n} {DROP_WORDS.get(DropCategory(category), category)}"
              for category, n in data["dropped"].items() if n]
    return f"{data['proposals']} proposal(s): {', '.join(parts)}"
