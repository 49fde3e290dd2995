"""The embedded model (SmolLM2-135M, llama.cpp in this process): decode speed, a turn, a flush.

Run: .venv/bin/python benchmarks/bench_embedded.py [--quick]

- ``embedded_decode_tok_s``: tokens a second while a reply streams through the adapter,
  against llama-cpp-python's own streamed completion on the same loaded model;
- ``embedded_turn_s``: the second turn with an evening's window in the log (the cost of the
  new messages, when the prompt's start is kept), against the first turn (the whole window);
- ``embedded_flush_s``: a flush of 35 messages (``bench_flush_embedded.flush_once``), against
  the same flush with one persona after another (skipped with ``--quick``: minutes of CPU).
The backend is built from the default settings, as the app builds it. Nothing here asserts a time.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.types import Turn
from tests.test_flush_evening_embedded import evening  # the evening the tests plan

EVENING_START = datetime(2026, 11, 30, 18, 0, tzinfo=timezone.utc)
COUNT_PROMPT = "Tell me a long story about a cat who learns to play the guitar."


def default_backend(home: str):
    """The embedded backend exactly as the app builds it from settings."""
    app = build_app(home, tz=timezone.utc)
    backend = app.backends.build("embedded")
    app.close()
    return backend


def _decode_rate(pieces) -> tuple[int, float]:
    """(tokens after the first, seconds from the first to the last)."""
    count, first, last = 0, None, None
    for _ in pieces:
        now = time.perf_counter()
        first = first if first is not None else now
        last = now
        count += 1
    return max(count - 1, 0), (last - first) if first is not None and last is not None else 0.0


def measure_decode(size: str = "full") -> dict:
    tokens = {"smoke": 12, "quick": 48, "full": 160}[size]
    with tempfile.TemporaryDirectory() as home:
        backend = default_backend(home)
        backend.max_tokens = tokens
        llama = backend.load()
        llama_load_s = backend.load_seconds
        decoded, seconds = _decode_rate(backend.stream("", [Turn("user", COUNT_PROMPT)], temperature=0.0))
        adapter = decoded / seconds if seconds else 0.0
        bare_pieces = (c for c in llama.create_chat_completion(
            messages=[{"role": "user", "content": COUNT_PROMPT}], max_tokens=tokens, temperature=0.0,
            repeat_penalty=1.3, stream=True) if c["choices"][0]["delta"].get("content"))
        bare_decoded, bare_seconds = _decode_rate(bare_pieces)
        bare = bare_decoded / bare_seconds if bare_seconds else 0.0
        info = {"threads": backend.threads or "default", "n_ctx": backend.n_ctx}
        backend.close()
    return {"embedded_decode_tok_s": round(adapter, 1), "embedded_decode_baseline_llama_cpp_tok_s": round(bare, 1),
            "embedded_decode_tokens": decoded, "embedded_load_s": round(llama_load_s or 0.0, 2),
            "embedded_settings": info}


def measure_turn(size: str = "full", make_backend=None) -> dict:
    """``make_backend``: another model than the app's default (benchmarks/bench_models.py)."""
    messages = {"smoke": 4, "quick": 16, "full": 200}[size]
    with tempfile.TemporaryDirectory() as home:
        backend = make_backend() if make_backend else default_backend(home)
        backend.max_tokens = 8 if size == "smoke" else 64  # the reply's length is not what is measured
        now = EVENING_START + timedelta(minutes=messages + 1)
        clock = [now]
        app = build_app(home, pinned_backend=backend, clock=lambda: clock[0], tz=timezone.utc)
        for message in evening(messages):
            app.logbook.append(message)
        backend.load()  # loading is not a turn's time
        times = []
        for text in ("今日はありがとう。明日は何をしようかな。", "Also, remind me about the guitar practice."):
            clock[0] += timedelta(minutes=1)
            started = time.perf_counter()
            app.chat.send(text)
            times.append(time.perf_counter() - started)
        window = len(app.chat.window())
        backend.close()
        app.close()
    return {"embedded_turn_s": round(times[1], 2), "embedded_turn_baseline_first_turn_s": round(times[0], 2),
            "embedded_turn_ratio": round(times[1] / times[0], 2), "embedded_turn_window_messages": window}


def measure_flush(size: str = "full") -> dict:
    if size != "full":
        return {"embedded_flush_s": {"skipped": f"--{size} skips the embedded flush (minutes of CPU)"}}
    from bench_flush_embedded import flush_once

    shared = flush_once(35, "chunk-major")
    baseline = flush_once(35, "persona-major")
    return {"embedded_flush_s": shared["seconds"], "embedded_flush_baseline_persona_major_s": baseline["seconds"],
            "embedded_flush_calls": shared["calls"], "embedded_flush_cut_off_answers": shared["cut_off_answers"],
            "embedded_flush_errors": shared["errors"]}


def measure(size: str = "full") -> dict:
    return {**measure_decode(size), **measure_turn(size), **measure_flush(size)}


if __name__ == "__main__":
    print(json.dumps(measure("quick" if "--quick" in sys.argv else "full"), indent=2))
