"""Chat goes first: one line in front of each backend, shared by chat turns and a flush's calls.

A local model answers one call at a time (the embedded model; an Ollama or llama.cpp server with one slot),
so a chat turn asked during a flush used to wait behind every call the flush still had to make. Every call
of a backend now passes ``CallTurns``: at most the backend's ``PARALLEL_CALLS`` at once, a chat turn
waiting takes the next free slot, a flush call that has not started waits until no chat turn does, and a
call already running finishes (a model call is not cut off halfway: its answer would be lost). A call
sent beyond what the model serves at once would only queue at the server, ahead of any chat turn asked
later, so the flush's own bound (``flush.parallel``, ``asking/slots.py``) widens this line only for a
backend that is not local (a cloud serves many calls at once: ``widen``). The flush's calls waiting here start
in the order they arrived (the order ``CallSlots`` gave them their slots, the commit's path first), as they
would have in the server's queue.

``chat_wait`` says how long a chat turn asked now would wait: what the running call has left, from how
long this backend's calls took so far (the user reads it in the reply's bubble).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterator

CHAT, BACKGROUND = 0, 1  # a call's kind: a chat turn goes before any call that can wait
POLL_S = 0.1  # how often a waiting chat turn looks at its stop event
SERVED_KEPT = 256  # the last calls' kinds kept (a backend lives as long as the window)


class CallTurns:
    """At most ``size`` calls at once; a waiting chat turn goes first."""

    def __init__(self, size: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.size = max(1, size)
        self.clock = clock
        self._changed = threading.Condition()
        self._running: dict[int, tuple[int, float]] = {}  # ticket -> (kind, started)
        self._chats_waiting = 0
        self._background_line: deque[int] = deque()  # the waiting calls that can wait, in arrival order
        self._tickets = 0
        self._mine = threading.local()  # calls this thread holds (an adapter calling itself passes through)
        self.call_seconds: float | None = None  # how long a call that can wait took, smoothed
        self.chat_seconds: float | None = None  # how long a chat reply took, smoothed (a first flush's estimate)
        self.served: deque[int] = deque(maxlen=SERVED_KEPT)  # the kinds, in the order their calls started (tests)

    def widen(self, size: int) -> None:
        """Let up to ``size`` calls run at once (a flush's ``flush.parallel`` against a cloud)."""
        with self._changed:
            self.size = max(self.size, size)
            self._changed.notify_all()

    def _may_start(self, kind: int, place: int) -> bool:
        if kind == BACKGROUND and (self._chats_waiting or self._background_line[0] != place):
            return False  # the chat turn takes the next free slot; then the call that waited longest
        return len(self._running) < self.size

    @contextmanager
    def hold(self, kind: int, stop: threading.Event | None = None) -> Iterator[bool]:
        """A turn for one call, held while it runs; yields False when ``stop`` was set while it waited
        (the call is then not made)."""
        if getattr(self._mine, "depth", 0):
            self._mine.depth += 1
            try:
                yield True
            finally:
                self._mine.depth -= 1
            return
        ticket = self._take(kind, stop)
        if ticket is None:
            yield False
            return
        self._mine.depth = 1
        try:
            yield True
        finally:
            self._mine.depth = 0
            self._give(ticket)

    def _take(self, kind: int, stop: threading.Event | None) -> int | None:
        with self._changed:
            self._tickets += 1
            place = self._tickets
            if kind == CHAT:
                self._chats_waiting += 1
            else:
                self._background_line.append(place)
            try:
                while not self._may_start(kind, place):
                    if stop is not None and stop.is_set():
                        return None
                    self._changed.wait(POLL_S if stop is not None else None)
            finally:
                if kind == CHAT:
                    self._chats_waiting -= 1
                else:
                    self._background_line.remove(place)
                self._changed.notify_all()  # the next in line may start (or its place moved up)
            self._running[place] = (kind, self.clock())
            self.served.append(kind)
            return place

    def _give(self, ticket: int) -> None:
        with self._changed:
            kind, started = self._running.pop(ticket)
            took = self.clock() - started
            if kind == BACKGROUND:
                self.call_seconds = took if self.call_seconds is None else 0.5 * self.call_seconds + 0.5 * took
            else:
                self.chat_seconds = took if self.chat_seconds is None else 0.5 * self.chat_seconds + 0.5 * took
            self._changed.notify_all()

    def chat_wait(self) -> float | None:
        """Seconds a chat turn asked now would wait for a slot: None when it would start at once, 0.0 when it
        must wait but nothing tells how long yet (no call of this backend has ended)."""
        with self._changed:
            if len(self._running) < self.size:
                return None
            now = self.clock()
            if self.call_seconds is None:
                return 0.0
            left = [self.call_seconds - (now - started) for _, started in self._running.values()]
            return max(1.0, min(left))


_MADE = threading.Lock()


def call_turns(backend) -> CallTurns:
    """The line in front of ``backend`` (made on first use; one per backend object, sized by its
    ``PARALLEL_CALLS``)."""
    backend = getattr(backend, "inner", backend)  # a flush's answer cache in front: the backend behind it
    turns = backend.__dict__.get("_call_turns")
    if turns is None:
        with _MADE:
            turns = backend.__dict__.setdefault("_call_turns", CallTurns(backend.PARALLEL_CALLS))
    return turns


def chat_pace(backend) -> tuple[float, int] | None:
    """How long this backend's chat replies took (seconds, smoothed over the recent ones) and how many calls it is
    sent at once: what a first flush, with no earlier flush to go by, is estimated from. None when no chat turn
    was answered through it yet (in this process)."""
    turns = call_turns(backend)
    seconds = turns.chat_seconds
    return None if seconds is None else (seconds, turns.size)
