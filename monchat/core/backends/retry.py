"""Retrying a structured (flush) call when the backend's fault is passing.

A busy server (429), an overloaded or restarting one (500, 502, 503, 504), a
timeout or a dropped connection says nothing about the request: the same
request, asked again a little later, usually succeeds. A flush makes many
calls, and losing all of them to one 503 is the worst outcome, so each call is
retried a bounded number of times with exponential backoff plus random jitter
(clients that failed together do not come back together).

What is transient is decided where the fault is understood: each adapter's
error translation sets ``BackendError.transient``. Everything else (a 400, a
missing model, a refused key) fails at once. The policy only counts and waits;
its ``sleep`` is a collaborator, so tests record the waits instead of waiting.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from ..errors import BackendError

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a transient failure is retried.

    Args:
        attempts: tries in all, the first one included (1 = never retry).
        base_delay_s: the wait before the first retry; each later wait doubles it.
        max_delay_s: no single wait is longer than this (jitter included).
        jitter_s: up to this many seconds of random extra on each wait.
        sleep: waits that many seconds (``time.sleep``; tests pass a recorder).
        random: a number in [0, 1) for the jitter.
    """

    attempts: int = 4
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    jitter_s: float = 1.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False, repr=False)
    random: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number ``retry`` (1 for the first)."""
        backoff = self.base_delay_s * (2 ** (retry - 1))
        return min(self.max_delay_s, backoff + self.jitter_s * self.random())

    def run(self, call: Callable[[], T], *, retry_if: Callable[[BackendError], bool],
            what: str = "call") -> T:
        """Return ``call()``, calling again after a wait while it raises a retryable BackendError.

        Args:
            call: the request, made afresh on every attempt.
            retry_if: whether an error may be retried (``BackendError.transient`` at its simplest).
            what: names the call in the log.

        Raises:
            BackendError: the last error, when it is not retryable or the attempts are spent; a
                transient error that used up every attempt says how many there were.
        """
        attempts = max(1, self.attempts)
        for attempt in range(1, attempts + 1):
            try:
                return call()
            except BackendError as exc:
                if not retry_if(exc):
                    raise
                if attempt == attempts:
                    note_attempts(exc, attempts)
                    raise
                wait = self.delay(attempt)
                log.warning("%s failed (%s); retry %s of %s in %.1f s", what, exc.message, attempt,
                            attempts - 1, wait)
                self.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover


def note_attempts(exc: BackendError, attempts: int) -> None:
    """Say in the error's message how often the call was tried, so the user knows it was not one blip."""
    if attempts > 1:
        text = exc.message.rstrip(".")
        end = "." if text != exc.message else ""
        exc.message = f"{text} (tried {attempts} times){end}"
        exc.args = (exc.message,)


NO_RETRY = RetryPolicy(attempts=1)
