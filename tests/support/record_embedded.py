"""Record the real embedded model's answers to a flush of each short evening (``tests/data/recorded/``).

    .venv/bin/python -m tests.support.record_embedded [evening_en evening_ja]   (or scripts/record-embedded)

Each evening (``evening_*.jsonl``) is flushed in a fresh data folder through SmolLM2-135M (llama-cpp-python,
the shipped settings: n_ctx 4096, max_tokens 512) behind a ``RecordingBackend``; every structured request's
key and label and the model's raw answer (or error) are written to ``evening_*.json``, with the model's
token counts the flush sized its requests by. ``tests/test_recorded_replay.py`` replays them.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from monchat.core.backends.embedded import EmbeddedBackend
from tests.support.recorded import RECORDED, RecordingBackend, run_evening

EVENINGS = ("evening_en", "evening_ja")


def record(evening: str) -> dict:
    backend = RecordingBackend(EmbeddedBackend(n_ctx=4096, max_tokens=512))
    if not backend.probe():
        raise SystemExit("the embedded model is not installed: run scripts/setup")
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="monchat-record-") as home:
            report, _ = run_evening(Path(home), evening, backend)
    finally:
        backend.close()
    recording = backend.recording(evening)
    (RECORDED / f"{evening}.json").write_text(json.dumps(recording, ensure_ascii=False, indent=1) + "\n",
                                              encoding="utf-8")
    kept = sum(len(items) for items in report.items.values())
    print(f"{evening}: {len(recording['calls'])} call(s) in {time.monotonic() - started:.1f} s; "
          f"{kept} item(s) kept, {len(report.dropped_items)} dropped; errors: {report.errors or 'none'}")
    return recording


if __name__ == "__main__":
    for name in sys.argv[1:] or EVENINGS:
        record(name)
