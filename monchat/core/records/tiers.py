"""Temperature tiers: hot, warm, cold, frozen — the program's decision from age, evidence and access.

A tier is not a state (a memory's state says whether it is kept; its tier says how much of it the
prompt carries). The rule, with the thresholds from ``[tiers]`` in the settings:

- idle days = days since the memory was last *touched*: its newest supporting evidence, or the user's
  last access (approve, edit, pin, restore), whichever is later (its creation when it has neither);
- evidence stretches them: idle ÷ min(1 + ``evidence_stretch`` × (evidence days − 1), ``max_stretch``);
- hot ≤ ``hot_days`` < warm ≤ ``warm_days`` < cold ≤ ``cold_days`` < frozen; a pinned memory is hot.

Hot and warm keep their full text in the prompt (warm after hot when the budget is tight); the cold
memories of one slot are compressed into a digest at the flush (``background/digest.py``); frozen keeps a
one-line headline. A digest is one-way: a covered memory whose tier rises again keeps its digest.
Archive days get a tier by the same rule (their messages' day and the memories citing them).
"""

from __future__ import annotations

from enum import StrEnum

from .memory import MemoryRecord

DAY = 86400.0
HEADLINE_MAX = 60  # characters of a frozen memory's one-line headline
# The user's own actions on a memory that count as access (audit actions, see memory/transitions.py).
ACCESS_ACTIONS = ("approved", "approved as written", "edited", "created by edit", "reworded", "restored",
                  "pinned", "unpinned")


class Tier(StrEnum):
    HOT = "hot"
    WARM = "warm"
    COLD = "cold"
    FROZEN = "frozen"


ORDER = {Tier.HOT: 0, Tier.WARM: 1, Tier.COLD: 2, Tier.FROZEN: 3}


def tier_of(last_touch_epoch: float | None, evidence_days: int, now_epoch: float, settings,
            pinned: bool = False) -> Tier:
    """The tier of something last touched at ``last_touch_epoch`` with ``evidence_days`` days of evidence.

    ``settings``: the ``[tiers]`` section (``TierSettings``).
    """
    if pinned:
        return Tier.HOT
    if last_touch_epoch is None:
        return Tier.HOT  # nothing to age by yet (a memory written between flushes)
    stretch = min(1.0 + settings.evidence_stretch * max(0, evidence_days - 1), settings.max_stretch)
    idle = max(0.0, now_epoch - last_touch_epoch) / DAY / max(stretch, 1.0)
    if idle <= settings.hot_days:
        return Tier.HOT
    if idle <= settings.warm_days:
        return Tier.WARM
    if idle <= settings.cold_days:
        return Tier.COLD
    return Tier.FROZEN


def touched(memory: MemoryRecord, access: dict[str, float]) -> float | None:
    """When a memory was last touched: its newest support or the user's last access (None: neither)."""
    epochs = [e for e in (memory.last_evidence_epoch, access.get(memory.id)) if e]
    if epochs:
        return max(epochs)
    return None


def memory_tier(memory: MemoryRecord, access: dict[str, float], now_epoch: float, settings) -> Tier:
    """The tier of one memory now (``access``: memory id → the user's last access, ``store/tiers.py``)."""
    return tier_of(touched(memory, access), memory.days, now_epoch, settings, bool(memory.pinned))


def headline(text: str) -> str:
    """A frozen memory's one line: its first line, cut at ``HEADLINE_MAX`` characters (never reworded)."""
    first = " ".join((text or "").split("\n", 1)[0].split())
    return first if len(first) <= HEADLINE_MAX else first[:HEADLINE_MAX - 1].rstrip() + "…"
