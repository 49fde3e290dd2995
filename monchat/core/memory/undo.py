"""Undo the last review decision: an approve/reject (or a batch of them), or a merge of duplicates, reversed exactly.

Every decision in ``MemoryService`` (approve, reject, ``decide_many``) runs inside ``recorded``: the rows it
may change (``store/decisions.py``) are read before and after, and the difference kept as the last decision.
``undo_last`` puts each of those rows back as it was — through ``Transitions.undo_decision``, the one writer of
a memory's state — so the items wait in the queue again, a memory the approval made or replaced is as before,
evidence carried over is gone. Only the last decision is kept, and only undone while nothing else changed the
same rows since (a flush that reinforced the approved memory, an edit): then undo refuses instead of guessing.
An undone decision stays in the audit trail with an "undone" line, and no longer teaches the auto-approve rule
(``learning.py`` counts a decision only while its item still stands decided that way).
A merge of duplicates (``merge.py``) is recorded the same way (``recorded(..., merged=...)``): undoing it brings
the merged memories back as they were and takes from the kept one the evidence it took over.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from ..errors import InputError
from ..store.db import Store
from ..store.decisions import GROWS_ONLY, TABLES, DecisionRows

if TYPE_CHECKING:
    from .service import MemoryService

UNDO_KEY = "review.undo"  # the last decision's changed rows (JSON), until undone or replaced


@dataclass(frozen=True)
class Decision:
    """The last review decision, as the queue and ``monchat memory undo`` tell it."""

    approved: int
    rejected: int
    at: str
    queue_ids: tuple[int, ...]
    merged: tuple[str, ...] = ()  # for a merge of duplicates: the memories merged into their keepers


class NothingToUndo(InputError):
    pass


class UndoConflict(InputError):
    pass


@contextmanager
def recorded(store: Store, at: str, merged: list[str] | None = None) -> Iterator[None]:
    """Keep what the decision made inside this block changed, as the one decision ``undo_last`` reverses.

    Call it inside the decision's transaction; an error in the block keeps the previous decision as it was.
    ``merged``: for a merge of duplicates, a list the block fills with the ids it merged (kept when not empty)."""
    rows = DecisionRows(store)
    before = rows.snapshot()
    yield
    after = rows.snapshot()
    for table in GROWS_ONLY:  # the ledger: what was added (and a conflicted memory's rows, before and after)
        before[table], after[table] = rows.changed_since(table, before[table][""])
    changes = [(table, before[table].get(key), after[table].get(key))
               for table in TABLES for key in sorted(set(before[table]) | set(after[table]))
               if before[table].get(key) != after[table].get(key)]
    decided = [(b["id"], a["status"]) for table, b, a in changes if table == "review_queue" and b and a
               and b["status"] == "open" and a["status"] in ("approved", "rejected")]
    if not decided and not merged:
        return
    store.set_state(UNDO_KEY, json.dumps({"at": at, "decided": decided, "merged": list(merged or []),
                                          "changes": changes}, ensure_ascii=False))


def last_decision(store: Store) -> Decision | None:
    """The decision ``undo_last`` would reverse, or None."""
    raw = store.get_state(UNDO_KEY)
    if not raw:
        return None
    journal = json.loads(raw)
    decided = journal["decided"]
    return Decision(approved=sum(1 for _, status in decided if status == "approved"),
                    rejected=sum(1 for _, status in decided if status == "rejected"),
                    at=journal["at"], queue_ids=tuple(queue_id for queue_id, _ in decided),
                    merged=tuple(journal.get("merged", ())))


def undo_last(memory: MemoryService) -> Decision:
    """Reverse the last review decision (or merge of duplicates) exactly; returns what was undone.

    Raises:
        NothingToUndo: no decision is kept (none made, or the last one already undone).
        UndoConflict: something else changed the same memories since; nothing is changed.
    """
    decision = last_decision(memory.store)
    if decision is None:
        raise NothingToUndo("There is no review decision to undo.",
                            "Undo reverses the last approve or reject, or the last merge of duplicates, once.")
    journal = json.loads(memory.store.get_state(UNDO_KEY) or "{}")
    changes = [(table, before, after) for table, before, after in journal["changes"]]
    rows = DecisionRows(memory.store)
    with memory.change() as t:
        moved = [table for table, before, after in changes if rows.current(table, after or before) != after]
        if set(moved) == {"sync_conflicts"}:
            raise UndoConflict("That choice between two devices' versions was already written for your other devices "
                               "by a sync, so it cannot be undone here alone.",
                               "To change it, change the memory itself in the Memory window (forget, restore, pin or edit it): "
                               "that travels too.")
        if moved:
            raise UndoConflict(
                f"Memory changed since that {'merge' if decision.merged and not decision.queue_ids else 'decision'} "
                "(a flush, an edit or another change touched the same items), so it cannot be undone exactly.",
                "Decide the items again in the review queue, or edit the memories in the Memory window.")
        t.undo_decision(rows, changes, list(decision.queue_ids))
        memory.store.set_state(UNDO_KEY, None)
    return decision


def forget_touching(store, memory_ids: list[str]) -> bool:
    """A deleted memory never comes back by Undo, and its words do not stay in the undo record: the record of a
    decision that touched any of ``memory_ids`` is forgotten (Undo then has nothing to undo). Returns whether it was."""
    raw = store.get_state(UNDO_KEY)
    if not raw or not any(memory_id in raw for memory_id in memory_ids):
        return False
    store.set_state(UNDO_KEY, None)
    return True
