"""Any OpenAI-compatible server (LM Studio, llama.cpp's llama-server, vLLM, LocalAI, OpenRouter)
through the official ``openai`` client.

Design notes:

- The base URL comes from settings (``openai.base_url``), else ``OPENAI_BASE_URL``, else LM
  Studio's ``http://127.0.0.1:1234/v1``; the key from ``OPENAI_API_KEY`` or the OS keyring,
  never a file. A local server needs no key: a placeholder is sent (the client insists on one).
- The client's own retries are off (``max_retries=0``): a chat turn is not repeated behind the
  user's back, and flush calls retry under ``complete_json``'s policy, which knows which
  faults are transient (``openai_errors.translate`` marks 429, 500/502/503/504, timeouts, dropped
  connections).
- Structured output asks for ``response_format: json_schema`` with ``max_tokens`` set to the answer room
  (``json_answer_reserve``). A server without schema support refuses it with an error whose text names
  ``response_format``/``json_schema`` — LM Studio a 400, a strict validator a 422, llama-cpp-python's
  ``llama_cpp.server`` a 500 with a pydantic traceback — whatever the status, the same request goes once as
  ``{"type": "json_object", "schema": …}`` (llama.cpp servers constrain the answer to the schema; others
  ignore the key) with the schema also stated in the system text, and the mode is remembered (state
  ``openai.json_mode.<base url>``); such a refusal is never retried as transient. ``openai.json_mode``
  forces ``json_object`` (or ``json_schema``, never falling back). In both modes the answer's shape is
  checked (``shape.shape_problem``): a wrong shape is a ``MalformedReply`` the flush reads again in halves.
- A stream that ends without a ``finish_reason`` was cut off (``ReplyCutOff``, transient): llama_cpp.server
  ends a running reply with a bare ``[DONE]`` when another request arrives, and answers a request over its
  context with 200 and an empty stream. The chat logs what arrived as partial; a flush call is asked again,
  and structured calls to that server then run one at a time (``PARALLEL_CALLS`` 1, state
  ``openai.one_at_a_time.<base url>``).
- Streaming asks for usage (``stream_options.include_usage``): the last chunk carries
  ``prompt_tokens``, ``completion_tokens`` and ``prompt_tokens_details.cached_tokens`` (the
  prompt cache was hit) and, for reasoning models, ``completion_tokens_details.reasoning_tokens``; a
  server ignoring it leaves the estimate (``Usage.counts`` logs it as ``estimated_prompt_tokens``).
- A stop closes the stream at once, even before the first token (a watcher thread closes the response
  the reading thread waits on, its socket shut down first), so the server stops and the user does not
  wait out its prompt processing.
- The context length is ``openai.context_length`` when set; else what the server's model
  list says where it says it (vLLM ``max_model_len``, OpenRouter ``context_length``, LM
  Studio ``loaded_context_length``/``max_context_length``); else 4096, LM Studio's default
  for a loaded model. At 2,048 or less the answer room is the embedded model's 640 tokens, so a flush
  still fits (its texts and chunks shrink, ``asking/ask.py``); below 2,048 its instructions do not.
- ``openai.model`` may be empty: the server's first chat model (not an embedding model) is
  used, which is what a user with one model loaded in LM Studio expects.
"""

from __future__ import annotations

import json
import logging
import math
import socket
import threading
from typing import Callable, Iterator

import openai

from ..errors import KnownError, MalformedReply, ModelNotFound
from ..privacy.cloud import is_local_url
from ..tokens import count_turns
from ..types import Coded, Turn, Usage
from .addresses import DEFAULT_BASE_URL, resolve_base_url  # noqa: F401 (re-exported)
from .base import Backend, Check, DoctorReport, Reply, parse_json_object
from .model_size import ModelSize, listed_size
from .openai_errors import (CONTEXT_HINT, error_text, rejects_schema, stream_cut_off, translate, usage_of)
from .retry import RetryPolicy
from .shape import shape_problem

log = logging.getLogger(__name__)

