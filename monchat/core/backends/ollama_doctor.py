"""``monchat doctor`` for Ollama (kept apart from the calls in ``ollama.py``): server, model, context, keep_alive.

Short timeouts of its own; an unreachable server is a failed check, never an exception.
"""

from __future__ import annotations

import logging

import httpx
import ollama

from .base import Check, DoctorReport
from .model_size import small_model_check
from .ollama_info import CLIENT_ERRORS, GO_DURATION, NUMBER, model_size_of, size_note, trained_context

log = logging.getLogger(__name__)


def _server_version(host: str, timeout_s: float) -> str:
    """GET /api/version (the client has no call for it). Raises httpx/ValueError/KeyError."""
    response = httpx.get(f"{host}/api/version", timeout=timeout_s)
    response.raise_for_status()
    return str(response.json()["version"])


def ollama_doctor(backend) -> DoctorReport:
    """``monchat doctor``'s checks of Ollama: the server, the model, num_ctx against the model's context, keep_alive."""
    report = DoctorReport(backend.name, backend.model, context_length=backend.num_ctx)
    timeout_s = min(backend.timeout_s, backend.DOCTOR_TIMEOUT_S)
    try:
        version = _server_version(backend.host, timeout_s)
    except httpx.TransportError as exc:
        error = backend._translate(exc, timeout_s)
        report.checks.append(Check("server", False, error.message, error.hint, code=error.code))
        report.checks.append(_keep_alive_check(backend))
        return report
    except (httpx.HTTPStatusError, ValueError, KeyError) as exc:
        log.info("Ollama doctor: %s answered, but not like Ollama: %r", backend.host, exc)
        report.checks.append(Check("server", False, f"{backend.host} answered, but not like Ollama.",
                                   "Check ollama.host in settings / OLLAMA_HOST.", code="not_ollama"))
        report.checks.append(_keep_alive_check(backend))
        return report
    report.checks.append(Check("server", True, f"Ollama {version} at {backend.host}"))

    client = ollama.Client(host=backend.host, timeout=timeout_s)
    try:
        info = client.show(backend.model)
    except CLIENT_ERRORS as exc:
        error = backend._translate(exc, timeout_s)
        report.checks.append(Check("model", False, error.message, error.hint, code=error.code))
        info = None
    finally:
        client.close()
    if info is not None:
        report.checks.append(Check("model", True, f"{backend.model} is installed{size_note(info)}"))
        size = model_size_of(info)
        if size is not None and size.small:
            report.checks.append(small_model_check(size))
        trained = trained_context(info)
        report.checks.append(_context_check(backend, trained))
        if trained is not None and trained < backend.num_ctx:
            report.context_length = trained  # Ollama clamps num_ctx to the trained length
    report.checks.append(_keep_alive_check(backend))
    return report


def _context_check(backend, trained: int | None) -> Check:
    if trained is None:
        return Check("context", True,
                     f"num_ctx={backend.num_ctx} (the model does not state its trained context)")
    if backend.num_ctx > trained:
        return Check("context", True,
                     f"num_ctx={backend.num_ctx} is more than {backend.model}'s trained context ({trained}); "
                     f"Ollama will use {trained}.",
                     f"Set ollama.num_ctx to {trained} or less in settings.")
    return Check("context", True, f"num_ctx={backend.num_ctx} (the model was trained for {trained})")


def _keep_alive_check(backend) -> Check:
    text = backend.keep_alive.strip()
    if NUMBER.match(text) or GO_DURATION.match(text):
        return Check("keep_alive", True, f"keep_alive={text} (how long the model stays loaded)")
    return Check("keep_alive", False, f"keep_alive={text!r} is not a duration Ollama understands.",
                 "Set ollama.keep_alive like 30m, 2h, or -1 to keep the model loaded.", code="bad_keep_alive")
