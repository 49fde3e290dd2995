"""Core figures: chat-turn overhead, log append latency, flush throughput (no real LLM).

Run: .venv/bin/python benchmarks/bench_core.py
Prints figures and ratios; nothing here asserts a time (timed tests flake).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.transfer.importers import import_jsonl
from tests.support.scripted import ScriptedBackend

JST = timezone(timedelta(hours=9))


def bench_turns(turns: int = 200) -> dict:
    with tempfile.TemporaryDirectory() as home:
        clock = [datetime(2026, 11, 29, 9, 0, tzinfo=JST)]
        backend = ScriptedBackend(default_reply=["はい、", "そうだね。"])
        app = build_app(home, pinned_backend=backend, clock=lambda: clock[0], tz=JST)
        app.settings.gate.stop_files = 10_000
        times = []
        for n in range(turns):
            clock[0] += timedelta(seconds=30)
            started = time.perf_counter()
            app.chat.send(f"メッセージ {n}: 今日はいい天気だね")
            times.append(time.perf_counter() - started)
        prompts = {h[1] for h in backend.history}
        app.close()
        return {"turns": turns, "median_ms": statistics.median(times) * 1000,
                "p95_ms": sorted(times)[int(turns * 0.95)] * 1000, "llm_calls": backend.calls,
                "distinct_system_prompts": len(prompts), "window_at_end": len(app.chat.window())}


HISTORY_START = datetime(2026, 11, 16, 8, 0, tzinfo=JST)


def write_history(path: Path, days: int, per_day: int, start: datetime = HISTORY_START, every_min: int = 20) -> None:
    """An importable JSONL history: ``per_day`` alternating user/assistant lines a day, ``every_min`` apart."""
    with path.open("w", encoding="utf-8") as out:
        for d in range(days):
            for i in range(per_day):
                ts = start + timedelta(days=d, minutes=every_min * i)
                role = "user" if i % 2 == 0 else "assistant"
                out.write(json.dumps({"ts": ts.isoformat(), "role": role,
                                      "text": f"{d}日目の話 {i}: 緑茶とギターと仕事のこと"},
                                     ensure_ascii=False) + "\n")


def bench_flush(days: int = 7, per_day: int = 40) -> dict:
    with tempfile.TemporaryDirectory() as home:
        start = HISTORY_START
        path = Path(home) / "history.jsonl"
        write_history(path, days, per_day, start)

        def oracle(system, turns, schema):
            if "verdicts" in json.dumps(schema):
                return {"verdicts": []}
            ids = [w.strip("[]") for w in turns[0].content.split() if w.startswith("[m")]
            return {"items": [{"reason": "r", "text": "緑茶をよく飲む", "slot": "drink/daily", "kind": "habit",
                               "score": 0.7, "evidence": ids[:1]}]}

        backend = ScriptedBackend(default_reply=oracle)
        clock = start + timedelta(days=days)
        app = build_app(home, pinned_backend=backend, clock=lambda: clock, tz=JST)
        import_jsonl(path, app.logbook, app.archive, default_persona="hana")
        started = time.perf_counter()
        report = app.flush.run(seed=1)
        elapsed = time.perf_counter() - started
        app.close()
        messages = days * per_day
        return {"messages": messages, "seconds": elapsed, "messages_per_s": messages / elapsed,
                "llm_calls": report.llm_calls, "archived": report.messages_archived}


def main() -> None:
    turns = bench_turns()
    print(f"chat turn overhead (scripted backend, {turns['turns']} turns): median {turns['median_ms']:.2f} ms, "
          f"p95 {turns['p95_ms']:.2f} ms")
    print(f"  LLM calls per turn: {turns['llm_calls'] / turns['turns']:.2f} (must be 1.00)")
    print(f"  distinct system prompts over all turns: {turns['distinct_system_prompts']} (must be 1)")
    flush = bench_flush()
    print(f"flush of {flush['messages']} messages (scripted backend): {flush['seconds']:.2f} s, "
          f"{flush['messages_per_s']:.0f} messages/s, {flush['llm_calls']} LLM calls, "
          f"{flush['archived']} archived")


if __name__ == "__main__":
    main()