DEFAULT_CONTEXT_LENGTH = 4096
NO_KEY = "not-needed"  # local servers ignore the key; the client refuses to run without one
JSON_MODE_KEY = "openai.json_mode.{url}"
ONE_AT_A_TIME_KEY = "openai.one_at_a_time.{url}"  # "1": the server cuts a running reply off when another arrives
JSON_MODES = ("auto", "json_schema", "json_object")
CONTEXT_FIELDS = ("max_model_len", "context_length", "loaded_context_length", "max_context_length")
SMALL_CONTEXT = 2048  # at most this: the answer room is the small one (SMALL_ANSWER_RESERVE)
SMALL_ANSWER_RESERVE = 640  # as the embedded model's: the flush asks for shorter texts (asking/ask.py)
STOP_POLL_S = 0.05  # how often a stream waiting for its first token looks at the stop event


class OpenAICompatBackend(Backend):
    """Chat and structured output through a server that speaks the OpenAI chat API."""

    name = "openai"
    CONTEXT_SETTING = "openai.context_length"
    PROBE_TIMEOUT_S = 1.5
    DOCTOR_TIMEOUT_S = 5.0

    def __init__(self, model: str, *, base_url: str = "", api_key: Callable[[], str | None] = lambda: None,
                 context_length: int = 0, timeout_s: float = 120.0, state=None, json_mode: str = "auto",
                 retry: RetryPolicy | None = None) -> None:
        super().__init__(model, retry=retry)
        self.base_url = resolve_base_url(base_url)
        self._api_key = api_key
        self._context_setting = context_length
        self.timeout_s = timeout_s
        self._state = state
        self._json_setting = json_mode if json_mode in JSON_MODES else "auto"
        self._lock = threading.Lock()
        self._client_obj: openai.OpenAI | None = None
        self._client_key: str | None = None
        self._server_context: int | None = None
        self._context_asked = False
        # "json_schema" | "json_object": forced by the setting, or once an answer showed it
        self._json_mode: str | None = None if self._json_setting == "auto" else self._json_setting
        self._detect_lock = threading.Lock()
        self._one_at_a_time = self._stored(ONE_AT_A_TIME_KEY) == "1"
        self._one_lock = threading.Lock()  # held by each structured call once the server interrupts

    @property
    def PARALLEL_CALLS(self) -> int:  # type: ignore[override]
        """A local server (LM Studio) often runs one request at a time and queues the rest: two in flight keep
        it busy without a queued one waiting past the timeout. A server found to cut a running reply off when
        another request arrives (llama_cpp.server) is asked one call at a time."""
        return 1 if self._one_at_a_time else 2

    def _stored(self, key: str) -> str | None:
        return self._state.get_state(key.format(url=self.base_url)) if self._state is not None else None

    def _store(self, key: str, value: str) -> None:
        if self._state is not None:
            self._state.set_state(key.format(url=self.base_url), value)

    # ---- client ----------------------------------------------------------
    def _client(self, timeout_s: float | None = None) -> openai.OpenAI:
        key = self._api_key() or NO_KEY
        if timeout_s is not None:  # doctor and probe: a short-lived client of their own
            return openai.OpenAI(base_url=self.base_url, api_key=key, max_retries=0, timeout=timeout_s)
        with self._lock:
            if self._client_obj is None or key != self._client_key:
                if self._client_obj is not None:
                    self._client_obj.close()
                self._client_obj = openai.OpenAI(base_url=self.base_url, api_key=key, max_retries=0,
                                                 timeout=self.timeout_s)
                self._client_key = key
            return self._client_obj

    def close(self) -> None:
        with self._lock:
            if self._client_obj is not None:
                self._client_obj.close()
                self._client_obj = None

    def where(self) -> str:
        return self.base_url

    def is_local(self) -> bool:
        return is_local_url(self.base_url)

    # ---- models ------------------------------------------------------------
    def list_models(self, timeout_s: float | None = None) -> list[str]:
        """The ids the server's ``/models`` lists (settings dialog, ``doctor``, a 404's hint).

        Raises:
            BackendError: the server could not be asked.
        """
        return [entry.id for entry in self._model_entries(timeout_s)]

    def _model_entries(self, timeout_s: float | None = None) -> list:
        client = self._client(timeout_s)
        try:
            return list(client.models.list())
        except openai.NotFoundError as exc:
            raise self._no_api(exc) from exc
        except openai.OpenAIError as exc:
            raise translate(exc, self.base_url, self.timeout_s) from exc
        finally:
            if timeout_s is not None:
                client.close()

    def _model(self) -> str:
        """The model to ask: the setting, else the server's first chat model."""
        if self.model:
            return self.model
        chat_models = [m for m in self.list_models() if "embed" not in m.lower()]
        if not chat_models:
            raise ModelNotFound(f"The server at {self.base_url} lists no chat model.",
                                "Load a model in LM Studio (or start the server with one), or set openai.model.")
        self.model = chat_models[0]
        log.info("openai: no model set; using the server's first, %s", self.model)
        return self.model

    def _model_size(self) -> ModelSize | None:
        """llama.cpp's ``llama-server`` states ``meta.n_params`` per model in ``/v1/models``; others nothing."""
        return listed_size(self._model_entries(self.DOCTOR_TIMEOUT_S), self._model())

    def context_length(self) -> int:
        if self._context_setting > 0:
            return self._context_setting
        if not self._context_asked:
            self._context_asked = True
            try:
                self._server_context = self._context_from_server(self._model_entries(self.DOCTOR_TIMEOUT_S))
            except KnownError as exc:
                log.info("openai: the context length could not be asked (%s); using %s", exc.message,
                         DEFAULT_CONTEXT_LENGTH)
        return self._server_context or DEFAULT_CONTEXT_LENGTH

    def context_source(self) -> str:
        """Where ``context_length`` comes from, for doctor."""
        if self._context_setting > 0:
            return "set in openai.context_length"
        if self._server_context:
            return "as the server says"
        return (f"the server does not say; {DEFAULT_CONTEXT_LENGTH} assumed — set openai.context_length to the "
                "context the model is loaded with")

    def json_answer_reserve(self) -> int:
        """A small context (2,048 or less: llama_cpp.server's default) keeps the embedded model's small answer
        room, so the instructions and a chunk of the log still fit; the flush then asks for shorter texts."""
        if self.context_length() <= SMALL_CONTEXT:
            return min(SMALL_ANSWER_RESERVE, self.context_length() // 2)
        return super().json_answer_reserve()

    def _context_from_server(self, entries: list) -> int | None:
        for entry in entries:
            if self.model and entry.id != self.model:
                continue
            extra = entry.model_extra or {}
            for name in CONTEXT_FIELDS:
                value = extra.get(name)
                if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                    return value
            if self.model:
                break
        return None

    # ---- streaming ---------------------------------------------------------
    @staticmethod
    def _messages(system: str, turns: list[Turn]) -> list[dict]:
        head = [{"role": "system", "content": system}] if system else []
        return head + [{"role": t.role, "content": t.content} for t in turns]

    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        estimate = count_turns(system, turns)
        reply.usage = Usage(estimated_prompt_tokens=estimate)
        extra = {"temperature": temperature} if temperature is not None else {}
        chunks, finish, anything = None, None, False
        watching = threading.Event()
        try:
            chunks = self._client().chat.completions.create(
                model=self._model(), messages=self._messages(system, turns), stream=True,
                stream_options={"include_usage": True}, **extra)
            _close_on_stop(chunks, reply.stop, watching)
            for chunk in chunks:
                anything = True
                if chunk.usage is not None:  # the last chunk, after the one with finish_reason
                    reply.usage = usage_of(chunk.usage, estimate)
                for choice in chunk.choices or []:
                    finish = choice.finish_reason or finish
                    text = choice.delta.content if choice.delta else None
                    if text:
                        yield text
        except Exception as exc:
            if reply.stop.is_set():  # the stream closed at the user's stop, before its first token
                return
            if isinstance(exc, openai.OpenAIError):
                raise self._translate(exc) from exc
            raise
        finally:
            watching.set()
            if chunks is not None:
                chunks.close()  # a stopped reply closes the HTTP stream, so the server stops generating
        if reply.stop.is_set():
            return
        if finish is None:  # a bare [DONE] or an empty stream: cut off, never a whole reply
            raise stream_cut_off(self.base_url, anything)
        if finish == "length":
            reply.usage.warnings.append(Coded(f"The server at {self.base_url} cut the reply at its length limit.",
                                              "cut_at_length"))

    # ---- structured output --------------------------------------------------
    def _json_mode_now(self) -> str:
        """The mode to try: what this server was found to need before, else a JSON schema."""
        return "json_object" if self._stored(JSON_MODE_KEY) == "json_object" else "json_schema"

    def _remember_json_mode(self, mode: str) -> None:
        self._json_mode = mode
        self._store(JSON_MODE_KEY, mode)

    @staticmethod
    def _schema_system(system: str, schema: dict) -> str:
        line = f"Answer with one JSON object matching this schema: {json.dumps(schema, ensure_ascii=False)}"
        return f"{system}\n\n{line}" if system else line

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """Counted as the json_object request (the schema in the system text): the larger of the two."""
        return math.ceil(count_turns(self._schema_system(system, schema), turns) * self.ESTIMATE_MARGIN)

    def _complete_json(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
        if self._one_at_a_time:  # this server interrupts a running reply: one call at a time
            with self._one_lock:
                return self._complete_json_once(system, turns, schema, temperature)
        return self._complete_json_once(system, turns, schema, temperature)

    def _complete_json_once(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
        if self._json_mode is None:
            # Until one answer told us whether the server takes a schema, calls ask one at a time
            # (a flush runs several side by side), so the fallback is found once, not per call.
            with self._detect_lock:
                if self._json_mode is None:
                    return self._complete_json_as(self._json_mode_now(), system, turns, schema, temperature,
                                                  learning=True)
        return self._complete_json_as(self._json_mode, system, turns, schema, temperature, learning=False)

    def _complete_json_as(self, mode: str, system: str, turns: list[Turn], schema: dict, temperature: float,
                          learning: bool) -> str:
        if mode == "json_schema":
            try:
                raw = self._ask_json(system, turns, temperature,
                                     {"type": "json_schema",
                                      "json_schema": {"name": "answer", "schema": schema, "strict": False}})
            except openai.OpenAIError as exc:
                if not rejects_schema(exc) or self._json_setting == "json_schema":
                    raise self._translate(exc) from exc
                log.warning("openai: %s does not take a JSON schema (%s); asking for json_object from now on",
                            self.base_url, error_text(exc))
                self._remember_json_mode("json_object")
            else:
                if learning:
                    self._json_mode = "json_schema"  # it answered a schema request: no need to ask again
                return self._checked(raw, schema)
        # json_object with the schema as well (llama_cpp.server and llama-server constrain the answer to it;
        # others ignore it) and in the system text, for a server that only reads that.
        try:
            raw = self._ask_json(self._schema_system(system, schema), turns, temperature,
                                 {"type": "json_object", "schema": schema})
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        if learning:
            self._json_mode = "json_object"
        return self._checked(raw, schema)

    def _ask_json(self, system: str, turns: list[Turn], temperature: float, response_format: dict) -> str:
        """Streamed, so a flush shows the answer's tokens as they arrive (a chunk is about a token).
        ``max_tokens`` is the answer room the flush sized its request for."""
        estimate = count_turns(system, turns)
        self.last_usage = Usage(estimated_prompt_tokens=estimate)
        pieces, finish, chunks, anything = [], None, None, False
        try:
            chunks = self._client().chat.completions.create(
                model=self._model(), messages=self._messages(system, turns), stream=True,
                stream_options={"include_usage": True}, temperature=temperature, response_format=response_format,
                max_tokens=self.json_answer_reserve())
            for chunk in chunks:
                anything = True
                if chunk.usage is not None:
                    self.last_usage = usage_of(chunk.usage, estimate)
                for choice in chunk.choices or []:
                    finish = choice.finish_reason or finish
                    text = choice.delta.content if choice.delta else None
                    if text:
                        pieces.append(text)
                        self._tokens_arrived()
        finally:
            if chunks is not None:
                chunks.close()
        if finish is None:
            if anything and not self._one_at_a_time:
                log.warning("openai: %s cut an answer off (no finish reason); asking it one call at a time "
                            "from now on", self.base_url)
                self._one_at_a_time = True
                self._store(ONE_AT_A_TIME_KEY, "1")
            raise stream_cut_off(self.base_url, anything)
        if finish == "length":
            raise MalformedReply(f"The server at {self.base_url} cut the answer off at its length limit.",
                                 "Try again; a larger context (openai.context_length) leaves more room.")
        return "".join(pieces)

    @staticmethod
    def _checked(raw: str, schema: dict) -> str:
        """``raw`` when it is a JSON object of the schema's shape. Raises MalformedReply."""
        problem = shape_problem(parse_json_object(raw), schema)
        if problem:
            raise MalformedReply(f"The model's answer did not follow the schema ({problem}).",
                                 "Try again; a larger model follows the format more reliably.")
        return raw

    # ---- errors --------------------------------------------------------------
    def _translate(self, exc: Exception) -> KnownError:
        """A failed chat or structured call: a 404 names the models the server has."""
        if isinstance(exc, openai.NotFoundError):
            return self._not_found(exc)
        return translate(exc, self.base_url, self.timeout_s)

    def _no_api(self, exc: Exception) -> KnownError:
        from ..errors import BackendError
        return BackendError(f"{self.base_url} has no OpenAI-compatible API ({error_text(exc)}).",
                            "Check openai.base_url: it usually ends in /v1 (LM Studio: http://127.0.0.1:1234/v1).")

    def _not_found(self, exc: Exception) -> KnownError:
        """A 404 on a chat: usually the model; say which models the server has."""
        try:
            models = self.list_models(self.DOCTOR_TIMEOUT_S)
        except KnownError:
            return self._no_api(exc)
        have = ", ".join(models) if models else "none"
        return ModelNotFound(f"The server at {self.base_url} has no model {self.model!r} (it has: {have}).",
                             "Choose one of those with --model or openai.model, or load the model in LM Studio.")

    # ---- health --------------------------------------------------------------
    def doctor(self) -> DoctorReport:
        """Check the server, the key, the model, the context length and the answer format; never raises."""
        from .openai_doctor import doctor
        return doctor(self)

    def probe(self) -> bool:
        """True when the server answers within 1.5 s and has the model (or any, when none is set)."""
        try:
            ids = self.list_models(self.PROBE_TIMEOUT_S)
        except KnownError as exc:
            log.info("openai probe of %s failed: %s", self.base_url, exc.message)
            return False
        return self.model in ids if self.model else any("embed" not in m.lower() for m in ids)

    def key_source(self) -> str:
        owner = getattr(self._api_key, "__self__", None)
        source = getattr(owner, "openai_key_source", None)
        try:
            return source() if callable(source) else ""
        except Exception:  # only a description
            return ""


def _close_on_stop(chunks, stop: threading.Event, done: threading.Event) -> None:
    """Close ``chunks`` as soon as ``stop`` is set, even before its first token (a server evaluating a long
    prompt sends nothing for seconds): the read waiting on it ends at once. Ends with ``done``."""
    def watch() -> None:
        while not done.is_set():
            if stop.wait(STOP_POLL_S):
                if not done.is_set():
                    _shut_down(chunks)
                return
    threading.Thread(target=watch, name="openai stop watch", daemon=True).start()


def _shut_down(chunks) -> None:
    """End the read another thread is blocked in: closing the response alone does not wake a ``recv`` already
    waiting (it waits for the server or the read timeout), so the connection's socket is shut down first."""
    stream = getattr(getattr(chunks, "response", None), "extensions", {}).get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:  # already closed: the read has ended anyway
            pass
    chunks.close()
