"""Any OpenAI-compatible server (LM Studio, llama.cpp's llama-server, vLLM, LocalAI, OpenRouter)
through the official ``openai`` client.

Design notes:

- The base URL comes from settings (``openai.base_url``), else ``OPENAI_BASE_URL``, else LM
  Studio's ``http://127.0.0.1:1234/v1``; the key from ``OPENAI_API_KEY`` or the OS keyring,
  never a file. A local server needs no key: a placeholder is sent (the client insists on one).
- The client's own retries are off (``max_retries=0``): a chat turn is not repeated behind the
  user's back, and flush calls retry under ``complete_json``'s policy, which knows which
  faults are transient (``_translate`` marks 429, 500/502/503/504, timeouts, dropped
  connections).
- Structured output asks for ``response_format: json_schema``. A server without schema
  support answers that with a 400 naming ``response_format``; then the same request goes
  once as ``json_object`` with the schema stated in the system text, and the server's mode
  is remembered (state ``openai.json_mode.<base url>``), so it is never asked twice. In both
  modes the answer's shape is checked (``shape.shape_problem``): a server may ignore the
  schema silently, and a wrong shape is a ``MalformedReply`` the flush reads again in halves.
- Streaming asks for usage (``stream_options.include_usage``): the last chunk carries
  ``prompt_tokens``, ``completion_tokens`` and ``prompt_tokens_details.cached_tokens`` (the
  prompt cache was hit) and, for reasoning models, ``completion_tokens_details.reasoning_tokens``.
- The context length is ``openai.context_length`` when set; else what the server's model
  list says where it says it (vLLM ``max_model_len``, OpenRouter ``context_length``, LM
  Studio ``loaded_context_length``/``max_context_length``); else 4096, LM Studio's default
  for a loaded model, so a request never overflows a server that would cut it.
- ``openai.model`` may be empty: the server's first chat model (not an embedding model) is
  used, which is what a user with one model loaded in LM Studio expects.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from typing import Callable, Iterator

import openai

from ..errors import (AuthFailed, BackendError, BackendUnreachable, KnownError, MalformedReply, ModelNotFound,
                      RateLimited)
from ..privacy import is_local_url
from ..tokens import count_turns
from ..types import Coded, Turn, Usage
from .addresses import DEFAULT_BASE_URL, resolve_base_url  # noqa: F401 (re-exported)
from .base import Backend, Check, DoctorReport, Reply, parse_json_object
from .model_size import ModelSize, listed_size
from .retry import RetryPolicy
from .shape import shape_problem

log = logging.getLogger(__name__)

DEFAULT_CONTEXT_LENGTH = 4096
NO_KEY = "not-needed"  # local servers ignore the key; the client refuses to run without one
JSON_MODE_KEY = "openai.json_mode.{url}"
TRANSIENT_STATUSES = {429, 500, 502, 503, 504}
CONTEXT_FIELDS = ("max_model_len", "context_length", "loaded_context_length", "max_context_length")
KEY_HINT = ("Set OPENAI_API_KEY, or store the server's key with `monchat settings openai-key` or in Settings "
            "(kept in the OS keyring, never in monchat's files).")


class OpenAICompatBackend(Backend):
    """Chat and structured output through a server that speaks the OpenAI chat API."""

    name = "openai"
    # A local server (LM Studio) often runs one request at a time and queues the rest; two in
    # flight keep it busy without leaving a queued request waiting past the timeout.
    PARALLEL_CALLS = 2
    PROBE_TIMEOUT_S = 1.5
    DOCTOR_TIMEOUT_S = 5.0

    def __init__(self, model: str, *, base_url: str = "", api_key: Callable[[], str | None] = lambda: None,
                 context_length: int = 0, timeout_s: float = 120.0, state=None,
                 retry: RetryPolicy | None = None) -> None:
        super().__init__(model, retry=retry)
        self.base_url = resolve_base_url(base_url)
        self._api_key = api_key
        self._context_setting = context_length
        self.timeout_s = timeout_s
        self._state = state
        self._lock = threading.Lock()
        self._client_obj: openai.OpenAI | None = None
        self._client_key: str | None = None
        self._server_context: int | None = None
        self._context_asked = False
        self._json_mode: str | None = None  # "json_schema" | "json_object", once an answer showed it
        self._detect_lock = threading.Lock()

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
        except openai.OpenAIError as exc:
            raise self._translate(exc, check_model=False) from exc
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

    # ---- chat --------------------------------------------------------------
    @staticmethod
    def _messages(system: str, turns: list[Turn]) -> list[dict]:
        head = [{"role": "system", "content": system}] if system else []
        return head + [{"role": t.role, "content": t.content} for t in turns]

    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        estimate = count_turns(system, turns)
        reply.usage = Usage(estimated_prompt_tokens=estimate)
        extra = {"temperature": temperature} if temperature is not None else {}
        chunks = None
        try:
            chunks = self._client().chat.completions.create(
                model=self._model(), messages=self._messages(system, turns), stream=True,
                stream_options={"include_usage": True}, **extra)
            warnings: list[str] = []
            for chunk in chunks:
                if chunk.usage is not None:  # the last chunk, after the one with finish_reason
                    reply.usage = _usage(chunk.usage, estimate)
                for choice in chunk.choices or []:
                    if choice.finish_reason == "length":
                        warnings.append(Coded(f"The server at {self.base_url} cut the reply at its length limit.",
                                               "cut_at_length"))
                    text = choice.delta.content if choice.delta else None
                    if text:
                        yield text
            reply.usage.warnings.extend(warnings)
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        finally:
            if chunks is not None:
                chunks.close()  # a stopped reply closes the HTTP stream, so the server stops generating

    # ---- structured output --------------------------------------------------
    def _json_mode_now(self) -> str:
        """The mode to try: what this server was found to need before, else a JSON schema."""
        stored = self._state.get_state(JSON_MODE_KEY.format(url=self.base_url)) if self._state else None
        return stored if stored == "json_object" else "json_schema"

    def _remember_json_mode(self, mode: str) -> None:
        self._json_mode = mode
        if self._state is not None:
            self._state.set_state(JSON_MODE_KEY.format(url=self.base_url), mode)

    @staticmethod
    def _schema_system(system: str, schema: dict) -> str:
        line = f"Answer with one JSON object matching this schema: {json.dumps(schema, ensure_ascii=False)}"
        return f"{system}\n\n{line}" if system else line

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """Counted as the json_object request (the schema in the system text): the larger of the two."""
        return math.ceil(count_turns(self._schema_system(system, schema), turns) * self.ESTIMATE_MARGIN)

    def _complete_json(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
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
            except openai.BadRequestError as exc:
                if not _rejects_schema(exc):
                    raise self._translate(exc) from exc
                log.warning("openai: %s does not take a JSON schema (%s); asking for json_object from now on",
                            self.base_url, _error_text(exc))
                self._remember_json_mode("json_object")
            except openai.OpenAIError as exc:
                raise self._translate(exc) from exc
            else:
                if learning:
                    self._json_mode = "json_schema"  # it answered a schema request: no need to ask again
                return self._checked(raw, schema)
        try:
            raw = self._ask_json(self._schema_system(system, schema), turns, temperature, {"type": "json_object"})
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        if learning:
            self._json_mode = "json_object"
        return self._checked(raw, schema)

    def _ask_json(self, system: str, turns: list[Turn], temperature: float, response_format: dict) -> str:
        """Streamed, so a flush shows the answer's tokens as they arrive (a chunk is about a token)."""
        estimate = count_turns(system, turns)
        self.last_usage = Usage(estimated_prompt_tokens=estimate)
        pieces, finish, chunks = [], None, None
        try:
            chunks = self._client().chat.completions.create(
                model=self._model(), messages=self._messages(system, turns), stream=True,
                stream_options={"include_usage": True}, temperature=temperature, response_format=response_format)
            for chunk in chunks:
                if chunk.usage is not None:
                    self.last_usage = _usage(chunk.usage, estimate)
                for choice in chunk.choices or []:
                    finish = choice.finish_reason or finish
                    text = choice.delta.content if choice.delta else None
                    if text:
                        pieces.append(text)
                        self._tokens_arrived()
        finally:
            if chunks is not None:
                chunks.close()
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
    def _translate(self, exc: Exception, *, check_model: bool = True) -> KnownError:
        """Map what the openai client raised to a KnownError with a hint."""
        log.info("openai call to %s failed: %r", self.base_url, exc)
        if isinstance(exc, openai.APITimeoutError):
            return BackendUnreachable(f"The server at {self.base_url} did not answer within {self.timeout_s:g} s.",
                                      "Check that the server is not stuck; a large model may need a higher "
                                      "openai.timeout_s in settings.", transient=True)
        if isinstance(exc, openai.APIConnectionError):
            if _refused(exc):
                return BackendUnreachable(
                    f"Nothing answers at {self.base_url} — is LM Studio's server running?",
                    "Start the server (LM Studio: Developer → Start Server; or `llama-server`), or set "
                    "openai.base_url in settings / OPENAI_BASE_URL.")
            return BackendUnreachable(f"The connection to {self.base_url} broke ({_error_text(exc)}).",
                                      "Check that the server is still running, then try again.", transient=True)
        if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
            return AuthFailed(f"The server at {self.base_url} did not accept the API key ({_error_text(exc)}).",
                              KEY_HINT)
        if isinstance(exc, openai.RateLimitError):
            return RateLimited(f"The server at {self.base_url} is busy or over its rate limit.",
                               "Wait a moment and try again.")
        if isinstance(exc, openai.NotFoundError):
            return self._not_found(exc) if check_model else BackendError(
                f"{self.base_url} has no OpenAI-compatible API ({_error_text(exc)}).",
                "Check openai.base_url: it usually ends in /v1 (LM Studio: http://127.0.0.1:1234/v1).")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            text = _error_text(exc)
            if status == 400 and "context" in text.lower():
                return BackendError(f"The server at {self.base_url} refused the request: {text}",
                                    "Set openai.context_length to the context the model is loaded with.")
            if status >= 500:
                return BackendError(f"The server at {self.base_url} failed ({status}): {text}",
                                    "Try again; if it keeps failing, read the server's log.",
                                    transient=status in TRANSIENT_STATUSES)
            return BackendError(f"The server at {self.base_url} refused the request ({status}): {text}",
                                "Check openai.model and openai.base_url in settings.")
        if isinstance(exc, openai.APIError):  # an error event in the middle of a stream
            return BackendError(f"The server at {self.base_url} failed mid-answer: {_error_text(exc)}",
                                "Try again; if it keeps failing, read the server's log.", transient=True)
        return BackendError(f"The openai client failed: {exc}", "Check the openai settings.")

    def _not_found(self, exc: Exception) -> KnownError:
        """A 404 on a chat: usually the model; say which models the server has."""
        try:
            models = self.list_models(self.DOCTOR_TIMEOUT_S)
        except KnownError:
            models = None
        if models is None:
            return BackendError(f"{self.base_url} has no OpenAI-compatible API ({_error_text(exc)}).",
                                "Check openai.base_url: it usually ends in /v1 (LM Studio: "
                                "http://127.0.0.1:1234/v1).")
        have = ", ".join(models) if models else "none"
        return ModelNotFound(f"The server at {self.base_url} has no model {self.model!r} (it has: {have}).",
                             "Choose one of those with --model or openai.model, or load the model in LM Studio.")

    # ---- health --------------------------------------------------------------
    def doctor(self) -> DoctorReport:
        """Check the server, the key, the model and the context length; never raises."""
        report = DoctorReport(self.name, self.model)
        source = self._key_source()
        try:
            entries = self._model_entries(self.DOCTOR_TIMEOUT_S)
        except AuthFailed as exc:
            report.checks.append(Check("server", True, f"{self.base_url} answered"))
            report.checks.append(Check("api key", False, exc.message, exc.hint, code=exc.code))
            return report
        except KnownError as exc:
            report.checks.append(Check("server", False, exc.message, exc.hint, code=exc.code))
            return report
        ids = [e.id for e in entries]
        report.checks.append(Check("server", True, f"{self.base_url} answered; models: {', '.join(ids) or 'none'}"))
        report.checks.append(Check("api key", True, f"from {source}" if source else "none sent (a local server "
                                                                                      "needs none)"))
        model = self.model or next((m for m in ids if "embed" not in m.lower()), "")
        if not model:
            report.checks.append(Check("model", False, "the server lists no chat model",
                                       "Load a model in LM Studio, or set openai.model.", code="no_model_listed"))
            return report
        if model not in ids:
            report.checks.append(Check("model", False, f"{model!r} is not among the server's models",
                                       f"Choose one of: {', '.join(ids) or 'none'} (openai.model or --model).",
                                       code="model_not_found"))
            return report
        report.model = model
        report.checks.append(Check("model", True, model if self.model else f"{model} (the server's first)"))
        self._context_asked = True
        self._server_context = self._context_from_server(entries)
        report.context_length = self.context_length()
        said = ("set in openai.context_length" if self._context_setting > 0 else
                "as the server says" if self._server_context else
                f"the server does not say; {DEFAULT_CONTEXT_LENGTH} assumed — set openai.context_length to the "
                "context the model is loaded with")
        report.checks.append(Check("context", True, f"{report.context_length} tokens ({said})"))
        return report

    def probe(self) -> bool:
        """True when the server answers within 1.5 s and has the model (or any, when none is set)."""
        try:
            ids = self.list_models(self.PROBE_TIMEOUT_S)
        except KnownError as exc:
            log.info("openai probe of %s failed: %s", self.base_url, exc.message)
            return False
        return self.model in ids if self.model else any("embed" not in m.lower() for m in ids)

    def _key_source(self) -> str:
        owner = getattr(self._api_key, "__self__", None)
        source = getattr(owner, "openai_key_source", None)
        try:
            return source() if callable(source) else ""
        except Exception:  # only a description
            return ""


def _usage(usage, estimate: int) -> Usage:
    prompt_details = getattr(usage, "prompt_tokens_details", None)
    output_details = getattr(usage, "completion_tokens_details", None)
    return Usage(prompt_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens,
                 cached_tokens=getattr(prompt_details, "cached_tokens", None),
                 thinking_tokens=getattr(output_details, "reasoning_tokens", None),
                 estimated_prompt_tokens=estimate)


def _error_text(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message:
            return message
    return getattr(exc, "message", None) or str(exc)


def _rejects_schema(exc: openai.BadRequestError) -> bool:
    """A 400 that says the server does not take ``response_format`` json_schema."""
    text = _error_text(exc).lower()
    return "response_format" in text or "json_schema" in text or "schema" in text


def _refused(exc: BaseException) -> bool:
    """Whether a connection error is "nothing listens there" rather than a dropped connection."""
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError) or type(cause).__name__ == "ConnectError":
            return True
        cause = cause.__cause__ or cause.__context__
    return False
