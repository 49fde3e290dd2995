"""A hostile backup, crafted with ``zipfile`` and ``sqlite3``, is refused (exit 2) and changes nothing.

Each case is a real file a user could be sent: a database carrying triggers or views or a future
schema, a manifest that lies about the counts, entries too many, too deep, too large, encrypted,
packed with a method we do not write, named twice, or files a backup never holds (the database's
``-wal``, which SQLite would replay over the checked copy). The folder restored into is the same
afterwards, byte for byte, and no hidden copy is left beside it.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import warnings
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.transfer.backup import create_backup
from monchat.core.paths import Paths
from monchat.core.types import Message, format_ts

REPO = Path(__file__).resolve().parents[1]
UTC = timezone.utc
CONSENT = "privacy.cloud_ok.openai@https://api.example.com/v1"


def fill(home: Path | None, n: int = 4) -> None:
    """A data folder (``home``, else the environment's) with ``n`` archived messages, a consent to a cloud
    and another state row."""
    app = build_app(str(home) if home else None, tz=UTC)
    app.archive.archive([Message(id=f"m{k}", ts=format_ts(datetime(2026, 11, 29, 10, k, tzinfo=UTC)),
                                 role="user", text=f"message {k}", persona="hana") for k in range(n)])
    app.store.set_state(CONSENT, "yes")
    app.store.set_state("ui.last_persona", "hana")
    app.close()


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    home = tmp_path_factory.mktemp("good") / "home"
    fill(home)
    dest = home.parent / "good.zip"
    create_backup(Paths.from_env(home), dest)
    return dest.read_bytes()


def entries(raw: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def make_zip(items: dict[str, bytes] | list[tuple[str, bytes]], method=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Duplicate name": that is the point of one case
        with zipfile.ZipFile(buffer, "w", method) as z:
            for name, data in (items.items() if isinstance(items, dict) else items):
                z.writestr(name, data)
    return buffer.getvalue()


def edited_db(raw: bytes, tmp: Path, sql: str) -> bytes:
    """The backup's database after ``sql`` (run with writable_schema, as a hostile author may)."""
    path = tmp / "edit.db"
    path.unlink(missing_ok=True)
    path.write_bytes(entries(raw)["data/monchat.db"])
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    conn.commit()
    conn.close()
    return path.read_bytes()


def with_db(raw: bytes, tmp: Path, sql: str) -> bytes:
    items = entries(raw)
    items["data/monchat.db"] = edited_db(raw, tmp, sql)
    return make_zip(items)


def with_manifest(raw: bytes, manifest) -> bytes:
    items = entries(raw)
    items["monchat-backup.json"] = manifest if isinstance(manifest, bytes) else json.dumps(manifest).encode()
    return make_zip(items)


def manifest_of(raw: bytes) -> dict:
    return json.loads(entries(raw)["monchat-backup.json"])


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} \
        if folder.exists() else {}


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.parent.iterdir() if p.name.startswith(f".{folder.name}-")
            and not p.name.endswith("-restore.lock")]


def refused(tmp_path, monkeypatch, capsys, raw: bytes, *, over_data: bool = False) -> str:
    """Restore ``raw``; assert exit 2 and nothing changed; return stderr."""
    target = tmp_path / "target"
    if over_data:
        fill(target, 2)
    before = files(target)
    backup = tmp_path / "hostile.zip"
    backup.write_bytes(raw)
    monkeypatch.setenv("MONCHAT_HOME", str(target))
    capsys.readouterr()
    argv = ["restore", "--force", str(backup)] if over_data else ["restore", str(backup)]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "Nothing was restored" in err and "Traceback" not in err
    assert files(target) == before
    assert leftovers(target) == []
    return err


# ---- 1. the database is exactly what this monchat's migrations make ------------------------------
DELETE_TRIGGER = ("CREATE TRIGGER keep_one AFTER INSERT ON messages BEGIN "
                  "DELETE FROM messages WHERE id != new.id; END;")
