"""Off the record, what the survivors of ``--module off-record`` showed unguarded (issue 44).

Whatever a line in ``off_record/`` says, it is read as off the record (a flush, MCP and backups never take it);
a turn's window reads a long off-the-record message cut, as it would on the record; a thing without the mark is
not off the record; clearing never fails because an unreadable line went meanwhile.
"""

from __future__ import annotations

import os
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from monchat.core.errors import StorageError
from monchat.core.logs import off_record
from monchat.core.logs.files import LogBook
from monchat.core.logs.off_record import OffRecordLog, is_off_record
from monchat.core.records.long_text import TURN_TEXT_CHARS
from monchat.core.types import Message, format_ts
from tests.support.disk_faults import refuse_unlink

UTC = timezone.utc
NOW = datetime(2026, 12, 4, 13, 0, tzinfo=UTC)


def said(at: datetime, text: str, off_record: bool = False) -> Message:
    return Message(id=f"o-{len(text)}-{text[:8]}", ts=format_ts(at), role="user", text=text, persona="mira",
                   off_record=off_record)


@pytest.fixture
def off(tmp_path):
    return OffRecordLog(tmp_path / "off_record", tz=UTC)


def test_a_line_without_the_mark_in_the_folder_is_read_as_off_the_record(off):
    plain = LogBook(off.logs_dir, off.quarantine_dir, UTC)  # e.g. a file copied in by hand
    plain.append(said(NOW - timedelta(minutes=5), "written unmarked"))
    assert not plain.read_all().messages[0].off_record  # the line itself says nothing
    for messages in (off.read_all().messages, off.since(0), off.since(0, cut=True), off.before(NOW.timestamp(), 5),
                     off.before(NOW.timestamp(), 5, cut=True)):
        assert [m.text for m in messages] == ["written unmarked"]
        assert all(m.off_record and is_off_record(m) for m in messages)


def test_a_turn_reads_a_long_off_the_record_message_cut_and_the_window_reads_it_whole(off):
    text = "x" * (TURN_TEXT_CHARS + 1000)
    off.append(said(NOW - timedelta(minutes=5), text))
    edge = NOW.timestamp()
    whole = off.before(edge, 5)
    cut = off.before(edge, 5, cut=True)
    assert [m.text for m in whole] == [text]
    assert len(cut) == 1 and len(cut[0].text) < len(text) and cut[0].text.startswith("x" * TURN_TEXT_CHARS)
    assert "more characters of this message are not shown here" in cut[0].text
    assert cut[0].off_record and whole[0].off_record
    assert [m.text for m in off.since(0)] == [text]
    assert off.since(0, cut=True)[0].text == cut[0].text


def test_only_a_thing_marked_off_the_record_is_off_the_record():
    assert not is_off_record(object())  # a search hit of another kind, without the field
    assert not is_off_record(SimpleNamespace(off_record=False))
    assert is_off_record(SimpleNamespace(off_record=True))


def test_clearing_does_not_fail_when_an_unreadable_line_went_meanwhile(off, monkeypatch):
    off.append(said(NOW, "said"))
    gone = off.quarantine_dir / "x.bad"  # listed, then removed by another clear before this one reaches it
    monkeypatch.setattr(off, "quarantined", lambda: [gone])
    assert off.clear() == 1
    assert off.files() == []


# ---- expiry at its edges ----------------------------------------------------------------------------------------
def test_a_message_a_second_older_than_the_hours_goes_and_one_at_the_cut_stays(off):
    cut = NOW - timedelta(hours=24)
    off.append(said(cut - timedelta(seconds=1), "a second too old"))
    off.append(said(cut, "exactly the hours old"))
    assert off.expire(NOW, 24) == 1
    assert [m.text for m in off.read_all().messages] == ["exactly the hours old"]


def test_every_whole_slot_that_ended_is_counted(off):
    for days in (3, 2):
        off.append(said(NOW - timedelta(days=days), f"{days} days ago"))
    off.append(said(NOW, "now"))
    assert off.expire(NOW, 24) == 2
    assert [m.text for m in off.read_all().messages] == ["now"]


