"""A broken, locked, read-only, newer or contended database: a clear StorageError, never exit 70.

Each fault is injected for real: garbage or a truncated file for corruption, a second connection
holding the write lock, a folder the user may not write, a migration this monchat does not know,
many processes starting on one fresh folder at once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from datetime import timezone
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.errors import (FlushRunning, StorageCorrupt, StorageLocked, StorageNewerSchema,
                                 StorageReadOnly, storage_error)
from monchat.core.flush.service import FlushService
from monchat.core.store import Store
from monchat.core.store.messages import MessageArchive
from monchat.core.store.migrations import known_names, schema_version
from monchat.core.types import Message
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
REPO = Path(__file__).resolve().parents[1]
NO_ITEMS = '{"items": []}'
EXIT_BUG = 70


def env_for(home: Path) -> dict:
    return {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC", "OLLAMA_HOST": "http://127.0.0.1:9",
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}


def monchat(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "monchat", *args], env=env_for(home), cwd=home.parent,
                          capture_output=True, text=True, timeout=120)


def say(app, text: str, ts: str = "2026-11-29T01:00:00+00:00", mid: str | None = None) -> Message:
    message = Message(id=mid or f"m-{text}", ts=ts, role="user", text=text, persona="hana")
    app.logbook.append(message)
    return message


# ---- the one mapping -----------------------------------------------------------------------
@pytest.mark.parametrize("exc, kind", [
    (OSError(28, "No space left on device"), "StorageFull"),
    (OSError(27, "File too large"), "StorageFull"),
    (OSError(30, "Read-only file system"), "StorageReadOnly"),
    (PermissionError(13, "Permission denied"), "StorageReadOnly"),
    (sqlite3.OperationalError("database is locked"), "StorageLocked"),
    (sqlite3.DatabaseError("database disk image is malformed"), "StorageCorrupt"),
    (sqlite3.DatabaseError("file is not a database"), "StorageCorrupt"),
])
def test_os_and_sqlite_errors_map_to_one_storage_error_each(exc, kind):
    mapped = storage_error(exc, "/data/monchat.db")
    assert type(mapped).__name__ == kind
    assert mapped.message and mapped.hint and mapped.exit_code not in (0, EXIT_BUG)


def test_errors_that_are_not_the_environments_fault_are_not_mapped():
    assert storage_error(sqlite3.IntegrityError("UNIQUE constraint failed")) is None
    assert storage_error(FileNotFoundError(2, "No such file")) is None


# ---- corrupt ------------------------------------------------------------------------------
def corrupt_by_garbage(db: Path) -> None:
    db.write_bytes(b"this is not a database at all " * 400)


def corrupt_by_truncation(db: Path) -> None:
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size // 3)


@pytest.mark.parametrize("corrupt", [corrupt_by_garbage, corrupt_by_truncation])
def test_a_corrupt_database_gives_clear_errors_and_export_still_has_the_logs(home, corrupt):
    app = build_app(str(home), tz=UTC)
    archived = [say(app, f"old {n} " + "w" * 3000, mid=f"old-{n}") for n in range(40)]
    app.archive.archive(archived)
    app.logbook.remove_flushed(app.logbook.files(), app.archive.ids())
    say(app, "still in a log file", mid="fresh-1")
    app.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{app.paths.db_path}{suffix}").unlink(missing_ok=True)
    corrupt(app.paths.db_path)

    status = monchat(home, "status")
    assert status.returncode == StorageCorrupt.exit_code, status.stderr
    assert "damaged" in status.stderr and "internal error" not in status.stderr

    export = monchat(home, "export", "--jsonl")
    assert export.returncode == StorageCorrupt.exit_code, export.stderr
    assert [json.loads(line)["id"] for line in export.stdout.splitlines()] == ["fresh-1"]
    assert "only the 1 message(s) still in log files" in export.stderr

    doctor = monchat(home, "doctor")
    assert doctor.returncode == StorageCorrupt.exit_code, doctor.stderr
    assert ".recover" in doctor.stdout and "internal error" not in doctor.stderr


def test_doctor_checks_the_database_when_it_opens(home, capsys):
    from tests.support.machine_probe import remember_a_probe
    build_app(str(home)).close()
    remember_a_probe(home)
    assert cli.main(["doctor", "--json"], pinned_backend=ScriptedBackend()) in (0, 1)
    checks = {c["name"]: c for s in json.loads(capsys.readouterr().out)["sections"] for c in s["checks"]}
    assert checks["database"]["ok"] and "intact" in checks["database"]["detail"]


# ---- locked ------------------------------------------------------------------------------
def test_a_write_waiting_on_a_locked_database_is_a_storage_locked_error(tmp_path):
    path = tmp_path / "monchat.db"
    store = Store(path, busy_timeout=0.1)
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageLocked) as caught:
            store.set_state("k", "v")
        assert "locked" in caught.value.message
    finally:
        holder.rollback()
        holder.close()
    store.set_state("k", "v")
    assert store.get_state("k") == "v"


def test_a_flush_on_a_locked_database_fails_clearly_and_keeps_the_logs(home):
    backend = ScriptedBackend(default_reply=NO_ITEMS)
    app = build_app(str(home), pinned_backend=backend, tz=UTC)
    say(app, "朝はコーヒー")
    app.store.db.execute("PRAGMA busy_timeout = 100")
    holder = sqlite3.connect(app.paths.db_path)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageLocked):
            app.flush.run()
    finally:
        holder.rollback()
        holder.close()
    assert len(app.logbook.files()) == 1 and app.archive.count() == 0
    assert app.flush.run().messages_archived == 1
    app.close()


# ---- read-only ----------------------------------------------------------------------------
def without_root_override() -> list[str]:
    """A command prefix under which folder permissions apply even to root (who may write anywhere).

    ``setpriv`` (util-linux, on every Debian) drops the capabilities that let root ignore them.
    """
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]


def test_a_read_only_data_folder_is_a_clear_error_for_every_command(home):
    assert monchat(home, "status").returncode == 0
    os.chmod(home, 0o500)
    try:
        for args in (["status"], ["chat", "-m", "hello"], ["export", "--jsonl"], ["flush"]):
            done = subprocess.run([*without_root_override(), sys.executable, "-m", "monchat", *args],
                                  env=env_for(home), cwd=home.parent, capture_output=True, text=True, timeout=120)
            assert done.returncode == StorageReadOnly.exit_code, (args, done.stderr)
            assert "Traceback" not in done.stderr and "internal error" not in done.stderr
            assert "writable" in done.stderr
    finally:
        os.chmod(home, 0o700)


# ---- personas in the way -----------------------------------------------------------------
def test_a_folder_named_like_a_persona_is_reported_not_a_crash(home, capsys):
    build_app(str(home)).close()
    (home / "personas" / "surface" / "x.toml").mkdir()
    assert cli.main(["status"], pinned_backend=ScriptedBackend()) == 0
    assert cli.main(["personas", "validate"], pinned_backend=ScriptedBackend()) == 1
    assert "x.toml: not a file" in capsys.readouterr().err


def test_a_persona_with_a_missing_template_fails_validation_not_chat(home, capsys):
    build_app(str(home)).close()
    (home / "personas" / "surface" / "tpl.toml").write_text('id = "tpl"\nname = "T"\ntemplate = "nope.j2"\n')
    assert cli.main(["personas", "validate"], pinned_backend=ScriptedBackend()) == 1
    assert "template 'nope.j2' is not a file" in capsys.readouterr().err
    code = cli.main(["chat", "--persona", "tpl", "-m", "hi"], pinned_backend=ScriptedBackend(default_reply="x"))
    assert code == 2 and "no surface persona 'tpl'" in capsys.readouterr().err


# ---- newer schema ------------------------------------------------------------------------
def test_a_database_from_a_newer_monchat_is_never_written(home, capsys):
    app = build_app(str(home), tz=UTC)
    app.close()
    conn = sqlite3.connect(app.paths.db_path)
    conn.execute("INSERT INTO _sqlite_migrations(migration_set, name, applied_at) "
                 "VALUES ('monchat', 'm099_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    backend = ScriptedBackend(default_reply=NO_ITEMS)
    app = build_app(str(home), pinned_backend=backend, tz=UTC)
    say(app, "朝はコーヒー")
    with pytest.raises(StorageNewerSchema) as caught:
        app.flush.run()
    ours = schema_version(known_names())
    assert "version 99" in caught.value.message and f"version {ours}" in caught.value.message
    with pytest.raises(sqlite3.OperationalError):  # even a write that skips atomic() is refused
        app.store.db.execute("INSERT INTO kv(key, value) VALUES ('a', 'b')")
    assert app.archive.count() == 0 and len(app.logbook.files()) == 1
    app.close()
    assert cli.main(["flush"], pinned_backend=backend) == StorageNewerSchema.exit_code
    assert "version 99" in capsys.readouterr().err
    assert cli.main(["status"], pinned_backend=backend) == 0  # reading still works, with a warning
    assert "will not write to it" in capsys.readouterr().out


# ---- concurrent first start --------------------------------------------------------------
START_SCRIPT = """
import sys, time
from pathlib import Path
from monchat.core.store import Store
go = Path(sys.argv[2])
while not go.exists():
    time.sleep(0.005)
