"""The one clock: the only module of monchat that reads the wall clock as "now".

Everything that decides memory by the time — the flush, Layer 3's window, Layer 2's day, decay, tiers, the diary's
day, off-the-record expiry — is given a ``Clock`` (``build_app(clock=…)``), whose default is ``system_now``. So a
test, a benchmark or ``monchat eval`` (each session flushed at its own time, questions asked at ``--now``) sets the
time for every one of them at once. ``tests/test_one_clock.py`` fails on a read of the wall clock anywhere else.

Durations (``time.monotonic``, ``time.perf_counter``) are not "now" and may be read anywhere.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone, tzinfo
from typing import Callable

Clock = Callable[[], datetime]


def system_now() -> datetime:
    """The current time, aware, in the system's time zone (the default ``Clock``)."""
    return datetime.now().astimezone()


def system_epoch() -> float:
    """Seconds since the epoch now (an id's time order, a cloud cache's age: never a memory's time)."""
    return time.time()


def system_zone() -> tzinfo | None:
    """The system's time zone now (a time an export wrote without a zone is read in it)."""
    return datetime.now().astimezone().tzinfo


class SetClock:
    """A clock that says what it was last set to (``monchat eval``: each session's time, then ``--now``)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def set(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def utc_stamp() -> str:
    """Now in UTC as ``2026-12-04T19:00:00Z`` (when a file was verified or a speed measured)."""
    return f"{datetime.now(timezone.utc):%Y-%m-%dT%H:%M:%SZ}"