REWRITE_TRIGGER = ("CREATE TRIGGER plant AFTER INSERT ON memories BEGIN "
                   "UPDATE memories SET text = 'The user''s password is hunter2' WHERE rowid = new.rowid; END;")
SAME_NAME_TRIGGER = ("DROP TRIGGER messages_ai; CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN "
                     "DELETE FROM messages; END;")


@pytest.mark.parametrize("sql, why", [
    (DELETE_TRIGGER, "an extra trigger 'keep_one'"),
    (REWRITE_TRIGGER, "an extra trigger 'plant'"),
    (SAME_NAME_TRIGGER, "a changed trigger 'messages_ai'"),
    ("CREATE TABLE spare(x); CREATE INDEX spare_x ON spare(x);", "an extra table 'spare'"),
    ("CREATE VIEW recent AS SELECT * FROM messages;", "an extra view 'recent'"),
    ("CREATE INDEX by_text ON messages(text);", "an extra index 'by_text'"),
    ("DROP INDEX idx_messages_session;", "no index 'idx_messages_session'"),
    ("INSERT INTO _sqlite_migrations(migration_set, name, applied_at) VALUES ('monchat', 'm999_future', 'x');",
     "migrations this monchat does not know (m999_future)"),
])
def test_a_database_with_code_or_another_schema_is_refused(good, tmp_path, monkeypatch, capsys, sql, why):
    err = refused(tmp_path, monkeypatch, capsys, with_db(good, tmp_path, sql))
    assert why in err


def test_a_future_schema_is_refused_even_over_a_working_folder_with_force(good, tmp_path, monkeypatch, capsys):
    raw = with_db(good, tmp_path, "INSERT INTO _sqlite_migrations(migration_set, name, applied_at) "
                                  "VALUES ('monchat', 'm999_future', 'x');")
    assert "m999_future" in refused(tmp_path, monkeypatch, capsys, raw, over_data=True)
    assert cli.main(["status"]) == 0  # the folder still works


def test_messages_as_a_view_over_an_endless_query_is_refused_without_running_it(good, tmp_path):
    """Before: restore counted the view's rows and hung (killed at 40 s), leaving its copy behind."""
    raw = with_db(good, tmp_path, "DROP TABLE messages; CREATE VIEW messages AS WITH RECURSIVE n(x) AS "
                                  "(SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x AS id FROM n;")
    (tmp_path / "view.zip").write_bytes(raw)
    target = tmp_path / "target"
    env = {**os.environ, "MONCHAT_HOME": str(target),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "monchat", "restore", str(tmp_path / "view.zip")], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "an extra view 'messages'" in done.stderr
    assert files(target) == {} and leftovers(target) == []


def test_a_backup_without_its_database_whose_manifest_counts_messages_is_refused(good, tmp_path, monkeypatch,
                                                                                capsys):
    items = entries(good)
    del items["data/monchat.db"]
    err = refused(tmp_path, monkeypatch, capsys, make_zip(items))
    assert "no database though its manifest counts" in err


def test_a_database_holding_other_counts_than_its_manifest_is_refused(good, tmp_path, monkeypatch, capsys):
    manifest = manifest_of(good)
    manifest["counts"]["messages"] = 5
    err = refused(tmp_path, monkeypatch, capsys, with_manifest(good, manifest))
    assert "does not hold what its manifest says" in err


def test_the_check_is_bounded_in_time(good, tmp_path):
    from monchat.core.store.restored import ForeignDatabase, verify_restored
    db = tmp_path / "x.db"
    db.write_bytes(entries(good)["data/monchat.db"])
    assert verify_restored(db)["messages"] == 4
    with pytest.raises(ForeignDatabase, match="took longer than 0 s"):
        verify_restored(db, check_seconds=0)


