"""Knowledge gaps, two kinds, marked by the program and never filled by it.

- **Recall failures**: an item of kind ``correction`` (the user corrected what was said or kept
  about them) records one failure for its slot, once per message; at the second failure in a slot
  the slot gets a ``recall`` gap mark (its count goes on rising with later failures).
- **Structural**: a gap the reflect stage suspected (a neighbour of what the user talks about
  that never comes up), marked on the first slot it rests on; the same open gap is not marked twice.

A gap holds no content about the user, only what is missing; it waits in the inbox.
"""

from __future__ import annotations

from typing import Callable

from ..memory.states import Kind
from ..flush.records import Item

RECALL, STRUCTURAL = "recall", "structural"
MARK_AT = 2  # failures in one slot that make a gap mark


def record(store, items: list[Item], reflection, run_id: int, at: str, day_of: Callable) -> list[dict]:
    """Write this flush's recall failures and gap marks (inside the flush's transaction); return new or
    raised gaps for the report."""
    changed: list[dict] = []
    for item in items:
        if item.kind != Kind.CORRECTION or not item.evidence:
            continue
        if not store.add_failure({"slot": item.slot, "message_id": item.evidence[0], "day": item.first_ts[:10],
                                  "text": item.text, "run_id": run_id}):
            continue
        failures = store.failures(item.slot)
        if failures < MARK_AT:
            continue
        text = f"corrected {failures} times about {item.slot}: {item.text}"
        gap = store.open_gap(RECALL, item.slot)
        if gap is None:
            store.add_gap({"kind": RECALL, "slot": item.slot, "text": text, "failures": failures,
                           "created_at": at, "run_id": run_id})
        else:
            store.update_gap(gap["id"], failures=failures, text=text)
        changed.append({"kind": RECALL, "slot": item.slot, "text": text, "failures": failures})
    for entry in (reflection.gaps if reflection is not None else []):
        slot = entry["slots"][0]
        if store.open_gap(STRUCTURAL, slot) is not None:
            continue
        store.add_gap({"kind": STRUCTURAL, "slot": slot, "text": entry["text"], "failures": 0,
                       "created_at": at, "run_id": run_id})
        changed.append({"kind": STRUCTURAL, "slot": slot, "text": entry["text"], "failures": 0})
    return changed


def hint(store) -> str:
    """What the chat may ask about if it comes up: the newest open gap, in one line (or "")."""
    open_gaps = [g for g in store.gaps() if g["status"] == "open"]
    if not open_gaps:
        return ""
    gap = max(open_gaps, key=lambda g: g["id"])
    if gap["kind"] == STRUCTURAL:
        return " ".join(gap["text"].split())[:200]
    return gap["slot"]  # corrected twice or more: ask rather than guess again
