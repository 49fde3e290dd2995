"""Pause memory: one switch the user turns (the Memory menu, ``monchat memory pause|resume``).

While memory is paused a flush archives the messages and proposes nothing (``flush/paused.py``): no filter,
judge, reflect, digest, diary or lint call is made, so nothing new is remembered, queued or written about the
user. Chat goes on with the memory already kept; the window's status bar and ``monchat status`` say it is
paused. The switch is the kv state ``memory.paused`` (when it was turned on), so every window and terminal of
one data folder sees the same.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # `monchat`'s parser imports this module; the store is imported when the app is built
    from ..store.db import Store

PAUSED_KEY = "memory.paused"


def paused_since(store: Store) -> str | None:
    """When memory was paused (ISO 8601), or None when it is not."""
    return store.get_state(PAUSED_KEY)


def is_paused(store: Store) -> bool:
    return paused_since(store) is not None


def pause(store: Store, now: datetime) -> str:
    """Pause memory (pausing again keeps the first time); returns since when."""
    since = paused_since(store)
    if since is None:
        since = now.isoformat(timespec="seconds")
        store.set_state(PAUSED_KEY, since)
    return since


def resume(store: Store) -> bool:
    """Resume memory; returns whether it was paused."""
    was = is_paused(store)
    store.set_state(PAUSED_KEY, None)
    return was


class MemoryPause:
    """The switch as a service (``app.pause``): the window's Memory menu and ``monchat memory pause|resume``."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock

    def is_on(self) -> bool:
        """Whether memory is paused."""
        return is_paused(self._store)

    def pause(self) -> str:
        return pause(self._store, self._clock())

    def resume(self) -> bool:
        return resume(self._store)
