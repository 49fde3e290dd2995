"""Review learning: the user's approve/reject decisions move the auto-approve threshold for similar cases.

Similar cases are the same topic (a slot's first part: ``drink`` of ``drink/daily``) and the same review
action. With ``a`` approvals and ``r`` rejections since the last reset, the threshold for that topic and
action is ``flush.auto_approve_confidence − LEARN_BOUND × (a − r) / (a + r + 2)``, kept within 0–1: approvals
lower it (more is approved without asking), rejections raise it, never by ``LEARN_BOUND`` (0.15) or more.
A reset (Settings → Reset what reviews taught, ``monchat settings reset-learning``) forgets the decisions
made until then. The Layer 1 auto-approval (``Transitions.promote``) is where the threshold is used, so only
the decisions on Layer 1 promotions (action ``layer1``) are learned from: the other review actions (a
replacement of a lasting memory, an unsure judgement, a 👎) are never approved by themselves. Nor do items
from outside teach it (an import, another app's proposal: ``FROM_OUTSIDE``): approving 25 imported memories says
nothing about what the flush should approve alone. A decision counts while it stands: an undone one
(``undo.py``: its item waits again) does not, and an item decided again counts once, as last decided.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from ..store.db import Store
from ..store.feedback import LEARNING_SINCE_KEY, FeedbackStore
from ..types import parse_ts
from ..vocabulary.states import FROM_OUTSIDE, Action

LEARN_BOUND = 0.15
LEARNED_ACTIONS = (Action.LAYER1,)  # the review actions that have an auto-approval to move


def topic_of(slot: str) -> str:
    return (slot or "").split("/")[0]


def learned(store: Store) -> dict[tuple[str, str], dict]:
    """(topic, action) → ``{"approved", "rejected", "offset"}`` from the decisions since the last reset."""
    since = float(store.get_state(LEARNING_SINCE_KEY) or 0)
    counts: dict[tuple[str, str], list[int]] = {}
    decisions = FeedbackStore(store).review_decisions()
    last = {d["queue"]: n for n, d in enumerate(decisions) if d["queue"] is not None}
    for n, d in enumerate(decisions):
        if d["action"] not in LEARNED_ACTIONS or parse_ts(d["at"]).timestamp() <= since:
            continue
        if d["held"] in FROM_OUTSIDE:  # an import or another app's proposal teaches nothing about the flush's
            continue
        if d["queue"] is not None and (last[d["queue"]] != n or d["status"] != d["decision"]):
            continue  # undone (the item waits again), or decided again later: only the standing decision counts
        pair = counts.setdefault((topic_of(d["slot"]), d["action"]), [0, 0])
        pair[0 if d["decision"] == "approved" else 1] += 1
    return {key: {"approved": a, "rejected": r, "offset": offset(a, r)} for key, (a, r) in counts.items()}


def offset(approved: int, rejected: int) -> float:
    """How far the decisions move the threshold: below 0 lowers it; always strictly within ±LEARN_BOUND."""
    return -LEARN_BOUND * (approved - rejected) / (approved + rejected + 2)


def threshold(base: float, offsets: dict, slot: str, action: str) -> float:
    offset = offsets.get((topic_of(slot), str(action)), {}).get("offset", 0.0)
    return min(1.0, max(0.0, base + offset))


def summary(store: Store, base: float) -> list[dict]:
    """What ``monchat status``/``settings`` and the settings dialog show: one entry per topic and action."""
    return [{"topic": t, "action": a, "approved": v["approved"], "rejected": v["rejected"],
             "offset": round(v["offset"], 4), "threshold": round(min(1.0, max(0.0, base + v["offset"])), 4)}
            for (t, a), v in sorted(learned(store).items())]


def reset(store: Store, now: datetime) -> None:
    """Forget what the decisions made until now taught; the setting alone decides again."""
    store.set_state(LEARNING_SINCE_KEY, repr(now.timestamp()))


class ReviewLearning:
    """The service over review learning: what Settings → Memory, ``monchat status`` and ``settings`` show,
    and forgetting it (``App.learning``)."""

    def __init__(self, store: Store, settings, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock

    @property
    def base(self) -> float:
        """The setting the decisions move: ``flush.auto_approve_confidence``."""
        return self.settings.flush.auto_approve_confidence

    def summary(self) -> list[dict]:
        return summary(self.store, self.base)

    def reset(self) -> None:
        reset(self.store, self.clock())
