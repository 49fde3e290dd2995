"""A scripted backend: a real ``Backend`` subclass that returns what a test queued.

``enqueue()`` adds replies (text for chat, dicts for structured output);
``history`` records every call as (kind, system, turns, schema).
"""

from __future__ import annotations

import json
import threading
import time

from monchat.core.backends.base import Backend, DoctorReport, Check
from monchat.core.errors import BackendError
from monchat.core.types import Usage


class ScriptedBackend(Backend):
    name = "scripted"
    PARALLEL_CALLS = 1  # queued replies are answered in the order the flush asks

    def __init__(self, model: str = "scripted-1", *, delay: float = 0.0, default_reply: str | None = None):
        super().__init__(model)
        self.queue: list = []
        self.history: list[tuple] = []
        self.delay = delay  # seconds per chunk / per structured call (for GUI responsiveness tests)
        self.default_reply = default_reply
        self.warmed: list[str] = []  # the system prompts ``warm`` was given (core/chat/warm.py)
        self.size_label = ""  # the model size it states ("135M", "4.3B"), as a server would; "" states none
        self.size_asks = 0  # how often it was asked (a backend asks once per model)
        self._lock = threading.Lock()

    def enqueue(self, *replies) -> "ScriptedBackend":
        with self._lock:
            self.queue.extend(replies)
        return self

    def _next(self):
        with self._lock:
            if self.queue:
                return self.queue.pop(0)
        if self.default_reply is not None:
            return self.default_reply
        raise AssertionError("ScriptedBackend: no reply queued")

    def _stream(self, system, turns, temperature, reply):
        self.history.append(("chat", system, list(turns), None))
        answer = self._next()
        if isinstance(answer, Exception):
            raise answer
        for piece in answer if isinstance(answer, list) else [answer]:
            if isinstance(piece, Exception):
                raise piece
            if self.delay:
                time.sleep(self.delay)
            yield piece
        reply.usage = Usage(prompt_tokens=10, output_tokens=len(reply.text))

    def _complete_json(self, system, turns, schema, temperature):
        self.history.append(("json", system, list(turns), schema))
        answer = self._next()
        if self.delay:
            time.sleep(self.delay)
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            answer = answer(system, turns, schema)
        return answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)

    def _model_size(self):
        from monchat.core.backends.model_size import ModelSize
        self.size_asks += 1
        return ModelSize.from_label(self.size_label) if self.size_label else None

    def warm(self, system):
        self.warmed.append(system)
        return "scripted: warmed"

    def doctor(self):
        return DoctorReport(self.name, self.model, [Check("scripted", True, "always ready")])

    def probe(self):
        return True


class FailingBackend(ScriptedBackend):
    """Every call raises the given error."""

    def __init__(self, error: BackendError):
        super().__init__()
        self.error = error

    def _stream(self, system, turns, temperature, reply):
        self.history.append(("chat", system, list(turns), None))
        raise self.error
        yield  # pragma: no cover

    def _complete_json(self, system, turns, schema, temperature):
        raise self.error
