"""Guarantees at their edges (issue 44: tests that bite): each threshold on both sides, each rule alone.

Each test kills a mutant no other fast test noticed: a never-remember rule on a memory's slot (not its words)
no longer keeping it from other apps; the downloads' free-space margin gone; the expiry of unreadable
off-the-record lines running backwards; an import item twice the size limit read; the gate's edges and a
flush's; a stage's real failure racing a cancel reported as a cancel.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from monchat.core.errors import BackendError, InputError
from monchat.core.flush.records import FlushCancelled
from monchat.core.flush.runner import Stage, run_stages
from monchat.core.logs.files import FlushGate
from monchat.core.logs.off_record import OffRecordLog
from monchat.core.memory import FlushStage
from monchat.core.models.catalog import find_model, installed_file
from monchat.core.models.download import MARGIN_BYTES, RESERVE_BYTES, NoDiskSpace, pull
from monchat.core.transfer.json_stream import StreamError, array_items
from monchat.core.transfer.mcp_server import MemoryPort, visible_to_clients
from monchat.core.vocabulary.states import GateState
from tests.support.memory_seed import seed, seeded_app  # noqa: F401 (seeded_app: the app fixture)

UTC = timezone.utc
MIB = 1024 * 1024


# ---- MCP: a never-remember rule on a slot keeps the memory from other apps ----------------------------------
def test_a_rule_matching_only_a_memorys_slot_hides_it_from_other_apps(app):
    """"Lives in Kanazawa" is kept in home/city: the rule "city" names its slot, not its words."""
    port = MemoryPort(app)
    assert "Kanazawa" in port.profile() and port.search_memory("Kanazawa")
    app.never.add("city")
    assert "Kanazawa" not in port.profile()
    assert port.search_memory("Kanazawa") == []
    app.never.remove("city")
    assert "Kanazawa" in port.profile()  # the rule, and nothing else, kept it out


def test_a_proposal_in_a_slot_a_rule_covers_is_refused(app):
    from monchat.cli import main as cli
    app.never.add("salary")
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    with pytest.raises(InputError, match="keeps this topic out"):
        MemoryPort(app).propose("Got a raise this spring", "work/salary")


@pytest.mark.parametrize("kind", ["profile", "memory", "proposal"])
def test_the_hook_reads_the_slot_for_every_kind_that_has_one(app, kind):
    app.never.add("salary")
    assert not visible_to_clients(app, kind, {"id": "m", "text": "got a raise", "slot": "work/salary"})
    assert visible_to_clients(app, kind, {"id": "m", "text": "got a raise", "slot": "work/desk"})


# ---- downloads: the free-space margin, on each side of its edge ---------------------------------------------
def test_the_margin_is_real_room():
    assert MARGIN_BYTES >= 100 * MIB and 0 < RESERVE_BYTES < MARGIN_BYTES


def tiny_catalog(tmp_path: Path, monkeypatch, size: int) -> Path:
    import hashlib
    import json
    source = tmp_path / "tiny.gguf"
    source.write_bytes(os.urandom(size))
    entry = {"name": "tiny", "title": "tiny (test)", "repo": "test-org/tiny-GGUF", "file": source.name,
             "revision": "main", "size_bytes": size, "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
             "ram_gb": 0.5, "context_length": 8192, "parameters": "1M", "languages": ["en"], "japanese": "poor",
             "licence": "MIT", "purpose": "tests"}
    (tmp_path / "catalog.json").write_text(json.dumps({"models": [entry]}))
    monkeypatch.setenv("MONCHAT_CATALOG", str(tmp_path / "catalog.json"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return source


def test_a_disk_one_byte_short_of_the_model_and_its_margin_is_refused_before_any_connection(tmp_path,
                                                                                          monkeypatch):
    size = 1 * MIB
    tiny_catalog(tmp_path, monkeypatch, size)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens: a connection would fail otherwise
    asked: list[Path] = []

    def short(folder: Path) -> int:
        asked.append(folder)
        return size + MARGIN_BYTES - 1

    with pytest.raises(NoDiskSpace, match=r"needs .* of free disk space"):
        pull(find_model("tiny"), tmp_path / "models", free_space=short)
    assert asked and not (tmp_path / "models").exists()


def test_a_disk_with_exactly_the_model_and_its_margin_downloads(tmp_path, monkeypatch):
    from tests.fakes.fake_hub import running_fake_hub
    size = 1 * MIB
    source = tiny_catalog(tmp_path, monkeypatch, size)
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        models = tmp_path / "models"
        path = pull(find_model("tiny"), models, free_space=lambda folder: size + MARGIN_BYTES)
    assert installed_file(models, find_model("tiny")) == path


def test_a_disk_that_drops_below_the_reserve_during_the_download_stops_it(tmp_path, monkeypatch):
    from tests.fakes.fake_hub import running_fake_hub
    size = 4 * MIB
    source = tiny_catalog(tmp_path, monkeypatch, size)
    calls = []

    def disk(folder: Path) -> int:  # room at the start; then one byte less than what is left plus the reserve
        calls.append(folder)
        return size + MARGIN_BYTES if len(calls) == 1 else size + RESERVE_BYTES - 1

    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(NoDiskSpace, match="ran short of space"):
            pull(find_model("tiny"), tmp_path / "models", free_space=disk)


def test_a_disk_that_keeps_exactly_the_reserve_during_the_download_lets_it_finish(tmp_path, monkeypatch):
    from tests.fakes.fake_hub import running_fake_hub
    size = 4 * MIB
    source = tiny_catalog(tmp_path, monkeypatch, size)
    calls = []

    def disk(folder: Path) -> int:
        calls.append(folder)
        return size + MARGIN_BYTES if len(calls) == 1 else size + RESERVE_BYTES

    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        path = pull(find_model("tiny"), tmp_path / "models", free_space=disk)
    assert path.stat().st_size == size and len(calls) > 1


# ---- off the record: unreadable lines expire oldest first, never the fresh ones -----------------------------
def test_unreadable_off_record_lines_past_the_hours_go_and_fresh_ones_stay(tmp_path):
    off = OffRecordLog(tmp_path / "off_record", tz=UTC)
    off.quarantine_dir.mkdir(parents=True)
    now = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    old, fresh, edge = (off.quarantine_dir / f"{n}.bad" for n in ("old", "fresh", "edge"))
    for path, age in ((old, timedelta(hours=25)), (fresh, timedelta(hours=1)), (edge, timedelta(hours=24))):
        path.write_bytes(b"{not json: my salary is 9 million")
        stamp = (now - age).timestamp()
        os.utime(path, (stamp, stamp))
    off.expire(now, 24)
    assert not old.exists()
    assert fresh.exists() and edge.exists()  # exactly 24 hours old: not older than the hours yet


# ---- the import stream: an item at the limit is read, one character more is not ------------------------------
def item_of(chars: int) -> str:
    return '"' + "a" * (chars - 2) + '"'  # a JSON string of exactly ``chars`` characters


@pytest.mark.parametrize("chunk", [16, 1000, 1 << 20])
def test_an_item_of_the_limit_is_read_and_one_character_more_is_refused(tmp_path, chunk):
    limit = 200
    path = tmp_path / "items.json"
    path.write_text(f'[{item_of(10)}, {item_of(limit)}, {item_of(10)}]', encoding="utf-8")
    assert [len(v) + 2 for v in array_items(path, chunk=chunk, max_item=limit)] == [10, limit, 10]
    for size in (limit + 1, 2 * limit, 2 * limit + 1, 100 * limit):
        path.write_text(f'[{item_of(10)}, {item_of(size)}]', encoding="utf-8")
        with pytest.raises(StreamError, match=f"larger than {limit:,} characters"):
            list(array_items(path, chunk=chunk, max_item=limit))


# ---- the gate: chat waits at stop_at, not one file before; never while a flush runs ---------------------------
@pytest.mark.parametrize("files, flushing, state", [
    (2, False, GateState.OK), (3, False, GateState.WARN), (4, False, GateState.WARN), (5, False, GateState.STOP),
    (2, True, GateState.OK), (3, True, GateState.WARN), (5, True, GateState.WARN), (50, True, GateState.WARN)])
def test_the_gate_at_each_edge(files, flushing, state):
    gate = FlushGate(files, 3, 5, flushing)
    assert gate.state is state and gate.closed == (state is GateState.STOP)


# ---- a flush: a real failure racing a cancel is reported as the failure ---------------------------------------
def test_a_real_failure_racing_a_cancel_is_the_error_the_user_sees():
    """One stage stops at the cancel (FlushCancelled) just before another fails for real: the user is told
    the real failure (a backend down), not "cancelled" — whichever ended first."""
    cancel = threading.Event()
    cancelled_first = threading.Event()

    def stops_at_cancel(halt):
        cancel.set()
        assert halt.wait(5)
        cancelled_first.set()
        raise FlushCancelled()

    def fails_for_real(halt):
        assert cancelled_first.wait(5)
        time.sleep(0.2)  # the runner has collected the cancel by now
        raise BackendError("the backend went away", "later", transient=False)

    stages = [Stage(FlushStage.SCORE, (), "a", stops_at_cancel), Stage(FlushStage.DIARY, (), "b", fails_for_real)]
    with pytest.raises(BackendError, match="went away"):
        run_stages(stages, {}, cancel)


def test_a_cancel_alone_is_a_cancel():
    cancel = threading.Event()

    def stops_at_cancel(halt):
        cancel.set()
        assert halt.wait(5)
        raise FlushCancelled()

    with pytest.raises(FlushCancelled):
        run_stages([Stage(FlushStage.SCORE, (), "a", stops_at_cancel),
                    Stage(FlushStage.DIARY, (), "b", lambda halt: halt.wait(5) and "b")], {}, cancel)
