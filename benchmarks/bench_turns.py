"""Chat-turn figures through the real Ollama adapter and a loopback fake Ollama (TCP_NODELAY).

Run: .venv/bin/python benchmarks/bench_turns.py [--quick]   (or benchmarks/run)

- ``turn_overhead``: a whole ``ChatService.send`` against a bare ``ollama.Client.chat`` call
  with the same messages to the same server, at an empty and a large archive and with no and
  many unflushed lines outside the window.
- ``prefix``: long turns against a server that counts prompts like a model (``count_prompts``):
  how often the history sent stops being a prefix of the next request (a prompt cache starts
  over) and how many requests were over ``num_ctx`` (Ollama cuts them silently).
Nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.transfer.importers import import_jsonl
from monchat.core.types import Message, content_message_id, format_ts
from tests.fakes import fake_ollama

JST = timezone(timedelta(hours=9))
MODEL = "llama3.2"
REPLY = ["はい、", "そうだね。"]
START = datetime(2026, 11, 29, 9, 0, tzinfo=JST)


@contextmanager
def ollama_app(home: str, server, clock):
    """An app whose chat goes to ``server`` through the real Ollama adapter."""
    previous = os.environ.get("OLLAMA_HOST")
    os.environ["OLLAMA_HOST"] = server.url
    try:
        app = build_app(home, backend="ollama", model=MODEL, clock=clock, tz=JST)
        app.settings.gate.warn_files = app.settings.gate.stop_files = 100_000  # a benchmark, not a user
        try:
            yield app
        finally:
            app.close()
    finally:
        if previous is None:
            os.environ.pop("OLLAMA_HOST", None)
        else:
            os.environ["OLLAMA_HOST"] = previous


def fill_archive(app, count: int) -> None:
    """``count`` archived messages (flushed long ago), written through the archive."""
    start = START - timedelta(days=400)
    batch: list[Message] = []
    for n in range(count):
        ts = format_ts(start + timedelta(minutes=n))
        role = "user" if n % 2 == 0 else "assistant"
        text = f"昔の話 {n}: 緑茶とギターと仕事のこと"
        batch.append(Message(id=content_message_id(ts, role, text, "hana"), ts=ts, role=role, text=text,
                             persona="hana"))
        if len(batch) == 5000:
            app.archive.archive(batch)
            batch = []
    if batch:
        app.archive.archive(batch)


def fill_unflushed(app, home: str, lines: int) -> None:
    """``lines`` unflushed log lines from the days before the window (imported, as a user would)."""
    path = Path(home) / "import.jsonl"
    start = START - timedelta(days=3)
    with path.open("w", encoding="utf-8") as out:
        for n in range(lines):
            ts = start + timedelta(seconds=15 * n)
            if ts >= START - timedelta(hours=13):
                raise ValueError("too many lines to stay outside the 12-hour window")
            out.write(json.dumps({"ts": ts.isoformat(), "role": "user" if n % 2 == 0 else "assistant",
                                  "text": f"未整理の話 {n}: 今日の仕事のこと"}, ensure_ascii=False) + "\n")
    import_jsonl(path, app.logbook, app.archive, default_persona="hana")


def bare_call(client, messages: list[dict]) -> float:
    started = time.perf_counter()
    for _ in client.chat(MODEL, messages=messages, stream=True, options={"num_ctx": 8192}):
        pass
    return time.perf_counter() - started


def turn_overhead(archive: int, unflushed: int, turns: int) -> dict:
    import ollama

    server = fake_ollama.start()
    server.reply_chunks = list(REPLY)
    try:
        with tempfile.TemporaryDirectory() as home:
            clock = [START]
            with ollama_app(home, server, lambda: clock[0]) as app:
                fill_archive(app, archive)
                fill_unflushed(app, home, unflushed)
                app.chat.send("はじめまして")  # the first turn builds the adapter and connects
                times = []
                for n in range(turns):
                    clock[0] += timedelta(seconds=30)
                    started = time.perf_counter()
                    app.chat.send(f"メッセージ {n}: 今日はいい天気だね")
                    times.append(time.perf_counter() - started)
                messages = server.chat_requests()[-1]["body"]["messages"]
            client = ollama.Client(host=server.url)
            bare_call(client, messages)
            bare = [bare_call(client, messages) for _ in range(turns)]
            client.close()
    finally:
        server.shutdown()
        server.server_close()
    turn_ms, bare_ms = statistics.median(times) * 1000, statistics.median(bare) * 1000
    return {"archive": archive, "unflushed": unflushed, "turns": turns, "turn_ms": round(turn_ms, 2),
            "bare_client_ms": round(bare_ms, 2), "overhead_ms": round(turn_ms - bare_ms, 2),
            "ratio": round(turn_ms / bare_ms, 2)}


def measure_overhead(size: str = "full") -> dict:
    """turn_overhead_ms and turn_overhead_ratio at each (archive, unflushed) condition."""
    big_archive, many_lines, turns = {"smoke": (1_000, 200, 3), "quick": (10_000, 2_000, 8),
                                      "full": (100_000, 10_000, 30)}[size]
    rows = [turn_overhead(a, u, turns) for a, u in ((0, 0), (big_archive, 0), (0, many_lines))]
    key = lambda r: f"archive_{r['archive']}_unflushed_{r['unflushed']}"  # noqa: E731
    return {"turn_overhead_ms": {key(r): r["overhead_ms"] for r in rows},
            "turn_overhead_ratio": {key(r): r["ratio"] for r in rows},
            "turn_overhead_baseline_ms": {key(r): r["bare_client_ms"] for r in rows},
            "turn_overhead_turn_ms": {key(r): r["turn_ms"] for r in rows}}


def long_text(n: int, words: int) -> str:
    return f"{n}: " + " ".join(f"今日は仕事で{i}件目の資料を直して、夕方に緑茶を飲んだ。" for i in range(words))


def measure_prefix(size: str = "full") -> dict:
    """prefix_breaks_per_100_turns and requests_over_context over long turns."""
    turns = {"smoke": 8, "quick": 30, "full": 100}[size]
    server = fake_ollama.start()
    server.count_prompts = True
    server.reply_chunks = [long_text(0, 12)]  # a long answer (~400 tokens)
    try:
        with tempfile.TemporaryDirectory() as home:
            clock = [START]
            with ollama_app(home, server, lambda: clock[0]) as app:
                num_ctx = app.settings.ollama.num_ctx
                for n in range(turns):
                    clock[0] += timedelta(minutes=2)
                    app.chat.send(long_text(n, 10))  # ~330 tokens from the user
            requests = [r["body"]["messages"] for r in server.chat_requests()]
            over = len(server.over_context)
            largest = max(server.prompt_counts)
    finally:
        server.shutdown()
        server.server_close()
    breaks = sum(1 for before, after in zip(requests, requests[1:]) if after[:len(before)] != before)
    return {"prefix_breaks_per_100_turns": round(breaks * 100 / max(len(requests) - 1, 1), 1),
            "prefix_turns": len(requests), "prefix_baseline_every_turn": 100.0,
            "requests_over_context": over, "requests_over_context_of": len(requests),
            "largest_prompt_tokens": largest, "num_ctx": num_ctx}


def main(argv: list[str]) -> None:
    size = "quick" if "--quick" in argv else "full"
    print(json.dumps({**measure_overhead(size), **measure_prefix(size)}, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
