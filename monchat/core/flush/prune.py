"""Stage 5, prune: expiry, decay, the Layer 1 cap and review deadlines.

Input: the memory store, settings, the time. Output: ``Change``s. Program only.
- Layer 2 items expire ``layer2_hours`` after the flush that last promoted them.
- Unsupported memories decay: ``confidence × 0.5^(Δdays / half_life)``
  (explicit statements, corrections and pinned items do not; preferences by their
  own half-life, ``flush.preference_half_life_days``); a Layer 1 item
  that decays below ``DORMANT_BELOW`` goes dormant.
- Over the Layer 1 cap the weakest (not pinned) go dormant.
- A queued change unanswered past its deadline never confirms silently: a proposed
  supersession (or merge, or unsure judgement) is set aside as pending, any other
  proposal returns to candidate (``Transitions.expire_review``).
- Decay's half-life is multiplied by the memory's boost (``memory/reliance.py``).

The numbers are the memory domain's (``core/memory/rules.py``), the state changes its transitions.
"""

from __future__ import annotations

from datetime import datetime

from ..records.memory import Change
from ..memory.rules import DORMANT_BELOW, effective_confidence, half_life_for, strength
from ..vocabulary.states import State
from ..memory.transitions import Transitions
from ..settings import FlushSettings
from ..store.memories import MemoryStore


def prune(memories: MemoryStore, settings: FlushSettings, now: datetime, run_id: int | None) -> list[Change]:
    t = Transitions(memories, settings, now, run_id)
    epoch = now.timestamp()
    for row in memories.queue_open():
        if row["deadline_epoch"] and row["deadline_epoch"] < epoch:
            t.expire_review(row)

    for memory in memories.in_state(State.CANDIDATE, State.QUEUED):
        if memory.layer2_until and memory.layer2_until <= epoch:
            t.expire_layer2(memory)

    for memory in memories.in_state(State.ACTIVE):
        if memory.in_layer1 and not memory.pinned \
                and effective_confidence(memory, now, half_life_for(memory, settings)) < DORMANT_BELOW:
            t.dormant(memory, "decayed")
    active = [m for m in memories.in_state(State.ACTIVE) if m.in_layer1]
    excess = len(active) - settings.layer1_cap
    if excess > 0:
        weakest = sorted((m for m in active if not m.pinned),
                         key=lambda m: (strength(m, now, half_life_for(m, settings)), m.last_evidence_epoch or 0,
                                        m.id))
        for memory in weakest[:excess]:
            t.dormant(memory, f"over the Layer 1 cap of {settings.layer1_cap}")
    return t.changes
