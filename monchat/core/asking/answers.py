"""Answers already paid for: a flush rerun does not ask the backend again.

A flush's filter and judge calls are pure requests: the same backend and model,
system text, turns, schema and temperature. ``AnswerCache.wrap`` puts a
``CachedBackend`` in front of a backend; its ``complete_json`` looks the request's
hash up in ``flush_answers`` and asks the backend only when the request was never
answered, keeping the answer at once (it is committed on its own, outside the
flush's transaction, which only changes memory). So a flush that failed on its
tenth call, was cancelled or was killed, run again over the same logs, pays only
for the calls it had not made. Everything else (sizing, chat, doctor) goes
straight to the wrapped backend.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
from typing import Callable, Iterator, overload

from ..clock import system_epoch
from ..backends.base import Backend, DoctorReport, Reply, TokenListener
from ..store.answers import AnswerStore, StoredAnswer
from ..types import Turn, Usage
from .slots import CallSlots

log = logging.getLogger(__name__)

KEEP_DAYS = 3.0  # answers older than this are removed when a flush starts


def request_key(backend: Backend, system: str, turns: list[Turn], schema: dict, temperature: float,
                role: str = "") -> str:
    """The hash that names one structured request to one model in one role."""
    text = json.dumps({"backend": backend.name, "model": backend.model, "role": role, "system": system,
                       "turns": [[t.role, t.content] for t in turns], "schema": schema,
                       "temperature": temperature}, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class AnswerCache:
    """Serves structured calls from answers kept in the store.

    Args:
        answers: the ``flush_answers`` table.
        clock: epoch seconds now (the flush's clock, so tests control ages).
        keep_days: answers older than this are pruned by ``prune()``.
        write: False for a dry run, which promises to write nothing: kept answers still
            serve it, new ones are not kept and nothing is pruned.
    """

    def __init__(self, answers: AnswerStore, *, clock: Callable[[], float] = system_epoch,
                 keep_days: float = KEEP_DAYS, write: bool = True) -> None:
        self.answers = answers
        self.clock = clock
        self.keep_days = keep_days
        self.write = write

    @overload
    def wrap(self, backend: Backend, role: str = "", slots: CallSlots | None = None,
             urgency: int = 0) -> Backend: ...

    @overload
    def wrap(self, backend: None, role: str = "", slots: CallSlots | None = None, urgency: int = 0) -> None: ...

    def wrap(self, backend: Backend | None, role: str = "", slots: CallSlots | None = None,
             urgency: int = 0) -> Backend | None:
        """``backend`` with its structured answers kept and reused (None stays None).

        ``role`` keeps apart answers that must not stand in for each other: an
        escalation is a second opinion, so even from the same model it is asked,
        never served the first opinion. ``slots`` (``slots.CallSlots``): a call the
        backend is asked holds one while it runs (``urgency``: its stage's place in line);
        an answer kept from an earlier run needs none.
        """
        if backend is None or isinstance(backend, CachedBackend):
            return backend
        return CachedBackend(backend, self, role, slots, urgency)

    def prune(self) -> int:
        """Remove answers older than ``keep_days``; return how many (none for a dry run)."""
        if not self.write:
            return 0
        removed = self.answers.prune(self.clock() - self.keep_days * 86400)
        if removed:
            log.info("removed %s kept flush answer(s) older than %s days", removed, self.keep_days)
        return removed


class CachedBackend(Backend):
    """A backend whose ``complete_json`` answers a request it has seen from the store.

    It delegates everything else to ``inner``; it is not built with ``Backend.__init__``
    because its model, call count and retry policy are the inner backend's.
    """

    def __init__(self, inner: Backend, cache: AnswerCache, role: str = "", slots: CallSlots | None = None,
                 urgency: int = 0) -> None:
        self.inner = inner
        self.cache = cache
        self.role = role
        self.slots = slots  # shared by a flush's stages, or None: no bound here
        self.urgency = urgency
        self.hits = 0  # structured calls answered from the store
        self._hit_here = threading.local()  # whether this thread's last call was a hit (calls run in parallel)
        self._lock = threading.Lock()

    # ---- the inner backend's identity and counters -------------------------
    # Read-only properties over what Backend holds as attributes: each `type: ignore[override]` below is that.
    @property
    def name(self) -> str:  # type: ignore[override]
        return self.inner.name

    @property
    def model(self) -> str:  # type: ignore[override]
        return self.inner.model

    @property
    def calls(self) -> int:  # type: ignore[override]
        return self.inner.calls

    @property
    def supports_schema(self) -> bool:  # type: ignore[override]
        return self.inner.supports_schema

    @property
    def retry(self):  # type: ignore[override]
        return self.inner.retry

    @property
    def PARALLEL_CALLS(self) -> int:  # type: ignore[override]  # noqa: N802 (the backend's class constant, read through)
        return self.inner.PARALLEL_CALLS

    def model_size(self):
        return self.inner.model_size()

    @property
    def CONTEXT_SETTING(self) -> str:  # type: ignore[override]  # noqa: N802 (the backend's class constant, read through)
        return self.inner.CONTEXT_SETTING

    @property  # type: ignore[misc]  # read through to the inner backend; never set here
    def last_usage(self) -> Usage:
        """This thread's last call: a hit cost nothing (empty usage), else what the inner backend reported."""
        return Usage(kept_answer=True) if getattr(self._hit_here, "hit", False) else self.inner.last_usage

    # ---- structured calls, from the store when answered before -------------
    def complete_json(self, system: str, turns: list[Turn], schema: dict, *,
                      temperature: float = 0.0, on_tokens: TokenListener | None = None) -> dict:
        """The kept answer to this exact request, else the inner backend's (then kept)."""
        key = request_key(self.inner, system, turns, schema, temperature, self.role)
        kept = self.cache.answers.get(key)
        if kept is not None:
            try:
                answer = json.loads(kept.answer)
            except json.JSONDecodeError:
                log.warning("kept flush answer %s is unreadable; asking again", key[:12])
            else:
                with self._lock:
                    self.hits += 1
                self._hit_here.hit = True
                return answer
        self._hit_here.hit = False
        with self.slots.hold(self.urgency) if self.slots is not None else contextlib.nullcontext():
            answer = self.inner.complete_json(system, turns, schema, temperature=temperature, on_tokens=on_tokens)
        if self.cache.write:
            self.cache.answers.put(StoredAnswer(key=key, backend=self.inner.name, model=self.inner.model,
                                                answer=json.dumps(answer, ensure_ascii=False),
                                                created_epoch=self.cache.clock()))
        return answer

    # ---- everything else goes to the inner backend --------------------------
    def stream(self, system: str, turns: list[Turn], *, temperature: float | None = None,
               stop: threading.Event | None = None) -> Reply:
        return self.inner.stream(system, turns, temperature=temperature, stop=stop)

    def _stream(self, system, turns, temperature, reply) -> Iterator[str]:  # pragma: no cover - stream() delegates
        raise AssertionError("CachedBackend.stream delegates to the inner backend")

    def _complete_json(self, system, turns, schema, temperature) -> str:  # pragma: no cover - delegated
        raise AssertionError("CachedBackend.complete_json delegates to the inner backend")

    def doctor(self) -> DoctorReport:
        return self.inner.doctor()

    def probe(self) -> bool:
        return self.inner.probe()

    def context_length(self) -> int:
        return self.inner.context_length()

    def count_text(self, text: str) -> int:
        return self.inner.count_text(text)

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        return self.inner.count_json_request(system, turns, schema)

    def json_answer_reserve(self) -> int:
        return self.inner.json_answer_reserve()

    def json_prompt_limit(self) -> int:
        return self.inner.json_prompt_limit()

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        """Nothing to release: the registry owns the inner backend, and chat keeps using it."""
