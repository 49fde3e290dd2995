"""Merge duplicates: memories already kept that say the same thing become one, with their evidence together.

Before proposals were folded (``alike.py``), one sentence could be stored as two or three memories; the Memory
window's "Merge duplicates" (and ``monchat memory merge-duplicates``) puts them together. Alike means what it
means for the flush and the queue: the same slot, the same kind family and the same words (``alike.change_key``).
Only memories in play and shown are merged (active, candidate, dormant): an item waiting for review is not memory
yet, and history stays history.

Of each group one memory is kept — pinned first, then lasting (Layer 1), then the one with the most days of
evidence, then the oldest — and each other one is merged into it through ``Transitions.merge_duplicate``: the kept memory
takes its evidence, it becomes history superseded by the kept one (its audit trail says so). A kept memory that
was not lasting while one of its duplicates was becomes lasting: merging never demotes what the user had.
A merge is the last decision ``undo.py`` keeps: ``monchat memory undo`` (or the window's Undo) takes it back whole,
while nothing changed the same memories since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..records.memory import MemoryRecord
from ..vocabulary.states import SHOWN_STATES
from .alike import change_key, group_alike
from .undo import recorded

if TYPE_CHECKING:
    from .service import MemoryService


@dataclass(frozen=True)
class Merged:
    """One group put together: the memory kept and the ids merged into it."""

    kept: str
    text: str
    merged: tuple[str, ...]


def _keeper_order(memory: MemoryRecord) -> tuple:
    return (not memory.pinned, not memory.in_layer1, -memory.days, str(memory.created_at or ""), memory.id)


def duplicate_groups(memory: MemoryService) -> list[list[MemoryRecord]]:
    """The groups of two or more shown memories that say the same thing, each keeper first."""
    shown = [m for m in memory.memories.in_state(*SHOWN_STATES) if not m.superseded_by]
    groups = group_alike(shown, lambda m: change_key(m.slot, m.kind, m.text))
    return [sorted(group, key=_keeper_order) for group in groups if len(group) > 1]


def merge_duplicates(memory: MemoryService) -> list[Merged]:
    """Merge every group of duplicates into its keeper, in one change, kept for Undo (``undo.py``); returns what
    was merged (empty: none, and the last decision stays the one to undo)."""
    done: list[Merged] = []
    merged_ids: list[str] = []
    with memory.change() as t, recorded(memory.store, t.stamp, merged_ids):
        for group in duplicate_groups(memory):
            keeper, others = group[0], group[1:]
            for other in others:
                keeper = t.merge_duplicate(t.refresh(other), t.refresh(keeper))
            if not keeper.in_layer1 and any(m.in_layer1 for m in others):
                keeper = t.activate(keeper)
            done.append(Merged(keeper.id, keeper.text, tuple(m.id for m in others)))
            merged_ids.extend(m.id for m in others)
    return done
