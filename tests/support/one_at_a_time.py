"""A one-call-at-a-time stand-in: an ``Oracle`` that, like a local model or a one-slot server, answers one
call at a time, in the order the calls reached it (a server's queue), each taking ``seconds``.

``gate`` (an Event) holds the calls that reach the model while it is clear; ``order`` says which call the
model served, in order ("json" for a flush's call, "chat" for a chat turn).
"""

from __future__ import annotations

import threading
import time

from tests.support.oracle import Oracle


class ServerQueue:
    """A lock handed to its callers in the order they asked (a server's queue, not Python's free-for-all)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._next = 0
        self._serving = 0
        self.waiting = 0

    def __enter__(self) -> None:
        with self._changed:
            ticket, self._next = self._next, self._next + 1
            self.waiting += 1
            while ticket != self._serving:
                self._changed.wait()
            self.waiting -= 1

    def __exit__(self, *_exc) -> None:
        with self._changed:
            self._serving += 1
            self._changed.notify_all()


class OneAtATime(Oracle):
    name = "one-at-a-time"
    PARALLEL_CALLS = 1

    def __init__(self, *args, seconds: float = 0.0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.line = ServerQueue()
        self.hold = threading.Event()  # while set, the call the model serves waits for ``release``
        self.release = threading.Event()
        self.serving = threading.Event()  # a held call is at the model
        self.order: list[str] = []

    def _serve(self, kind: str) -> None:
        self.order.append(kind)
        if self.hold.is_set():
            self.hold.clear()
            self.serving.set()
            self.release.wait(30)
        if self.seconds:
            time.sleep(self.seconds)

    def _complete_json(self, system, turns, schema, temperature):
        with self.line:
            self._serve("json")
            return super()._complete_json(system, turns, schema, temperature)

    def _stream(self, system, turns, temperature, reply):
        with self.line:
            self._serve("chat")
            yield from super()._stream(system, turns, temperature, reply)
