"""This device's own files in the sync folder: its journal (export) and its tombstones (deletions that travel).

**Export.** Every message this device archived (the flush's commit is the one way into the archive; a message
said off the record never gets there) and the journal does not hold yet is appended to the journal file of its
month, synced to disk, and then recorded as journalled (``sync_journal``). A kill between the two leaves a line
the table does not know: before appending, the month's file is read for ids already there, so a line is never
written twice.

**Repair.** After each sync the size and last bytes of each of this device's journal files are kept; a file found
otherwise at the next sync was changed by someone else (a sync tool kept another copy as the file, a conflict's
winner older than this device's last write, a line added from elsewhere, the file removed) and is written again
from the archive: what this device wrote, exactly, and nothing else.

**Deletions.** A deletion recorded here (``sync_tombstones``, ``written`` 0 — this device's own, or one read from
another device) is done in this order, each step idempotent: the message leaves this archive and every place it
reached (Delete message's path, given as ``delete``); its line leaves this device's journal (rewritten: temp file
and rename, the only rewrite); a deletion of this device's own is appended to its ``tombstones.jsonl`` (unless
already there); then it is marked written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Callable

from ..paths import write_private
from ..store.sync import Offset, SyncStore
from ..types import Message
from ..vocabulary.states import ReplyStatus
from .folder import JOURNAL, JOURNAL_FILE, TAIL_BYTES, SyncFolder, append_lines, ids_in, rewrite_without, tail_of

BATCH = 2000


@dataclass
class Exported:
    messages: int = 0
    files: int = 0


def export(sync: SyncStore, folder: SyncFolder, device_id: str) -> Exported:
    """Append what this device archived and its journal does not hold yet."""
    done = Exported()
    there: dict[str, set[str]] = {}  # month → ids its file holds (read once a run)
    pending = sync.unjournalled_ids()
    for start in range(0, len(pending), BATCH):
        by_month: dict[str, list[Message]] = {}
        for message in sync.messages(pending[start:start + BATCH]):
            by_month.setdefault(message.ts[:7], []).append(message)
        for month, messages in sorted(by_month.items()):
            path = folder.journal_file(device_id, month)
            if month not in there:
                there[month] = ids_in(path, folder.codec)
            new = [m for m in messages if m.id not in there[month]]
            append_lines(path, [journal_line(m) for m in new], codec=folder.codec)
            there[month].update(m.id for m in new)
            sync.journalled([m.id for m in messages], month)
            done.messages += len(new)
            done.files += 1
    return done


def journal_line(message: Message) -> str:
    """``message.to_json()``, without ``asdict``'s deep copy (two thirds of an export's time for 20,000 lines):
    the same bytes (``tests/test_sync_journal.py``)."""
    data = {f.name: getattr(message, f.name) for f in fields(message)}
    for optional, empty in (("status", ReplyStatus.OK), ("replaces", ""), ("usage", {}), ("memory_revision", ""),
                             ("off_record", False)):
        if data[optional] == empty:
            del data[optional]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Deletions:
    applied: int = 0  # messages deleted from this archive (another device's deletions)
    scrubbed: int = 0  # lines removed from this device's journal
    published: int = 0  # this device's deletions written to its tombstone file


def carry_out(sync: SyncStore, folder: SyncFolder, device_id: str, delete: Callable[[str], bool],
              present: Callable[[list[str]], set[str]]) -> Deletions:
    """Carry out every deletion not done here yet (the module's docstring). ``present(ids)``: which of them this
    data folder holds (the archive, the logs): only those are handed to Delete message, which reads every log."""
    done = Deletions()
    pending = sync.tombstones(unwritten=True)
    if not pending:
        return done
    here = present([t.message_id for t in pending])
    for tombstone in pending:
        if tombstone.message_id in here and delete(tombstone.message_id):
            done.applied += 1
    pending = sync.tombstones(unwritten=True)  # the deletions above recorded the earlier versions they took
    ids = {t.message_id for t in pending}
    journal = folder.device_dir(device_id) / JOURNAL
    if journal.is_dir():
        for path in sorted(journal.iterdir()):
            if JOURNAL_FILE.match(path.name):
                done.scrubbed += rewrite_without(path, ids, codec=folder.codec)
    sync.unjournal(sorted(ids))
    own = [t for t in pending if t.device == device_id]
    tombstones = folder.device_dir(device_id) / "tombstones.jsonl"
    there = ids_in(tombstones, folder.codec)
    lines = [json.dumps({"id": t.message_id, "device": t.device, "deleted_at": t.deleted_at},
                        ensure_ascii=False, sort_keys=True) for t in own if t.message_id not in there]
    append_lines(tombstones, lines, codec=folder.codec)
    done.published = len(lines)
    sync.mark_written(sorted(ids))
    return done


def _mark(path) -> Offset | None:
    """A file's size and a hash of its last bytes (None: no file)."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - TAIL_BYTES))
            return Offset(size, tail_of(f.read()))
    except FileNotFoundError:
        return None


def _own_key(month: str) -> str:
    return f"own/{month}"


def remember(sync: SyncStore, folder: SyncFolder, device_id: str) -> None:
    """Keep how this device left its journal files (``repair`` compares)."""
    for month in sync.months():
        mark = _mark(folder.journal_file(device_id, month)) or Offset(-1, "")
        if sync.offset(_own_key(month)) != mark:
            sync.set_offset(_own_key(month), mark)


def repair(sync: SyncStore, folder: SyncFolder, device_id: str) -> int:
    """Write again each of this device's journal files someone else changed since its last sync; return how many."""
    repaired = 0
    for month in sync.months():
        known = sync.offset(_own_key(month))
        path = folder.journal_file(device_id, month)
        if known is None or (_mark(path) or Offset(-1, "")) == known:
            continue
        write_private(path, "".join(folder.codec.seal(journal_line(m), path) + "\n" for m in sync.journal_of(month)))
        repaired += 1
    return repaired
