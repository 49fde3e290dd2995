"""6-hour log files: slot names, time zones, durable appends, quarantine and the flush gate."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.logs.files import FlushGate, LogBook, slot_name
from monchat.core.types import Message, format_ts

UTC = timezone.utc
JST = timezone(timedelta(hours=9))
NEW_YORK = timezone(timedelta(hours=-5))


def message(ts: str, text: str = "hello", role: str = "user", mid: str | None = None) -> Message:
    return Message(id=mid or f"m-{ts}-{text}", ts=ts, role=role, text=text, persona="hana",
                   backend="scripted", model="scripted-1")


@pytest.fixture
def logbook(tmp_path) -> LogBook:
    return LogBook(tmp_path / "logs", tmp_path / "quarantine", tz=UTC)


# ---- slot names ----------------------------------------------------------
@pytest.mark.parametrize("ts, expected", [
    ("2026-11-29T00:00:00+00:00", "2026-11-29_00"),
    ("2026-11-29T05:59:59+00:00", "2026-11-29_00"),
    ("2026-11-29T05:59:59.999999+00:00", "2026-11-29_00"),
    ("2026-11-29T06:00:00+00:00", "2026-11-29_06"),
    ("2026-11-29T11:59:59+00:00", "2026-11-29_06"),
    ("2026-11-29T12:00:00+00:00", "2026-11-29_12"),
    ("2026-11-29T17:59:59+00:00", "2026-11-29_12"),
    ("2026-11-29T18:00:00+00:00", "2026-11-29_18"),
    ("2026-11-29T23:59:59.999+00:00", "2026-11-29_18"),
    ("2026-11-30T00:00:00+00:00", "2026-11-30_00"),
    ("2026-12-31T23:59:59+00:00", "2026-12-31_18"),
    ("2027-01-01T00:00:00+00:00", "2027-01-01_00"),
])
def test_slot_boundaries(ts, expected):
    assert slot_name(datetime.fromisoformat(ts), UTC) == expected


def test_same_instant_in_different_zones_lands_in_different_local_slots():
    instant = datetime(2026, 11, 29, 20, 30, tzinfo=UTC)
    assert slot_name(instant, UTC) == "2026-11-29_18"
    assert slot_name(instant, JST) == "2026-11-30_00"  # 05:30 the next morning in Tokyo
    assert slot_name(instant, NEW_YORK) == "2026-11-29_12"  # 15:30 in New York
    # The zone of the logbook decides, not the offset the timestamp was written with.
    assert slot_name(instant.astimezone(JST), UTC) == "2026-11-29_18"


def test_a_plus_nine_timestamp_goes_into_the_utc_slot_and_keeps_its_offset(logbook):
    # 03:00 in Tokyo is 18:00 UTC the day before.
    m = message("2026-11-29T03:00:00.000+09:00", "おはよう")
    path = logbook.append(m)
    assert path.name == "2026-11-28_18.jsonl"
    [line] = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["ts"] == "2026-11-29T03:00:00.000+09:00"
    # The same instant in a Tokyo logbook is the 00 slot of the 29th.
    tokyo = LogBook(logbook.logs_dir.parent / "tokyo", logbook.quarantine_dir, tz=JST)
    assert tokyo.path_for(m.dt).name == "2026-11-29_00.jsonl"


# ---- appending -------------------------------------------------------------
def test_append_round_trips_and_keeps_japanese_readable(logbook):
    first = message("2026-11-29T12:00:00.000+09:00", "今日はすき焼きを食べた。割り下は少し甘め。")
    second = Message(id="r1", ts="2026-11-29T12:00:05.000+09:00", role="assistant", text="いいね！\n卵は？",
                     persona="hana", backend="scripted", model="scripted-1", status="partial", replaces="r0")
    path = logbook.append(first)
    assert logbook.append(second) == path
    raw = path.read_bytes()
    assert "すき焼き".encode() in raw
    assert b"\\u" not in raw  # not ASCII-escaped
    assert raw.count(b"\n") == 2 and raw.endswith(b"\n")  # one line per message, newline inside text escaped
    read = logbook.read(path)
    assert read.bad_lines == []
    assert read.messages == [first, second]


def test_append_fsyncs_the_file_and_the_new_folder_entry(logbook, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    path = logbook.append(message("2026-11-29T12:00:00+00:00"))
    assert str(path) in synced
    assert str(logbook.logs_dir) in synced  # a new file's directory entry is synced too
    synced.clear()
    logbook.append(message("2026-11-29T12:00:01+00:00", "again"))
    assert synced == [str(path)]


def test_log_files_are_private(logbook):
    path = logbook.append(message("2026-11-29T12:00:00+00:00"))
    assert path.stat().st_mode & 0o777 == 0o600
    assert logbook.logs_dir.stat().st_mode & 0o777 == 0o700


def test_a_torn_last_line_does_not_corrupt_the_next_append(logbook):
    path = logbook.append(message("2026-11-29T12:00:00+00:00", "before the crash", mid="a"))
    with open(path, "ab") as f:
        f.write(b'{"id":"torn","ts":"2026-11-29T12:00:01+00:00","role":"us')  # crash mid-write
    after = message("2026-11-29T12:00:02+00:00", "after the crash", mid="b")
    logbook.append(after)
    read = logbook.read(path)
    assert [m.id for m in read.messages] == ["a", "b"]
    assert len(read.bad_lines) == 1 and read.bad_lines[0].line_no == 2
    assert path.read_bytes().endswith(after.to_json().encode("utf-8") + b"\n")


# ---- quarantine ------------------------------------------------------------
def _write_damaged_file(logbook: LogBook) -> Path:
    logbook.logs_dir.mkdir(parents=True)
    path = logbook.logs_dir / "2026-11-29_12.jsonl"
    good1 = message("2026-11-29T12:00:00+00:00", "good one", mid="g1").to_json().encode()
    good2 = message("2026-11-29T12:05:00+00:00", "good two", mid="g2").to_json().encode()
    truncated = b'{"id":"t","ts":"2026-11-29T12:01:00+00:00","role":"user","te'
    bad_utf8 = b'{"id":"u","ts":"2026-11-29T12:02:00+00:00","role":"user","text":"\xff\xfe"}'
    missing = b'{"id":"m","ts":"2026-11-29T12:03:00+00:00","text":"no role"}'
    path.write_bytes(b"\n".join([good1, truncated, bad_utf8, missing, good2]) + b"\n")
    return path


def test_bad_lines_are_quarantined_once_and_good_lines_kept(logbook):
    path = _write_damaged_file(logbook)
    original = path.read_bytes()
    read = logbook.read(path)
    assert [m.id for m in read.messages] == ["g1", "g2"]
    assert [(b.line_no, b.file) for b in read.bad_lines] == [(2, path.name), (3, path.name), (4, path.name)]
    reasons = " | ".join(b.reason for b in read.bad_lines)
    assert "JSON" in reasons and "UTF-8" in reasons and "role" in reasons
    quarantined = logbook.quarantined()
    assert len(quarantined) == 3
    assert sorted(q.read_bytes() for q in quarantined) == sorted(b.raw for b in read.bad_lines)
    assert all(q.stat().st_mode & 0o777 == 0o600 for q in quarantined)

    again = logbook.read_all()
    assert [m.id for m in again.messages] == ["g1", "g2"]
    assert len(logbook.quarantined()) == 3  # reading twice does not duplicate
    assert path.read_bytes() == original  # the log file itself is untouched


# ---- the flush gate --------------------------------------------------------
def _fill_slots(logbook: LogBook, count: int) -> None:
    start = datetime(2026, 11, 29, 0, 0, tzinfo=UTC)
    for i in range(count):
        logbook.append(message(format_ts(start + timedelta(hours=6 * i)), f"slot {i}"))


@pytest.mark.parametrize("files, state", [(0, "ok"), (2, "ok"), (3, "warn"), (4, "warn"), (5, "stop"), (6, "stop")])
def test_gate_with_default_settings(home, files, state):
    app = build_app(str(home), tz=UTC)
    _fill_slots(app.logbook, files)
    gate = app.chat.gate()
    assert (gate.unflushed_files, gate.warn_at, gate.stop_at) == (files, 3, 5)
    assert gate.state == state


@pytest.mark.parametrize("files, state", [(1, "ok"), (2, "warn"), (3, "warn"), (4, "stop")])
def test_gate_with_custom_settings(home, files, state):
    home.mkdir(parents=True)
    (home / "settings.toml").write_text("[gate]\nwarn_files = 2\nstop_files = 4\n", encoding="utf-8")
    app = build_app(str(home), tz=UTC)
    assert app.settings_warnings == []
    _fill_slots(app.logbook, files)
    assert app.chat.gate().state == state


def test_gate_counts_only_slot_files(logbook):
    _fill_slots(logbook, 2)
    (logbook.logs_dir / "notes.txt").write_text("not a log")
    (logbook.logs_dir / "2026-11-29_07.jsonl").write_text("")  # not a slot hour
    assert logbook.gate(3, 5) == FlushGate(2, 3, 5)
