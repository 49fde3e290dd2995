"""The flush against a server that takes a fixed time per call: calls, overhead, parallelism.

Run: .venv/bin/python benchmarks/bench_flush_server.py [--quick]

The real Ollama adapter talks to the loopback fake Ollama (TCP_NODELAY), which waits
``latency_s`` before each structured answer (a model thinking) and answers every filter
with one item citing the chunk's first user line. Every call's start and end are noted:

- ``flush_calls_per_1k_messages``: LLM calls (filters and judge) per 1,000 messages;
- ``flush_overhead_s``: the flush's wall time minus the time at least one call was in
  flight (what monchat itself spends), against that time in calls as its baseline;
- ``flush_parallel_ratio``: wall time over the slowest persona's own calls, one after
  another (1.0: the flush takes no longer than its slowest reader must).
Nothing here asserts a time.
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_core import HISTORY_START, write_history  # noqa: E402
from monchat.app import build_app  # noqa: E402
from monchat.core.backends.ollama import OllamaBackend  # noqa: E402
from monchat.core.transfer.messages import import_jsonl  # noqa: E402
from tests.fakes import fake_ollama  # noqa: E402

MODEL = "llama3.2"
PART_MARK = 'The part you play: "'


class TimedOllama(OllamaBackend):
    """The real adapter, noting when each structured call ran and for whom."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.timings: list[tuple[str, float, float]] = []
        self._calls_lock = threading.Lock()

    def _complete_json(self, system, turns, schema, temperature):
        content = turns[-1].content if turns else ""
        reader = content.split(PART_MARK, 1)[1].split('"', 1)[0] if PART_MARK in content else "judge"
        started = time.perf_counter()
        try:
            return super()._complete_json(system, turns, schema, temperature)
        finally:
            with self._calls_lock:
                self.timings.append((reader, started, time.perf_counter()))


def answer(body: dict) -> str:
    """A filter's answer: one item citing the chunk's first user line; a judge's: no verdict."""
    if "verdicts" in json.dumps(body.get("format")):
        return '{"verdicts": []}'
    lines = [json.loads(raw) for raw in body["messages"][-1]["content"].splitlines() if raw.startswith("{")]
    users = [line for line in lines if line.get("role") == "user"]
    if not users:
        return '{"items": []}'
    return json.dumps({"items": [{"reason": "said", "text": "緑茶とギターと仕事のこと", "slot": "hobby/guitar",
                                  "kind": "habit", "score": 0.7, "evidence": [users[0]["id"]]}]},
                      ensure_ascii=False)


def busy_time(intervals: list[tuple[float, float]]) -> float:
    """Seconds during which at least one interval was open."""
    total, end = 0.0, float("-inf")
    for start, stop in sorted(intervals):
        if stop <= end:
            continue
        total += stop - max(start, end)
        end = stop
    return total


def measure(size: str = "full") -> dict:
    days, per_day, latency = {"smoke": (2, 20, 0.01), "quick": (5, 40, 0.05), "full": (25, 40, 0.2)}[size]
    server = fake_ollama.start()
    server.latency_s = latency
    server.structured_reply = answer
    server.count_prompts = True  # prompt_eval_count as a model counts (no false "cut" warnings)
    try:
        with tempfile.TemporaryDirectory() as home:
            path = Path(home) / "history.jsonl"
            write_history(path, days, per_day)
            backend = TimedOllama(MODEL, host=server.url, num_ctx=8192)
            now = HISTORY_START + timedelta(days=days + 1)
            app = build_app(home, pinned_backend=backend, clock=lambda: now, tz=HISTORY_START.tzinfo)
            import_jsonl(path, app.logbook, app.archive, default_persona="hana")
            started = time.perf_counter()
            report = app.flush.run(seed=1)
            wall = time.perf_counter() - started
            app.close()
    finally:
        server.shutdown()
        server.server_close()
    messages = days * per_day
    in_calls = busy_time([(a, b) for _, a, b in backend.timings])
    per_reader: dict[str, float] = {}
    for reader, a, b in backend.timings:
        per_reader[reader] = per_reader.get(reader, 0.0) + (b - a)
    slowest = max(v for k, v in per_reader.items() if k != "judge")
    return {"flush_calls_per_1k_messages": round(report.llm_calls * 1000 / messages, 1),
            "flush_overhead_s": round(wall - in_calls, 3), "flush_overhead_baseline_in_calls_s": round(in_calls, 3),
            "flush_parallel_ratio": round(wall / slowest, 2), "flush_parallel_baseline_slowest_persona_s":
            round(slowest, 3), "flush_wall_s": round(wall, 3), "flush_messages": messages,
            "flush_latency_per_call_s": latency, "flush_max_in_flight": server.max_in_flight,
            "flush_archived": report.messages_archived}


if __name__ == "__main__":
    print(json.dumps(measure("quick" if "--quick" in sys.argv else "full"), indent=2))
