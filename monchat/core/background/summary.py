"""What each layer of the background track changed in one flush: the report's per-layer summary.

``report.background["layers"]``, the same in ``monchat flush`` (text and ``--json``), in the finished
flush dialog and in the run's record; a dry run computes it inside the transaction it rolls back, so it
shows what a flush would change without writing it.

    {"reflect": None | {"insights": n, "gaps": n, "dropped": n},
     "profile": {"changed": [{"topic", "count", "delta"}], "rising": [...], "cooling": [...]},
     "diary": {"days": ["YYYY-MM-DD", ...]},
     "gaps": {"new": [{"kind", "slot", "source", "failures"}], "raised": [...]},
     "skills": {"changes": [{"name", "slot", "from", "to"}]},
     "preferences": {"changes": [{"change", "memory_id", "text", "old_text"}]},
     "tiers": None | {"counts": {tier: n}, "digests": [{"id", "slot", "covers"}]},
     "graph": None | {"nodes": n, "drawn": n, "discoveries": {kind: n}},
     "lint": None | {"marked": n, "confirmed": n, "applied": n, "resolved": n}}

``preferences`` and ``lint`` are added after the background's writes (``after_commit``): a preference's new
version, its approval or its decay is a change of consolidation or prune, and lint runs last.

``profile.changed`` is the 7-day window's topics whose count moved against the previous snapshot.
"""

from __future__ import annotations

from typing import Callable

from ..vocabulary.states import BackgroundLayer, Kind
from .gaps import NEW, RAISED

LAYERS = tuple(BackgroundLayer)
LINT_COUNTS = ("marked", "confirmed", "applied", "resolved")


def layers(summary: dict) -> dict:
    reflect = summary.get("reflect")
    moving = summary.get("profile") or {}
    marks = summary.get("gaps") or []

    def gaps_of(change: str) -> list[dict]:
        return [{"kind": g["kind"], "slot": g["slot"], "source": g.get("source"), "failures": g["failures"]}
                for g in marks if g.get("change") == change]

    return {
        "reflect": None if reflect is None else {"insights": len(reflect["insights"]), "gaps": len(reflect["gaps"]),
                                                 "dropped": reflect["dropped"]},
        "profile": {"changed": [w for w in moving.get("week", []) if w["delta"]],
                    "rising": list(moving.get("rising", [])), "cooling": list(moving.get("cooling", []))},
        "diary": {"days": list(summary.get("diary") or [])},
        "gaps": {"new": gaps_of(NEW), "raised": gaps_of(RAISED)},
        "skills": {"changes": [dict(s) for s in summary.get("skills") or []]},
        "tiers": None if not summary.get("tiers") else {"counts": dict(summary["tiers"].get("counts") or {}),
                                                         "digests": list(summary["tiers"].get("digests") or [])},
        "graph": None if not summary.get("graph") else {
            "nodes": summary["graph"]["nodes"], "drawn": summary["graph"]["drawn"],
            "discoveries": dict(summary["graph"].get("discoveries") or {})},
    }


def after_commit(changes: list, kind_of: Callable[[str], str | None], lint: dict | None) -> dict:
    """The layers known only once the flush's changes are all made: preferences (``kind_of``: a memory
    id → its kind) and knowledge lint (its summary, or None when it did not run)."""
    preference = [{"change": str(c.kind), "memory_id": c.memory_id, "text": c.text, "old_text": c.old_text}
                  for c in changes if kind_of(c.memory_id) == Kind.PREFERENCE]
    return {"preferences": {"changes": preference},
            "lint": None if lint is None else {key: lint.get(key, 0) for key in LINT_COUNTS}}
