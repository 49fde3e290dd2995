"""What each layer of the background track changed in one flush: the report's per-layer summary.

``report.background["layers"]``, the same in ``monchat flush`` (text and ``--json``), in the finished
flush dialog and in the run's record; a dry run computes it inside the transaction it rolls back, so it
shows what a flush would change without writing it.

    {"reflect": None | {"insights": n, "gaps": n, "dropped": n},
     "profile": {"changed": [{"topic", "count", "delta"}], "rising": [...], "cooling": [...]},
     "diary": {"days": ["YYYY-MM-DD", ...]},
     "gaps": {"new": [{"kind", "slot", "source", "failures"}], "raised": [...]},
     "skills": {"changes": [{"name", "slot", "from", "to"}]}}

``profile.changed`` is the 7-day window's topics whose count moved against the previous snapshot.
"""

from __future__ import annotations

from .gaps import NEW, RAISED

LAYERS = ("reflect", "profile", "diary", "gaps", "skills")


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
    }