# ---- 2. consent to a cloud is not restored ----------------------------------------------------------
def test_consent_to_a_cloud_is_not_restored_and_other_state_is(good, tmp_path, monkeypatch, capsys):
    target = tmp_path / "target"
    (tmp_path / "b.zip").write_bytes(good)
    monkeypatch.setenv("MONCHAT_HOME", str(target))
    assert cli.main(["restore", str(tmp_path / "b.zip")]) == 0
    app = build_app(str(target))
    try:
        assert app.store.get_state(CONSENT) is None
        assert app.store.get_state("ui.last_persona") == "hana"
        assert app.archive.count() == 4
    finally:
        app.close()


# ---- 3. size and shape -----------------------------------------------------------------------------
def patched_header(raw: bytes, name: str, *, method: int | None = None, flags: int = 0) -> bytes:
    """The zip with entry ``name``'s method field set, or flag bits added, in its local and central headers
    (zipfile writes neither compression method 6 nor the "encrypted" flag)."""
    data = bytearray(raw)
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        local = z.getinfo(name).header_offset
    central = data.find(b"PK\x01\x02")
    while data[central + 46: central + 46 + int.from_bytes(data[central + 28: central + 30], "little")] \
            != name.encode():
        central = data.find(b"PK\x01\x02", central + 4)
    for field_flags, field_method in ((local + 6, local + 8), (central + 8, central + 10)):
        if method is not None:
            data[field_method: field_method + 2] = method.to_bytes(2, "little")
        old = int.from_bytes(data[field_flags: field_flags + 2], "little")
        data[field_flags: field_flags + 2] = (old | flags).to_bytes(2, "little")
    return bytes(data)


def deep_name(depth: int) -> str:
    return "data/" + "d/" * depth + "x.jsonl"


@pytest.mark.parametrize("make, why", [
    (lambda good: make_zip({**entries(good), "data/logs/bomb.jsonl": b"\0" * (64 * 2**20)}), "a zip bomb"),
    (lambda good: make_zip({**entries(good), deep_name(2000): b"{}"}), "2002 folders deep"),
    (lambda good: make_zip({**entries(good), "data/logs/" + "a" * 300 + ".jsonl": b"{}"}),
     "longer than a file name can be"),
    (lambda good: patched_header(good, "data/monchat.db", flags=0x1), "data/monchat.db is encrypted"),
    (lambda good: patched_header(make_zip(entries(good), zipfile.ZIP_STORED), "data/monchat.db", method=6),
     "compression method 6"),
    (lambda good: make_zip(list(entries(good).items()) + [("data/monchat.db", b"SQLite format 3\0")]),
     "'data/monchat.db' twice"),
    (lambda good: make_zip({**entries(good), "data/logs/A.jsonl": b"{}", "data/logs/a.jsonl": b"{}"}), "twice"),
    (lambda good: make_zip({**entries(good), "data/monchat.db-wal": b"\0" * 32}), "a file a backup never holds"),
    (lambda good: make_zip({**entries(good), "data/monchat.db-journal": b"\0" * 32}),
     "a file a backup never holds"),
    (lambda good: make_zip({**entries(good), "data/settings.toml": b""}), "a file a backup never holds"),
    (lambda good: make_zip({**entries(good), "data/logs": b"x", "data/logs/y.jsonl": b"{}"}),
     "a file and a folder of the same name"),
    (lambda good: make_zip({**entries(good), "data/logs/\x01.jsonl": b"{}"}), "an unexpected entry"),
    (lambda good: with_manifest(good, b"[" * 100_000), "more than a manifest ever is"),
    (lambda good: with_manifest(good, b"[" * 60_000), "nested too deeply"),
    (lambda good: with_manifest(good, b'{"format": "monchat-backup", "version": NaN}'), "not plain JSON"),
    (lambda good: with_manifest(good, b'{"format": "monchat-backup", "version": 1, "counts": {"messages": '
                                      b'Infinity}}'), "not plain JSON"),
    (lambda good: with_manifest(good, b'{"format": "monchat-backup", "version": 1' + b"0" * 5000 + b"}"),
     "not plain JSON"),
    (lambda good: with_manifest(good, {**manifest_of(good), "counts": {"messages": 10**30}}), "time or counts"),
    (lambda good: with_manifest(good, {**manifest_of(good), "created_at": ["2026"]}), "time or counts"),
])
def test_a_backup_over_a_limit_or_of_a_shape_we_never_write_is_refused(good, tmp_path, monkeypatch, capsys,
                                                                         make, why):
    assert why in refused(tmp_path, monkeypatch, capsys, make(good))


