"""A chat turn's cost with 8,000 unflushed lines outside the window, against none (issue 10, point 2).

Run: .venv/bin/python benchmarks/bench_unflushed.py   (prints one JSON object)

Two data folders, each with its own app (the real ChatService and Ollama adapter) and its own
loopback fake Ollama (``tests/fakes/fake_ollama.py``, TCP_NODELAY as a real server): one holds 8,000
unflushed messages from the day before (outside the 12-hour window, in the log files a flush has not
archived yet), the other none. Each app first shows its conversation once, as the desktop app does at
start (that builds the log index), and makes one untimed turn; then 20 turns are timed, the two apps
taking turns so that the load of a shared machine falls on both alike. The figure is the median of
``ROUNDS`` rounds. Target: ``unflushed_turn_ratio`` ≤ 1.3. Nothing here asserts a time.
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
from monchat.core.backends.ollama import OllamaBackend
from monchat.core.types import Message, format_ts
from tests.fakes.fake_ollama import running_fake_ollama

JST = timezone(timedelta(hours=9))
NOW = datetime(2026, 11, 30, 20, 0, tzinfo=JST)
TURNS = 20
ROUNDS = 7
UNFLUSHED = 8000


def _old_messages(count: int) -> list[Message]:
    """``count`` messages of the day before, 20 to 33 hours ago: unflushed and outside the window."""
    start = NOW - timedelta(hours=33)
    return [Message(id=f"old-{i:06d}", ts=format_ts(start + timedelta(seconds=6 * i)),
                    role="user" if i % 2 == 0 else "assistant", persona="hana",
                    text=f"昨日の話 {i}: 緑茶とギターと仕事のこと、それから週末の予定について少し")
            for i in range(count)]


class _Side:
    """One data folder, its app and its fake server."""

    def __init__(self, home: str, server, unflushed: int) -> None:
        self.clock = [NOW]
        backend = OllamaBackend("llama3.2", host=server.url)
        self.app = build_app(home, pinned_backend=backend, clock=lambda: self.clock[0], tz=JST)
        self.app.settings.gate.warn_files = self.app.settings.gate.stop_files = 1000
        if unflushed:
            assert self.app.logbook.import_messages(_old_messages(unflushed)) == unflushed
        self.app.chat.window()  # the conversation shown at start
        self.turn("はじめまして")  # untimed: connections and caches warm
        self.elapsed = 0.0

    def turn(self, text: str) -> float:
        self.clock[0] += timedelta(seconds=40)
        started = time.perf_counter()
        self.app.chat.send(text)
        return time.perf_counter() - started


def _round() -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as none_home, tempfile.TemporaryDirectory() as full_home, \
            running_fake_ollama() as none_server, running_fake_ollama() as full_server:
        none, full = _Side(none_home, none_server, 0), _Side(full_home, full_server, UNFLUSHED)
        try:
            for n in range(TURNS):
                text = f"メッセージ {n}: 今日はいい天気だね"
                first, second = (none, full) if n % 2 == 0 else (full, none)
                first.elapsed += first.turn(text)
                second.elapsed += second.turn(text)
            assert len(full.app.logbook.read_all().messages) == UNFLUSHED + 2 * (TURNS + 1)
            return none.elapsed / TURNS * 1000, full.elapsed / TURNS * 1000
        finally:
            none.app.close()
            full.app.close()


def measure() -> dict:
    """Mean turn time (ms) of 20 turns with no unflushed lines and with 8,000 outside the window."""
    rounds = [_round() for _ in range(ROUNDS)]
    none_ms = statistics.median(r[0] for r in rounds)
    full_ms = statistics.median(r[1] for r in rounds)
    return {"turn_ms_unflushed_0": round(none_ms, 2), "turn_ms_unflushed_8000": round(full_ms, 2),
            "unflushed_turn_ratio": round(full_ms / none_ms, 3)}


if __name__ == "__main__":
    print(json.dumps(measure()))
