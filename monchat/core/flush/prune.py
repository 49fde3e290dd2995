"""Stage 5, prune: expiry, decay, the Layer 1 cap and review deadlines.

Input: the memory store, settings, the time. Output: ``Change``s. Program only.
- Layer 2 items expire ``layer2_hours`` after the flush that last promoted them.
- Unsupported preferences decay: ``confidence × 0.5^(Δdays / half_life)``
  (explicit statements, corrections and pinned items do not); a Layer 1 item
  that decays below ``DORMANT_BELOW`` goes dormant.
- Over the Layer 1 cap the weakest (not pinned) go dormant.
- A queued change unanswered past its deadline returns to candidate; it never
  confirms silently.
"""

from __future__ import annotations

from datetime import datetime

from ..settings import FlushSettings
from ..store.memories import MemoryRecord, MemoryStore
from ..types import format_ts
from .records import Change

DORMANT_BELOW = 0.1
NON_DECAYING = ("explicit", "correction")


def effective_confidence(memory: MemoryRecord, now: datetime, half_life_days: float) -> float:
    base = memory.confidence or 0.0
    if memory.pinned or memory.kind in NON_DECAYING or not memory.last_evidence_epoch:
        return base
    age_days = max(0.0, (now.timestamp() - memory.last_evidence_epoch) / 86400)
    return base * 0.5 ** (age_days / half_life_days)


def recency(memory: MemoryRecord, now: datetime) -> float:
    if not memory.last_evidence_epoch:
        return 0.5
    age_days = max(0.0, (now.timestamp() - memory.last_evidence_epoch) / 86400)
    return 1.0 / (1.0 + age_days / 30.0)


def prune(memories: MemoryStore, settings: FlushSettings, now: datetime, run_id: int | None) -> list[Change]:
    stamp = format_ts(now)
    epoch = now.timestamp()
    changes: list[Change] = []

    def record(kind: str, memory: MemoryRecord, detail: dict | None = None, old_text: str = "") -> None:
        memories.event(memory.id, stamp, kind, detail or {}, run_id)
        changes.append(Change(kind, memory.id, memory.text, old_text))

    for row in memories.queue_open():
        if row["deadline_epoch"] and row["deadline_epoch"] < epoch:
            memories.queue_resolve(row["id"], "expired", stamp)
            memory = memories.get(row["memory_id"])
            if memory is not None and memory.state == "queued":
                memories.update(memory.id, state="candidate", updated_at=stamp)
            if memory is not None:
                record("expired", memory, {"queue": row["id"], "action": row["action"]})

    for memory in memories.in_state("candidate", "queued"):
        if memory.layer2_until and memory.layer2_until <= epoch:
            memories.update(memory.id, layer2_until=None)
            record("expired", memory, {"layer": 2})

    active = [m for m in memories.in_state("active") if not m.superseded_by]
    for memory in active:
        if effective_confidence(memory, now, settings.half_life_days) < DORMANT_BELOW and not memory.pinned:
            memories.update(memory.id, state="dormant", updated_at=stamp)
            record("dormant", memory, {"reason": "decayed"})
    active = [m for m in memories.in_state("active") if not m.superseded_by]
    excess = len(active) - settings.layer1_cap
    if excess > 0:
        weakest = sorted((m for m in active if not m.pinned),
                         key=lambda m: (effective_confidence(m, now, settings.half_life_days) * recency(m, now),
                                        m.last_evidence_epoch or 0, m.id))
        for memory in weakest[:excess]:
            memories.update(memory.id, state="dormant", updated_at=stamp)
            record("dormant", memory, {"reason": f"over the Layer 1 cap of {settings.layer1_cap}"})
    return changes