def test_too_many_entries_are_refused_before_any_is_unpacked(good, tmp_path, monkeypatch, capsys):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        for name, data in entries(good).items():
            z.writestr(name, data)
        for k in range(50_001):
            z.writestr(f"data/logs/{k}.jsonl", b"")
    assert "entries (a backup holds at most 50000)" in refused(tmp_path, monkeypatch, capsys, buffer.getvalue())


def test_a_deep_entry_is_refused_and_a_later_forced_restore_still_works(good, tmp_path, monkeypatch, capsys):
    """Before: the 2,000-folder entry was restored and every later --force died in rmtree (exit 70)."""
    refused(tmp_path, monkeypatch, capsys, make_zip({**entries(good), deep_name(2000): b"{}"}))
    (tmp_path / "b.zip").write_bytes(good)
    assert cli.main(["restore", str(tmp_path / "b.zip")]) == 0
    assert cli.main(["restore", "--force", str(tmp_path / "b.zip")]) == 0
    assert leftovers(tmp_path / "target") == []


STREAM_SCRIPT = """
import resource, sys
from pathlib import Path
from monchat.core.paths import Paths
from monchat.core.transfer.restore import restore_backup
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
restore_backup(Path(sys.argv[1]), Paths.from_env(sys.argv[2]))
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_a_large_entry_is_streamed_not_read_whole(good, tmp_path):
    """A 96 MB log restores with the process growing by far less than its size (before: by all of it)."""
    items = entries(good)
    buffer = tmp_path / "big.zip"
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        for name, data in items.items():
            z.writestr(name, data)
        with z.open("data/logs/2026-11-29_06.jsonl", "w", force_zip64=True) as member:
            for _ in range(96):
                member.write(os.urandom(2**20))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", STREAM_SCRIPT, str(buffer), str(tmp_path / "target")], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    before, after = map(int, done.stdout.split())
    assert after - before < 40_000, (before, after)  # KiB: the 96 MB entry never sat in memory
    assert (tmp_path / "target" / "logs" / "2026-11-29_06.jsonl").stat().st_size == 96 * 2**20


def test_a_backup_from_an_older_monchat_with_fewer_migrations_restores_and_is_migrated(tmp_path, monkeypatch,
                                                                                    capsys):
    """The check compares with the migrations the file records, so an older schema is still ours."""
    from monchat.core.store._sqlite_utils import Database
    from monchat.core.store.migrations import known_names, migrations
    db_path = tmp_path / "old.db"
    conn = sqlite3.connect(db_path)
    migrations.apply(Database(conn), stop_before=known_names()[-3])
    conn.execute("INSERT INTO messages(id, ts, ts_epoch, day, session, role, text) "
                 "VALUES ('o1', '2026-01-01T00:00:00+00:00', 1767225600, '2026-01-01', '2026-01-01_00', 'user', 'hi')")
    conn.commit()
    conn.close()
    manifest = {"format": "monchat-backup", "version": 1, "created_at": "2026-01-01T00:00:00+00:00",
                "counts": {"messages": 1, "memories": 0}}
    (tmp_path / "old.zip").write_bytes(make_zip({"monchat-backup.json": json.dumps(manifest).encode(),
                                                 "data/monchat.db": db_path.read_bytes()}))
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "target"))
    assert cli.main(["restore", str(tmp_path / "old.zip")]) == 0
    app = build_app()
    try:
        assert app.archive.count() == 1 and app.store.applied_migrations() == known_names()
    finally:
        app.close()
