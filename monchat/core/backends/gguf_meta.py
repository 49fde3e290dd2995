"""What a GGUF file says about itself, read from its header without loading the weights.

The embedded backend sizes itself from it before the model is loaded: the context the model
was trained for (``{architecture}.context_length``), its architecture and name. Strings and
numbers are read; arrays (the vocabulary) are skipped. llama.cpp reads the same header when it
loads the file, and the chat template and special tokens then come from it (``Llama.metadata``).
"""

from __future__ import annotations

import logging
import struct
from pathlib import Path

from .model_size import _Reader

log = logging.getLogger(__name__)


def gguf_metadata(path: Path) -> dict:
    """The header's key-value pairs (arrays as None); {} when the file is not a readable GGUF."""
    found: dict = {}
    try:
        with open(path, "rb") as handle:
            reader = _Reader(handle)
            if handle.read(4) != b"GGUF" or reader.unpack("<I") < 2:
                return {}
            reader.unpack("<Q")  # tensor count
            for _ in range(reader.unpack("<Q")):
                key = reader.string()
                found[key] = reader.value(reader.unpack("<I"))
    except (OSError, ValueError, struct.error) as exc:
        log.info("could not read the GGUF header of %s: %r", path, exc)
    return found


def trained_context_of(metadata: dict) -> int | None:
    """The context the model was trained for, from ``{general.architecture}.context_length``."""
    value = metadata.get(f"{metadata.get('general.architecture', '')}.context_length")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
