"""The embedded figures per installed model: the bundled SmolLM2 and each catalog model downloaded
(``monchat models pull``) into this user's data folder.

Run: .venv/bin/python benchmarks/bench_models.py [--quick|--smoke]   (benchmarks/run's group ``models``)

Per model: ``decode_tok_s`` (a streamed reply), ``turn_s`` (the second turn with an evening in the log,
``bench_embedded.measure_turn``), ``flush_35_s`` and ``cut_off_answers`` (a flush of 35 messages,
``bench_flush_embedded.flush_once``; full runs only: minutes of CPU per model). Nothing here asserts a time.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.models.catalog import installed_file, load_catalog
from monchat.core.paths import Paths
from monchat.core.types import Turn

FIGURE = "embedded_models"
PROMPT = "Tell me a long story about a cat who learns to play the guitar."


def installed_models() -> dict[str, str]:
    """Model name → GGUF path ("" for the bundled one), for every model this user has."""
    models_dir = Paths.from_env().models_dir
    found = {}
    for model in load_catalog():
        path = "" if model.bundled else installed_file(models_dir, model)
        if path is not None:
            found[model.name] = str(path)
    return found


def decode_rate(path: str, tokens: int) -> float:
    backend = EmbeddedBackend(path, n_ctx=4096, max_tokens=tokens)
    try:
        backend.load()
        times = [time.perf_counter() for _ in backend.stream("", [Turn("user", PROMPT)], temperature=0.0)]
    finally:
        backend.close()
    return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0.0


def measure(size: str = "full") -> dict:
    from bench_embedded import measure_turn
    figures = {}
    for name, path in installed_models().items():
        tokens = {"smoke": 12, "quick": 48, "full": 160}[size]
        row = {"decode_tok_s": round(decode_rate(path, tokens), 1)}
        turn = measure_turn(size, make_backend=lambda p=path: EmbeddedBackend(p, n_ctx=4096))
        row["turn_s"] = turn["embedded_turn_s"]
        if size == "full":
            from bench_flush_embedded import flush_once
            flush = flush_once(35, model_path=path)
            row.update(flush_35_s=flush["seconds"], cut_off_answers=flush["cut_off_answers"],
                       flush_errors=flush["errors"])
        else:
            row["flush_35_s"] = f"skipped (--{size})"
        figures[name] = row
    return {FIGURE: figures}


if __name__ == "__main__":
    size = "smoke" if "--smoke" in sys.argv else "quick" if "--quick" in sys.argv else "full"
    print(json.dumps(measure(size), indent=2))
