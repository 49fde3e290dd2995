"""The interest profile over 7, 30 and 90 days, from the evidence ledger and the archive.

A **topic** is a slot's first part (``drink/daily`` → ``drink``). A topic's count in a
window is the number of distinct user lines the ledger cites for it in the last N days,
supporting a memory the views may show or an earlier version of one (``store/shown.py``:
a memory waiting for review, rejected, forgotten or taken back does not count). Its weight is its share of all
mentions in that window. The trend compares the last 7 days with the rest of the
90-day window, per day, over the history there is (a week of history has no earlier
part to compare with: every topic is steady):

- rising: at least 2 mentions this week and a daily rate ≥ 1.5 × the earlier one;
- cooling: at least 2 earlier mentions and a daily rate this week ≤ 0.5 × the earlier one;
- steady: anything else.

The delta is a window's count minus the count of the last snapshot before this day.
A flush writes one snapshot a local day (a second flush that day replaces it), and so does a
change of the user's to which memories are shown (``views.py``); reads never recompute.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

DAY = 86400.0
WINDOWS = (7, 30, 90)
RECENT = 7
RISING, STEADY, COOLING = "rising", "steady", "cooling"
RISE_FACTOR, COOL_FACTOR, LEAST = 1.5, 0.5, 2


def topic_of(slot: str) -> str:
    return (slot or "").split("/", 1)[0].strip().casefold() or "other"


@dataclass
class TopicRow:
    topic: str
    window: int
    count: int
    weight: float
    trend: str
    delta: int

    def row(self, run_id: int | None) -> dict:
        return {**asdict(self), "run_id": run_id}


def trend(recent: int, earlier: int, earlier_days: float) -> str:
    if earlier_days < 1:
        return STEADY
    recent_rate, earlier_rate = recent / RECENT, earlier / earlier_days
    if recent >= LEAST and recent_rate >= RISE_FACTOR * earlier_rate:
        return RISING
    if earlier >= LEAST and recent_rate <= COOL_FACTOR * earlier_rate:
        return COOLING
    return STEADY


def compute(mentions: list[tuple[str, str, float]], now_epoch: float, first_epoch: float | None,
            previous: dict[tuple[str, int], int]) -> list[TopicRow]:
    """The rows of one snapshot.

    Args:
        mentions: (slot, message id, epoch) ledger rows; the same message twice for a topic counts once.
        first_epoch: the earliest archived message (how much history there is to compare with).
        previous: (topic, window) → count of the last snapshot before this one.
    """
    seen: dict[str, dict[str, float]] = {}
    for slot, message_id, epoch in mentions:
        if epoch <= now_epoch:
            seen.setdefault(topic_of(slot), {})[message_id] = epoch
    history_days = (now_epoch - first_epoch) / DAY if first_epoch is not None else 0.0
    earlier_days = max(0.0, min(WINDOWS[-1] - RECENT, history_days - RECENT))
    counts = {w: {t: sum(1 for e in ms.values() if e > now_epoch - w * DAY) for t, ms in seen.items()}
              for w in WINDOWS}
    trends = {t: trend(counts[RECENT][t], counts[WINDOWS[-1]][t] - counts[RECENT][t], earlier_days)
              for t in seen}
    rows = []
    for window in WINDOWS:
        total = sum(counts[window].values())
        topics = sorted({t for t, n in counts[window].items() if n} | {t for t, w in previous if w == window})
        for topic in topics:
            count = counts[window].get(topic, 0)
            rows.append(TopicRow(topic, window, count, round(count / total, 4) if total else 0.0,
                                 trends.get(topic, COOLING if previous.get((topic, window)) else STEADY),
                                 count - previous.get((topic, window), 0)))
    return rows


def view(day: str | None, rows: list[dict]) -> dict:
    """What ``monchat profile --json`` answers: the windows' topics by count, and the cooling ones."""
    windows: dict[str, list[dict]] = {str(w): [] for w in WINDOWS}
    for r in rows:
        if r["count"] > 0:
            windows[str(r["window"])].append({"topic": r["topic"], "count": r["count"], "weight": r["weight"],
                                              "trend": r["trend"], "delta": r["delta"]})
    for entries in windows.values():
        entries.sort(key=lambda e: (-e["count"], e["topic"]))
    cooling = [e for e in windows[str(WINDOWS[-1])] if e["trend"] == COOLING]
    return {"day": day, "windows": windows, "cooling": cooling}


def moving(rows: list[TopicRow]) -> dict:
    """Rising and cooling topics, and the week's changes against the previous snapshot (for prompts).

    A cooling topic is still talked about in the widest window (as ``view`` lists it): one with no count left
    there has left the views (its memory was forgotten or waits for review again), it is not cooling."""
    week = [r for r in rows if r.window == RECENT]
    wide = [r for r in rows if r.window == WINDOWS[-1]]
    return {"rising": sorted({r.topic for r in wide if r.trend == RISING}),
            "cooling": sorted({r.topic for r in wide if r.trend == COOLING and r.count > 0}),
            "week": [{"topic": r.topic, "count": r.count, "delta": r.delta} for r in
                     sorted(week, key=lambda r: (-r.count, r.topic)) if r.count or r.delta]}
