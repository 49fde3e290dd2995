"""A consistent copy of the database while other connections write, and a check of a copy.

SQLite's online backup API copies the database page by page and starts again if another
connection writes meanwhile, so the copy is one committed state — never half of a flush.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def copy_database(source: Path, dest: Path, busy_timeout: float = 30.0) -> None:
    """Copy the database at ``source`` into a new file ``dest`` (one committed state)."""
    src = sqlite3.connect(source, timeout=busy_timeout)  # read only by use: WAL needs its -shm
    try:
        out = sqlite3.connect(dest)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode = DELETE")  # one self-contained file in the archive
        finally:
            out.close()
    finally:
        src.close()


def check_database(path: Path) -> str:
    """``ok``, or what SQLite's integrity check found wrong (first few problems).

    Raises:
        sqlite3.DatabaseError: the file is not a database at all.
    """
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute("PRAGMA integrity_check(5)").fetchall()
        conn.execute("SELECT COUNT(*) FROM messages").fetchone()
    finally:
        conn.close()
    return "; ".join(str(r[0]) for r in rows)


def counts(path: Path) -> dict[str, int]:
    """How many messages and memories a database file holds (for a backup's manifest)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                for table in ("messages", "memories")}
    finally:
        conn.close()
