"""The flush through the real embedded model (SmolLM2-135M, llama.cpp): time, calls, cut-off answers.

Run: .venv/bin/python benchmarks/bench_flush_embedded.py [MESSAGES ...]   (default: 35 200)

Each figure comes with its baseline from the same run: the same flush with one
persona at a time in persona order (no prefix shared between consecutive
requests), so the ratio shows what chunk-major order and the shared prefix buy.
Nothing here asserts a time (timed tests flake); a full run takes minutes of CPU.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app  # noqa: E402
from monchat.core.backends.embedded import EmbeddedBackend  # noqa: E402
from monchat.core.types import Message, content_message_id, format_ts  # noqa: E402
from tests.test_flush_evening_embedded import SAYINGS  # noqa: E402  (the evening the tests plan)


class CountingEmbedded(EmbeddedBackend):
    """The real backend, counting cut-off answers."""

    cut_off = 0

    def _complete_json(self, system, turns, schema, temperature):
        try:
            return super()._complete_json(system, turns, schema, temperature)
        except Exception as exc:
            if "cut off" in str(exc):
                self.cut_off += 1
            raise


def flush_once(messages: int, order: str) -> dict:
    with tempfile.TemporaryDirectory() as home:
        backend = CountingEmbedded(n_ctx=4096)
        app = build_app(home, pinned_backend=backend, tz=timezone.utc)
        start = datetime(2026, 11, 30, 18, 0, tzinfo=timezone.utc)
        for n in range(messages):
            role, text = SAYINGS[n % len(SAYINGS)]
            ts = format_ts(start + timedelta(minutes=n))
            text = f"{text} ({n})"
            app.logbook.append(Message(id=content_message_id(ts, role, text, "hana"), ts=ts, role=role,
                                       text=text, persona="hana"))
        backend.load()  # loading is not the flush's time
        flush = app.flush
        if order == "persona-major":
            flush.chunk_major = False
        started = time.monotonic()
        report = flush.run(seed=7)
        seconds = time.monotonic() - started
        backend.close()
        app.close()
        return {"messages": messages, "order": order, "seconds": round(seconds, 1),
                "calls": report.llm_calls, "cut_off_answers": backend.cut_off,
                "archived": report.messages_archived, "errors": len(report.errors),
                "items": sum(len(v) for v in report.items.values())}


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [35, 200]
    for size in sizes:
        shared = flush_once(size, "chunk-major")
        baseline = flush_once(size, "persona-major")
        shared["vs_persona_major"] = round(shared["seconds"] / max(baseline["seconds"], 0.1), 2)
        print(json.dumps(baseline, ensure_ascii=False))
        print(json.dumps(shared, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