store = Store(Path(sys.argv[1]))
print(",".join(store.applied_migrations()))
"""


def test_many_processes_starting_on_a_fresh_folder_all_succeed(tmp_path):
    db, go = tmp_path / "data" / "monchat.db", tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", START_SCRIPT, str(db), str(go)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(20)]
    go.touch()
    results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    expected = ",".join(known_names())
    assert [(rc, out.strip()) for out, err, rc in results] == [(0, expected)] * 20, [r[1] for r in results]
    conn = sqlite3.connect(db)
    names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations")]
    conn.close()
    assert sorted(names) == sorted(expected.split(","))  # each applied once


# ---- one flush at a time, across processes -------------------------------------------------
HOLD_SCRIPT = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_a_second_flush_in_another_process_is_refused(home, capsys):
    backend = ScriptedBackend(default_reply=NO_ITEMS)
    app = build_app(str(home), pinned_backend=backend, tz=UTC)
    say(app, "朝はコーヒー")
    holder = subprocess.Popen([sys.executable, "-c", HOLD_SCRIPT, str(app.paths.flush_lock)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(FlushRunning) as caught:
            app.flush.run()
        assert "already running" in caught.value.message
        assert cli.main(["flush"], pinned_backend=backend) == FlushRunning.exit_code
        assert "already running" in capsys.readouterr().err
        assert backend.history == [] and app.flush.runs() == []
    finally:
        holder.communicate("")
    assert app.flush.run().messages_archived == 1
    app.close()


# ---- durability of the flush commit --------------------------------------------------------
class RecordingStore(Store):
    """A real Store that notes the ``synchronous`` level of the connection each transaction commits on."""

    def __init__(self, path):
        super().__init__(path)
        self.levels: list[int] = []

    def atomic(self):
        self.levels.append(self.db.execute("PRAGMA synchronous").fetchone()[0])
        return super().atomic()


FULL = 2


def test_the_flush_commits_with_synchronous_full(home):
    backend = ScriptedBackend(default_reply=NO_ITEMS)
    app = build_app(str(home), pinned_backend=backend, tz=UTC)
    say(app, "朝はコーヒー")
    store = RecordingStore(app.paths.db_path)
    flush = FlushService(app.settings, store, app.logbook, MessageArchive(store, tz=UTC), app.personas,
                         app.prompts, app.paths, backend=lambda: backend, escalation=lambda: None, tz=UTC)
    done = []
    worker = threading.Thread(target=lambda: done.append(flush.run()))  # the GUI flushes off its thread
    worker.start()
    worker.join()
    assert done and done[0].messages_archived == 1 and app.logbook.files() == []
    assert store.levels and set(store.levels) == {FULL}
    app.close()
