"""The SQLite store.

One file, WAL mode, ``synchronous = FULL``, migrated on construction under an
exclusive file lock (processes that start together wait for one migration). A
database from a newer monchat is opened read-only and never written. SQLite and
OS errors that are the environment's fault leave as ``StorageError``.

Each thread gets its own connection (sqlite-utils keeps ``check_same_thread``),
so a flush on a worker thread and the GUI reading on the main thread never
share a connection; WAL lets them read while the other writes. Multi-step
writes go through ``store.atomic()``.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ._sqlite_utils import Database

from ..errors import StorageNewerSchema, storage_error
from ..paths import make_private_dir
from .migrations import migrations, newer_schema_error

log = logging.getLogger(__name__)


class Store:
    """The database file, migrated on construction.

    Args:
        path: the SQLite file.
        busy_timeout: seconds to wait for another process's write lock before StorageLocked.
        open_timeout: seconds to wait for a lock while opening (default: ``busy_timeout``); ``chat -m``
            waits less, so that a database another program holds does not delay logging the message.

    Raises:
        StorageError: the file is damaged, locked, read-only, or from a newer monchat (then it is
            opened for reading only, and every write raises StorageNewerSchema).
    """

    def __init__(self, path: Path, busy_timeout: float = 30.0, open_timeout: float | None = None) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout if open_timeout is None else open_timeout  # while opening
        self._local = threading.local()
        self.newer_schema: StorageNewerSchema | None = None
        with self.mapped_errors():
            make_private_dir(self.path.parent)
            with self._migration_lock():
                fresh = not self.path.exists()
                db = self.db
                if fresh:
                    os.chmod(self.path, 0o600)
                self.newer_schema = newer_schema_error(self.path, [m.name for m in migrations.applied(db)])
                if self.newer_schema is None:
                    if db.journal_mode != "wal":
                        db.enable_wal()
                    migrations.apply(db)  # idempotent: under the lock, a second process finds nothing to do
                else:
                    log.warning("%s", self.newer_schema.message)
                    db.conn.execute("PRAGMA query_only = ON")
                self.busy_timeout = busy_timeout
                db.conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")

    @contextmanager
    def _migration_lock(self) -> Iterator[None]:
        """An exclusive lock beside the database, held while it is created and migrated.

        Processes that start at once wait here for the first one's migration, then find it done.
        """
        lock_path = self.path.with_name(self.path.name + ".lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    @contextmanager
    def mapped_errors(self) -> Iterator[None]:
        """Raise SQLite and OS errors that are the environment's fault as StorageError."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            mapped = storage_error(exc, self.path)
            if mapped is None:
                raise
            raise mapped from exc

    @property
    def db(self) -> Database:
        """This thread's connection.

        ``synchronous = FULL``: a commit is on disk when it returns, so a flush that commits and
        then removes its log files can never lose messages to a power cut (with NORMAL, WAL mode
        may roll the last commit back).
        """
        db = getattr(self._local, "db", None)
        if db is None:
            with self.mapped_errors():
                conn = sqlite3.connect(self.path, timeout=self.busy_timeout)
                conn.execute("PRAGMA foreign_keys = ON")
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("PRAGMA secure_delete = ON")  # freed pages zeroed: taken-back words leave the file
                if self.newer_schema is not None:
                    conn.execute("PRAGMA query_only = ON")
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
        if self.newer_schema is not None:
            raise self.newer_schema
        db = self.db
        if db.conn.in_transaction:
            with db.atomic():
                yield db
            return
        with self.mapped_errors():
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.conn.in_transaction:
                    db.conn.execute("ROLLBACK")
                raise
            else:
                db.conn.execute("COMMIT")

    def integrity(self) -> str:
        """``ok``, or what SQLite's quick check found wrong (the first few problems).

        Raises:
            StorageError: the file cannot even be checked.
        """
        with self.mapped_errors():
            rows = self.db.execute("PRAGMA quick_check(5)").fetchall()
        return "; ".join(str(r[0]) for r in rows)

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


class StoreView:
    """One part of the app's tables, on the shared connection: its SQL lives in a subclass."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def db(self):
        return self.store.db
