"""The numbers the program decides by (DESIGN §4–5); no I/O, no state changes."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Iterable

from ..records.memory import MemoryRecord
from .reliance import boost_now
from ..vocabulary.states import Kind, Verdict

if TYPE_CHECKING:
    from .review_item import ReviewItem

# Distinct days of supporting evidence a kind needs for Layer 1; with mixed kinds the loosest applies.
REQUIRED_DAYS: dict[str, int] = {Kind.EXPLICIT: 1, Kind.CORRECTION: 1, Kind.FACT: 2, Kind.HABIT: 3, Kind.SKILL: 2,
                                  Kind.PREFERENCE: 1}  # a preference is stated, not observed: one day
# A habit contradicted this often is set aside (pending): kept, out of the prompt.
HABIT_CONTRADICTIONS_TO_PENDING = 2
# A Layer 1 memory whose decayed confidence falls below this goes dormant.
DORMANT_BELOW = 0.1
# Said outright or corrected by the user: these do not decay.
NON_DECAYING = (Kind.EXPLICIT, Kind.CORRECTION)


def required_days(kinds: Iterable[str]) -> int | None:
    """Days of evidence needed for Layer 1; the loosest rule of the kinds present."""
    needs = [REQUIRED_DAYS[k] for k in kinds if k in REQUIRED_DAYS]
    return min(needs) if needs else None


def habit_set_aside(memory: MemoryRecord, contradictions: int) -> bool:
    """A habit contradicted ``HABIT_CONTRADICTIONS_TO_PENDING`` times goes pending, unless pinned."""
    return (memory.kind == Kind.HABIT and contradictions >= HABIT_CONTRADICTIONS_TO_PENDING
            and not memory.pinned)


def effective_confidence(memory: MemoryRecord, now: datetime, half_life_days: float) -> float:
    """Confidence after decay: ``confidence × 0.5^(days since the last support / (half-life × boost))``.

    The boost (1–10×, decaying back over 30 days: ``reliance.py``) comes from use, new evidence and 👍.
    """
    base = memory.confidence or 0.0
    if memory.pinned or memory.kind in NON_DECAYING or not memory.last_evidence_epoch:
        return base
    age_days = max(0.0, (now.timestamp() - memory.last_evidence_epoch) / 86400)
    boost = boost_now(memory.boost, memory.boost_epoch, now.timestamp())
    return base * 0.5 ** (age_days / (half_life_days * boost))


def half_life_for(memory: MemoryRecord, settings) -> float:
    """The decay half-life of a memory: a preference's own (``flush.preference_half_life_days``) or the rest's."""
    if memory.kind == Kind.PREFERENCE:
        return settings.preference_half_life_days
    return settings.half_life_days


def recency(memory: MemoryRecord, now: datetime) -> float:
    if not memory.last_evidence_epoch:
        return 0.5
    age_days = max(0.0, (now.timestamp() - memory.last_evidence_epoch) / 86400)
    return 1.0 / (1.0 + age_days / 30.0)


def strength(memory: MemoryRecord, now: datetime, half_life_days: float) -> float:
    """What the Layer 1 cap and the prompt budget rank by: decayed confidence × recency."""
    return effective_confidence(memory, now, half_life_days) * recency(memory, now)


def merged_text(proposed: str | None, kept: str, new: str) -> str:
    """A MERGE's wording: the judge's, or the kept text and the new one side by side when it gave none."""
    return proposed or f"{kept} / {new}"


def leaning(item: "ReviewItem") -> Verdict:
    """The verdict approving an unsure judgement applies unless the user picks another: the judge's
    leaning, and SUPERSEDE when the judge gave none it could parse."""
    return Verdict.parse(item.verdict or "") or Verdict.SUPERSEDE
