"""Warm start after a flush: the next chat turn's backend is given the new system prompt ahead of it.

A flush saves a new memory selection, so the next turn's system prompt is new and the backend's
prompt cache misses once. ``warm`` sends that prompt now, off the chat's path (the GUI runs it on a
worker after a flush, ``monchat flush --warm`` after the summary): Gemini creates the context cache,
Ollama loads the model and evaluates the prompt, the embedded model evaluates it into llama.cpp's KV
cache, an OpenAI-compatible server has nothing to warm (``Backend.warm``). It is only ever a help:
a failure is logged and returned as text, never raised; a cloud the user has not agreed to send to
yet is not warmed (the first message asks, as always).
"""

from __future__ import annotations

import logging

from ..errors import KnownError
from ..privacy.cloud import CloudConsent, destination

log = logging.getLogger(__name__)


def warm(chat, consent: CloudConsent, persona_id: str | None = None) -> str:
    """Warm the backend the next turn with ``persona_id`` (default: the current persona) goes to.

    Returns what happened, for the log and ``monchat flush --warm``.
    """
    try:
        persona = chat.persona(persona_id)
        backend = chat.backend_for(persona)
        if consent.needed(destination(backend)):
            done = f"not warmed: {backend.describe()} is a cloud you have not agreed to send to yet"
        else:
            done = backend.warm(chat.system_prompt(persona)) or f"nothing to warm on {backend.describe()}"
    except KnownError as exc:  # a warm-up is a help only: the next turn reports a real problem itself
        log.warning("warm start failed: %s", exc.message)
        return f"warm start failed: {exc.message}"
    log.info("warm start: %s", done)
    return done


def warm_task(chat, consent: CloudConsent, persona_id: str | None):
    """``warm`` as a worker's task (it is given the runner's progress report, which it does not need)."""
    return lambda _report: warm(chat, consent, persona_id)
