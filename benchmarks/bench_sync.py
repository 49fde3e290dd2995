"""Sync figures (issue 41): two data folders through one folder, in one process (no LLM, no sync tool).

Run: .venv/bin/python benchmarks/bench_sync.py [MESSAGES] [--encrypt]
(``--encrypt``: the folder sealed with a passphrase, ``core/sync/crypto.py``.)
Each device archives MESSAGES of its own; then the first export, the import of the other's, a sync with nothing
to do, a deletion carried to the other device and ``sync status`` are timed. The baseline of the same run: the
archive's own insert of as many messages (what a flush pays to archive them). Nothing here asserts a time.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.sync.status import sync_status
from monchat.core.types import Message


def message(n: int, who: str) -> Message:
    return Message(id=f"{n:020x}", ts=f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T12:{n % 60:02d}:00.000+09:00",
                   role="user", text=f"{who} {n} " + "words " * 20, persona="hana")


def timed(label: str, fn) -> object:
    start = time.perf_counter()
    result = fn()
    print(f"{label:44} {time.perf_counter() - start:7.2f} s")
    return result


def main(count: int, passphrase: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        a, b = build_app(str(root / "a")), build_app(str(root / "b"))
        (root / "Sync").mkdir()
        timed(f"baseline: archive {count} messages", lambda: a.archive.archive([message(n, "a") for n in range(count)]))
        b.archive.archive([message(count + n, "b") for n in range(count)])
        timed("a: setup", lambda: a.sync.setup(root / "Sync", "a", passphrase))
        b.sync.setup(root / "Sync", "b", passphrase)
        timed(f"a: first sync (export {count})", a.sync.run)
        timed(f"b: first sync (import {count}, export {count})", b.sync.run)
        timed(f"a: import {count}", a.sync.run)
        timed("a: nothing to do", a.sync.run)
        a.messages.delete(f"{5:020x}")
        timed("a: write the deletion, scrub its journal", a.sync.run)
        timed("b: carry the deletion out", b.sync.run)
        status = timed("a: sync status", lambda: sync_status(a.sync))
        print(f"folder size: {status.folder_size / 1e6:.1f} MB")  # type: ignore[attr-defined]
        a.close()
        b.close()


if __name__ == "__main__":
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    main(int(numbers[0]) if numbers else 50_000, "bench passphrase" if "--encrypt" in sys.argv else None)
