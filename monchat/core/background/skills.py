"""Skills as their own layer: a level the program assigns from evidenced uses, with a half-life.

A filter persona may propose a skill use (an item of kind ``skill``: the user did the thing, shown
by the user lines it cites); judge and consolidation keep it as a memory like any other. Here the
program counts its uses — distinct local days of supporting evidence — and gives each use one
experience point that halves every ``background.skill_half_life_days``:

    xp = Σ over days of use  0.5 ^ (days since that use / half-life)

L1 exposure (any use), L2 competent (xp ≥ 3), L3 generative (xp ≥ 8). Without practice the points
fade and the level goes down (never below L1: the use happened). Levels are recomputed at each flush
for every skill memory the views may show (``store/shown.py``: not while it waits for review, is set aside
as contradicted, or is history)
and shown in the prompt compactly ("Rust async: L2").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


DAY = 86400.0
THRESHOLDS = ((3, 8.0), (2, 3.0))  # (level, xp needed), highest first; L1 otherwise


@dataclass
class SkillLevel:
    memory_id: str
    slot: str
    name: str
    level: int
    xp: float
    uses: int
    last_use_epoch: float | None


def experience(use_epochs: list[float], now_epoch: float, half_life_days: float) -> float:
    return sum(0.5 ** (max(0.0, now_epoch - e) / DAY / half_life_days) for e in use_epochs)


def level_for(xp: float) -> int:
    return next((level for level, needed in THRESHOLDS if xp >= needed), 1)


def levels(skills: list[dict], now_epoch: float, half_life_days: float) -> list[SkillLevel]:
    """``skills``: ``{"memory_id", "slot", "name", "uses": [epoch of the last evidence of each day]}``."""
    out = []
    for s in skills:
        xp = experience(s["uses"], now_epoch, half_life_days)
        out.append(SkillLevel(s["memory_id"], s["slot"], s["name"], level_for(xp), round(xp, 4), len(s["uses"]),
                              max(s["uses"], default=None)))
    return out


def update(store, now_epoch: float, half_life_days: float, run_id: int | None, at: str) -> list[dict]:
    """Recompute and store every levelled skill's level (inside the flush's transaction); return the changes."""
    before = {r["memory_id"]: r["level"] for r in store.skill_levels()}
    computed = levels(store.skill_uses(), now_epoch, half_life_days)
    store.replace_skill_levels([{**asdict(s), "run_id": run_id, "updated_at": at} for s in computed])
    return [{"name": s.name, "slot": s.slot, "from": before.get(s.memory_id), "to": s.level}
            for s in computed if before.get(s.memory_id) != s.level]

