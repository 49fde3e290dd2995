"""What the ``openai`` client raised, and what a server's answer said, in monchat's terms.

``translate`` maps the client's exceptions to ``KnownError``s with a hint (transient where asking
again may help); ``rejects_schema`` recognises a server refusing ``response_format`` whatever status
it uses for it (LM Studio 400, vLLM 400/422, llama-cpp-python's ``llama_cpp.server`` 500 with a
pydantic traceback); ``stream_cut_off`` words a stream that ended without a ``finish_reason``; ``no_api``
an address that is no OpenAI-compatible API.
"""

from __future__ import annotations

import logging

import openai

from ..errors import (AuthFailed, BackendError, BackendUnreachable, KnownError, RateLimited, ReplyCutOff)

log = logging.getLogger(__name__)

TRANSIENT_STATUSES = {429, 500, 502, 503, 504}
KEY_HINT = ("Set OPENAI_API_KEY, or store the server's key with `monchat settings openai-key` or in Settings "
            "(kept in the OS keyring, never in monchat's files).")
JSON_MODE_HINT = ("Set openai.json_mode to json_object (`monchat settings set openai.json_mode json_object`) "
                  "for a server that takes no JSON schema.")
CONTEXT_HINT = "Set openai.context_length to the context the server's model is loaded with (llama_cpp.server: --n_ctx)."
MAX_TEXT = 300  # characters of a server's error text kept in a message (a traceback says nothing more)


def translate(exc: Exception, base_url: str, timeout_s: float) -> KnownError:
    """Map what the openai client raised to a KnownError with a hint (a 404 is the caller's: see ``_not_found``)."""
    log.info("openai call to %s failed: %r", base_url, exc)
    if isinstance(exc, openai.APITimeoutError):
        return BackendUnreachable(f"The server at {base_url} did not answer within {timeout_s:g} s.",
                                  "Check that the server is not stuck; a large model may need a higher "
                                  "openai.timeout_s in settings.", transient=True)
    if isinstance(exc, openai.APIConnectionError):
        if refused(exc):
            return BackendUnreachable(
                f"Nothing answers at {base_url} — is LM Studio's server running?",
                "Start the server (LM Studio: Developer → Start Server; or `llama-server`), or set "
                "openai.base_url in settings / OPENAI_BASE_URL.")
        return BackendUnreachable(f"The connection to {base_url} broke ({error_text(exc)}).",
                                  "Check that the server is still running, then try again.", transient=True)
    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return AuthFailed(f"The server at {base_url} did not accept the API key ({error_text(exc)}).", KEY_HINT)
    if isinstance(exc, openai.RateLimitError):
        return RateLimited(f"The server at {base_url} is busy or over its rate limit.", "Wait a moment and try again.")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        text = error_text(exc)
        if rejects_schema(exc):  # never transient: the same request fails the same way
            return BackendError(f"The server at {base_url} refused the answer format ({status}): {text}",
                                JSON_MODE_HINT)
        if "context" in text.lower() and status < 500:
            return BackendError(f"The server at {base_url} refused the request: {text}", CONTEXT_HINT)
        if status >= 500:
            return BackendError(f"The server at {base_url} failed ({status}): {text}",
                                "Try again; if it keeps failing, read the server's log.",
                                transient=status in TRANSIENT_STATUSES)
        return BackendError(f"The server at {base_url} refused the request ({status}): {text}",
                            "Check openai.model and openai.base_url in settings.")
    if isinstance(exc, openai.APIError):  # an error event in the middle of a stream
        return BackendError(f"The server at {base_url} failed mid-answer: {error_text(exc)}",
                            "Try again; if it keeps failing, read the server's log.", transient=True)
    return BackendError(f"The openai client failed: {exc}", "Check the openai settings.")


def stream_cut_off(base_url: str, anything: bool) -> ReplyCutOff:
    """A stream that ended without a ``finish_reason``; ``anything``: whether any chunk arrived at all."""
    if not anything:  # llama_cpp.server answers a request over its context with 200 and an empty stream
        return ReplyCutOff(f"The server at {base_url} answered with an empty stream (no reply, no reason): the "
                           "request may be over the context its model is loaded with.", CONTEXT_HINT)
    return ReplyCutOff(f"The server at {base_url} ended the reply before it finished (no finish reason): "
                       "another request may have interrupted it.",
                       "Ask again; a server that runs one request at a time cuts a reply off when another "
                       "request arrives (monchat's flush then asks it one call at a time).")


def no_api(base_url: str, exc: Exception) -> BackendError:
    """What answers at ``base_url`` is no OpenAI-compatible API (its model list is a 404)."""
    return BackendError(f"{base_url} has no OpenAI-compatible API ({error_text(exc)}).",
                        "Check openai.base_url: it usually ends in /v1 (LM Studio: http://127.0.0.1:1234/v1).")


def error_text(exc: Exception) -> str:
    """The server's own words for an error, shortened: a traceback's first lines say what went wrong."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message:
            text = message
    text = text or getattr(exc, "message", None) or str(exc)
    text = text.split("\n\n  File ")[0].strip()  # llama_cpp.server appends the Python traceback
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def rejects_schema(exc: Exception) -> bool:
    """An error of any status whose text names ``response_format`` or ``json_schema``: the server does not
    take the answer format asked for (400 LM Studio/vLLM, 422 a strict validator, 500 llama_cpp.server)."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code in (401, 403, 404, 429):
        return False
    text = error_text(exc).lower()
    return "response_format" in text or "json_schema" in text


def refused(exc: BaseException) -> bool:
    """Whether a connection error is "nothing listens there" rather than a dropped connection."""
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError) or type(cause).__name__ == "ConnectError":
            return True
        cause = cause.__cause__ or cause.__context__
    return False
