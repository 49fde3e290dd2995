"""What Ollama says about itself and its models, for the calls (``ollama.py``) and ``monchat doctor``
(``ollama_doctor.py``) alike: the errors its client raises, the durations it reads, and ``/api/show``'s
size and trained context."""

from __future__ import annotations

import json
import re

import httpx
import ollama

from .model_size import ModelSize

# What the client can raise for one call; everything else is our bug.
CLIENT_ERRORS = (ollama.ResponseError, ConnectionError, httpx.TransportError, json.JSONDecodeError)

NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)$")
# Go's time.ParseDuration, which Ollama uses for a string keep_alive ("30m", "1h30m", "-1s").
GO_DURATION = re.compile(r"^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$")


def keep_alive_value(text: str) -> float | str:
    """Ollama reads a string keep_alive as a Go duration, so bare numbers go as seconds."""
    text = text.strip()
    if NUMBER.match(text):
        number = float(text)
        return int(number) if number.is_integer() else number
    return text


def model_size_of(info: ollama.ShowResponse) -> ModelSize | None:
    """What ``/api/show`` says of the model's size."""
    stated = info.details.parameter_size if info.details else None
    size = ModelSize.from_label(stated) if stated else None
    count = (info.modelinfo or {}).get("general.parameter_count")
    if size is None and isinstance(count, int) and count > 0:
        size = ModelSize.of(count)
    return size


def trained_context(info: ollama.ShowResponse) -> int | None:
    """The model's trained context: ``model_info["<arch>.context_length"]``."""
    model_info = info.modelinfo or {}
    arch = model_info.get("general.architecture")
    trained = model_info.get(f"{arch}.context_length") if arch else None
    return trained if isinstance(trained, int) else None


def size_note(info: ollama.ShowResponse) -> str:
    details = info.details
    parts = [p for p in (details.parameter_size, details.quantization_level) if p] if details else []
    return f" ({', '.join(parts)})" if parts else ""
