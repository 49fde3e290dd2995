"""Knowledge gaps, two kinds, marked by the program and never filled by it.

- **Recall failures**: an item of kind ``correction`` (the user corrected what was said or kept about
  them) records one failure for its slot, on the first message it cites; an item of kind ``recall`` (the
  user asked what memory should have known: "what's my dog's name again?", "I told you I moved",
  "覚えてないの？") records one for each message it cites. A recall item is validated like any item (its
  lines must be the user's, its words theirs: ``flush/score.py``) and never becomes a memory: it holds what
  was asked, not an answer. One failure per slot and message, however many personas saw it. At the second
  failure in a slot the slot gets a ``recall`` gap mark; later failures raise its count.
- **Structural**: a gap the reflect stage suspected (a neighbour of what the user talks about that never
  comes up), marked on the first slot it rests on (source ``reflect``); or one the program finds from the
  profile and its neighbour table (``neighbours.py``, source ``neighbours``). The same gap is not marked
  twice while it stands.

A gap the user dismissed is not marked again (its failures are still counted) and gives no prompt hint.
A gap holds no content about the user, only what is missing; it waits in the inbox.
"""

from __future__ import annotations

from ..vocabulary.states import Kind
from ..memory.proposals import Item
from ..store.background import DISMISSED
from . import neighbours

RECALL, STRUCTURAL = "recall", "structural"
MARK_AT = 2  # failures in one slot that make a gap mark
# Where a gap came from (``gaps.source``) and what a failure was (``recall_failures.source``).
FROM_REFLECT, FROM_NEIGHBOURS, FROM_FAILURES = "reflect", "neighbours", "failures"
CORRECTION, QUESTION = "correction", "question"
NEW, RAISED = "new", "raised"  # what a flush did to a gap (the report's lines)


def _failures(items: list[Item]) -> list[tuple[Item, str, str]]:
    """(item, message id, source) of every failure the items show, in the flush's order."""
    out = []
    for item in items:
        if item.kind == Kind.CORRECTION and item.evidence:
            out.append((item, item.evidence[0], CORRECTION))
        elif item.kind == Kind.RECALL:
            out.extend((item, mid, QUESTION) for mid in item.evidence)
    return out


def _recall_text(slot: str, failures: int, source: str, text: str) -> str:
    said = "corrected" if source == CORRECTION else "asked about"
    return f"{said} {slot} ({failures} times memory did not know): {text}"


def record(store, items: list[Item], reflection, run_id: int, at: str, profile_rows=(),
           structural_after: int = 0) -> list[dict]:
    """Write this flush's recall failures and gap marks (inside the flush's transaction).

    Args:
        items: this flush's items, recall items included.
        profile_rows: the day's ``profile.TopicRow``s (what the neighbour table is read against).
        structural_after: ``background.structural_gap_after`` (0: the program marks no structural gap).

    Returns:
        The gaps made (``change`` "new") or raised ("raised"), one entry per gap.
    """
    changed: dict[tuple[str, str], dict] = {}

    def note(kind: str, slot: str, text: str, failures: int, source: str, change: str) -> None:
        was = changed.get((kind, slot))
        change = NEW if was is not None and was["change"] == NEW else change
        changed[(kind, slot)] = {"kind": kind, "slot": slot, "text": text, "failures": failures, "source": source,
                                 "change": change}

    for item, message_id, source in _failures(items):
        if not store.add_failure({"slot": item.slot, "message_id": message_id, "day": item.first_ts[:10],
                                  "text": item.text, "run_id": run_id, "source": source}):
            continue
        failures = store.failures(item.slot)
        if failures < MARK_AT:
            continue
        text = _recall_text(item.slot, failures, source, item.text)
        gap = store.latest_gap(RECALL, item.slot)
        if gap is None:
            store.add_gap({"kind": RECALL, "slot": item.slot, "text": text, "failures": failures,
                           "created_at": at, "run_id": run_id, "source": FROM_FAILURES})
            note(RECALL, item.slot, text, failures, FROM_FAILURES, NEW)
        elif gap["status"] != DISMISSED:
            store.update_gap(gap["id"], failures=failures, text=text)
            note(RECALL, item.slot, text, failures, FROM_FAILURES, RAISED)

    suspected = [(entry["slots"][0], entry["text"], FROM_REFLECT)
                 for entry in (reflection.gaps if reflection is not None else [])]
    counts = {r.topic: r.count for r in profile_rows if r.window == neighbours.WINDOW}
    suspected += [(m["slot"], f"talks about {m['topic']} often ({m['count']} messages in {neighbours.WINDOW} "
                              f"days), never about {m['slot']}", FROM_NEIGHBOURS)
                  for m in neighbours.expected(counts, store.all_slots(), structural_after)]
    for slot, text, source in suspected:
        if store.latest_gap(STRUCTURAL, slot) is not None or (STRUCTURAL, slot) in changed:
            continue
        store.add_gap({"kind": STRUCTURAL, "slot": slot, "text": text, "failures": 0, "created_at": at,
                       "run_id": run_id, "source": source})
        note(STRUCTURAL, slot, text, 0, source, NEW)
    return list(changed.values())


def hint(store) -> str:
    """What the chat may ask about if it comes up: the newest gap not dismissed, in one line (or "")."""
    standing = [g for g in store.gaps() if g["status"] != DISMISSED]
    if not standing:
        return ""
    gap = max(standing, key=lambda g: g["id"])
    if gap["kind"] == STRUCTURAL and gap.get("source") != FROM_NEIGHBOURS:
        return " ".join(gap["text"].split())[:200]
    return gap["slot"]  # not known twice or more, or a neighbour never mentioned: ask rather than guess
