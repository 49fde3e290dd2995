"""Whether a database from outside (a backup being restored) is exactly what this monchat makes.

A database carries code as well as rows: a trigger runs at a later write (a flush that deletes
every archived message, a memory rewritten), a view runs at a read (one over an endless recursive
query hangs whoever reads it), and a migration row from a future schema makes every later write
refuse. So a restored file is trusted only when its schema is the one this monchat's migrations
build, and it is read in an order that runs none of its code before that is known:

1. ``sqlite_master`` alone (reading it runs nothing), with ``trusted_schema`` off;
2. the migration table's rows, once its own definition is known to be ours;
3. the whole schema — type, name, table and SQL (quoting and spacing normalised) of every table,
   index, trigger and view — against a blank database migrated here by the same migrations;
4. SQLite's integrity check and the row counts, under a time bound (a progress handler).

Anything else is ``ForeignDatabase`` with the reason. ``PRAGMA integrity_check`` does not look inside an
FTS5 index (its blocks can be random bytes and the file still "ok"; then every search fails), so each
search index of the checked copy is then checked by FTS5's own ``integrity-check`` and, when that fails,
rebuilt from the table it indexes — the archive's messages and the memories are the truth, the index is
derived (``check_search_indexes``); when even the rebuilt index fails, the backup is refused. Consent to a cloud is then removed from the
copy (``forget_state``): it was given on another machine, and is asked again on this one.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import time
from pathlib import Path

from ._sqlite_utils import Database
from .migrations import migrations

MIGRATION_TABLE = "_sqlite_migrations"
COUNTED = ("messages", "memories")
# Tables SQLite itself makes, with the only SQL it gives them.
SQLITE_OWN = {"sqlite_sequence": "CREATE TABLE sqlite_sequence(name,seq)",
              "sqlite_stat1": "CREATE TABLE sqlite_stat1(tbl,idx,stat)"}
CHECK_SECONDS = 600.0  # the integrity check of a large database takes seconds; an endless one is stopped


class ForeignDatabase(Exception):
    """The file is not a database this monchat made (the message says why)."""


def _normalised(sql: str | None) -> str:
    """SQL compared for meaning as written: identifier quotes ([x], "x", `x`) and spacing do not count."""
    if sql is None:
        return ""
    text = re.sub(r'\[([^\]]*)\]|"((?:[^"]|"")*)"|`([^`]*)`',
                  lambda m: next(g for g in m.groups() if g is not None), sql)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r" ?([(),]) ?", r"\1", text).strip()


def _schema(conn: sqlite3.Connection) -> dict[tuple[str, str], tuple[str, str]]:
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for kind, name, table, sql in rows:
        key = (str(kind), str(name))
        if key in found:
            raise ForeignDatabase(f"its schema names the {kind} {name!r} twice")
        found[key] = (str(table), _normalised(sql))
    return found


def _blank(applied: tuple[str, ...] | None) -> sqlite3.Connection:
    """A blank in-memory database after this monchat's migrations named in ``applied`` (None: all)."""
    conn = sqlite3.connect(":memory:")
    db = Database(conn)
    migrations.ensure_migrations_table(db)
    for migration in migrations._migrations:  # in this monchat's order, as they were applied
        if applied is None or migration.name in applied:
            with db.atomic():
                migration.fn(db)
                migrations._record_applied(db, migration.name)
    return conn


@functools.lru_cache(maxsize=8)
def reference_schema(applied: tuple[str, ...]) -> dict[tuple[str, str], tuple[str, str]]:
    """The schema a blank database has after this monchat's migrations named in ``applied``."""
    conn = _blank(applied)
    try:
        return _schema(conn)
    finally:
        conn.close()


def _differences(found: dict, expected: dict) -> list[str]:
    problems = []
    for kind, name in sorted(set(found) - set(expected)):
        if name in SQLITE_OWN and kind == "table" and found[(kind, name)][1] == _normalised(SQLITE_OWN[name]):
            continue
        problems.append(f"an extra {kind} {name!r}")
    problems += [f"no {kind} {name!r}" for kind, name in sorted(set(expected) - set(found))]
    problems += [f"a changed {kind} {name!r}" for kind, name in sorted(set(found) & set(expected))
                 if found[(kind, name)] != expected[(kind, name)]]
    return problems


def _applied(conn: sqlite3.Connection, found: dict) -> tuple[str, ...]:
    """The migrations the file records, read only once the table holding them is known to be ours."""
    blank = reference_schema(())
    ours = {key: value for key, value in blank.items() if value[0] == MIGRATION_TABLE}
    if any(found.get(key) != value for key, value in ours.items()):
        raise ForeignDatabase("it has no migration table of monchat's")
    rows = conn.execute(f"SELECT migration_set, name FROM {MIGRATION_TABLE} ORDER BY rowid").fetchall()
    known = [m.name for m in migrations._migrations]
    unknown = [str(name) for migration_set, name in rows if migration_set != "monchat" or name not in known]
    if unknown:
        shown = ", ".join(unknown[:3]) + (" …" if len(unknown) > 3 else "")
        raise ForeignDatabase(f"its schema has migrations this monchat does not know ({shown}): a newer "
                              "monchat or another program made it")
    return tuple(name for name in known if name in {str(r[1]) for r in rows})


