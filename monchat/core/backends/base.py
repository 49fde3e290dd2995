"""The backend contract.

A backend does three things: stream a chat reply, produce structured output
(a JSON object matching a schema) and report usage. Adapters only build the
request, translate the SDK's chunks and map its errors to ``KnownError``s.
Collaborators (host, key, state store) come in through the constructor.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Generator, Iterator

from ..errors import BackendError, KnownError, MalformedReply
from ..tokens import count_tokens, count_turns
from ..types import Turn, Usage
from .checks import Check
from .model_size import ModelSize, size_from_name
from .retry import NO_RETRY, RetryPolicy
from .turns import BACKGROUND, CHAT, call_turns

log = logging.getLogger(__name__)

TokenListener = Callable[[int], None]  # told a structured answer's tokens so far


@dataclass
class DoctorReport:
    backend: str
    model: str
    checks: list[Check] = field(default_factory=list)
    context_length: int | None = None

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


class Reply:
    """A streamed reply: iterate for text pieces; ``usage`` is set once it ends.

    ``stop`` (a threading.Event) is checked between chunks; a stopped reply
    ends quietly with ``stopped = True``.
    """

    def __init__(self, produce: Callable[["Reply"], Generator[str, None, None]], stop: threading.Event | None = None):
        self._produce = produce
        self.stop = stop or threading.Event()
        self.usage = Usage()
        self.text = ""
        self.stopped = False

    def __iter__(self) -> Iterator[str]:
        producer = self._produce(self)
        try:
            for piece in producer:
                if self.stop.is_set():
                    self.stopped = True
                    return
                if not piece:
                    continue
                self.text += piece
                yield piece
                if self.stop.is_set():
                    self.stopped = True
                    return
            if self.stop.is_set():  # the producer ended at the stop (a stream closed before its first token)
                self.stopped = True
        finally:
            producer.close()  # closes the SDK's stream (and its HTTP connection) when stopped early


class Backend(ABC):
    """Abstract LLM backend."""

    name: ClassVar[str] = ""
    supports_schema: ClassVar[bool] = True
    # Where the model's own tokenizer is not at hand, counts are cl100k estimates; this margin
    # keeps an estimated request inside the context when the model's tokenizer counts more.
    ESTIMATE_MARGIN: ClassVar[float] = 1.15
    JSON_ANSWER_RESERVE: ClassVar[int] = 1024  # tokens kept free for a structured answer
    # Calls this backend is sent at once: what it answers at once (a server queues the rest, ahead of any chat
    # turn asked later); an in-process model runs one call at a time. ``CallTurns`` holds the rest in our line.
    PARALLEL_CALLS: ClassVar[int] = 4
    # A flush's calls ready at once (its stages side by side) where more than PARALLEL_CALLS: they wait in our
    # line (CallTurns), where a chat turn goes first, and the server is never idle between two calls. 0: as many
    # as PARALLEL_CALLS (an in-process model, whose calls are kept in the order asked).
    FLUSH_LINE: ClassVar[int] = 0
    CONTEXT_SETTING: ClassVar[str] = ""  # the setting that gives requests more room, named in errors' hints

    def __init__(self, model: str, *, retry: RetryPolicy | None = None) -> None:
        self.model = model
        self.calls = 0  # LLM calls made through this object (chat and structured)
        self.retry = retry or NO_RETRY  # for structured calls; the registry passes the settings' policy
        self._usage_here = threading.local()  # last_usage, per thread: a flush runs calls in parallel

    @property
    def last_usage(self) -> Usage:
        """What the last structured call made on this thread reported (a flush sums these)."""
        return getattr(self._usage_here, "usage", None) or Usage()

    @last_usage.setter
    def last_usage(self, usage: Usage) -> None:
        self._usage_here.usage = usage

    def stream(self, system: str, turns: list[Turn], *, temperature: float | None = None,
               stop: threading.Event | None = None) -> Reply:
        """Start one chat call. The call happens when the reply is iterated, ahead of any waiting flush call
        (``turns.py``); stopped while it waits, it ends with nothing asked."""
        def produce(reply: Reply) -> Generator[str, None, None]:
            with call_turns(self).hold(CHAT, reply.stop) as started:
                if not started:
                    return
                self.calls += 1
                yield from self._stream(system, turns, temperature, reply)
        return Reply(produce, stop)

    def complete_json(self, system: str, turns: list[Turn], schema: dict, *,
                      temperature: float = 0.0, on_tokens: TokenListener | None = None) -> dict:
        """One structured-output call: a JSON object shaped by ``schema``.

        Transient failures (``BackendError.transient``) are asked again under
        ``self.retry``, unless the client library already retried them.
        ``last_usage`` holds what the backend reported for the answer.
        ``on_tokens(n)`` is told the answer's tokens so far as they arrive (an
        adapter that streams calls ``_tokens_arrived``; one that does not tells
        the total once, at the end); a retry starts again from 0.

        Raises:
            MalformedReply: the model's answer is not a JSON object.
            BackendError: the call failed (after its retries, when transient).
        """
        def attempt() -> dict:
            self.calls += 1
            self.last_usage = Usage()
            here = self._usage_here
            here.listener, here.tokens = on_tokens, 0
            try:
                with call_turns(self).hold(BACKGROUND):  # a waiting chat turn goes first (``turns.py``)
                    raw = self._complete_json(system, turns, schema, temperature)
            finally:
                here.listener = None
            if on_tokens is not None and here.tokens == 0 and self.last_usage.output_tokens:
                on_tokens(self.last_usage.output_tokens)  # not streamed: the whole answer at once
            return parse_json_object(raw)

        return self.retry.run(attempt, retry_if=self._retry_here, what=f"{self.describe()} structured call")

    def _tokens_arrived(self, count: int = 1) -> None:
        """Adapters streaming a structured answer call this as its tokens arrive (on the call's thread)."""
        here = self._usage_here
        here.tokens = getattr(here, "tokens", 0) + count
        listener = getattr(here, "listener", None)
        if listener is not None:
            listener(here.tokens)

    def _retry_here(self, exc: BackendError) -> bool:
        """Whether ``complete_json`` retries this error; adapters whose client retried it say no."""
        return exc.transient

    @abstractmethod
    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        """Yield text pieces; set ``reply.usage`` at the end."""

    @abstractmethod
    def _complete_json(self, system: str, turns: list[Turn], schema: dict,
                       temperature: float) -> str:
        """Return the raw text of a schema-constrained answer; set ``self.last_usage``.

        Map the client's errors to ``BackendError``s, with ``transient=True`` for those worth
        asking again (429, 500/502/503/504, timeouts, dropped connections).
        """

    @abstractmethod
    def doctor(self) -> DoctorReport:
        """Check reachability, model presence, context length and credentials."""

    def context_length(self) -> int:
        """The context the backend is asked to use, in tokens."""
        return 8192

    def context_source(self) -> str:
        """Where ``context_length`` comes from, in words ("" when there is nothing to say): status shows it."""
        return ""

    # ---- sizing requests -------------------------------------------------
    # A flush request must fit the context as sent, or a server cuts its start silently.
    # Adapters that add text to a request (a schema line, a chat template) or know the
    # model's tokenizer override these, so what is counted is what is sent.
    def count_text(self, text: str) -> int:
        """Tokens of ``text`` as the model sees them (an estimate with a margin by default)."""
        return math.ceil(count_tokens(text) * self.ESTIMATE_MARGIN)

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """Tokens of the prompt that ``complete_json`` would send for these arguments."""
        return math.ceil(count_turns(system, turns) * self.ESTIMATE_MARGIN)

    def json_answer_reserve(self) -> int:
        """Tokens the context keeps free for a structured answer."""
        return min(self.JSON_ANSWER_RESERVE, self.context_length() // 2)

    def json_prompt_limit(self) -> int:
        """The most prompt tokens a structured request may have, its answer's room kept free."""
        return self.context_length() - self.json_answer_reserve()

    def model_size(self) -> ModelSize | None:
        """The model's parameter count when the backend can tell, else None (unknown is not small).

        Asked once per model and remembered (a chat turn never pays for it); a failed ask is not
        remembered, so the next one tries again. Never raises a ``KnownError``: it is logged.
        """
        sizes = self.__dict__.setdefault("_model_sizes", {})
        if self.model not in sizes:
            try:
                sizes[self.model] = self._model_size() or size_from_name(self.model)
            except KnownError as exc:
                log.info("%s could not say its model's size: %s", self.describe(), exc.message)
                return size_from_name(self.model)  # "SmolLM2-135M" is small even while its server is down
        return sizes[self.model]

    def _model_size(self) -> ModelSize | None:
        """Ask the server or the model file how many parameters the model has (adapters that can)."""
        return None

    def warm(self, system: str) -> str:
        """Prepare for the next chat turn with this system prompt (after a flush saved a new one), so
        the turn does not pay for it; returns what was done, "" when there is nothing to warm (an
        OpenAI-compatible server: its prompt cache, where it has one, fills on the first turn).

        Raises what a chat call raises; the caller (``core/chat/warm.py``) logs it.
        """
        return ""

    def not_running(self) -> KnownError | None:
        """Why this backend's server does not answer now (not started, wrong address), with the remedy; None when
        it answers or there is no server to ask (the embedded model, a cloud checked at its first call)."""
        return None

    def probe(self) -> bool:
        """Cheap check that this backend can be used now (for automatic choice)."""
        return self.doctor().ok

    def describe(self) -> str:
        return f"{self.name}:{self.model}"

    def where(self) -> str:
        """The address requests go to, for the user to read (``status``, ``doctor``, the cloud question)."""
        return "this computer"

    def is_local(self) -> bool:
        """Whether what this backend is sent stays on this computer or the local network."""
        return True

    def close(self) -> None:  # noqa: B027 (a no-op by default; a backend holding something overrides it)
        """Release connections or a loaded model; the object stays usable."""


def parse_json_object(raw: str) -> dict:
    """Parse a model's JSON answer, tolerating code fences. Raises MalformedReply."""
    text = (raw or "").strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("{"):] if "{" in text else text
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise MalformedReply("The model's answer was not JSON.",
                             "Try again; a larger model follows the format more reliably.")
    try:
        # strict=False: a raw newline or tab inside a string (small models write them) is read as itself
        value = json.loads(text[start:end + 1], strict=False)
    except json.JSONDecodeError as exc:
        raise MalformedReply(f"The model's answer was not valid JSON ({exc.msg}).",
                             "Try again; a larger model follows the format more reliably.") from exc
    if not isinstance(value, dict):
        raise MalformedReply("The model's answer was JSON but not an object.", "Try again.")
    return value


def chat_messages(system: str, turns: list[Turn]) -> list[dict]:
    """The system text (when there is one) and the turns, as the chat APIs take them (Ollama, OpenAI, llama.cpp)."""
    head = [{"role": "system", "content": system}] if system else []
    return head + [{"role": t.role, "content": t.content} for t in turns]


def key_source_of(api_key: Callable[[], str | None], describe: str) -> str:
    """Where a key comes from ("OPENAI_API_KEY", "keyring"), asked of the object whose bound method ``api_key``
    is (``SecretStore``) by its method ``describe``; "" when nothing can say."""
    source = getattr(getattr(api_key, "__self__", None), describe, None)
    try:
        return source() if callable(source) else ""
    except Exception:  # noqa: BLE001 (only a description; the key itself was found)
        return ""
