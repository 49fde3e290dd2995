"""Gemini through ``google-genai`` 3.x, with an explicit context cache for the system prompt.

The explicit cache of the system prompt (when, how, and what the API teaches about its
minimum) is ``gemini_cache.PromptCache``'s.

Fallback: below the minimum, or for a model that cannot cache, requests carry
``system_instruction`` and rely on implicit caching. A request never carries both
``cached_content`` and ``system_instruction``: the API rejects that with a 400.
Structured (flush) calls always use plain ``system_instruction``.

Flush calls: a thinking budget from settings (``gemini.flush_thinking_budget``, default 0 =
thinking off, which 2.5 Flash allows; 2.5 Pro cannot turn thinking off and needs at least 128;
-1 sends no thinking setting at all, the model's own default, for models without thinking
such as 2.0 Flash, which reject one), the thoughts' tokens recorded in
``last_usage.thinking_tokens``; and the SDK's own retry
(``HttpRetryOptions``, per request) built from the backend's ``RetryPolicy`` for 408, 429,
5xx, timeouts and refused connections. A dropped connection mid-answer is not among what the
SDK retries, so ``complete_json``'s own loop retries that one (``_retry_here``).

The API key is read lazily from a callable, and never logged or written anywhere.
"""

from __future__ import annotations

import json
import logging
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from ..errors import (AuthFailed, BackendError, BackendUnreachable, KnownError, ModelNotFound,
                      RateLimited)
from ..tokens import count_turns
from ..types import Coded, Turn, Usage
from .base import Backend, Check, DoctorReport, Reply, key_source_of
from .gemini_cache import PromptCache
from .retry import RetryPolicy, note_attempts

log = logging.getLogger(__name__)


def _transport_errors() -> tuple[type[BaseException], ...]:
    """Transport exception classes: 3.x uses ``httpx2``; ``httpx`` covers a 2.x install."""
    found: list[type[BaseException]] = []
    for module in ("httpx2", "httpx"):
        try:
            found.append(__import__(module).TransportError)
        except (ImportError, AttributeError):
            pass
    return tuple(found)


def _connect_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = []
    for module in ("httpx2", "httpx"):
        try:
            found.append(__import__(module).ConnectError)
        except (ImportError, AttributeError):
            pass
    return tuple(found)


def _timeout_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = []
    for module in ("httpx2", "httpx"):
        try:
            found.append(__import__(module).TimeoutException)
        except (ImportError, AttributeError):
            pass
    return tuple(found)


TRANSPORT_ERRORS = _transport_errors()
TIMEOUT_ERRORS = _timeout_errors()
CONNECT_ERRORS = _connect_errors()
# What the SDK's HttpRetryOptions retries (besides timeouts and refused connections).
SDK_RETRY_STATUSES = (408, 429, 500, 502, 503, 504)

DEFAULT_ENDPOINT = "https://generativelanguage.googleapis.com"
DEFAULT_CONTEXT_LENGTH = 1_048_576
NO_KEY_MESSAGE = "No Gemini API key is set."
NO_KEY_HINT = "Set GEMINI_API_KEY, or store a key in Settings (kept in the OS keyring)."
KEY_HINT = ("Check the Gemini API key: set GEMINI_API_KEY, or store a new key in Settings "
            "(keys are made at https://aistudio.google.com/apikey).")



