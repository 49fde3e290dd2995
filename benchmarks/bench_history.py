"""History figures: search through the trigram index against a LIKE scan, backup time (no LLM).

Run: .venv/bin/python benchmarks/bench_history.py [MESSAGES]
Prints figures measured in the same run; nothing here asserts a time.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.transfer.backup import create_backup
from monchat.core.logs.search import SearchService
from monchat.core.store.message_search import MessageSearch
from monchat.core.types import Message, format_ts

WORDS = ["今日", "ラーメン", "仕事", "雪", "札幌", "電車", "会議", "猫", "コーヒー", "散歩", "映画", "本を読んだ",
         "疲れた", "楽しかった", "明日", "週末", "料理", "買い物", "rain", "coffee", "meeting"]


def timed(fn, repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


class Scan(MessageSearch):
    def indexed(self) -> bool:  # the baseline: what an SQLite without trigram gets
        return False


def main(count: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as home:
        app = build_app(home, tz=timezone.utc)
        start = datetime(2025, 1, 1, tzinfo=timezone.utc)
        messages = [Message(id=f"b{n:08d}", ts=format_ts(start + timedelta(minutes=7 * n)), role=rng.choice(
            ["user", "assistant"]), text="、".join(rng.choices(WORDS, k=12)) + f" #{n}", persona="hana")
            for n in range(count)]
        t = time.perf_counter()
        app.archive.archive(messages)
        print(f"archived {count} messages (index kept by triggers): {time.perf_counter() - t:.2f} s")
        search = SearchService(app.logbook, app.archive)
        scan = Scan(app.store)
        for query in ("本を読んだ 映画", "ラーメン", "#12345"):
            terms = query.split()
            fts = timed(lambda: search.sql.find(terms, 200))  # noqa: B023 (timed() calls it at once)
            like = timed(lambda: scan.find(terms, 200))  # noqa: B023 (timed() calls it at once)
            print(f"{query!r:20} index {fts:7.2f} ms   scan {like:7.2f} ms   ({like / fts:.1f}x)")
        t = time.perf_counter()
        report = create_backup(app.paths, Path(home).parent / f"bench-{Path(home).name}.zip")
        size = report.path.stat().st_size
        print(f"backup: {time.perf_counter() - t:.2f} s, {size / 1e6:.1f} MB")
        report.path.unlink()
        app.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50_000)
