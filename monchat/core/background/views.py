"""The views rebuilt at once when the user changes which memories they may show.

A flush rebuilds every view in its transaction (``track.py``). Between flushes the user's own acts change
which memories the views may show (``store/shown.py``): approving a review item, rejecting one, editing,
forgetting, restoring or deleting a memory, a 👎 that sends a memory to review; and knowledge lint sending a
kept memory to review (at a flush after the background's writes, or on demand). A user who approves a
memory expects to find it under Interests, in the graph and among the skills when they look next, and one
who rejects or forgets a memory expects it gone; so after each such change (``MemoryService``) the views
computed from memories are rebuilt at once, in one transaction:

- the interest profile's snapshot of the day (the delta still against the last snapshot before the day);
- the skill levels;
- the graph, and the discoveries it now turns up (``graph.update``).

What a flush found — its insights, gaps and diary pages — stays as written (they are entries in the inbox,
made from shown memories only). Nothing is rebuilt when the set of shown memories did not change (a pin, a
rating that sends nothing to review): the set's fingerprint is kept in the kv state ``SHOWN_KEY``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, tzinfo

from ..settings import Settings
from ..store.background import BackgroundStore
from ..store.db import Store
from ..store.graph import GraphStore
from ..store.shown import ShownStore
from . import graph, profile, skills

SHOWN_KEY = "views.shown"  # a fingerprint of the memories the views were last built from


def fingerprint(store: Store) -> str:
    """A short digest of the ids of the memories the views may show."""
    ids = sorted(ShownStore(store).ids())
    return hashlib.sha256("\x1f".join(ids).encode("utf-8")).hexdigest()[:16]


def built_from(store: Store) -> None:
    """Record that the views were just built from the memories shown now (inside the caller's transaction)."""
    store.set_state(SHOWN_KEY, fingerprint(store))


def profile_rows(background: BackgroundStore, now: datetime, day: str) -> list[profile.TopicRow]:
    """The interest profile as of ``now`` (local ``day``), from the memories the views may show."""
    now_epoch = now.timestamp()
    return profile.compute(background.mentions(now_epoch - profile.WINDOWS[-1] * profile.DAY), now_epoch,
                           background.first_message_epoch(), background.previous_counts(day))


def rebuild(store: Store, settings: Settings, now: datetime, tz: tzinfo | None, run_id: int | None = None) -> bool:
    """Rebuild the views computed from memories if the shown memories changed since they were built.

    Args:
        run_id: the flush whose transaction this is (knowledge lint sent a memory to review after the
            background's writes), None for a change of the user's.

    Returns:
        Whether anything was rebuilt.
    """
    if store.get_state(SHOWN_KEY) == fingerprint(store):
        return False
    background = BackgroundStore(store)
    with store.atomic():
        day = f"{now.astimezone(tz):%Y-%m-%d}"
        background.replace_snapshot(day, [r.row(run_id) for r in profile_rows(background, now, day)])
        at = now.isoformat(timespec="seconds")
        skills.update(background, now.timestamp(), settings.background.skill_half_life_days, run_id, at)
        if settings.graph.enabled:
            graph.update(GraphStore(store), settings.graph, run_id, at)
        built_from(store)
    return True
