"""SIGKILL during ``python -m monchat sync`` loses nothing, and a rerun finishes the work (issue 41, Kill tests).

A data folder with many archived messages of its own, and another device's journal with many more and three
deletions of this device's messages, is synced by a real process killed at growing delays (so the kills land in
the import, the deletions and the export); a last run goes to its end. Then the journal holds every message of
this device exactly once and no deleted one, and the archive holds every message of the other device.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from monchat.app import build_app
from monchat.core.types import Message

MINE, THEIRS = 6000, 6000
OTHER = "c" * 32


def _message(n: int, text: str) -> Message:
    return Message(id=f"{n:020x}", ts=f"2026-{10 + n % 2:02d}-{1 + n % 28:02d}T12:{n % 60:02d}:00.000+09:00",
                   role="user", text=f"{text} {n}", persona="hana")


def _prepare(tmp_path: Path) -> tuple[Path, Path, set[str], set[str], set[str]]:
    home, folder = tmp_path / "home", tmp_path / "Sync"
    folder.mkdir()
    app = build_app(str(home))
    try:
        mine = [_message(n, "said here") for n in range(MINE)]
        app.archive.archive(mine)  # as the flush's commit would have
        app.sync.setup(folder, "laptop")
    finally:
        app.close()
    other = folder / "monchat" / "devices" / OTHER
    (other / "journal").mkdir(parents=True)
    (other / "device.json").write_text(json.dumps({"id": OTHER, "name": "phone", "last_sync": None}))
    theirs = [_message(MINE + n, "said on the phone") for n in range(THEIRS)]
    for month in ("2026-10", "2026-11"):
        with open(other / "journal" / f"{month}.jsonl", "w", encoding="utf-8") as out:
            out.writelines(m.to_json() + "\n" for m in theirs if m.ts.startswith(month))
    deleted = {m.id for m in mine[:3]}
    (other / "tombstones.jsonl").write_text("".join(
        json.dumps({"id": i, "device": OTHER, "deleted_at": "2026-11-30T00:00:00.000+09:00"}) + "\n"
        for i in sorted(deleted)))
    return home, folder, {m.id for m in mine} - deleted, {m.id for m in theirs}, deleted


def _sync(home: Path, kill_after: float | None) -> int | None:
    env = {**os.environ, "MONCHAT_HOME": str(home), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    process = subprocess.Popen([sys.executable, "-m", "monchat", "sync"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    if kill_after is None:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err.decode()
        return 0
    time.sleep(kill_after)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    return process.returncode


def test_sigkill_during_sync_loses_nothing_and_a_rerun_finishes(tmp_path):
    home, folder, mine, theirs, deleted = _prepare(tmp_path)
    killed = 0
    for delay in (0.6, 1.0, 1.4, 1.8, 2.2, 2.6, 3.0, 3.5):
        if _sync(home, delay) == -signal.SIGKILL:
            killed += 1
    assert killed >= 3  # the process was really stopped part-way, more than once
    _sync(home, None)
    app = build_app(str(home))
    try:
        own = folder / "monchat" / "devices" / app.sync.device().id / "journal"
        lines = [json.loads(line)["id"] for path in sorted(own.glob("*.jsonl"))
                 for line in path.read_text(encoding="utf-8").splitlines()]
        assert len(lines) == len(set(lines)) and set(lines) == mine  # each once, none deleted, none lost
        assert set(app.archive.ids()) == mine | theirs
        assert app.sync.run().nothing  # the work is done
    finally:
        app.close()
