"""Two data folders through one shared folder (a USB stick, a Dropbox folder): issue 41's journals and deletions.

Each device is a ``World`` (its own home, the real ``build_app``, an oracle as the only backend) set up on one
shared folder; ``monchat sync`` is ``app.sync.run()`` (the CLI's words are checked in ``test_sync_cli.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monchat.core.store.background import BackgroundStore
from monchat.core.sync.folder import SyncFolder
from monchat.core.sync.status import sync_status
from monchat.core.types import Message
from tests.flush.conftest import World, at

WORD = "plumquistbarrow"


def device(tmp_path, shared: Path, name: str) -> World:
    world = World(tmp_path / name, start="2026-11-23T20:00:00+09:00")
    world.app.sync.setup(shared, name)
    return world


def chat(world: World, when: str, *texts: str) -> list[str]:
    """Say ``texts`` a minute apart from ``when``, then flush (the archive: the journal's only source)."""
    ids = [world.say(when.replace(":00+", f":{n:02d}+", 1) if n else when, text) for n, text in enumerate(texts)]
    world.flush(when[:11] + "23:30:00+09:00")
    return ids


def archived(world: World) -> dict[str, str]:
    return {m.id: m.text for m in world.app.archive.all()}


def journal_lines(shared: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(shared.rglob("journal/*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def holding(folder: Path, word: str) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and word.encode() in p.read_bytes())


def test_two_devices_hold_the_same_archive_and_a_second_sync_changes_nothing(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    chat(a, "2026-11-23T21:00:00+09:00", "I cooked sukiyaki tonight", "with a sweet warishita")
    chat(b, "2026-11-23T22:00:00+09:00", "Practised guitar for an hour")
    first = a.app.sync.run()
    assert first.exported == 2 and first.imported == 0
    assert b.app.sync.run().imported == 2
    assert a.app.sync.run().imported == 1
    assert archived(a) == archived(b) and len(archived(a)) == 3
    b_id = b.app.sync.device().id
    origins = {r["id"]: r["origin"] for r in a.app.store.db.query("SELECT id, origin FROM messages")}
    assert sorted(origins.values(), key=str) == sorted([None, None, b_id], key=str)  # it keeps where it was said
    for world in (a, b):
        assert world.app.sync.run().nothing
    ids = [line["id"] for line in journal_lines(shared)]
    assert sorted(ids) == sorted(archived(a)) and len(ids) == len(set(ids))  # each message once, in its writer's file
    assert not (shared / "monchat" / "devices" / b_id / "journal" / "2026-11.jsonl").read_text().count("sukiyaki")


def test_what_the_folder_holds_is_only_the_journals_never_the_database_settings_or_keys(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    chat(a, "2026-11-23T21:00:00+09:00", "hello there")
    a.app.sync.run()
    names = {p.name for p in shared.rglob("*") if p.is_file()}
    assert names == {"device.json", "2026-11.jsonl"}


def test_an_imported_message_is_history_here_but_no_flush_of_this_device_reads_it(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    chat(b, "2026-11-23T22:00:00+09:00", f"Practised the {WORD} for an hour")
    b.app.sync.run()
    a.app.sync.run()
    assert f"Practised the {WORD} for an hour" in archived(a).values()
    assert BackgroundStore(a.app.store).user_messages_on_day("2026-11-23") == []  # the diary's day: this device's
    assert BackgroundStore(b.app.store).user_messages_on_day("2026-11-23") != []
    a.say("2026-11-23T23:40:00+09:00", "Read a book before bed")
    a.flush("2026-11-23T23:50:00+09:00")
    asked = [*a.oracle.filter_calls, *a.oracle.diary_calls, *a.oracle.reflect_calls]
    assert a.oracle.diary_calls and a.oracle.filter_calls  # the day's page and the filters were asked
    assert "Read a book" in str(asked) and WORD not in str(asked)  # no stage read the desktop's line


def test_off_the_record_never_enters_the_journal(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    said = Message(id="0000000000aa00000001", ts="2026-11-23T21:00:00.000+09:00", role="user",
                   text=f"off the record {WORD}", persona="hana", off_record=True)
    a.app.logbook.off_record.append(said)
    chat(a, "2026-11-23T21:05:00+09:00", "on the record")
    a.app.sync.run()
    assert holding(shared, WORD) == [] and [line["text"] for line in journal_lines(shared)] == ["on the record"]


def test_a_line_another_device_marked_off_the_record_is_never_imported(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    path = SyncFolder(shared).journal_file(b.app.sync.device().id, "2026-11")
    path.parent.mkdir(parents=True)
    said = Message(id="0000000000aa00000002", ts="2026-11-23T21:00:00.000+09:00", role="user", text=WORD,
                   off_record=True)
    path.write_text(said.to_json() + "\n")
    a.app.sync.run()
    assert WORD not in archived(a).values()


def test_a_deletion_leaves_the_other_archive_and_every_journal_file(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    mine, = chat(a, "2026-11-23T21:00:00+09:00", f"my locker word is {WORD}")
    theirs, = chat(b, "2026-11-23T22:00:00+09:00", f"and {WORD} again")
    for world in (a, b, a):
        world.app.sync.run()
    assert len(holding(shared, WORD)) == 2
    a.clock.now = at("2026-11-24T09:00:00+09:00")
    a.app.messages.delete(mine)
    a.app.messages.delete(theirs)  # a message the other device said: its writer scrubs it
    report = a.app.sync.run()
    assert report.tombstones_written == 2 and report.lines_scrubbed == 1
    waiting = sync_status(a.app.sync).deletions_waiting
    assert [w.waiting_on for w in waiting] == [[b.app.sync.device().id]] * 2  # the desktop has not synced since
    b.clock.now = at("2026-11-24T10:00:00+09:00")
    report = b.app.sync.run()
    assert report.deletions_applied == 2 and report.lines_scrubbed == 1
    assert WORD not in " ".join(archived(b).values()) and WORD not in " ".join(archived(a).values())
    assert holding(shared, WORD) == []
    assert sync_status(a.app.sync).deletions_waiting == []
    for world in (a, b):  # and nothing comes back
        world.app.sync.run()
        assert WORD not in " ".join(archived(world).values())


def test_a_file_rewritten_by_its_writer_is_read_again_from_the_start(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    gone, kept = chat(b, "2026-11-23T21:00:00+09:00", "first", "second")
    b.app.sync.run()
    a.app.sync.run()
    b.app.messages.delete(gone)
    third = "third, said after the deletion, longer than the first line was, so an old offset falls inside it"
    chat(b, "2026-11-23T22:00:00+09:00", third)
    b.app.sync.run()
    report = a.app.sync.run()
    assert sorted(archived(a).values()) == ["second", third] and not report.torn and not report.bad_lines


def test_a_conflict_copy_is_reported_and_never_read(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    chat(b, "2026-11-23T21:00:00+09:00", "the real line")
    b.app.sync.run()
    journal = SyncFolder(shared).journal_file(b.app.sync.device().id, "2026-11").parent
    copy = Message(id="0000000000aa00000003", ts="2026-11-23T21:30:00.000+09:00", role="user", text=WORD)
    names = ["2026-11.sync-conflict-20261204-120000-ABCDEFG.jsonl", "2026-11 (laptop's conflicted copy).jsonl",
             "2026-11-conflict-1.jsonl", "2026-11 2.jsonl"]
    for name in names:
        (journal / name).write_text(copy.to_json() + "\n")
    report = a.app.sync.run()
    assert WORD not in archived(a).values() and archived(a) and report.imported == 1
    assert sorted(Path(p).name for p in report.conflicts) == sorted(names)
    assert sorted(Path(p).name for p in sync_status(a.app.sync).conflict_copies) == sorted(names)


def _other_device(shared: Path, device_id: str = "c" * 32) -> Path:
    path = SyncFolder(shared).journal_file(device_id, "2026-11")
    path.parent.mkdir(parents=True)
    (path.parent.parent / "device.json").write_text(json.dumps({"id": device_id, "name": "phone"}))
    return path


@pytest.mark.parametrize("torn", ["no newline", "not json yet"])
def test_a_torn_last_line_is_skipped_then_read_once_whole(tmp_path, shared, torn):
    a = device(tmp_path, shared, "laptop")
    path = _other_device(shared)
    first = Message(id="0000000000aa00000004", ts="2026-11-23T21:00:00.000+09:00", role="user", text="whole")
    second = Message(id="0000000000aa00000005", ts="2026-11-23T21:01:00.000+09:00", role="user", text="torn")
    line = second.to_json()
    cut = line[:20] if torn == "no newline" else line[:20] + "\n"
    path.write_text(first.to_json() + "\n" + cut)
    report = a.app.sync.run()
    assert sorted(archived(a).values()) == ["whole"] and report.torn and report.bad_lines == 0
    path.write_text(first.to_json() + "\n" + line + "\n")  # the rest arrived (a sync tool replaces the file)
    report = a.app.sync.run()
    assert sorted(archived(a).values()) == ["torn", "whole"] and not report.torn and report.imported == 1


def test_a_bad_line_in_the_middle_is_skipped_and_the_rest_is_read(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    path = _other_device(shared)
    good = [Message(id=f"0000000000aa0000000{n}", ts=f"2026-11-23T21:0{n}:00.000+09:00", role="user",
                    text=f"line {n}") for n in (6, 7)]
    path.write_text(good[0].to_json() + "\n{not json\n" + good[1].to_json() + "\n")
    report = a.app.sync.run()
    assert sorted(archived(a).values()) == ["line 6", "line 7"] and report.bad_lines == 1 and not report.torn


def test_an_append_after_its_own_torn_line_cuts_the_fragment_off(tmp_path):
    from monchat.core.sync.folder import append_lines
    own = tmp_path / "2026-11.jsonl"
    whole = '{"id": "0000000000aa0000000d"}\n'
    own.write_text(whole + '{"id": "0000000000aa0000')  # this device's own crash mid-append
    append_lines(own, ['{"id": "0000000000aa0000000e"}'])
    assert own.read_text() == whole + '{"id": "0000000000aa0000000e"}\n'
    own.write_text('{"id": "00000')  # a fragment and nothing before it
    append_lines(own, ["{}"])
    assert own.read_text() == "{}\n"


def test_an_export_cut_short_is_finished_without_writing_a_line_twice(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    chat(a, "2026-11-23T21:00:00+09:00", "one", "two")
    a.app.sync.run()
    a.app.store.db.execute("DELETE FROM sync_journal")  # killed after the append, before the table was written
    a.app.sync.run()
    assert sorted(line["text"] for line in journal_lines(shared)) == ["one", "two"]


@pytest.mark.parametrize("damage", ["older copy", "line added", "removed"])
def test_a_journal_file_a_sync_tool_changed_is_written_again_from_the_archive(tmp_path, shared, damage):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    chat(a, "2026-11-23T21:00:00+09:00", "first")
    a.app.sync.run()
    own = SyncFolder(shared).journal_file(a.app.sync.device().id, "2026-11")
    older = own.read_bytes()
    chat(a, "2026-11-23T22:00:00+09:00", "second")
    a.app.sync.run()
    if damage == "older copy":  # the conflict's winner was the copy from before "second"
        own.write_bytes(older)
    elif damage == "line added":
        forged = json.loads(older)
        forged.update(id="0000000000aa00000009", text=WORD)
        own.write_bytes(own.read_bytes() + json.dumps(forged).encode() + b"\n")
    else:
        own.unlink()
    assert a.app.sync.run().repaired == 1
    assert [line["text"] for line in journal_lines(shared)] == ["first", "second"]
    b.app.sync.run()
    assert sorted(archived(b).values()) == ["first", "second"]


def test_a_device_that_sees_a_deletion_and_the_line_at_once_never_imports_it(tmp_path, shared):
    a, b, c = (device(tmp_path, shared, name) for name in ("laptop", "desktop", "phone"))
    gone, = chat(b, "2026-11-23T21:00:00+09:00", f"said on the desktop {WORD}")
    b.app.sync.run()
    a.app.sync.run()
    a.app.messages.delete(gone)
    a.app.sync.run()  # the desktop has not synced: its journal still holds the line
    report = c.app.sync.run()
    assert WORD not in " ".join(archived(c).values()) and report.imported == 0
    waiting = sync_status(c.app.sync).deletions_waiting
    assert [w.waiting_on for w in waiting] == [[b.app.sync.device().id]]  # the line is still in its journal


def test_words_edited_away_leave_the_other_device_too(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    a.clock.now = at("2026-11-23T21:00:00+09:00")
    a.app.chat.send(f"my pin is {WORD}")
    a.flush("2026-11-23T21:30:00+09:00")
    for world in (a, b):
        world.app.sync.run()
    assert WORD in " ".join(archived(b).values())
    a.clock.now = at("2026-11-23T22:00:00+09:00")
    a.app.chat.edit_last("never mind")
    a.flush("2026-11-23T22:30:00+09:00")
    for world in (a, b):
        world.app.sync.run()
    assert WORD not in " ".join(archived(b).values()) and "never mind" in archived(b).values()
    assert holding(shared, WORD) == []


def test_a_deletion_waits_for_a_running_flush_and_nothing_deleted_comes_in_meanwhile(tmp_path, shared):
    from monchat.core.paths import held_lock
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    gone, = chat(a, "2026-11-23T21:00:00+09:00", f"said {WORD}")
    for world in (a, b):
        world.app.sync.run()
    a.app.messages.delete(gone)
    a.app.sync.run()
    with held_lock(b.app.paths.flush_lock):  # a flush runs on the desktop
        report = b.app.sync.run()
    assert report.deletions_deferred == 1 and WORD in " ".join(archived(b).values())
    report = b.app.sync.run()
    assert report.deletions_applied == 1 and WORD not in " ".join(archived(b).values())


def test_a_copy_of_a_data_folder_restored_elsewhere_must_become_a_device_of_its_own(tmp_path, shared):
    import sqlite3
    from monchat.core.errors import InputError
    a = device(tmp_path, shared, "laptop")
    chat(a, "2026-11-23T21:00:00+09:00", "said on the laptop")
    a.app.sync.run()
    copy = World(tmp_path / "copy", start="2026-11-24T08:00:00+09:00")  # a backup restored on another computer
    copy.app.store.close()
    source = sqlite3.connect(a.app.paths.db_path)
    source.backup(sqlite3.connect(copy.app.paths.db_path))
    source.close()
    a.clock.now = at("2026-11-24T09:00:00+09:00")
    chat(a, "2026-11-24T09:00:00+09:00", "the laptop goes on")
    a.app.sync.run()
    with pytest.raises(InputError, match="Another monchat syncs as this device"):
        copy.app.sync.run()
    new = copy.app.sync.setup(shared, "desktop")
    assert new.id != a.app.sync.device().id
    copy.app.sync.run()
    a.app.sync.run()
    assert archived(copy) == archived(a)
    assert a.app.sync.run().nothing and not copy.app.sync.run().imported


def test_a_journal_line_is_the_log_line_of_the_message_byte_for_byte():
    from monchat.core.sync.journal import journal_line
    from monchat.core.types import ReplyStatus
    plain = Message(id="0000000000aa0000000a", ts="2026-11-23T21:00:00.000+09:00", role="user", text="日本語 \"q\"")
    full = Message(id="0000000000aa0000000b", ts="2026-11-23T21:00:00.000+09:00", role="assistant", text="x",
                   persona="hana", backend="ollama", model="m", status=ReplyStatus.PARTIAL,
                   replaces="0000000000aa0000000c", usage={"prompt": 3, "output": 4}, memory_revision="r1",
                   off_record=True)
    for message in (plain, full):
        assert journal_line(message) == message.to_json()
