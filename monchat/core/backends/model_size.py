"""How big a backend's model is, when it can tell: its parameter count.

A model under ``SMALL_BELOW`` parameters (the embedded SmolLM2-135M) copies its prompt, invents
placeholders and misreads who said what: memory built with it is unreliable, so the app says so and
a flush with it puts nothing into lasting memory unasked (``memory/transitions.py``). Each backend
reports what its server states (``Backend.model_size``): a GGUF file's ``general.size_label`` (or
its tensors counted), Ollama's ``details.parameter_size`` ("135M", "4.3B"), llama.cpp's
``meta.n_params`` in ``/v1/models``, LM Studio's ``params_string``; else the model's name says it
("SmolLM2-135M-Instruct.Q4_1.gguf", "qwen2.5:0.5b"). A model whose size is unknown is not called small.
"""

from __future__ import annotations

import logging
import re
import struct
from dataclasses import dataclass
from pathlib import Path

from .checks import Check

log = logging.getLogger(__name__)

SMALL_BELOW = 1_000_000_000  # parameters; a model below it is "small"
SUGGESTION = ("a larger model through Ollama (e.g. `ollama pull gemma3:4b`), LM Studio or another "
              "OpenAI-compatible server, or Gemini")
_SCALE = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
_LABEL = re.compile(r"^\s*(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*([kmbt])\s*$", re.I)


@dataclass(frozen=True)
class ModelSize:
    """A model's parameter count and the label it was stated with."""

    parameters: int
    label: str

    @property
    def small(self) -> bool:
        return self.parameters < SMALL_BELOW

    @classmethod
    def of(cls, parameters: int) -> "ModelSize":
        return cls(parameters, size_label(parameters))

    @classmethod
    def from_label(cls, label: str) -> "ModelSize | None":
        parameters = parse_size_label(label)
        return cls(parameters, label.strip()) if parameters else None

    def to_dict(self) -> dict:
        return {"parameters": self.parameters, "label": self.label, "small": self.small}


def small_model_check(size: ModelSize) -> Check:
    """``monchat doctor``'s line for a small model: it works, but memory built with it is unreliable."""
    return Check("model size", True, f"{size.label} parameters: a small model; memory built with it will be "
                 f"unreliable, and a flush puts nothing into lasting memory without your approval. For memory "
                 f"you can rely on use {SUGGESTION}.", f"For memory you can rely on use {SUGGESTION}.",
                 code="small_model")


def listed_size(entries: list, model: str) -> ModelSize | None:
    """The size an OpenAI-compatible ``/v1/models`` listing states for ``model``: llama.cpp's ``meta.n_params``."""
    for entry in entries:
        if entry.id == model:
            count = ((getattr(entry, "model_extra", None) or {}).get("meta") or {}).get("n_params")
            if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                return ModelSize.of(count)
    return None


# "SmolLM2-135M-Instruct.Q4_1.gguf", "qwen2.5:0.5b", "Llama-3.2-1B", "Mixtral-8x7B": a count of M or B parameters
# standing alone between separators (not "Q4_K_M", "e2b", "128k").
_IN_NAME = re.compile(r"(?<![A-Za-z0-9.])((?:\d+x)?\d+(?:\.\d+)?[mbMB])(?![A-Za-z0-9])")


def size_from_name(model: str) -> ModelSize | None:
    """The size a model's name (or its file's name) gives, when nothing the server states does; else None."""
    name = (model or "").replace("\\", "/").rsplit("/", 1)[-1]
    found = _IN_NAME.search(name)
    return ModelSize.from_label(found.group(1)[:-1] + found.group(1)[-1].upper()) if found else None


def parse_size_label(text: str) -> int | None:
    """Parameters from a label like "135M", "4.3B", "8x7B" (an expert mixture counts every expert); else None."""
    found = _LABEL.match(text or "")
    if not found:
        return None
    experts = int(found.group(1) or 1)
    return round(experts * float(found.group(2)) * _SCALE[found.group(3).lower()])


def size_label(parameters: int) -> str:
    """135000000 → "135M", 4300000000 → "4.3B"."""
    for suffix, scale in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if parameters >= scale:
            return f"{parameters / scale:.3g}{suffix}"
    return str(parameters)


# ---- GGUF (github.com/ggml-org/ggml docs/gguf.md): header, key-value pairs, tensor infos ----------
_SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


class _Reader:
    def __init__(self, handle) -> None:
        self.handle = handle

    def unpack(self, fmt: str):
        size = struct.calcsize(fmt)
        data = self.handle.read(size)
        if len(data) != size:
            raise ValueError("the GGUF file ends early")
        return struct.unpack(fmt, data)[0]

    def string(self) -> str:
        return self.handle.read(self.unpack("<Q")).decode("utf-8", "replace")

    def value(self, kind: int):
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item, count = self.unpack("<I"), self.unpack("<Q")
            if item == _STRING:
                for _ in range(count):
                    self.handle.seek(self.unpack("<Q"), 1)
            elif item in _SCALAR:
                self.handle.seek(struct.calcsize(_SCALAR[item]) * count, 1)
            else:
                raise ValueError(f"an array of GGUF type {item}")
            return None
        if kind not in _SCALAR:
            raise ValueError(f"GGUF value type {kind}")
        return self.unpack(_SCALAR[kind])


def gguf_model_size(path: Path) -> ModelSize | None:
    """A GGUF file's size: its ``general.size_label``, else its tensors' elements counted; None if unreadable.

    Only the header is read (the label comes among the first keys), never the weights.
    """
    try:
        with open(path, "rb") as handle:
            reader = _Reader(handle)
            if handle.read(4) != b"GGUF" or reader.unpack("<I") < 2:
                return None
            tensors, pairs = reader.unpack("<Q"), reader.unpack("<Q")
            for _ in range(pairs):
                key, value = reader.string(), reader.value(reader.unpack("<I"))
                if key == "general.size_label" and isinstance(value, str):
                    size = ModelSize.from_label(value)
                    if size is not None:
                        return size
            total = 0
            for _ in range(tensors):
                reader.string()
                dims = [reader.unpack("<Q") for _ in range(reader.unpack("<I"))]
                reader.unpack("<I"), reader.unpack("<Q")  # type, offset
                count = 1
                for dim in dims:
                    count *= dim
                total += count
            return ModelSize.of(total) if total else None
    except (OSError, ValueError, struct.error) as exc:
        log.info("could not read the size of %s: %r", path, exc)
        return None


def small_model_info(backend) -> dict | None:
    """``{"model", "parameters", "label", "small"}`` when the backend's model is known to be small: memory
    built with it is unreliable, and a flush with it puts nothing into lasting memory unasked."""
    size = backend.model_size()
    return {"model": backend.describe(), **size.to_dict()} if size is not None and size.small else None