class GeminiBackend(Backend):
    """Chat and structured output through the Gemini Developer API."""

    name = "gemini"

    def __init__(self, model: str, *, api_key: Callable[[], str | None], api_version: str = "v1beta",
                 base_url: str = "", cache_ttl_s: int = 3600, timeout_s: float = 120.0,
                 state=None, flush_thinking_budget: int = 0, retry: RetryPolicy | None = None) -> None:
        super().__init__(model, retry=retry)
        self.flush_thinking_budget = flush_thinking_budget
        self._api_key = api_key
        self.api_version = api_version
        self.base_url = base_url
        self.timeout_s = timeout_s
        self._client_obj: genai.Client | None = None
        self._client_key: str | None = None
        self._client_lock = threading.Lock()
        self.cache = PromptCache(model, cache_ttl_s, state)  # state: get_state/set_state, or None
        self._input_limit: int | None = None

    # ---- Backend -------------------------------------------------------
    def _stream(self, system: str, turns: list[Turn], temperature: float | None,
                reply: Reply) -> Iterator[str]:
        estimate = count_turns(system, turns)
        contents = _contents(turns)
        with self._translated():
            client = self._client()
            for attempt in (1, 2):
                cache_name = self.cache.name_for(client, system)
                config = (types.GenerateContentConfig(cached_content=cache_name, temperature=temperature)
                          if cache_name else
                          types.GenerateContentConfig(system_instruction=system or None,
                                                      temperature=temperature))
                last = None
                yielded = False
                try:
                    for chunk in client.models.generate_content_stream(
                            model=self.model, contents=contents, config=config):
                        last = chunk
                        text = chunk.text
                        if text:
                            yielded = True
                            yield text
                except genai_errors.APIError as exc:
                    if cache_name and not yielded and attempt == 1 and exc.code in (403, 404):
                        log.warning("gemini cache %s was not usable (%s %s); recreating it",
                                    cache_name, exc.code, exc.status)
                        self.cache.forget(cache_name)
                        continue
                    raise
                break
        reply.usage = _usage(last, estimate)

    def warm(self, system: str) -> str:
        """Create (or renew) the context cache of the new system prompt now, as the next turn would."""
        with self._translated():
            name = self.cache.name_for(self._client(), system)
        return f"cache {name} holds the new system prompt" if name else ""

    def _complete_json(self, system: str, turns: list[Turn], schema: dict, temperature: float) -> str:
        # Structured calls send the system prompt plainly: flush prompts differ from the chat prompt.
        config = types.GenerateContentConfig(
            response_mime_type="application/json",
            response_json_schema=schema,  # a raw JSON-schema dict, passed through as is (3.x)
            system_instruction=system or None,
            temperature=temperature,
            thinking_config=(types.ThinkingConfig(thinking_budget=self.flush_thinking_budget)
                             if self.flush_thinking_budget >= 0 else None),
            http_options=types.HttpOptions(retry_options=self._sdk_retry()),  # merged with the client's
        )
        try:
            with self._translated():
                response = self._client().models.generate_content(
                    model=self.model, contents=_contents(turns), config=config)
        except BackendError as exc:
            if exc.transient and not self._retry_here(exc):  # the SDK spent the policy's attempts
                note_attempts(exc, self.retry.attempts)
            raise
        self.last_usage = _usage(response, count_turns(system, turns))
        return response.text or ""

    def _sdk_retry(self) -> types.HttpRetryOptions:
        """The backend's retry policy, as the SDK's per-request retry options."""
        policy = self.retry
        return types.HttpRetryOptions(attempts=max(1, policy.attempts), initial_delay=policy.base_delay_s,
                                      max_delay=policy.max_delay_s, exp_base=2, jitter=policy.jitter_s,
                                      http_status_codes=list(SDK_RETRY_STATUSES))

    def _retry_here(self, exc: BackendError) -> bool:
        """Transient errors the SDK did not already retry (a connection dropped mid-answer)."""
        cause = exc.__cause__
        sdk_retried = ((isinstance(cause, genai_errors.APIError) and cause.code in SDK_RETRY_STATUSES)
                       or isinstance(cause, TIMEOUT_ERRORS + CONNECT_ERRORS))
        return exc.transient and not sdk_retried

    def doctor(self) -> DoctorReport:
        """Key present (and where from), endpoint reachable, key accepted, model present. Never raises."""
        report = DoctorReport(self.name, self.model)
        try:
            key = self._api_key()
        except Exception as exc:  # noqa: BLE001 (a broken keyring must not break doctor)
            log.warning("gemini key lookup failed: %s", type(exc).__name__)
            key = None
        if not key:
            report.checks.append(Check("api key", False, "not set", NO_KEY_HINT, code="no_key"))
            return report
        source = key_source_of(self._api_key, "gemini_key_source")  # SecretStore says
        report.checks.append(Check("api key", True, f"set (from {source})" if source else "set"))
        endpoint = self.base_url or DEFAULT_ENDPOINT
        try:
            with self._translated():
                info = self._client().models.get(model=self.model)
        except ModelNotFound as exc:
            report.checks.append(Check("connection", True, f"{endpoint} answered and accepted the key"))
            report.checks.append(Check("model", False, exc.message, exc.hint, code=exc.code))
            return report
        except AuthFailed as exc:
            report.checks.append(Check("connection", True, f"{endpoint} answered"))
            report.checks.append(Check("key accepted", False, exc.message, exc.hint, code=exc.code))
            return report
        except KnownError as exc:
            report.checks.append(Check("connection", False, exc.message, exc.hint, code=exc.code))
            return report
        except Exception as exc:  # doctor reports; it never raises
            log.exception("gemini doctor failed")
            report.checks.append(Check("connection", False, f"unexpected error: {type(exc).__name__}",
                                       "See the log file for details.", code="bug"))
            return report
        report.checks.append(Check("connection", True, f"{endpoint} answered and accepted the key"))
        if info.input_token_limit:
            self._input_limit = int(info.input_token_limit)
        report.context_length = self.context_length()
        report.checks.append(Check("model", True, f"{self.model}, input limit {report.context_length} tokens"))
        return report

    def probe(self) -> bool:
        """True when a key is present. No network call: the automatic choice must be quick."""
        return bool(self._api_key())

    def context_length(self) -> int:
        return self._input_limit or DEFAULT_CONTEXT_LENGTH

    def where(self) -> str:
        return self.base_url or DEFAULT_ENDPOINT

    def is_local(self) -> bool:
        """Google's API is a cloud; so, deliberately, is any base_url set for it (a proxy to Google)."""
        return False

    def count_json_request(self, system: str, turns: list[Turn], schema: dict) -> int:
        """The response schema is sent with the request and read as input too."""
        schema_text = json.dumps(schema, ensure_ascii=False)
        return super().count_json_request(system, turns, schema) + self.count_text(schema_text)

    # ---- client and errors ----------------------------------------------
    def _client(self) -> genai.Client:
        """The SDK client, built on first use (and again if the key changed). Raises AuthFailed."""
        key = self._api_key()
        if not key:
            raise AuthFailed(NO_KEY_MESSAGE, NO_KEY_HINT)
        with self._client_lock:
            if self._client_obj is None or key != self._client_key:
                self._client_obj = genai.Client(api_key=key, http_options=types.HttpOptions(
                    api_version=self.api_version,  # always explicit: 3.x defaults to v1
                    base_url=self.base_url or None,
                    timeout=int(self.timeout_s * 1000),  # milliseconds
                ))
                self._client_key = key
            return self._client_obj

    def _scrub(self, text: str) -> str:
        """Remove the key from text that will be shown or logged (the API never echoes it; be sure)."""
        return text.replace(self._client_key, "***") if self._client_key else text

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Map SDK and transport exceptions to KnownErrors."""
        try:
            yield
        except genai_errors.APIError as exc:
            raise self._known(exc) from exc
        except TIMEOUT_ERRORS as exc:
            raise BackendUnreachable(
                f"Gemini did not answer within {self.timeout_s:g} s.",
                "Try again; if it keeps happening, raise gemini.timeout_s in Settings.",
                transient=True) from exc
        except TRANSPORT_ERRORS as exc:
            # Refused: nothing listens there. Anything else (reset, closed mid-answer): a passing fault.
            raise BackendUnreachable(
                f"Gemini could not be reached at {self.base_url or DEFAULT_ENDPOINT} ({type(exc).__name__}).",
                "Check your internet connection (and gemini.base_url), then try again.",
                transient=not isinstance(exc, CONNECT_ERRORS)) from exc
        except genai_errors.UnknownApiResponseError as exc:
            raise BackendError("Gemini sent an answer monchat could not read.",
                               "Check that gemini.base_url points at the Gemini API.") from exc

    def _known(self, exc: genai_errors.APIError) -> BackendError:
        code = exc.code or 0
        status = exc.status or ""
        message = self._scrub(str(exc.message or status or exc))
        log.warning("gemini call failed: %s %s: %s", code, status, message)
        key_problem = "api key" in message.lower() or "API_KEY" in self._scrub(str(exc.details))
        if code in (401, 403) or (code == 400 and key_problem):
            return AuthFailed(f"Gemini did not accept the API key ({message}).", KEY_HINT)
        if code == 429:
            return RateLimited("Gemini's rate limit was reached.",
                               "Wait a minute and try again, or check your quota in Google AI Studio.")
        if code == 404:
            return ModelNotFound(f"Gemini has no model {self.model!r} ({message}).",
                                 "Check gemini.model in Settings, e.g. gemini-2.5-flash.")
        if code == 400 and ("budget" in message.lower() or "thinking" in message.lower()):
            return BackendError(f"Gemini did not accept the thinking setting of a flush call ({message}).",
                                "Set gemini.flush_thinking_budget to what this model accepts: 128 or more "
                                "for 2.5 Pro (it cannot turn thinking off), -1 for a model without "
                                "thinking (e.g. 2.0 Flash).")
        if code == 408:
            return BackendUnreachable(f"Gemini timed out on its side ({code} {status}).",
                                      "Try again; if it keeps happening, wait a few minutes.", transient=True)
        if 400 <= code < 500:
            return BackendError(f"Gemini rejected the request ({code} {status}): {message}",
                                "This is likely a monchat bug; please report it with the log file.")
        if 500 <= code < 600:
            return BackendError(f"Gemini had a server error ({code} {status}).",
                                "If it keeps happening, wait a few minutes or choose another model.",
                                transient=code in SDK_RETRY_STATUSES)
        return BackendError(f"Gemini answered with an unexpected status {code}: {message}", "Try again.")



def _contents(turns: list[Turn]) -> list[types.Content]:
    return [types.Content(role="model" if t.role == "assistant" else "user", parts=[types.Part(text=t.content)])
            for t in turns]


def _usage(last, estimate: int) -> Usage:
    """Usage from a response or the last stream chunk (final counts come there), with early-stop warnings."""
    usage = Usage(estimated_prompt_tokens=estimate)
    if last is None:
        return usage
    meta = last.usage_metadata
    if meta is not None:
        usage.prompt_tokens = meta.prompt_token_count
        usage.output_tokens = meta.candidates_token_count
        usage.cached_tokens = meta.cached_content_token_count
        usage.thinking_tokens = meta.thoughts_token_count
    feedback = last.prompt_feedback
    if feedback is not None and feedback.block_reason:
        usage.warnings.append(Coded(f"Gemini blocked the prompt ({_enum_name(feedback.block_reason)}).", "blocked"))
    if last.candidates:
        reason = last.candidates[0].finish_reason
        if reason and reason != types.FinishReason.STOP:
            usage.warnings.append(Coded(f"Gemini ended the reply early ({_enum_name(reason)}).", "ended_early"))
    return usage


def _enum_name(value) -> str:
    return str(getattr(value, "value", value))
