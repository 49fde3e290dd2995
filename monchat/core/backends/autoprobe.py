"""The automatic backend choice's checks: one short plain HTTP request each, no SDK imported.

The choice runs at every start (``status``, the GUI's first context meter) and mostly
finds nothing listening, so it must not import ``ollama``, ``openai`` or ``llama_cpp``
(hundreds of milliseconds each) to learn that. Each check asks the same question the
adapter's own ``probe()`` asks: Ollama's ``POST /api/show`` for the model, an
OpenAI-compatible server's ``GET /models`` for the model (or any chat model when none
is set). A check never raises: anything but a clear yes is no.
"""

from __future__ import annotations

import json
import logging
import socket
import urllib.parse
from typing import Callable

log = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 1.5  # as the adapters' probe(): a server on this network answers far sooner
NO_KEY = "not-needed"  # the adapter's stand-in: local servers ignore the key


def _failures() -> tuple[type[BaseException], ...]:
    import http.client  # here, not at the top: the GUI starts without it and probes on a worker

    return (OSError, http.client.HTTPException, ValueError, UnicodeError, AttributeError)


def _request(url: str, method: str, path: str, body: dict | None, headers: dict[str, str],
             timeout_s: float) -> tuple[int, bytes]:
    import http.client

    split = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if split.scheme == "https" else http.client.HTTPConnection
    connection = kind(split.hostname or "127.0.0.1", split.port, timeout=timeout_s)
    try:
        connection.connect()
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        data = json.dumps(body).encode("utf-8") if body is not None else None
        sent = {"Accept": "application/json", **headers}
        if data is not None:
            sent["Content-Type"] = "application/json"
        connection.request(method, split.path.rstrip("/") + path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def ollama_has_model(host: str, model: str, timeout_s: float = PROBE_TIMEOUT_S) -> bool:
    """True when the Ollama server at ``host`` answers and has ``model``."""
    try:
        status, _ = _request(host, "POST", "/api/show", {"model": model}, {}, timeout_s)
    except _failures() as exc:
        log.info("Ollama probe of %s at %s failed: %r", model, host, exc)
        return False
    if status != 200:
        log.info("Ollama probe of %s at %s: HTTP %s", model, host, status)
    return status == 200


def openai_has_model(base_url: str, model: str, api_key: Callable[[], str | None],
                     timeout_s: float = PROBE_TIMEOUT_S) -> bool:
    """True when the server at ``base_url`` lists ``model`` (or, with no model set, any chat model).

    The key is looked up (environment, then the OS keyring) only when the server asks for one.
    """
    try:
        status, raw = _request(base_url, "GET", "/models", None, {"Authorization": f"Bearer {NO_KEY}"}, timeout_s)
        if status in (401, 403):
            key = api_key()
            if key:
                status, raw = _request(base_url, "GET", "/models", None, {"Authorization": f"Bearer {key}"},
                                       timeout_s)
        if status != 200:
            log.info("openai probe of %s: HTTP %s", base_url, status)
            return False
        entries = json.loads(raw).get("data") or []
        ids = [str(entry.get("id", "")) for entry in entries if isinstance(entry, dict)]
    except _failures() as exc:
        log.info("openai probe of %s failed: %r", base_url, exc)
        return False
    return model in ids if model else any(i and "embed" not in i.lower() for i in ids)
