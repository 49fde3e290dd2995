"""SIGKILL during ``python -m monchat sync`` loses nothing, and a rerun finishes the work (issue 41, Kill tests).

At every write: a small world (messages of its own, one deleted here, another device's journal and a deletion of
one of its messages) is synced by ``tests/support/kill_sync.py``, killed before each transaction and file write in
turn and halfway through each append; a rerun in the test ends in the state an uninterrupted sync and rerun leave
(the archive, this device's journal lines, its tombstones). Seen failing: a torn half-line of the own tombstone file
stayed in it (appends now cut their own crash's fragment off).

At growing delays: a data folder with many archived messages of its own, and another device's journal with many more and three
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
    # Later each time, until one run ends by itself; growing by a third, so the kills land inside the sync on a
    # quiet machine (where the whole sync once ended before a first kill at 0.8 s, in a clean-clone CI run) and
    # on a busy one (3.3 s a sync at load 8) alike.
    killed, delay = 0, 0.2
    while killed < 12 and _sync(home, delay) == -signal.SIGKILL:
        killed += 1
        delay *= 1.35
    assert killed >= 2  # the process was really stopped part-way, more than once
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


KILL_SYNC = Path(__file__).resolve().parent / "support" / "kill_sync.py"


def _small_world(root: Path) -> tuple[Path, Path]:
    """A data folder with messages of its own (one deleted here, one the phone deleted) and memories decided here
    (two approved, one of them then pinned), a phone's journal with messages and a torn last line, and a tablet
    that synced a memory it approved (its decisions file), in ``root``."""
    home, folder = root / "home", root / "Sync"
    folder.mkdir(parents=True)
    tablet = build_app(str(root / "tablet"))
    try:
        tablet.sync.setup(folder, "tablet")
        _approve(tablet, "- Plays the cello on Sundays")
        tablet.sync.run()
    finally:
        tablet.close()
    app = build_app(str(home))
    try:
        app.archive.archive([_message(n, "said here") for n in range(4)])
        app.sync.setup(folder, "laptop")
        app.messages.delete(f"{0:020x}")
        _approve(app, "- Drinks green tea every morning\n- Lives in Sendai")
        app.memory.pin(next(m.id for m in app.memory.list() if "tea" in m.text))
    finally:
        app.close()
    other = folder / "monchat" / "devices" / OTHER
    (other / "journal").mkdir(parents=True)
    (other / "device.json").write_text(json.dumps({"id": OTHER, "name": "phone", "last_sync": None}))
    theirs = [_message(100 + n, "said on the phone") for n in range(4)]
    for month in ("2026-10", "2026-11"):
        with open(other / "journal" / f"{month}.jsonl", "w", encoding="utf-8") as out:
            out.writelines(m.to_json() + "\n" for m in theirs if m.ts.startswith(month))
    (other / "tombstones.jsonl").write_text(json.dumps(
        {"id": f"{1:020x}", "device": OTHER, "deleted_at": "2026-11-30T00:00:00.000+09:00"}) + "\n")
    return home, folder


def _approve(app, text: str) -> None:
    """Memories decided here with no model: a pasted list imported and approved."""
    app.transfer.import_memory(text=text)
    for item in app.memory.queue():
        app.memory.approve(str(item.id))


def _state(home: Path, folder: Path) -> dict:
    app = build_app(str(home))
    try:
        app.sync.run()  # the rerun
        assert app.sync.run().nothing
        own = folder / "monchat" / "devices" / app.sync.device().id
        lines = [line for path in sorted(own.glob("journal/*.jsonl")) for line in path.read_text().splitlines()]
        tombstones = sorted(json.loads(line)["id"] for line in (own / "tombstones.jsonl").read_text().splitlines())
        decided = {json.loads(line)["memory_id"] for path in sorted(own.glob("decisions/*.jsonl"))
                   for line in path.read_text().splitlines() if "memory_id" in json.loads(line)}
        memories = sorted((m.id, m.text, str(m.state), m.pinned) for m in app.memory.list(all=True))
        return {"archive": sorted(app.archive.ids()), "journal": sorted(lines), "lines": len(lines),
                "tombstones": tombstones, "memories": memories, "decided": sorted(decided)}
    finally:
        app.close()


def _child(home: Path, point: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, str(KILL_SYNC), str(home), point], env=env, capture_output=True,
                          text=True, timeout=120)


def test_sigkill_at_every_write_of_a_sync_then_a_rerun_ends_as_an_uninterrupted_sync(tmp_path):
    import shutil
    run, pristine = tmp_path / "run", tmp_path / "pristine"
    _small_world(run)  # always used at the same paths: the database names its sync folder
    shutil.copytree(run, pristine)
    counted = _child(run / "home", "count")
    assert counted.returncode == 0, counted.stderr
    kinds = counted.stdout.split()
    expected = _state(run / "home", run / "Sync")
    assert expected["archive"] and len(expected["tombstones"]) == 1 and len(kinds) > 10 and "append" in kinds
    texts = {text for _id, text, state, _pinned in expected["memories"] if state == "active"}
    assert {"Drinks green tea every morning", "Lives in Sendai", "Plays the cello on Sundays"} <= texts, expected
    assert len(expected["decided"]) == 2  # this device's two memories, in its decisions file
    points = [f"before-{n}" for n in range(1, len(kinds) + 1)]
    points += [f"torn-{n}" for n, kind in enumerate(kinds, start=1) if kind == "append"]  # half a line on disk
    for point in points:
        shutil.rmtree(run)
        shutil.copytree(pristine, run)
        killed = _child(run / "home", point)
        assert killed.returncode == -signal.SIGKILL, (point, killed.stderr)
        assert _state(run / "home", run / "Sync") == expected, point
