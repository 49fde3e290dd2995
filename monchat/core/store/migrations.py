"""Named migrations, applied once and recorded in ``_sqlite_migrations``.

A released migration is never edited: add a new one.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("monchat")


@migrations()
def m001_messages(db: Database) -> None:
    """The archive of every raw message, idempotent by id."""
    db["messages"].create(
        {
            "id": str,
            "ts": str,  # ISO-8601 with the offset it was written with
            "ts_epoch": float,  # for ordering and windows
            "day": str,  # local calendar day, YYYY-MM-DD
            "session": str,  # the 6-hour log file it came from, e.g. 2026-11-29_18
            "role": str,
            "persona": str,
            "text": str,
            "backend": str,
            "model": str,
            "status": str,
            "replaces": str,
            "archived_at": str,
        },
        pk="id",
        not_null={"ts", "ts_epoch", "day", "session", "role", "text"},
    )
    db["messages"].create_index(["ts_epoch"])
    db["messages"].create_index(["session"])


@migrations()
def m002_kv(db: Database) -> None:
    """Small named values: backend cache handles, last choices."""
    db["kv"].create({"key": str, "value": str}, pk="key")
