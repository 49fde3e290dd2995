"""The rows of sync (issue 41, ``core/sync/``): this device, the deletions that travel, how far each file was read.

A message's origin is the archive's ``origin`` column (m028): NULL for a message written on this device, else the
id of the device whose journal it came from. Only the archive's one writer (``MessageArchive.archive``) sets it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import Message
from .db import Store
from .messages import _row_to_message


@dataclass(frozen=True)
class Device:
    """This data folder as a device of a sync folder."""

    id: str
    name: str
    folder: str
    created_at: str
    last_sync: str | None = None  # the end of its last sync, also in its device.json (a copy of this data
    # folder, restored from a backup elsewhere, finds the file's newer than its own: another writer has this id)


@dataclass(frozen=True)
class Tombstone:
    message_id: str
    device: str  # the device that deleted it
    deleted_at: str
    written: bool  # in this device's tombstone file (or read from another device's)


@dataclass(frozen=True)
class Offset:
    offset: int  # bytes read: the end of the last whole line taken
    tail: str  # a hash of the bytes just before ``offset``: a file rewritten since is read from its start


class SyncStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # ---- this device -----------------------------------------------------
    def device(self) -> Device | None:
        row = self.store.db.execute("SELECT id, name, folder, created_at, last_sync FROM sync_device WHERE key = 1"
                                    ).fetchone()
        return None if row is None else Device(*row)

    def set_device(self, device: Device) -> None:
        with self.store.atomic() as db:
            db.execute("INSERT INTO sync_device(key, id, name, folder, created_at, last_sync) VALUES(1, ?, ?, ?, ?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET id = excluded.id, name = excluded.name, "
                       "folder = excluded.folder, created_at = excluded.created_at, last_sync = excluded.last_sync",
                       [device.id, device.name, device.folder, device.created_at, device.last_sync])

    def become(self, device: Device) -> None:
        """This data folder becomes a new device (a copy of another's): nothing is in its own journal yet, and its
        own deletions are written again under its new id."""
        with self.store.atomic() as db:
            db.execute("UPDATE sync_tombstones SET device = ?, written = 0 WHERE device = "
                       "(SELECT id FROM sync_device WHERE key = 1)", [device.id])
            db.execute("DELETE FROM sync_journal")
            db.execute("DELETE FROM sync_offsets WHERE path LIKE 'own/%'")
            self.set_device(device)

    # ---- what this device wrote -------------------------------------------
    def unjournalled_ids(self) -> list[str]:
        """Ids of archived messages written here (no origin) that this device's journal does not hold yet and no
        deletion names, oldest first."""
        ids = [r[0] for r in self.store.db.execute(  # the partial index messages_written_here (m028): ids only
            "SELECT id FROM messages WHERE origin IS NULL AND id NOT IN (SELECT message_id FROM sync_journal) "
            "AND id NOT IN (SELECT message_id FROM sync_tombstones)")]
        if not ids:
            return []
        order: dict[str, float] = {}
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            order.update(self.store.db.execute(f"SELECT id, ts_epoch FROM messages WHERE id IN ({marks})", part))
        return sorted(ids, key=lambda i: (order[i], i))

    def messages(self, ids: list[str]) -> list[Message]:
        """These archived messages, whole, in the order of ``ids`` (asked in slices)."""
        found: dict[str, Message] = {}
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            found.update((r["id"], _row_to_message(r)) for r in self.store.db.query(
                f"SELECT * FROM messages WHERE id IN ({marks})", part))
        return [found[i] for i in ids if i in found]

    def journalled(self, ids: list[str], month: str) -> None:
        """These messages are in this device's journal file of ``month``."""
        with self.store.atomic() as db:
            db.conn.executemany("INSERT OR IGNORE INTO sync_journal(message_id, month) VALUES(?, ?)",
                                [[i, month] for i in ids])

    def journal_of(self, month: str) -> list[Message]:
        """The archived messages this device's journal file of ``month`` holds, in the order they were written."""
        return [_row_to_message(r) for r in self.store.db.query(
            "SELECT m.* FROM sync_journal j JOIN messages m ON m.id = j.message_id WHERE j.month = ? "
            "ORDER BY j.rowid", [month])]

    def months(self) -> list[str]:
        return [r[0] for r in self.store.db.execute("SELECT DISTINCT month FROM sync_journal ORDER BY month")]

    def unjournal(self, ids: list[str]) -> None:
        """Their lines left this device's journal (a deletion)."""
        with self.store.atomic() as db:
            db.conn.executemany("DELETE FROM sync_journal WHERE message_id = ?", [[i] for i in ids])

    # ---- deletions ----------------------------------------------------------
    def add_tombstones(self, ids: list[str], device: str, deleted_at: str, *, written: bool) -> int:
        """Record deletions (an id already recorded keeps its row); return how many were new."""
        return self.add_deletions([(i, deleted_at) for i in ids], device, written=written)

    def add_deletions(self, rows: list[tuple[str, str]], device: str, *, written: bool) -> int:
        """Record (id, deleted_at) deletions of ``device`` in one transaction; an id already recorded keeps its row."""
        with self.store.atomic() as db:
            return db.conn.executemany(
                "INSERT OR IGNORE INTO sync_tombstones(message_id, device, deleted_at, written) VALUES(?, ?, ?, ?)",
                [[i, device, at, int(written)] for i, at in rows]).rowcount

    def tombstones(self, *, unwritten: bool = False) -> list[Tombstone]:
        where = "WHERE written = 0 " if unwritten else ""
        return [Tombstone(r[0], r[1], r[2], bool(r[3])) for r in self.store.db.execute(
            f"SELECT message_id, device, deleted_at, written FROM sync_tombstones {where}ORDER BY deleted_at, "
            f"message_id").fetchall()]

    def tombstoned(self) -> set[str]:
        return {r[0] for r in self.store.db.execute("SELECT message_id FROM sync_tombstones").fetchall()}

    def mark_written(self, ids: list[str]) -> None:
        with self.store.atomic() as db:
            db.conn.executemany("UPDATE sync_tombstones SET written = 1 WHERE message_id = ?", [[i] for i in ids])

    # ---- how far each file was read ---------------------------------------------
    def offset(self, path: str) -> Offset | None:
        row = self.store.db.execute("SELECT offset, tail FROM sync_offsets WHERE path = ?", [path]).fetchone()
        return None if row is None else Offset(row[0], row[1] or "")

    def set_offset(self, path: str, offset: Offset) -> None:
        """Runs inside the caller's transaction (the messages read and the offset commit together)."""
        with self.store.atomic() as db:
            db.execute("INSERT INTO sync_offsets(path, offset, tail) VALUES(?, ?, ?) ON CONFLICT(path) DO UPDATE "
                       "SET offset = excluded.offset, tail = excluded.tail", [path, offset.offset, offset.tail])