def verify_restored(path: Path, *, check_seconds: float = CHECK_SECONDS) -> dict[str, int]:
    """Check the database file at ``path`` as the module docstring says; return its row counts.

    Raises:
        ForeignDatabase: the schema is not exactly this monchat's, the file is damaged, or the
            check took longer than ``check_seconds``.
    """
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ForeignDatabase(f"its database cannot be opened ({exc})") from None
    deadline = time.monotonic() + check_seconds
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 1000)
    try:
        conn.execute("PRAGMA trusted_schema = OFF")
        found = _schema(conn)
        problems = _differences(found, reference_schema(_applied(conn, found)))
        if problems:
            shown = ", ".join(problems[:4]) + (f" and {len(problems) - 4} more" if len(problems) > 4 else "")
            raise ForeignDatabase(f"its database is not one monchat makes ({shown})")
        integrity = "; ".join(str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)").fetchall())
        if integrity != "ok":
            raise ForeignDatabase(f"its database is damaged ({integrity})")
        return {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in COUNTED}
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc):
            raise ForeignDatabase(f"checking its database took longer than {check_seconds:g} s") from None
        raise ForeignDatabase(f"its database is damaged ({exc})") from None
    except sqlite3.DatabaseError as exc:
        raise ForeignDatabase(f"its database is damaged ({exc})") from None
    finally:
        conn.close()


def forget_state(path: Path, prefix: str) -> int:
    """Delete the ``kv`` rows whose key starts with ``prefix`` from a verified copy; return how many."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            return conn.execute("DELETE FROM kv WHERE substr(key, 1, ?) = ?", [len(prefix), prefix]).rowcount
    finally:
        conn.close()


SEARCH_INDEXES = ("messages_fts", "memories_fts")  # FTS5 indexes over a content table (content=…)
SHADOWS = ("data", "idx", "docsize", "config")  # the tables FTS5 keeps an index in


def _index_ok(conn: sqlite3.Connection, index: str) -> bool:
    """FTS5's check of ``index``: its own structure, and (rank 1) that it indexes what its table holds."""
    try:
        conn.execute(f"INSERT INTO {index}({index}, rank) VALUES('integrity-check', 1)")
        return True
    except (sqlite3.DatabaseError, MemoryError):  # a bogus size in a damaged structure record: SQLITE_NOMEM
        return False


def _blank_index(index: str) -> dict[str, list[tuple]]:
    """The rows of ``index``'s shadow tables in a blank database of this monchat (an empty, valid index)."""
    conn = _blank(None)
    try:
        return {shadow: conn.execute(f"SELECT * FROM {index}_{shadow}").fetchall() for shadow in SHADOWS}
    finally:
        conn.close()


def _rebuild(path: Path, index: str) -> None:
    """Rebuild ``index`` from its content table; when FTS5 cannot even open it (its structure record or
    configuration is damaged), its shadow tables are first reset to a blank index's rows."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(f"INSERT INTO {index}({index}) VALUES('rebuild')")
        return
    except (sqlite3.DatabaseError, MemoryError):  # as in _index_ok: a bogus size in the structure record
        pass
    finally:
        conn.close()
    conn = sqlite3.connect(path)
    try:
        with conn:
            for shadow, rows in _blank_index(index).items():
                conn.execute(f"DELETE FROM {index}_{shadow}")
                if rows:
                    marks = ", ".join("?" * len(rows[0]))
                    conn.executemany(f"INSERT INTO {index}_{shadow} VALUES ({marks})", rows)
    finally:
        conn.close()
    conn = sqlite3.connect(path)  # a connection that has not met the damaged index
    try:
        with conn:
            conn.execute(f"INSERT INTO {index}({index}) VALUES('rebuild')")
    finally:
        conn.close()


def check_search_indexes(path: Path) -> list[str]:
    """Check each search index of the verified copy at ``path``; rebuild a damaged one from its table.

    Call only after ``verify_restored`` (the schema, and so every trigger, is then known to be ours).
    Returns the indexes that were rebuilt.

    Raises:
        ForeignDatabase: an index still fails its check after the rebuild (the rows it indexes are bad).
    """
    conn = sqlite3.connect(path)
    try:
        present = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        damaged = [index for index in SEARCH_INDEXES if index in present and not _index_ok(conn, index)]
    finally:
        conn.close()
    for index in damaged:
        try:
            _rebuild(path, index)
        except sqlite3.DatabaseError as exc:
            raise ForeignDatabase(f"its search index {index} is damaged and cannot be rebuilt from what it "
                                  f"indexes ({exc})") from None
        conn = sqlite3.connect(path)
        try:
            if not _index_ok(conn, index):
                raise ForeignDatabase(f"its search index {index} is damaged and still fails its check after "
                                      "being rebuilt from what it indexes")
        finally:
            conn.close()
    return damaged
