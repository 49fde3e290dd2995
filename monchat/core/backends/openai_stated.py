"""What an OpenAI-compatible server states about its model beyond ``/v1/models``: its context and its size.

Each server says it in its own place, all read with a short GET and nothing evaluated:

- llama.cpp's ``llama-server``: ``GET /props`` ``default_generation_settings.n_ctx`` (the context one slot is
  loaded with); ``/v1/models`` ``meta.n_ctx_train`` (what the model was trained for: the most it can be loaded
  with) and ``meta.n_params``;
- LM Studio: ``GET /api/v1/models`` (0.4) ``models[].loaded_instances[].config.context_length``,
  ``max_context_length`` and ``params_string`` ("270M"); ``GET /api/v0/models/{model}`` (0.3.6)
  ``loaded_context_length`` and ``max_context_length``;
- Ollama (its ``/v1``): ``POST /api/show`` — ``parameters`` ``num_ctx`` when the model sets it, else Ollama's own
  default for ``/v1`` requests, which it does not state (then assumed); ``model_info["<arch>.context_length"]``
  bounds it; ``details.parameter_size``; a loaded model's ``context_length`` in ``GET /api/ps``.

A context that is only an upper bound (a model's largest, its trained one) is used as stated and lowered by
the first refusal (``openai_context.learn_context``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import httpx

from .model_size import ModelSize

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Stated:
    """What a server said: its context (and where it said it), and its model's size."""

    context: int | None = None
    source: str = ""  # e.g. "LM Studio's loaded context"
    size: ModelSize | None = None


def _count(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _root(base_url: str) -> str:
    root = base_url.rstrip("/")
    return root[:-3] if root.endswith("/v1") else root


def _get(client: httpx.Client, url: str):
    answer = client.get(url)
    return answer.json() if answer.status_code == 200 else None


def lm_studio(client: httpx.Client, root: str, model: str) -> Stated | None:
    """LM Studio's own REST API (v1, else v0): the loaded context, else the model's largest; its size."""
    body = _get(client, f"{root}/api/v1/models")
    for entry in (body.get("models") if isinstance(body, dict) else None) or []:
        if not isinstance(entry, dict) or (model and entry.get("key") != model):
            continue
        size = ModelSize.from_label(str(entry.get("params_string") or ""))
        for instance in entry.get("loaded_instances") or []:
            loaded = _count(((instance or {}).get("config") or {}).get("context_length"))
            if loaded:
                return Stated(loaded, "LM Studio's loaded context", size)
        largest = _count(entry.get("max_context_length"))
        return Stated(largest, "LM Studio's largest context for the model" if largest else "", size)
    if not model:
        return None
    body = _get(client, f"{root}/api/v0/models/{model}")
    if isinstance(body, dict) and body.get("id") == model:
        loaded = _count(body.get("loaded_context_length"))
        if loaded:
            return Stated(loaded, "LM Studio's loaded context")
        largest = _count(body.get("max_context_length"))
        return Stated(largest, "LM Studio's largest context for the model" if largest else "")
    return None


NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


def ollama(client: httpx.Client, root: str, model: str) -> Stated | None:
    """Ollama's ``/api/ps`` (a loaded model's context), ``/api/show`` (num_ctx, trained context, size)."""
    version = _get(client, f"{root}/api/version")
    if not (isinstance(version, dict) and "version" in version) or not model:
        return None
    answer = client.post(f"{root}/api/show", json={"model": model})
    show = answer.json() if answer.status_code == 200 else {}
    details = show.get("details") or {}
    size = ModelSize.from_label(str(details.get("parameter_size") or ""))
    info = show.get("model_info") or {}
    arch = info.get("general.architecture")
    trained = _count(info.get(f"{arch}.context_length")) if arch else None
    running = _get(client, f"{root}/api/ps")
    for entry in (running.get("models") if isinstance(running, dict) else None) or []:
        if isinstance(entry, dict) and entry.get("name") in (model, f"{model}:latest"):
            loaded = _count(entry.get("context_length"))
            if loaded:
                return Stated(loaded, "Ollama's loaded context", size)
    found = NUM_CTX.search(str(show.get("parameters") or ""))
    if found:
        set_ctx = int(found.group(1))
        return Stated(min(set_ctx, trained) if trained else set_ctx, "the model's num_ctx in Ollama", size)
    return Stated(None, "", size)  # Ollama's own default for /v1 is not stated: assumed


def stated(base_url: str, api_key: str, model: str, timeout_s: float) -> Stated:
    """What LM Studio's or Ollama's own API states for ``model`` (nothing from other servers: a 404 each)."""
    root = _root(base_url)
    try:
        with httpx.Client(headers={"Authorization": f"Bearer {api_key}"}, timeout=timeout_s) as client:
            for ask in (lm_studio, ollama):
                found = ask(client, root, model)
                if found is not None:
                    return found
    except (httpx.HTTPError, ValueError, AttributeError, TypeError) as exc:
        log.info("openai: %s states no context or size beyond /v1/models (%r)", base_url, exc)
    return Stated()
