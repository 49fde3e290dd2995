"""The real-Syncthing harness does what the sync tests rely on (issue 41): two instances on 127.0.0.1 that carry a
file each way and a deletion, agree when ``wait_synced`` says so, make a real ``*.sync-conflict-*`` copy of a file
edited on both sides while apart, reach nothing outside loopback, and leave no process behind.

Marked ``slow`` (each test waits on two Syncthing processes: about a second to start, well under one to sync).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.support.syncthing import CONFLICT_NAME, MISSING, installed, running_syncthing_pair

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not installed(), reason=MISSING)]

DATA = Path(__file__).parent / "data" / "syncthing"
JOURNAL = Path("monchat/devices/dev1/journal/2026-11.jsonl")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with running_syncthing_pair(tmp_path_factory.mktemp("syncthing")) as pair:
        yield pair


def test_a_file_written_on_one_side_appears_on_the_other_and_so_does_its_deletion(pair):
    (pair.a.folder / "from-a.txt").write_text("written on a\n", encoding="utf-8")
    nested = pair.b.folder / "deep" / "from-b.txt"
    nested.parent.mkdir()
    nested.write_text("written on b\n", encoding="utf-8")
    pair.wait_synced()
    assert (pair.b.folder / "from-a.txt").read_text(encoding="utf-8") == "written on a\n"
    assert (pair.a.folder / "deep" / "from-b.txt").read_text(encoding="utf-8") == "written on b\n"

    (pair.a.folder / "deep" / "from-b.txt").unlink()
    pair.wait_synced()
    assert not nested.exists()


def test_wait_synced_means_the_same_files_with_the_same_bytes_on_both_sides(pair):
    for n in range(5):
        (pair.a.folder / f"batch-{n}.txt").write_text(f"line {n}\n" * (n + 1), encoding="utf-8")
    pair.wait_synced()
    assert _tree(pair.a.folder) == _tree(pair.b.folder)


def test_an_edit_on_both_sides_while_apart_leaves_a_real_conflict_copy_on_both(pair):
    live_a, live_b = pair.a.folder / JOURNAL, pair.b.folder / JOURNAL
    live_a.parent.mkdir(parents=True)
    live_a.write_text('{"line": 1}\n', encoding="utf-8")
    pair.wait_synced()
    with pair.paused():
        live_b.write_text('{"line": 1}\n{"line": "b"}\n', encoding="utf-8")
        an_hour_ago = time.time() - 3600
        os.utime(live_b, (an_hour_ago, an_hour_ago))  # b's edit is the older one: it loses, whatever the clock says
        live_a.write_text('{"line": 1}\n{"line": "a"}\n', encoding="utf-8")
    pair.wait_synced()

    copies = {side.name: [p.relative_to(side.folder) for p in side.conflict_copies()] for side in (pair.a, pair.b)}
    assert copies["a"] == copies["b"] and len(copies["a"]) == 1, copies
    [copy] = copies["a"]
    name = CONFLICT_NAME.match(copy.name)
    assert name and copy.parent == JOURNAL.parent, copy
    assert (name["stem"], name["ext"]) == ("2026-11", ".jsonl")
    assert name["device"] in (pair.a.device_id[:7], pair.b.device_id[:7])
    for side in (pair.a, pair.b):  # the newer edit is the file; the older one is kept whole beside it
        assert (side.folder / JOURNAL).read_text(encoding="utf-8") == '{"line": 1}\n{"line": "a"}\n'
        assert (side.folder / copy).read_text(encoding="utf-8") == '{"line": 1}\n{"line": "b"}\n'


def test_the_recorded_conflict_copy_is_named_as_syncthing_names_one():
    recorded = Path((DATA / "conflict_copy.txt").read_text(encoding="utf-8").strip())
    name = CONFLICT_NAME.match(recorded.name)
    assert name and (name["stem"], name["ext"]) == ("2026-11", ".jsonl") and recorded.parent == JOURNAL.parent


def test_both_run_on_loopback_with_every_outside_service_off(pair):
    for side in (pair.a, pair.b):
        config = side.rest("GET", "/rest/system/config")
        options = config["options"]
        assert options["listenAddresses"] == [side.address]
        assert not options["globalAnnounceEnabled"] and not options["localAnnounceEnabled"]
        assert not options["relaysEnabled"] and not options["natEnabled"] and not options["crashReportingEnabled"]
        assert options["urAccepted"] == -1 and options["autoUpgradeIntervalH"] == 0
        assert config["gui"]["address"].startswith("127.0.0.1:")
        [folder] = config["folders"]
        assert folder["type"] == "sendreceive" and folder["fsWatcherEnabled"]
        assert {d["deviceID"] for d in folder["devices"]} == {pair.a.device_id, pair.b.device_id}
        other = pair.b if side is pair.a else pair.a
        [remote] = [d for d in config["devices"] if d["deviceID"] == other.device_id]
        assert remote["addresses"] == [other.address]


def test_wait_synced_brings_two_apart_back_together(tmp_path):
    """Two left apart (here b refuses a; in CI once a dropped connection waited out Syncthing's back-off) are told to
    dial each other, and what was written meanwhile crosses."""
    with running_syncthing_pair(tmp_path) as pair:
        pair.b.rest("PATCH", f"/rest/config/devices/{pair.a.device_id}", body={"paused": True})
        deadline = time.monotonic() + 15.0
        while pair.connected():
            assert time.monotonic() < deadline, "b never let go of a"
            time.sleep(0.05)
        (pair.a.folder / "while-apart.txt").write_text("written while apart\n", encoding="utf-8")
        pair.wait_synced()
        assert pair.connected()
        assert (pair.b.folder / "while-apart.txt").read_text(encoding="utf-8") == "written while apart\n"


def test_the_pair_stops_and_leaves_no_process(tmp_path):
    with running_syncthing_pair(tmp_path) as pair:
        pids = [pair.a.process.pid, pair.b.process.pid]
        assert pair.a.alive() and pair.b.alive()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert pair.a.process.returncode is not None and pair.b.process.returncode is not None


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and ".stfolder" not in p.parts}
