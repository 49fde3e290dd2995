"""The context an OpenAI-compatible server's model is loaded with, from what the server says.

Asked once per backend object, in this order (``OpenAICompatBackend.context_length``):

1. ``openai.context_length`` when set: the user's word stands.
2. What a request over the context taught earlier, remembered for the address (state
   ``openai.context.<base url>``, like the JSON mode).
3. What the server states (``server_context``): its model list (vLLM ``max_model_len``, OpenRouter
   ``context_length``), llama.cpp's ``llama-server`` ``GET /props`` (``default_generation_settings.n_ctx``, the
   context of one slot), LM Studio's and Ollama's own APIs (``openai_stated.py``), llama-server's trained
   context (``meta.n_ctx_train``, an upper bound).
4. llama-cpp-python's ``llama_cpp.server`` states nothing (its ``/v1/models`` lists ids only; its
   ``/openapi.json`` says which server it is): it is sent one probe of ``PROBE_TOKENS`` tokens, far over any
   context, which it refuses at tokenization naming its context — about a second, whatever the context (an
   8,192 server evaluated the 4,096-token probe of before for minutes). Remembered for the address.
5. 4,096 (LM Studio's default for a loaded model), logged and shown as assumed, never as a fact.

Any server teaches its context again when a request meets it (a server restarted with a smaller one):

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
import time

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
PROBE_TOKENS = 1 << 20  # a probe's prompt: far over any context a server is loaded with, so it is refused
PROBE_DEADLINE_S = 10.0  # a probe not refused by then has its connection closed (tokenizing 1M: ~1 s here)
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


def trained_context(entries: list, model: str) -> int | None:
    """llama-server's ``meta.n_ctx_train`` in ``/v1/models``: the most the model can be loaded with."""
    for entry in entries:
        if not model or entry.id == model:
            meta = (entry.model_extra or {}).get("meta")
            value = meta.get("n_ctx_train") if isinstance(meta, dict) else None
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
    return None


def server_context(backend, entries: list) -> tuple[int | None, str]:
    """The context ``backend``'s server states, and where (``openai_stated``); else — llama_cpp.server, which
    states nothing — its refusal of a probe far over any context (``probe_context``); else (None, "")."""
    key = backend._api_key() or NO_KEY
    listed = listed_context(entries, backend.model)
    if listed:
        return listed, "as the server's model list says"
    props = props_context(backend.base_url, key, backend.DOCTOR_TIMEOUT_S)
    if props:
        return props, "as the server's /props says"
    other = backend._stated()
    if other.context:
        return other.context, f"as the server says ({other.source})"
    trained = trained_context(entries, backend.model)
    if trained:
        return trained, "the model's trained context, as the server says (lowered at the first refusal)"
    if not backend._stored(CONTEXT_KEY) and is_llama_cpp_python(backend.base_url, key, backend.DOCTOR_TIMEOUT_S):
        probed = probe_context(backend)
        if probed:
            return probed, "learned from the server's refusal of a probe"
    return None, ""


def probe_context(backend) -> int | None:
    """Ask a server that states no context for it: a prompt of ``PROBE_TOKENS`` tokens, far over any context a
    server loads, which it refuses when it tokenizes it, naming its context ("maximum context length is 8192
    tokens") — never one it evaluates. Past ``PROBE_DEADLINE_S`` the connection is closed (the client's
    timeout), so a server that started computing it anyway is not left waiting on an answer nobody reads.
    What it names is remembered for the address; None when it named nothing (the context is then assumed)."""
    started = time.monotonic()
    client = backend._client(PROBE_DEADLINE_S)
    try:
        refusal = refusal_of(client, backend._model(), filler(PROBE_TOKENS))
    finally:
        client.close()
    context = context_in_text(refusal or "")
    if context is None:
        log.warning("openai: %s named no context when probed (%s); %s tokens assumed", backend.base_url,
                    refusal or "no refusal in time", ASSUMED)
        return None
    log.info("openai: %s has a context of %s tokens (learned in %.1f s)", backend.base_url, context,
             time.monotonic() - started)
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
