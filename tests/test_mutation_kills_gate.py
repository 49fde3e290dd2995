"""The log files around the gate, from the survivors of ``--module gate`` (issue 44).

``bash scripts/mutation --module gate`` found most of ``core/logs/files.py`` run by no fast test of its row:
placing imported messages (each once, in its slot), Delete message (a line out for good, every other line kept
byte for byte, an unreadable one too), taking removed words out of a text log, cutting a file back after a
failed write, and reading a window of messages whole or cut. Each test says what the user gets, on both sides.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import threading
from datetime import datetime, timedelta, timezone

import pytest

from monchat.core.errors import StorageError, StorageFull
from monchat.core.logs import files
from monchat.core.logs.files import LogBook, rewrite_without_words
from monchat.core.records.long_text import TURN_TEXT_CHARS
from monchat.core.types import Message, format_ts
from tests.support.disk_faults import refuse_unlink

UTC = timezone.utc
NOW = datetime(2026, 12, 4, 13, 0, tzinfo=UTC)


def said(mid: str, at: datetime, text: str = "hello") -> Message:
    return Message(id=mid, ts=format_ts(at), role="user", text=text, persona="mira")


@pytest.fixture
def book(tmp_path) -> LogBook:
    return LogBook(tmp_path / "logs", tmp_path / "quarantine", tz=UTC)


def lines_of(book: LogBook) -> dict[str, list[str]]:
    return {p.name: [m.id for m in book.read(p).messages] for p in book.files()}


# ---- importing messages ------------------------------------------------------------------------------------------
def test_imported_messages_go_each_once_into_their_slots_in_time_order(book):
    book.append(said("known", NOW))
    batch = [said("later", NOW + timedelta(hours=1)), said("known", NOW), said("earlier", NOW - timedelta(hours=7, minutes=30)),
             said("first", NOW - timedelta(hours=9)), said("later", NOW + timedelta(hours=1))]
    assert book.import_messages(batch) == 3
    assert lines_of(book) == {"2026-12-04_00.jsonl": ["first", "earlier"],
                              "2026-12-04_12.jsonl": ["known", "later"]}
    assert book.import_messages(batch) == 0  # again: every id is there
    assert book.ids() == {"known", "later", "earlier", "first"}


def test_a_message_is_found_by_its_id_in_any_file(book):
    book.append(said("old", NOW - timedelta(days=1), "yesterday"))
    book.append(said("new", NOW, "today"))
    assert book.find("old").text == "yesterday"
    assert book.find("new").text == "today"
    assert book.find("none") is None


# ---- Delete message ----------------------------------------------------------------------------------------------
def test_a_deleted_message_leaves_every_other_line_byte_for_byte(book):
    for mid in ("a", "b", "c"):
        book.append(said(mid, NOW))
    book.append(said("d", NOW - timedelta(days=1)))
    [older, path] = book.files()
    with path.open("ab") as handle:
        handle.write(b"{not json at all\n")  # an unreadable line stays where it is
    before = path.read_bytes().split(b"\n")
    assert book.remove_messages({"b", "d", "nowhere"}) == 2
    assert path.read_bytes().split(b"\n") == [before[0], before[2], before[3], b""]
    assert not older.exists()  # a file left with no line is removed
    assert lines_of(book) == {path.name: ["a", "c"]}


def test_deleting_goes_on_past_a_file_removed_meanwhile(book, monkeypatch):
    book.append(said("a", NOW))
    [path] = book.files()
    gone = book.logs_dir / "2026-12-01_00.jsonl"  # listed, then removed by a flush before we reach it
    monkeypatch.setattr(book, "files", lambda: [gone, path])
    assert book.remove_messages({"a"}) == 1
    assert not path.exists()


def test_a_file_replaced_while_waiting_for_its_lock_is_read_again(book, monkeypatch):
    book.append(said("a", NOW))
    book.append(said("b", NOW))
    same_file, answers = files._same_file, [False]

    def replaced_once(fd, path):  # another Delete message renamed a new file over it meanwhile
        return answers.pop() if answers else same_file(fd, path)

    monkeypatch.setattr(files, "_same_file", replaced_once)
    assert book.remove_messages({"a"}) == 1
    assert book.ids() == {"b"}


def test_deleting_nothing_there_leaves_the_files_alone(book):
    book.append(said("a", NOW))
    [path] = book.files()
    inode, data = path.stat().st_ino, path.read_bytes()
    assert book.remove_messages({"z"}) == 0
    assert path.stat().st_ino == inode and path.read_bytes() == data


def test_deleting_the_last_lines_of_several_files_counts_them_all(book):
    book.append(said("a", NOW - timedelta(days=1)))
    book.append(said("b", NOW))
    book.append(said("c", NOW))
    assert book.remove_messages({"a", "b", "c"}) == 3
    assert book.files() == []


def test_a_file_the_disk_will_not_let_go_is_a_storage_error_naming_it(book, monkeypatch):
    book.append(said("a", NOW))
    [path] = book.files()
    refuse_unlink(monkeypatch, path)
    with pytest.raises(StorageError) as refused:
        book.remove_messages({"a"})
    assert str(path) in refused.value.message


# ---- words taken out of a text log ---------------------------------------------------------------------------
def test_the_lines_holding_a_removed_word_go_and_the_rest_stay_as_they_were(tmp_path):
    log = tmp_path / "monchat.log"
    log.write_bytes(b"one: said hello\r\ntwo: \xe7\x8c\xab\xe3\x81\x8c\xe5\xa5\xbd\xe3\x81\x8d\nthree: nothing\nfour")
    assert rewrite_without_words(log, ["猫", "  ", ""]) == 1
    assert log.read_bytes() == b"one: said hello\r\nthree: nothing\nfour"
    assert rewrite_without_words(log, ["hello", "four"]) == 2
    assert log.read_bytes() == b"three: nothing\n"
    inode = log.stat().st_ino
    assert rewrite_without_words(log, ["absent"]) == 0
    assert log.stat().st_ino == inode  # nothing to drop: not rewritten
    assert rewrite_without_words(tmp_path / "never-written.log", ["hello"]) == 0


def test_a_text_log_that_cannot_be_read_is_a_storage_error(tmp_path):
    folder = tmp_path / "monchat.log"
    folder.mkdir()  # something in the way
    with pytest.raises(StorageError) as refused:
        rewrite_without_words(folder, ["hello"])
    assert str(folder) in refused.value.message


# ---- a failed write is cut back --------------------------------------------------------------------------------
def half_then_full(fd: int, data: bytes) -> None:
    os.write(fd, data[: len(data) // 2])
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_write_the_disk_refuses_halfway_leaves_the_file_as_it_was(book, monkeypatch):
    book.append(said("a", NOW))
    [path] = book.files()
    data = path.read_bytes()
    monkeypatch.setattr(files, "write_all", half_then_full)
    with pytest.raises(StorageFull) as full:
        book.append(said("b", NOW, "a longer message that does not fit"))
    assert path.read_bytes() == data
    assert str(path) in full.value.message  # the file, not just "the data folder"


def test_a_message_said_while_a_flush_removes_its_file_is_written_to_a_fresh_one(book, monkeypatch):
    book.append(said("a", NOW))
    same_file, answers = files._same_file, [False]

    def removed_once(fd, path):  # the flush archived and removed the file between our open and our lock
        return answers.pop() if answers else same_file(fd, path)

    monkeypatch.setattr(files, "_same_file", removed_once)
    book.append(said("b", NOW, "never lost"))
    assert book.find("b").text == "never lost"


def test_a_cut_back_that_fails_too_is_logged_with_the_size(book, monkeypatch, caplog):
    book.append(said("a", NOW))
    [path] = book.files()
    size = path.stat().st_size
    monkeypatch.setattr(files, "write_all", half_then_full)

    def no_truncate(fd, length):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(files.os, "ftruncate", no_truncate)
    with caplog.at_level(logging.ERROR, logger="monchat.core.logs.files"), pytest.raises(StorageFull):
        book.append(said("b", NOW, "a longer message"))
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR] == [
        f"could not cut a log file back to {size} bytes after a failed write"]


# ---- a window of messages, whole or as a turn sends it -------------------------------------------------------
def test_the_window_reads_messages_whole_and_a_turn_reads_a_long_one_cut(book):
    long = "y" * (TURN_TEXT_CHARS + 1000)
    book.append(said("old", NOW - timedelta(minutes=10), "short"))
    book.append(said("long", NOW - timedelta(minutes=5), long))
    book.append(said("new", NOW, "after"))
    edge = NOW.timestamp()
    assert [m.id for m in book.before(edge, 1)] == ["long"]
    assert [m.id for m in book.before(edge, 5)] == ["old", "long"]
    assert book.before(edge, 5)[1].text == long
    cut = book.before(edge, 5, cut=True)[1].text
    assert cut.startswith("y" * TURN_TEXT_CHARS) and len(cut) < len(long)
    assert [m.text for m in book.since((NOW - timedelta(minutes=5)).timestamp())] == [long, "after"]
    assert book.since(0, cut=True)[1].text == cut


# ---- a line whose id an archived message has with another text ---------------------------------------------------
def test_a_line_reusing_an_archived_id_with_another_text_is_set_aside_and_reported(book):
    reused = said("m1", NOW, "a different text")
    same = said("m2", NOW, "the archived text")
    fresh = said("m3", NOW, "not archived")
    bad = book.conflicts([reused, same, fresh], {"m1": "the archived text", "m2": "the archived text"})
    assert [(b.file, b.line_no, b.reason) for b in bad] == [
        ("2026-12-04_12.jsonl", 0, "reuses the id m1 of an archived message with a different text")]
    assert bad[0].raw == reused.to_json().encode("utf-8")
    [copy] = book.quarantined()
    assert copy.read_bytes() == bad[0].raw and copy.name.startswith("2026-12-04_12.jsonl.line0.")
    assert book.conflicts([same, fresh], {"m2": "the archived text"}) == []


# ---- after a flush, reading bad lines ----------------------------------------------------------------------------
def test_a_flush_removes_only_the_files_whose_every_message_it_archived(book):
    book.append(said("a", NOW - timedelta(days=1)))
    book.append(said("b", NOW))
    book.append(said("c", NOW))  # said while the flush ran: not archived
    older, newer = book.files()
    gone = book.logs_dir / "2026-12-01_00.jsonl"  # listed by the flush, removed by another one meanwhile
    assert book.remove_flushed([gone, older, newer], {"a", "b"}) == [newer]
    assert book.files() == [newer]
    assert book.remove_flushed([newer], {"b", "c"}) == [] and book.files() == []  # exactly its messages


def test_a_flush_goes_on_past_a_file_replaced_while_it_waited(book, monkeypatch):
    book.append(said("a", NOW - timedelta(days=1)))
    book.append(said("b", NOW))
    older, newer = book.files()
    same_file, answers = files._same_file, [False]

    def replaced_once(fd, path):  # a Delete message renamed a new file over the first meanwhile
        return answers.pop() if answers else same_file(fd, path)

    monkeypatch.setattr(files, "_same_file", replaced_once)
    assert book.remove_flushed([older, newer], {"a", "b"}) == []
    assert book.files() == [older]  # not the file the flush read: left for the next one


def test_an_id_reused_in_a_later_file_with_another_text_is_set_aside(book):
    book.append(said("m1", NOW - timedelta(days=1), "first words"))
    book.append(said("m1", NOW, "other words"))
    book.append(said("m2", NOW, "fine"))
    read = book.read_all()
    assert [(m.id, m.text) for m in read.messages] == [("m1", "first words"), ("m2", "fine")]
    assert [(b.file, b.line_no, b.reason) for b in read.bad_lines] == [
        ("2026-12-04_12.jsonl", 1, "reuses the id m1 of an earlier line with a different text")]
    [copy] = book.quarantined()
    assert copy.read_bytes() == read.bad_lines[0].raw == said("m1", NOW, "other words").to_json().encode("utf-8")


def test_a_flush_reads_only_the_files_it_was_given(book):
    book.append(said("a", NOW - timedelta(days=1)))
    book.append(said("b", NOW))
    older, newer = book.files()
    assert [m.id for m in book.read_all([older]).messages] == ["a"]
    assert [m.id for m in book.read_all().messages] == ["a", "b"]


def _a_line_the_disk_will_not_set_aside(book, monkeypatch):
    """A log file holding one message and one unreadable line, on a disk that refuses to set lines aside."""
    book.append(said("a", NOW))
    [path] = book.files()
    with path.open("ab") as handle:
        handle.write(b"{broken\n")

    def full(bad):
        raise StorageFull("no room", "free some")

    monkeypatch.setattr(book, "quarantine", full)
    return path


def test_reading_goes_on_when_the_disk_refuses_to_set_bad_lines_aside(book, monkeypatch):
    path = _a_line_the_disk_will_not_set_aside(book, monkeypatch)
    read = book.read(path)
    assert [m.id for m in read.messages] == ["a"] and len(read.bad_lines) == 1
    assert book.try_quarantine(read.bad_lines, path.name) is False
    monkeypatch.undo()
    assert book.try_quarantine(read.bad_lines, path.name) is True and len(book.quarantined()) == 1
    assert book.try_quarantine([], path.name) is True


@pytest.mark.parametrize("raw, reason", [
    (b'{"id": "x", "text": "\xff"}', "not valid UTF-8"),
    (b'{"id": "x", "te', "not valid JSON (Unterminated string starting at)"),
    (b"[" * 200_000 + b"]" * 200_000, "nested too deeply to read"),
])
def test_each_unreadable_line_says_why(raw, reason):
    bad = files.parse_line("2026-12-04_12.jsonl", 7, raw)
    assert (bad.file, bad.line_no, bad.reason, bad.raw) == ("2026-12-04_12.jsonl", 7, reason, raw)


def test_a_message_said_as_a_flush_removes_its_file_is_not_written_into_the_removed_file(book, monkeypatch):
    book.append(said("a", NOW))
    [path] = book.files()
    flock, first = files.fcntl.flock, [True]

    def flush_removes_first(fd, operation):  # the flush archived and removed the file before we got the lock
        if first and first.pop():
            path.unlink()
        return flock(fd, operation)

    monkeypatch.setattr(files.fcntl, "flock", flush_removes_first)
    book.append(said("b", NOW, "never lost"))
    assert book.find("b").text == "never lost"


def test_two_different_unreadable_lines_at_the_same_place_are_both_set_aside(book):
    one = files.BadLine("2026-12-04_12.jsonl", 3, "not valid JSON", b"{one")
    other = files.BadLine("2026-12-04_12.jsonl", 3, "not valid JSON", b"{other")  # the file rewritten meanwhile
    assert len(set(book.quarantine([one, other, one]))) == 2
    assert sorted(p.read_bytes() for p in book.quarantined()) == [b"{one", b"{other"]


def test_a_file_a_flush_removed_before_it_was_read_reads_as_nothing(book):
    book.append(said("a", NOW))
    [path] = book.files()
    gone = book.logs_dir / "2026-12-01_00.jsonl"
    read = book.read(gone)
    assert (read.messages, read.bad_lines) == ([], [])
    assert [m.id for m in book.read_all([gone, path]).messages] == ["a"]


def test_the_warning_when_the_disk_refuses_to_set_lines_aside_says_whose_lines(book, monkeypatch, caplog):
    """monchat.log names the file whose unreadable lines are not copied out yet (or "the log files" for a conflict)."""
    path = _a_line_the_disk_will_not_set_aside(book, monkeypatch)
    with caplog.at_level(logging.WARNING, logger="monchat.core.logs.files"):
        book.read(path)
        book.conflicts([said("a", NOW, "another text")], {"a": "hello"})
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        f"could not quarantine 1 bad line(s) of {path.name}: no room",
        "could not quarantine 1 bad line(s) of the log files: no room"]


# ---- a hand-written probe after the mutmut run: what mutmut does not take out ------------------------------------
# Each file is locked while a message is appended, while Delete message rewrites it and while a flush checks and
# removes it: two of them at once would lose a message. The locks are real here (flock between two open files).
def held(path):
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def release(fd):
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def waits(work) -> threading.Thread:
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(0.3)
    assert thread.is_alive()  # it waits for the lock
    return thread


def test_a_message_said_while_a_flush_holds_its_file_waits_and_goes_to_a_fresh_one(book):
    book.append(said("a", NOW))
    [path] = book.files()
    fd = held(path)  # a flush checking the file
    writer = waits(lambda: book.append(said("b", NOW, "never lost")))
    path.unlink()  # every message of it archived: the flush removes it
    release(fd)
    writer.join(5)
    assert book.find("b").text == "never lost" and book.find("a") is None


def test_delete_message_waits_for_an_append_and_keeps_its_line(book):
    book.append(said("a", NOW))
    book.append(said("b", NOW))
    [path] = book.files()
    fd = held(path)  # a message being appended
    removed = []
    deleter = waits(lambda: removed.append(book.remove_messages({"a"})))
    with path.open("ab") as handle:
        handle.write(said("c", NOW, "said meanwhile").to_json().encode("utf-8") + b"\n")
    release(fd)
    deleter.join(5)
    assert removed == [1] and lines_of(book) == {path.name: ["b", "c"]}


def test_a_flush_waits_for_an_append_and_keeps_the_file_it_went_into(book):
    book.append(said("a", NOW))
    [path] = book.files()
    fd = held(path)  # a message being appended
    kept = []
    flush = waits(lambda: kept.extend(book.remove_flushed([path], {"a"})))
    with path.open("ab") as handle:
        handle.write(said("b", NOW, "said as the flush ends").to_json().encode("utf-8") + b"\n")
    release(fd)
    flush.join(5)
    assert kept == [path] and book.find("b").text == "said as the flush ends"


def test_delete_message_replaces_a_file_whole_and_syncs_the_folder_when_it_removes_one(book, monkeypatch):
    """A deleted message does not come back after a power cut, and a reader never sees a file half rewritten."""
    book.append(said("a", NOW - timedelta(days=1)))
    book.append(said("b", NOW))
    book.append(said("c", NOW))
    older, path = book.files()
    synced = []
    monkeypatch.setattr(files, "fsync_folder", synced.append)
    inode = path.stat().st_ino
    assert book.remove_messages({"a", "b"}) == 2
    assert not older.exists() and synced == [book.logs_dir]  # the emptied file's removal is on disk
    assert path.stat().st_ino != inode  # written beside it and renamed over it, not rewritten in place


def test_a_text_log_is_replaced_whole_not_rewritten_in_place(tmp_path):
    log = tmp_path / "monchat.log"
    log.write_bytes(b"one: hello\ntwo: other\n")
    inode = log.stat().st_ino
    assert rewrite_without_words(log, ["hello"]) == 1
    assert log.read_bytes() == b"two: other\n" and log.stat().st_ino != inode


def test_a_cut_back_is_synced_so_a_power_cut_leaves_no_torn_line(book, monkeypatch):
    book.append(said("a", NOW))
    events = []
    truncate, fsync = os.ftruncate, os.fsync
    monkeypatch.setattr(files.os, "ftruncate", lambda fd, size: (events.append(("cut", fd)), truncate(fd, size))[1])
    monkeypatch.setattr(files.os, "fsync", lambda fd: (events.append(("sync", fd)), fsync(fd))[1])
    monkeypatch.setattr(files, "write_all", half_then_full)
    with pytest.raises(StorageFull):
        book.append(said("b", NOW, "a longer message that does not fit"))
    [cut] = [fd for kind, fd in events if kind == "cut"]
    assert events[-1] == ("sync", cut)
