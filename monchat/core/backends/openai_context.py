"""The context an OpenAI-compatible server's model is loaded with, from what the server says.

Asked once per backend object, in this order (``OpenAICompatBackend.context_length``):

1. ``openai.context_length`` when set: the user's word stands.
2. What a request over the context taught earlier, remembered for the address (state
   ``openai.context.<base url>``, like the JSON mode).
3. What the server states: its model list (vLLM ``max_model_len``, OpenRouter ``context_length``, LM Studio
   ``loaded_context_length``/``max_context_length``), else llama.cpp's ``llama-server`` ``GET /props``
   (``default_generation_settings.n_ctx``, the context of one slot).
4. 4,096 (LM Studio's default for a loaded model).

llama-cpp-python's ``llama_cpp.server`` states nothing (its ``/v1/models`` lists ids only; its own default
n_ctx is 2,048), so its context is learned from its answers — once up front (its ``/openapi.json`` says which
server it is; a request of 4,096 tokens, refused at once by a smaller context, names it — a larger context
evaluates it instead, once per address, the wait bounded by doctor's 5 s), and by any server when a request
meets it:

- a streamed request over its context gets 200 and an empty stream; the same request sent again without
  streaming (one token at most) is refused at once, before any prompt is evaluated, with a 400 naming the
  context ("This model's maximum context length is 2048 tokens"); llama-server says "exceeds the available
  context size (2048 tokens)", vLLM and OpenAI "maximum context length is N tokens";
- a request that fits but leaves its answer less room than asked ends with ``finish_reason`` "length" long
  before ``max_tokens`` (llama_cpp.server shrinks the answer to what is left of its context); a request of
  the assumed context's size, refused at once, then names the context.

When the refusal names no number, the assumed context is lowered all the same (halved, or to what the cut
answer showed). What is learned is remembered and raised as ``ContextShrank``: the same request would fail
again, so the flush plans its requests anew (``asking/ask.py`` ``planned_again``).
"""

from __future__ import annotations

import logging
import re

import httpx
import openai

from ..errors import ContextShrank
from .openai_errors import CONTEXT_HINT, error_text

log = logging.getLogger(__name__)

ASSUMED = 4096  # when nothing says otherwise (LM Studio's default for a loaded model)
NO_KEY = "not-needed"  # as openai_compat sends a local server
CONTEXT_KEY = "openai.context.{url}"  # the context learned from the server's answers, in tokens
CONTEXT_FIELDS = ("max_model_len", "context_length", "loaded_context_length", "max_context_length")
NAMED_CONTEXT = re.compile(r"(?:maximum context length is|context window of|context size \(|context length of|"
                           r"n_ctx\W{0,3})\s*(\d{3,7})", re.IGNORECASE)
ROUNDING = 256  # a context estimated from a cut answer is rounded down to this
LOWEST = 512  # never assumed lower: a flush does not fit under 2,048 anyway, and its error then says so


def context_in_text(text: str) -> int | None:
    """The context an error text names ("maximum context length is 2048 tokens"), or None."""
    found = NAMED_CONTEXT.search(text or "")
    return int(found.group(1)) if found else None


def listed_context(entries: list, model: str) -> int | None:
    """The context the model list states for ``model`` (any model when none is set), or None."""
    for entry in entries:
        if model and entry.id != model:
            continue
        extra = entry.model_extra or {}
        for name in CONTEXT_FIELDS:
            value = extra.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
        if model:
            break
    return None


def root_json(base_url: str, path: str, api_key: str, timeout_s: float):
    """What ``GET`` of ``path`` at the server's root (beside ``/v1``) answers, read as JSON; None unless a 200.

    Raises:
        httpx.HTTPError: no answer. ValueError: an answer that is not JSON.
    """
    root = base_url.rstrip("/")
    root = root[:-3] if root.endswith("/v1") else root
    answer = httpx.get(f"{root}/{path}", headers={"Authorization": f"Bearer {api_key}"}, timeout=timeout_s)
    return answer.json() if answer.status_code == 200 else None


