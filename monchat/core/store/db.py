"""The SQLite store.

One file, WAL mode, migrated on construction. Each thread gets its own
connection (sqlite-utils keeps ``check_same_thread``), so a flush on a worker
thread and the GUI reading on the main thread never share a connection; WAL
lets them read while the other writes. Multi-step writes go through
``store.atomic()``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlite_utils import Database

from .migrations import migrations


class Store:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fresh = not self.path.exists()
        db = self.db
        if fresh:
            os.chmod(self.path, 0o600)
        if db.journal_mode != "wal":
            db.enable_wal()
        migrations.apply(db)

    @property
    def db(self) -> Database:
        """This thread's connection."""
        db = getattr(self._local, "db", None)
        if db is None:
            conn = sqlite3.connect(self.path, timeout=30)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = NORMAL")
            db = Database(conn)
            self._local.db = db
        return db

    @contextmanager
    def atomic(self) -> Iterator[Database]:
        """One transaction (a savepoint when nested).

        The outermost one is ``BEGIN IMMEDIATE``: it takes the write lock at the
        start, so two threads or processes queue on the busy timeout instead of
        one failing with "database is locked" when its read turns into a write.
        """
        db = self.db
        if db.conn.in_transaction:
            with db.atomic():
                yield db
            return
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise
        else:
            db.conn.execute("COMMIT")

    def applied_migrations(self) -> list[str]:
        return [m.name for m in migrations.applied(self.db)]

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None

    # ---- small key/value state (backend caches, last choices) ----------
    def get_state(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM kv WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_state(self, key: str, value: str | None) -> None:
        with self.atomic() as db:
            if value is None:
                db.execute("DELETE FROM kv WHERE key = ?", [key])
            else:
                db.execute("INSERT INTO kv(key, value) VALUES(?, ?) "
                           "ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])
