"""Ollama through the official ``ollama`` client.

Design notes:

- Every chat call sends ``options.num_ctx`` and ``keep_alive``: Ollama's own
  default context is small (2k–4k) and ``/api/chat`` silently drops the oldest
  messages that do not fit. No flag tells the client, so we compare the
  reported ``prompt_eval_count`` with our own tiktoken estimate and add a
  warning to ``Usage.warnings`` when the two disagree in the way a cut would.
- The client raises different things for the same fault (a refused connection
  is a builtin ``ConnectionError`` without streaming but a raw
  ``httpx.ConnectError`` with it; a missing model is a ``ResponseError`` with
  status 404; an error line mid-stream has status -1). ``_translate`` maps all
  of them to ``KnownError`` subclasses with a hint.
- A stopped stream closes the client's generator, which closes the HTTP
  response, so Ollama stops generating.
- ``doctor()`` (``ollama_doctor.py``) and ``probe()`` use short timeouts of their own and never raise
  for an unreachable server.
- Structured (flush) calls send ``think: false``: a thinking model (qwen3,
  deepseek-r1) otherwise spends minutes reasoning silently before the JSON, or
  writes ``<think>`` text into it; the server turns thinking on by itself when
  ``think`` is absent. ``false`` is safe for models that cannot think: the server
  rejects only ``true`` for them (ollama/ollama server/routes.go, ChatHandler).
  Chat leaves ``think`` unset (the model's default).
- Transient faults (429, 500/502/503/504, timeouts, a dropped connection) are
  marked ``transient``, so ``complete_json`` asks again under its retry policy;
  a refused connection (no server) and a missing model are not.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from typing import Callable, Iterator

import httpx
import ollama

from ..errors import BackendError, BackendUnreachable, KnownError, MalformedReply, ModelNotFound, RateLimited
from ..privacy.cloud import is_local_url
from ..tokens import count_turns
from ..types import Turn, Usage
from .addresses import DEFAULT_HOST, DEFAULT_PORT, normalise_host, ollama_host  # noqa: F401 (re-exported)
from .base import Backend, DoctorReport, Reply, chat_messages
from .model_size import ModelSize
from .ollama_info import CLIENT_ERRORS, keep_alive_value, model_size_of
from .retry import RetryPolicy

log = logging.getLogger(__name__)

# Statuses that say "busy or restarting, ask again later" rather than "this request is wrong".
TRANSIENT_STATUSES = {429, 500, 502, 503, 504}

class OllamaBackend(Backend):
    """Chat and structured output through a local (or remote) Ollama server."""

    name = "ollama"
    CONTEXT_SETTING = "ollama.num_ctx"
    TRUNCATION_RATIO = 0.8  # reported tokens below this share of our estimate look cut
    TRUNCATION_MIN_ESTIMATE = 64  # tiny prompts: tokenizer differences dominate
    FULL_CONTEXT_MARGIN = 32  # this close to num_ctx counts as full
    PROBE_TIMEOUT_S = 1.5
    FLUSH_LINE = 4  # a flush's calls ready at once; the server is sent PARALLEL_CALLS of them (base.py)
    DOCTOR_TIMEOUT_S = 5.0

    def __init__(self, model: str, *, host: str = "", num_ctx: int = 8192, keep_alive: str = "30m",
                 timeout_s: float = 120.0, parallel: int = 1, retry: RetryPolicy | None = None) -> None:
        super().__init__(model, retry=retry)
        self.parallel = max(1, parallel)
        self.host = ollama_host(host)
        self.num_ctx = num_ctx
        self.keep_alive = keep_alive
        self.timeout_s = timeout_s
        self._client = ollama.Client(host=self.host, timeout=timeout_s)  # no I/O until a call

    @property
    def PARALLEL_CALLS(self) -> int:  # type: ignore[override]  # noqa: N802 (the backend's class constant, per server)
        """Calls in flight at once: what the server answers at once (``ollama.parallel``), no more. Ollama
        answers ``OLLAMA_NUM_PARALLEL`` requests per loaded model at once and queues the rest; its default is
        1 (envconfig ``NumParallel = Uint("OLLAMA_NUM_PARALLEL", 1)``; releases of 2024 chose 4 or 1 from the
        free memory). A call sent beyond that waits in Ollama's queue, where a chat turn asked later lines up
        behind it and ``CallTurns`` cannot put it first."""
        return self.parallel

    def context_length(self) -> int:
        return self.num_ctx

    def context_source(self) -> str:
        return "ollama.num_ctx, sent with every request"

    def where(self) -> str:
        return self.host

    def is_local(self) -> bool:
        return is_local_url(self.host)

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()

    # ---- calls ---------------------------------------------------------
    def _options(self, temperature: float | None) -> dict:
        options: dict = {"num_ctx": self.num_ctx}
        if temperature is not None:
            options["temperature"] = temperature
        return options

    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        estimate = count_turns(system, turns)
        reply.usage = Usage(estimated_prompt_tokens=estimate)
        chunks = None
        try:
            # The request is sent on the first next(), so errors surface in the loop.
            chunks = self._client.chat(self.model, messages=chat_messages(system, turns), stream=True,
                                       options=self._options(temperature),
                                       keep_alive=keep_alive_value(self.keep_alive))
            for chunk in chunks:
                if chunk.done:
                    reply.usage = self._usage(chunk, estimate)
                text = chunk.message.content if chunk.message else None
                if text:
                    yield text
        except CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        finally:
            if chunks is not None:
                chunks.close()  # type: ignore[attr-defined]  # ollama types its stream as an Iterator; it is a generator (a stopped reply closes the HTTP stream too)

    def warm(self, system: str) -> str:
        """Load the model (with the chat's num_ctx and keep_alive) and evaluate the new system prompt
        into its cache: one chat call of the system message alone, bounded to one answer token."""
        options = {**self._options(None), "num_predict": 1}  # Ollama's runner bounds only num_predict > 0
        try:
            self._client.chat(self.model, messages=chat_messages(system, []), stream=False, options=options,
                              keep_alive=keep_alive_value(self.keep_alive))
        except CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        return f"loaded {self.model} with the new system prompt"

    @staticmethod
    def _json_system(system: str, schema: dict) -> str:
        # Ollama constrains the output with `format`; stating the schema helps the model fill it well.
        schema_line = f"Answer with JSON matching this schema: {json.dumps(schema, ensure_ascii=False)}"
        return f"{system}\n\n{schema_line}" if system else schema_line

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """The schema line this adapter adds is part of what Ollama reads."""
        return super().count_json_request(self._json_system(system, schema), turns, schema)

    def _complete_json(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
        system = self._json_system(system, schema)
        pieces, final, chunks = [], None, None
        try:
            # Streamed (one token a chunk), so a flush shows the answer's tokens as they arrive.
            chunks = self._client.chat(self.model, messages=chat_messages(system, turns), stream=True,
                                       format=schema, options=self._options(temperature), think=False,
                                       keep_alive=keep_alive_value(self.keep_alive))
            for chunk in chunks:
                if chunk.done:
                    final = chunk
                text = chunk.message.content if chunk.message else None
                if text:
                    pieces.append(text)
                    self._tokens_arrived()
        except CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        finally:
            if chunks is not None:
                chunks.close()  # type: ignore[attr-defined]  # ollama types its stream as an Iterator; it is a generator
        if final is None:
            raise BackendUnreachable(f"Ollama at {self.host} ended the answer before it was done.",
                                     "Check that `ollama serve` is still running, then try again.",
                                     transient=True)
        self.last_usage = self._usage(final, count_turns(system, turns))  # logs a truncation warning
        if final.done_reason == "length":  # the answer ran out of room: what came is only its start
            raise MalformedReply(f"Ollama cut the answer off at its length limit (num_ctx={self.num_ctx}).",
                                 "Try again; a larger context (ollama.num_ctx) leaves the answer more room.")
        return "".join(pieces)

    def _usage(self, final: ollama.ChatResponse, estimate: int) -> Usage:
        usage = Usage(prompt_tokens=final.prompt_eval_count, output_tokens=final.eval_count,
                      estimated_prompt_tokens=estimate)
        warning = self._truncation_warning(final.prompt_eval_count, estimate)
        if warning:
            log.warning("%s", warning)
            usage.warnings.append(warning)
        return usage

    def _truncation_warning(self, prompt_tokens: int | None, estimate: int) -> str:
        """Text of a warning when Ollama probably cut the conversation, else "".

        Ollama drops the oldest messages only when the prompt does not fit, so
        a low count with an estimate far below num_ctx is a tokenizer
        difference (cl100k vs the model's own), not a cut.
        """
        if prompt_tokens is None:
            return ""
        full = prompt_tokens >= self.num_ctx - self.FULL_CONTEXT_MARGIN
        far_below = (estimate > self.TRUNCATION_MIN_ESTIMATE
                     and prompt_tokens < self.TRUNCATION_RATIO * estimate
                     and estimate >= self.num_ctx // 2)
        if not (full or far_below):
            return ""
        return (f"Ollama may have cut the conversation to fit num_ctx={self.num_ctx} "
                f"(it read {prompt_tokens} tokens, we sent about {estimate}). "
                f"Raise ollama.num_ctx in settings.")

    # ---- errors --------------------------------------------------------
    def _translate(self, exc: Exception, timeout_s: float | None = None) -> KnownError:
        """Map what the ollama client raised to a KnownError with a hint."""
        log.info("Ollama call to %s failed: %r", self.host, exc)
        if isinstance(exc, httpx.TimeoutException):
            return BackendUnreachable(
                f"Ollama at {self.host} timed out after {timeout_s or self.timeout_s:g} s.",
                "Check that `ollama serve` is running and not stuck; a large model may need a higher "
                "ollama.timeout_s in settings.", transient=True)
        if isinstance(exc, (ConnectionError, httpx.ConnectError)):
            return BackendUnreachable(
                f"Ollama is not running at {self.host}.",
                "Start it with `ollama serve`, or set ollama.host in settings / OLLAMA_HOST.")
        if isinstance(exc, httpx.TransportError):  # reset or closed mid-answer: the server is there
            return BackendUnreachable(f"The connection to Ollama at {self.host} broke ({exc}).",
                                      "Check that `ollama serve` is still running, then try again.",
                                      transient=True)
        if isinstance(exc, json.JSONDecodeError):
            return BackendError(f"The server at {self.host} sent a reply that is not Ollama's.",
                                "Check ollama.host in settings / OLLAMA_HOST.")
        error = str(getattr(exc, "error", exc))
        status = getattr(exc, "status_code", None)
        if status == 404 or "not found" in error.lower():
            return ModelNotFound(f"The Ollama model {self.model!r} is not installed.",
                                 f"Run `ollama pull {self.model}`.")
        if status == 412:
            return BackendError(f"This Ollama is too old for {self.model!r}: {error}",
                                "Update Ollama (https://ollama.com/download), then try again.")
        if status == 429:
            return RateLimited(f"Ollama is busy: {error}", "Wait a moment and try again.")
        if "context" in error.lower():
            return BackendError(f"Ollama failed: {error}",
                                "Raise ollama.num_ctx in settings, or start a shorter conversation.")
        return BackendError(f"Ollama failed: {error}",
                            "Try again; if it keeps failing, read the log of `ollama serve`.",
                            transient=status in TRANSIENT_STATUSES)

    # ---- models ----------------------------------------------------------
    def list_models(self) -> list[str]:
        """The installed models' names (``/api/tags``), for the settings dialog.

        Raises:
            BackendError: the server could not be asked.
        """
        try:
            listed = self._client.list()
        except CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        return sorted(m.model for m in listed.models if m.model)

    def pull(self, name: str, *, progress: Callable[[PullProgress], None],
             cancel: threading.Event | None = None) -> bool:
        """Download ``name`` through the client's streaming pull, reporting each step.

        Returns False when ``cancel`` was set (the stream is closed, so Ollama stops
        downloading; what it already has stays in its cache), True when the model is installed.

        Raises:
            BackendError: the server failed or does not know the model.
        """
        cancel = cancel or threading.Event()
        stream = None
        try:
            stream = self._client.pull(name, stream=True)
            for part in stream:
                if cancel.is_set():
                    return False
                progress(PullProgress(part.status or "", part.completed, part.total))
                if part.status == "success":
                    return True
            return not cancel.is_set()
        except ollama.ResponseError as exc:
            if exc.status_code == 404 or "not exist" in str(exc.error).lower() or "manifest" in str(exc.error):
                raise ModelNotFound(f"Ollama has no model called {name!r} to pull ({exc.error}).",
                                    "Check the name at https://ollama.com/library (e.g. gemma3:4b).") from exc
            raise self._translate(exc) from exc
        except CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        finally:
            if stream is not None:
                stream.close()  # type: ignore[attr-defined]  # ollama types its stream as an Iterator; it is a generator

    # ---- health --------------------------------------------------------
    def doctor(self) -> DoctorReport:
        """Check the server, the model, num_ctx against the model's context and keep_alive (``ollama_doctor.py``)."""
        from .ollama_doctor import ollama_doctor
        return ollama_doctor(self)

    def _model_size(self) -> ModelSize | None:
        """``/api/show``: ``details.parameter_size`` ("135M", "4.3B"), else ``general.parameter_count``."""
        client = ollama.Client(host=self.host, timeout=min(self.timeout_s, self.DOCTOR_TIMEOUT_S))
        try:
            info = client.show(self.model)
        except CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        finally:
            client.close()
        return model_size_of(info)

    def not_running(self) -> KnownError | None:
        """``BackendUnreachable`` ("Ollama is not running at …", start it with `ollama serve`) when the server does
        not answer within 1.5 s; else None (a missing model is for the call, or doctor, to say)."""
        client = ollama.Client(host=self.host, timeout=self.PROBE_TIMEOUT_S)
        try:
            client.ps()
            return None
        except CLIENT_ERRORS + (ValueError,) as exc:
            error = self._translate(exc, self.PROBE_TIMEOUT_S)
            return error if isinstance(error, BackendUnreachable) else None
        finally:
            client.close()

    def probe(self) -> bool:
        """True when the server answers within 1.5 s and has the model; never raises."""
        client = ollama.Client(host=self.host, timeout=self.PROBE_TIMEOUT_S)
        try:
            client.show(self.model)  # one request answers both questions
            return True
        except CLIENT_ERRORS + (ValueError,) as exc:
            log.info("Ollama probe of %s at %s failed: %r", self.model, self.host, exc)
            return False
        finally:
            client.close()


@dataclass(frozen=True)
class PullProgress:
    """One step of ``ollama pull``: what it does, and bytes done of total while downloading."""

    status: str
    completed: int | None = None
    total: int | None = None

    @property
    def fraction(self) -> float | None:
        return self.completed / self.total if self.completed is not None and self.total else None
