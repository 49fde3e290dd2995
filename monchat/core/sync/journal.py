"""This device's own files in the sync folder: its journal (export) and its tombstones (deletions that travel).

**Export.** Every message this device archived (the flush's commit is the one way into the archive; a message
said off the record never gets there) and the journal does not hold yet is appended to the journal file of its
month, synced to disk, and then recorded as journalled (``sync_journal``). A kill between the two leaves a line
the table does not know: before appending, the month's file is read for ids already there, so a line is never
written twice.

**Deletions.** A deletion recorded here (``sync_tombstones``, ``written`` 0 — this device's own, or one read from
another device) is done in this order, each step idempotent: the message leaves this archive and every place it
reached (Delete message's path, given as ``delete``); its line leaves this device's journal (rewritten: temp file
and rename, the only rewrite); a deletion of this device's own is appended to its ``tombstones.jsonl`` (unless
already there); then it is marked written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from ..store.sync import SyncStore
from ..types import Message
from .folder import JOURNAL, JOURNAL_FILE, SyncFolder, append_lines, line_id, rewrite_without

BATCH = 2000


@dataclass
class Exported:
    messages: int = 0
    files: int = 0


def export(sync: SyncStore, folder: SyncFolder, device_id: str) -> Exported:
    """Append what this device archived and its journal does not hold yet."""
    done = Exported()
    while True:
        rows = sync.unjournalled(BATCH)
        if not rows:
            return done
        by_month: dict[str, list[Message]] = {}
        for message in rows:
            by_month.setdefault(message.ts[:7], []).append(message)
        for month, messages in sorted(by_month.items()):
            path = folder.journal_file(device_id, month)
            there = _ids_in(path)
            append_lines(path, [m.to_json() for m in messages if m.id not in there])
            sync.journalled([m.id for m in messages], month)
            done.messages += sum(1 for m in messages if m.id not in there)
            done.files += 1
        if len(rows) < BATCH:
            return done


def _ids_in(path) -> set[str]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return set()
    return {i for i in map(line_id, data.splitlines()) if i}


@dataclass
class Deletions:
    applied: int = 0  # messages deleted from this archive (another device's deletions)
    scrubbed: int = 0  # lines removed from this device's journal
    published: int = 0  # this device's deletions written to its tombstone file


def carry_out(sync: SyncStore, folder: SyncFolder, device_id: str, delete: Callable[[str], bool]) -> Deletions:
    """Carry out every deletion not done here yet (the module's docstring)."""
    done = Deletions()
    pending = sync.tombstones(unwritten=True)
    if not pending:
        return done
    for tombstone in pending:
        if delete(tombstone.message_id):
            done.applied += 1
    pending = sync.tombstones(unwritten=True)  # the deletions above recorded the earlier versions they took
    ids = {t.message_id for t in pending}
    journal = folder.device_dir(device_id) / JOURNAL
    if journal.is_dir():
        for path in sorted(journal.iterdir()):
            if JOURNAL_FILE.match(path.name):
                done.scrubbed += rewrite_without(path, ids)
    sync.unjournal(sorted(ids))
    own = [t for t in pending if t.device == device_id]
    tombstones = folder.device_dir(device_id) / "tombstones.jsonl"
    there = _ids_in(tombstones)
    lines = [json.dumps({"id": t.message_id, "device": t.device, "deleted_at": t.deleted_at},
                        ensure_ascii=False, sort_keys=True) for t in own if t.message_id not in there]
    append_lines(tombstones, lines)
    done.published = len(lines)
    sync.mark_written(sorted(ids))
    return done