def test_a_slot_ending_at_the_cut_goes_with_its_unreadable_line(off):
    """A whole slot older than the hours is removed whole: an unreadable line in it does not outlive the rest."""
    off.append(said(datetime(2026, 12, 3, 6, 30, tzinfo=UTC), "said in a slot ending at 12:00"))
    [path] = off.files()
    with path.open("ab") as handle:
        handle.write(b'{"id": "torn", "text": "half a li\n')
    assert off.expire(datetime(2026, 12, 4, 12, 0, tzinfo=UTC), 24) == 1
    assert off.files() == [] and not path.exists()


def test_the_files_are_named_in_the_log_books_time_not_the_machines(tmp_path):
    """The slot a file covers is read in the log book's zone: here twelve hours from the machine's."""
    local = datetime.now().astimezone().utcoffset() or timedelta(0)
    zone = timezone(local - timedelta(hours=12) if local > timedelta(0) else local + timedelta(hours=12))
    off = OffRecordLog(tmp_path / "off_record", tz=zone)
    now = datetime(2026, 12, 4, 13, 0, tzinfo=zone)
    cut = now - timedelta(hours=24)
    off.append(said(cut - timedelta(minutes=30), "older, in the cut's slot"))
    off.append(said(cut + timedelta(minutes=30), "younger, in the cut's slot"))
    off.append(said(cut - timedelta(hours=7), "a whole slot before"))
    assert [p.name for p in off.files()] == ["2026-12-03_06.jsonl", "2026-12-03_12.jsonl"]
    assert off.expire(now, 24) == 2
    assert [m.text for m in off.read_all().messages] == ["younger, in the cut's slot"]


# ---- what is written, read and removed -------------------------------------------------------------------------
def test_what_is_appended_carries_the_mark_in_the_file_itself(off):
    """The mark is in the line, not only added when read: a copy of the file read by anything else says so too."""
    path = off.append(said(NOW, "not marked by the caller"))
    [line] = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["off_record"] is True


def test_an_id_reused_across_two_off_the_record_files_is_set_aside(off):
    first = said(NOW - timedelta(days=1), "the first text")
    off.append(first)
    off.append(Message(id=first.id, ts=format_ts(NOW), role="user", text="another text", persona="mira"))
    read = off.read_all()
    assert [m.text for m in read.messages] == ["the first text"]
    assert len(read.bad_lines) == 1 and "reuses the id" in read.bad_lines[0].reason
    assert len(off.quarantined()) == 1


def test_a_file_another_process_removed_meanwhile_is_not_counted(off, monkeypatch):
    off.append(said(NOW, "said"))
    [path] = off.files()
    gone = off.logs_dir / "2026-12-01_00.jsonl"
    monkeypatch.setattr(off, "files", lambda: [gone, path])
    assert off.clear() == 1


def test_a_file_the_disk_will_not_let_go_is_a_storage_error_naming_it(off, monkeypatch):
    off.append(said(NOW - timedelta(days=3), "old"))
    [path] = off.files()
    refuse_unlink(monkeypatch, path)
    with pytest.raises(StorageError) as refused:
        off.expire(NOW, 24)
    assert str(path) in refused.value.message
    with pytest.raises(StorageError):
        off.clear()


def test_expiry_does_not_fail_when_another_process_removes_an_old_unreadable_line_first(off, monkeypatch):
    """The window and a command may expire at the same moment: the line the other one removed is simply gone."""
    off.quarantine_dir.mkdir(parents=True)
    bad = off.quarantine_dir / "2026-12-01_00.jsonl.line1.abc.bad"
    bad.write_bytes(b"{broken")
    old = (NOW - timedelta(days=3)).timestamp()
    os.utime(bad, (old, old))
    unlink = Path.unlink

    def raced(self, missing_ok=False):
        if self == bad:
            os.remove(self)  # the other process got there between our look and our removal
        return unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", raced)
    assert off.expire(NOW, 24) == 0
    assert off.quarantined() == []


def test_a_removed_off_the_record_file_stays_removed_after_a_power_cut(off, monkeypatch):
    """Expiry and clear sync the folder after removing a file (a hand-written probe: its removal unsynced passed)."""
    off.append(said(NOW - timedelta(days=3), "old"))
    synced = []
    monkeypatch.setattr(off_record, "fsync_folder", synced.append)
    assert off.expire(NOW, 24) == 1 and synced == [off.logs_dir]
    monkeypatch.undo()
    off.append(said(NOW, "now"))
    monkeypatch.setattr(off_record, "fsync_folder", synced.append)
    assert off.clear() == 1 and synced == [off.logs_dir, off.logs_dir]