def props_context(base_url: str, api_key: str, timeout_s: float) -> int | None:
    """llama-server's ``GET /props`` (at the server's root, beside ``/v1``): the context of one slot, or None
    for a server without it (a 404, anything not of its shape, no answer)."""
    try:
        body = root_json(base_url, "props", api_key, timeout_s)
    except (httpx.HTTPError, ValueError) as exc:
        log.info("openai: the /props beside %s could not be read (%s)", base_url, exc)
        return None
    settings = body.get("default_generation_settings") if isinstance(body, dict) else None
    value = settings.get("n_ctx") if isinstance(settings, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def is_llama_cpp_python(base_url: str, api_key: str, timeout_s: float) -> bool:
    """Whether the server is llama-cpp-python's ``llama_cpp.server`` (its ``/openapi.json`` title), which states
    no context: it is then asked with one request of the assumed context's size (``filler``), refused at once
    when its context is smaller (its own default is 2,048) — once per address, remembered."""
    try:
        body = root_json(base_url, "openapi.json", api_key, timeout_s)
        info = body.get("info") if body is not None else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return False
    return isinstance(info, dict) and "llama.cpp python" in str(info.get("title", "")).lower()


def refusal_of(client: openai.OpenAI, model: str, messages: list[dict]) -> str | None:
    """Send ``messages`` once without streaming, one answer token at most, and return the server's refusal
    (its error text), or None when it answered (the request fits) or could not be asked. A request over the
    context is refused before its prompt is evaluated, so this costs next to nothing when it is."""
    try:
        client.chat.completions.create(model=model, messages=messages, max_tokens=1, stream=False)  # type: ignore[arg-type]  # plain role/content dicts; the SDK wants its TypedDicts
    except openai.APIStatusError as exc:
        return error_text(exc) or f"status {exc.status_code}"
    except openai.OpenAIError as exc:
        log.info("openai: the context probe failed (%r)", exc)
        return None
    return None


def filler(tokens: int) -> list[dict]:
    """A request of about ``tokens`` tokens ("a" is one token in every tokenizer monchat meets), to learn
    whether a context is smaller than that: a server refuses it at once, naming its context."""
    return [{"role": "user", "content": "a " * tokens}]


def lowered(assumed: int, refusal: str, estimate: int | None) -> int | None:
    """The context to assume after ``refusal``: the number it names; else, when it speaks of the context,
    ``estimate`` (what a cut answer showed) or half of ``assumed``; else None (not about the context)."""
    named = context_in_text(refusal)
    if named:
        return named
    if "context" not in refusal.lower() and "too long" not in refusal.lower():
        return None
    guess = estimate // ROUNDING * ROUNDING if estimate else assumed // 2
    return max(LOWEST, guess)


def server_context(backend, entries: list) -> int | None:
    """What ``backend``'s server states (its model list, else llama-server's ``/props``), else — for
    llama_cpp.server, asked once per address and remembered — its refusal of a request of the assumed size."""
    key = backend._api_key() or NO_KEY
    stated = listed_context(entries, backend.model) or props_context(backend.base_url, key, backend.DOCTOR_TIMEOUT_S)
    if stated or backend._stored(CONTEXT_KEY) or not is_llama_cpp_python(backend.base_url, key,
                                                                          backend.DOCTOR_TIMEOUT_S):
        return stated
    client = backend._client(backend.DOCTOR_TIMEOUT_S)
    try:
        refusal = refusal_of(client, backend._model(), filler(ASSUMED))
    finally:
        client.close()
    context = min(ASSUMED, context_in_text(refusal or "") or ASSUMED)
    log.info("openai: llama_cpp.server at %s has a context of %s tokens", backend.base_url, context)
    backend._store(CONTEXT_KEY, str(context))
    return context


def learn_context(backend, messages: list[dict], estimate: int | None = None) -> None:
    """After an answer showing a request over the server's context (an empty stream; an answer cut at "length"
    long before ``max_tokens``): ask the server what its context is — ``messages`` sent without streaming,
    refused at once when over it — and raise ``ContextShrank`` with it, remembered for the address. Returns
    when ``openai.context_length`` is set (the user's word stands) or the answer is not about the context."""
    assumed = backend.context_length()
    if backend._context_setting > 0:
        return
    refusal = refusal_of(backend._client(), backend._model(), messages)
    context = lowered(assumed, refusal, estimate) if refusal else None
    # A request planned before another call learned the context (a flush's parallel call) fails at once too.
    if context is None or context > assumed or (context == assumed and context != backend._learned):
        return
    if context < assumed:
        log.warning("openai: %s has a context of %s tokens, not %s (%s)", backend.base_url, context, assumed,
                    refusal)
        backend._store(CONTEXT_KEY, str(context))
        backend._learned = context
    raise ContextShrank(f"The server at {backend.base_url} has a context of {context} tokens, less than monchat "
                        "assumed; it remembers it and fits its requests to it.",
                        "Ask again (a flush plans its requests again by itself). " + CONTEXT_HINT, context=context)
