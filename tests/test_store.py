"""The SQLite store: named migrations applied once, WAL, the idempotent archive, threads."""

from __future__ import annotations

import sqlite3
import stat
import threading
from datetime import datetime, timedelta, timezone

from sqlite_utils import Database

from monchat.core.store import Store
from monchat.core.store.messages import MessageArchive
from monchat.core.store import early_migrations
from monchat.core.store.migrations import known_names, migrations, schema_version
from monchat.core.types import Message, format_ts

UTC = timezone.utc
T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def msg(i: int, role: str = "user", text: str | None = None) -> Message:
    return Message(id=f"m{i:04d}", ts=format_ts(T0 + timedelta(minutes=i)), role=role,
                   text=text or f"message {i}", persona="hana", backend="scripted", model="scripted-1")


def migration_rows(path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT migration_set, name, applied_at FROM _sqlite_migrations ORDER BY rowid").fetchall()
    finally:
        conn.close()


def test_the_first_era_runs_first_and_every_later_migration_after_it():
    """m001–m016 live in early_migrations.py, which holds the registry; migrations.py imports it before adding
    its own, and a new migration goes at the end of migrations.py — never into the first era's file."""
    early = [name for name, value in vars(early_migrations).items() if callable(value) and name[:1] == "m"
             and name[1:4].isdigit()]
    names = known_names()
    assert names[:len(early)] == early
    assert schema_version(early) < min(schema_version([name]) for name in names[len(early):])


def test_a_blank_database_is_migrated_and_recorded(tmp_path):
    path = tmp_path / "monchat.db"
    store = Store(path)
    names = store.applied_migrations()
    assert names[:2] == ["m001_messages", "m002_kv"]
    assert names == [m.name for m in migrations._migrations]
    assert migrations.pending(store.db) == []
    assert {"messages", "kv", "_sqlite_migrations"} <= set(store.db.table_names())
    assert {"id", "ts", "ts_epoch", "day", "session", "role", "persona", "text", "status", "replaces"} <= set(
        store.db["messages"].columns_dict)
    rows = migration_rows(path)
    assert [r[1] for r in rows] == names  # each recorded once
    assert {r[0] for r in rows} == {"monchat"}
    store.close()


def test_reopening_applies_nothing(tmp_path):
    path = tmp_path / "monchat.db"
    Store(path).close()
    before = migration_rows(path)
    store = Store(path)
    assert migration_rows(path) == before  # same names, same applied_at: nothing re-applied
    assert store.applied_migrations() == [r[1] for r in before]
    store.close()


def test_a_database_from_the_previous_schema_is_brought_up_to_date(tmp_path):
    path = tmp_path / "monchat.db"
    older = Database(path)
    migrations.apply(older, stop_before="m002_kv")
    older["messages"].insert({"id": "old1", "ts": format_ts(T0), "ts_epoch": T0.timestamp(), "day": "2026-11-29",
                              "session": "2026-11-29_06", "role": "user", "persona": "hana", "text": "kept",
                              "backend": "", "model": "", "status": "ok", "replaces": "", "archived_at": ""})
    older.conn.close()
    assert [r[1] for r in migration_rows(path)] == ["m001_messages"]
    store = Store(path)
    assert store.applied_migrations() == [m.name for m in migrations._migrations]
    assert [m.text for m in MessageArchive(store).all()] == ["kept"]
    store.set_state("k", "v")  # the kv table from m002 works
    assert store.get_state("k") == "v"
    store.close()


def test_wal_mode_and_private_file(tmp_path):
    path = tmp_path / "data" / "monchat.db"
    store = Store(path)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()
    conn = sqlite3.connect(path)  # WAL is a property of the file, seen by any new connection
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_archive_is_idempotent_by_id(tmp_path):
    store = Store(tmp_path / "monchat.db")
    archive = MessageArchive(store, tz=UTC)
    first = [msg(1), msg(2, "assistant")]
    assert archive.archive(first) == 2
    changed = Message(**{**msg(1).__dict__, "text": "a different text, same id"})
    assert archive.archive([changed, msg(3)]) == 1
    assert archive.archive(first) == 0
    assert archive.count() == 3
    assert [m.id for m in archive.all()] == ["m0001", "m0002", "m0003"]
    assert archive.all()[0].text == "message 1"  # the first version is kept
    row = archive.get_many(["m0001"])["m0001"]
    assert (row["day"], row["session"]) == ("2026-11-29", "2026-11-29_06")


def test_archive_since_and_before(tmp_path):
    store = Store(tmp_path / "monchat.db")
    archive = MessageArchive(store, tz=UTC)
    archive.archive([msg(i) for i in range(10)])
    since = archive.since((T0 + timedelta(minutes=7)).timestamp())
    assert [m.id for m in since] == ["m0007", "m0008", "m0009"]
    older = archive.before((T0 + timedelta(minutes=5)).timestamp(), limit=2)
    assert [m.id for m in older] == ["m0003", "m0004"]
    assert archive.all()[0] == msg(0)  # every field round-trips


def test_the_store_works_from_two_threads(tmp_path):
    store = Store(tmp_path / "monchat.db")
    archive = MessageArchive(store, tz=UTC)
    errors: list[BaseException] = []
    connections: dict[str, sqlite3.Connection] = {}

    def work(name: str, start: int) -> None:
        try:
            connections[name] = store.db.conn  # kept alive, so identities cannot be reused
            for i in range(start, start + 50):
                archive.archive([msg(i)])
                store.set_state(f"{name}-last", str(i))
                assert archive.count() >= 1
            store.close()
        except BaseException as exc:  # noqa: BLE001 (surfaced in the main thread below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"t{n}", n * 1000)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    main = store.db.conn
    assert connections["t0"] is not connections["t1"]  # each thread its own connection
    assert main is not connections["t0"] and main is not connections["t1"]
    assert archive.count() == 100
    assert store.get_state("t0-last") == "49" and store.get_state("t1-last") == "1049"


def test_atomic_rolls_back_every_step(tmp_path):
    store = Store(tmp_path / "monchat.db")
    archive = MessageArchive(store, tz=UTC)
    try:
        with store.atomic():
            archive.archive([msg(1)])
            store.set_state("k", "v")
            raise RuntimeError("crash in the middle")
    except RuntimeError:
        pass
    assert archive.count() == 0
    assert store.get_state("k") is None
