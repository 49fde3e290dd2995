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

The flush measured is 1,000 messages over 8 days (125 lines a day), after a week flushed before it,
with the background track on (its defaults): a diary page per day, reflect, lint and digests. The same
1,000 messages over 25 days (a page for each) are a detail: ``flush_parallel_ratio_over_25_days``.
Every call holds one of ``flush.parallel`` slots (4 here), so the ratio cannot be below the calls of
every stage over 4, against the slowest persona's.

- ``flush_background_s``: a week of evenings (7 days, 12 lines a day, a week flushed before) on a model
  that takes 1 s a call and answers 503 to the first two calls: the flush's wall time, against the
  slowest persona's own calls as its baseline.
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

from bench_core import HISTORY_START, write_history
from monchat.app import build_app
from monchat.core.backends.ollama import OllamaBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.settings import FlushSettings
from monchat.core.transfer.importers import import_jsonl
from tests.fakes import fake_ollama

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
    """A filter's answer: one item citing the chunk's first user line; a judge's: no verdict; a diary's: a page."""
    if "verdicts" in json.dumps(body.get("format")):
        return '{"verdicts": []}'
    lines = [json.loads(raw) for raw in body["messages"][-1]["content"].splitlines() if raw.startswith("{")]
    if "cited" in json.dumps(body.get("format")):  # a diary page: the day's first line, cited
        return json.dumps({"text": lines[0]["text"], "cited": [lines[0]["id"]]} if lines else {}, ensure_ascii=False)
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


BUSY = ("status", 503, "server busy")
# days, user/assistant lines a day, minutes between them, latency per call (s), days flushed before
SIZES = {"smoke": (2, 20, 20, 0.01, 1), "quick": (5, 40, 20, 0.05, 2), "full": (8, 125, 7, 0.2, 7)}
# The same 1,000 messages spread thinner: a diary page for each of 25 days (a detail, not a figure).
THIN = {"smoke": None, "quick": None, "full": (25, 40, 20, 0.2, 7)}
# The background figure: a week of evenings on a slow model that is busy twice (issue 23).
BACKGROUND = {"smoke": (2, 6, 0.05), "quick": (7, 12, 0.3), "full": (7, 12, 1.0)}


def flush_once(days: int, per_day: int, every_min: int, latency: float, earlier_days: int = 0,
               faults: tuple = ()) -> dict:
    """One timed flush of ``days`` of history on the fake Ollama, after ``earlier_days`` flushed before it
    (without latency: kept memories, a profile and diary pages for the judge, lint and digests to read)."""
    server = fake_ollama.start()
    server.structured_reply = answer
    server.count_prompts = True  # prompt_eval_count as a model counts (no false "cut" warnings)
    try:
        with tempfile.TemporaryDirectory() as home:
            flush = FlushSettings()  # the retries a user's flush makes (``BackendRegistry.retry_policy``)
            retry = RetryPolicy(attempts=flush.retries + 1, base_delay_s=flush.retry_delay_s,
                                jitter_s=flush.retry_delay_s)
            backend = TimedOllama(MODEL, host=server.url, num_ctx=8192, retry=retry, parallel=4)  # serves 4 at once
            clock = [HISTORY_START]
            app = build_app(home, pinned_backend=backend, clock=lambda: clock[0], tz=HISTORY_START.tzinfo)
            start = HISTORY_START
            if earlier_days:
                path = Path(home) / "earlier.jsonl"
                write_history(path, earlier_days, per_day, start, every_min)
                import_jsonl(path, app.logbook, app.archive, default_persona="hana")
                clock[0] = start = HISTORY_START + timedelta(days=earlier_days)
                app.flush.run(seed=1)
            path = Path(home) / "history.jsonl"
            write_history(path, days, per_day, start, every_min)
            import_jsonl(path, app.logbook, app.archive, default_persona="hana")
            clock[0] = start + timedelta(days=days)
            backend.timings.clear()
            server.latency_s, server.max_in_flight, server.faults = latency, 0, list(faults)
            started = time.perf_counter()
            report = app.flush.run(seed=1)
            wall = time.perf_counter() - started
            app.close()
    finally:
        server.shutdown()
        server.server_close()
    per_reader: dict[str, float] = {}
    for reader, a, b in backend.timings:
        per_reader[reader] = per_reader.get(reader, 0.0) + (b - a)
    return {"wall": wall, "report": report, "timings": backend.timings, "max_in_flight": server.max_in_flight,
            "slowest": max(v for k, v in per_reader.items() if k != "judge"), "messages": days * per_day}


def measure(size: str = "full") -> dict:
    days, per_day, every_min, latency, earlier = SIZES[size]
    run = flush_once(days, per_day, every_min, latency, earlier)
    wall, report, slowest, messages = run["wall"], run["report"], run["slowest"], run["messages"]
    in_calls = busy_time([(a, b) for _, a, b in run["timings"]])
    thin = {}
    if THIN[size]:
        spread = flush_once(*THIN[size])
        thin = {"flush_parallel_ratio_over_25_days": round(spread["wall"] / spread["slowest"], 2),
                "flush_calls_over_25_days": spread["report"].llm_calls,
                "flush_slowest_persona_over_25_days_s": round(spread["slowest"], 3)}
    week_days, week_lines, week_latency = BACKGROUND[size]
    week = flush_once(week_days, week_lines, 60, week_latency, week_days, faults=(BUSY, BUSY))
    return {"flush_calls_per_1k_messages": round(report.llm_calls * 1000 / messages, 1),
            "flush_overhead_s": round(wall - in_calls, 3), "flush_overhead_baseline_in_calls_s": round(in_calls, 3),
            "flush_parallel_ratio": round(wall / slowest, 2), "flush_parallel_baseline_slowest_persona_s":
            round(slowest, 3), "flush_wall_s": round(wall, 3), "flush_messages": messages,
            "flush_days": days, "flush_days_before": earlier,
            "flush_diary_pages": len(report.background.get("diary", [])),
            "flush_calls": report.llm_calls, "flush_latency_per_call_s": latency,
            "flush_max_in_flight": run["max_in_flight"], "flush_archived": report.messages_archived,
            "flush_background_s": round(week["wall"], 2),
            "flush_background_baseline_slowest_persona_s": round(week["slowest"], 3),
            "flush_background_days": week_days, "flush_background_latency_s": week_latency,
            "flush_background_calls": week["report"].llm_calls,
            "flush_background_503s": 2,
            "flush_background_diary_pages": len(week["report"].background.get("diary", [])), **thin}


if __name__ == "__main__":
    print(json.dumps(measure("quick" if "--quick" in sys.argv else "full"), indent=2))
