"""Scripted filter-persona answers for flushes driven through the GUI."""

from __future__ import annotations

import re

NO_ITEMS = '{"items": []}'


def first_user_line(turns) -> str:
    """The short local id (m1, m2, …) of the first user line in a filter call's log chunk."""
    match = re.search(r"^\[(m\d+)\] user", turns[-1].content, re.MULTILINE)
    assert match, "the filter call shows no user line"
    return match.group(1)


def item_answer(text: str, slot: str, kind: str = "explicit", score: float = 0.9):
    """A structured answer citing the first user line as evidence."""
    def answer(system, turns, schema):
        return {"items": [{"reason": "the user said so", "text": text, "slot": slot, "kind": kind,
                           "score": score, "evidence": [first_user_line(turns)]}]}
    return answer
