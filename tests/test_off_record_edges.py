"""Off the record at its edges (issue 44: mutants of ``core/logs/off_record.py``).

What is older than the hours goes — a whole slot file that ended at or before the cut, the older lines of the
file the cut falls in — and nothing younger; the words that went are handed on (to be taken out of monchat.log);
``clear`` takes everything; the summary says how many there are and when the oldest goes; tidying up at start
never fails because the disk refuses.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import pytest

from monchat.core.errors import StorageError
from monchat.core.logs.off_record import OffRecordLog, expire_quietly, is_off_record
from monchat.core.types import Message, format_ts

UTC = timezone.utc
NOW = datetime(2026, 12, 4, 13, 0, tzinfo=UTC)


def said(at: datetime, text: str, off_record: bool = False) -> Message:
    return Message(id=f"o-{text.replace(' ', '-')}", ts=format_ts(at), role="user", text=text, persona="mira",
                   off_record=off_record)


@pytest.fixture
def off(tmp_path):
    log = OffRecordLog(tmp_path / "off_record", tz=UTC)
    log.gone = []  # type: ignore[attr-defined]
    log.on_removed = log.gone.extend  # type: ignore[attr-defined]
    return log


def texts(off: OffRecordLog) -> list[str]:
    return sorted(m.text for m in off.read_all().messages)


def test_what_is_older_than_the_hours_goes_and_nothing_younger(off):
    cut = NOW - timedelta(hours=24)  # 2026-12-03 13:00
    off.append(said(cut - timedelta(hours=7), "a whole slot before"))  # 12-03 06:00 slot, ends at 12:00
    off.append(said(cut - timedelta(minutes=30), "in the cut's slot, older"))  # 12-03 12:00 slot
    off.append(said(cut, "at the cut exactly"))
    off.append(said(cut + timedelta(minutes=30), "in the cut's slot, younger"))
    off.append(said(NOW, "said just now"))
    assert off.expire(NOW, 24) == 2
    assert texts(off) == ["at the cut exactly", "in the cut's slot, younger", "said just now"]
    assert sorted(off.gone) == ["a whole slot before", "in the cut's slot, older"]
    assert [p.name for p in off.files()] == ["2026-12-03_12.jsonl", "2026-12-04_12.jsonl"]


def test_a_slot_ending_exactly_at_the_cut_goes_whole(off):
    off.append(said(datetime(2026, 12, 3, 6, 30, tzinfo=UTC), "in a slot ending at 12:00"))
    assert off.expire(datetime(2026, 12, 4, 12, 0, tzinfo=UTC), 24) == 1
    assert off.files() == [] and off.gone == ["in a slot ending at 12:00"]


def test_nothing_to_expire_hands_on_nothing(off):
    off.append(said(NOW, "fresh"))
    assert off.expire(NOW, 24) == 0
    assert off.gone == [] and texts(off) == ["fresh"]


def test_a_file_that_is_no_slot_is_left_alone(off):
    off.append(said(NOW - timedelta(days=3), "old"))
    stray, no_day = off.logs_dir / "notes.jsonl", off.logs_dir / "2026-02-30_06.jsonl"  # no such day
    stray.write_text("kept\n")
    no_day.write_text("")
    assert off.expire(NOW, 24) == 1
    assert stray.exists() and no_day.exists()


def test_clear_takes_everything_and_hands_the_words_on(off):
    off.append(said(NOW - timedelta(days=2), "older"))
    off.append(said(NOW, "newer"))
    off.quarantine_dir.mkdir(parents=True, exist_ok=True)
    (off.quarantine_dir / "x.bad").write_bytes(b"{broken")
    assert off.clear() == 2
    assert off.files() == [] and off.quarantined() == []
    assert sorted(off.gone) == ["newer", "older"]


def test_what_is_appended_or_read_is_marked_off_the_record(off):
    off.append(said(NOW, "not marked by the caller"))
    assert all(is_off_record(m) for m in off.read_all().messages)
    assert all(is_off_record(m) for m in off.since(0))
    assert all(is_off_record(m) for m in off.before(NOW.timestamp() + 1, 10))
    assert not is_off_record(said(NOW, "on the record"))


def test_the_summary_counts_and_says_when_the_oldest_goes(off):
    assert off.summary(24).to_dict() == {"messages": 0, "files": 0, "hours": 24, "oldest": None,
                                         "removed_after": None}
    first = said(NOW - timedelta(hours=10), "first")
    off.append(first)
    off.append(said(NOW, "second"))
    summary = off.summary(24)
    assert (summary.messages, summary.files, summary.hours, summary.oldest) == (2, 2, 24, first.ts)
    assert summary.removed_after == (NOW + timedelta(hours=14)).isoformat(timespec="seconds")


def test_tidying_up_never_fails_on_a_refusing_disk(off, monkeypatch, caplog):
    assert expire_quietly(None, NOW, 24) == 0
    assert expire_quietly(off, NOW, 24) == 0  # no folder yet
    off.append(said(NOW - timedelta(days=3), "old"))

    def refuse(now, hours):
        raise StorageError("The disk is read-only.", "later")

    monkeypatch.setattr(off, "expire", refuse)
    with caplog.at_level(logging.WARNING):
        assert expire_quietly(off, NOW, 24) == 0
    assert "could not remove old messages yet: The disk is read-only." in caplog.text
    monkeypatch.undo()
    assert expire_quietly(off, NOW, 24) == 1
