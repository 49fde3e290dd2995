"""One-file backup and restore of the data folder: database, settings, personas, logs, memory.md.

A backup is a zip: ``monchat-backup.json`` (format, version, time, counts), ``data/…`` (the data
folder) and ``config/…`` (settings.toml and personas/). It is consistent while the app runs:
the log files are copied first, each under the lock an append takes, and the database last
through SQLite's backup API — a flush that commits in between only moves messages from a log
file into the archive, so every message is in the copy at least once (and the archive's copy
wins on reading, as in ``core/logs/history.py``). Lock files, the app's log and crash reports are
left out, and so are the downloaded models (``models/``, gigabytes that ``monchat models pull`` gets
again): the manifest's ``left_out`` names them, and a restore keeps the models of the folder it replaces.

A killed backup leaves its temp files beside the destination (``.NAME.PID.tmp`` and the
database's copy ``.NAME-db.PID.tmp``, never in the system's temp folder); the next backup into that
folder removes those whose process is gone. Restore is ``core/transfer/restore.py``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from ..errors import InputError, StorageFull, storage_error
from ..paths import Paths, fsync_folder, make_private_dir, remove_stale_temps
from ..store.snapshot import copy_database, counts
from ..types import format_ts, local_now

MANIFEST = "monchat-backup.json"
FORMAT = "monchat-backup"
VERSION = 1
DB_NAME = "monchat.db"
CONFIG_ENTRIES = ("settings.toml", "personas")
SKIP_NAMES = {DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal", f"{DB_NAME}.lock",
              "flush.lock", "flush.running", "sync.lock", "crash", "off_record"}  # off-the-record logs are never kept beyond their hours
LEFT_OUT = ("models",)  # downloaded again, never the user's words; a restore still takes them from an older backup


@dataclass
class BackupReport:
    path: Path
    files: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)  # the data folder's LEFT_OUT entries that were there


def skipped_in_backup(rel: PurePosixPath) -> bool:
    """Whether the data folder's file ``rel`` is left out of a backup (and refused in one)."""
    name = rel.parts[0]
    return (name in SKIP_NAMES or name.startswith("monchat.log") or rel.name.startswith(".")
            or rel.name.endswith(".tmp"))


def _walk(root: Path, top: list[str] | None = None):
    """(path, relative posix path) of the regular files under ``root`` (or only its ``top`` entries)."""
    starts = [root / t for t in top] if top is not None else [root]
    for start in starts:
        if start.is_file():
            yield start, PurePosixPath(start.relative_to(root).as_posix())
            continue
        for folder, dirs, files in os.walk(start):
            dirs.sort()
            for name in sorted(files):
                path = Path(folder, name)
                if path.is_file() and not path.is_symlink():
                    yield path, PurePosixPath(path.relative_to(root).as_posix())


def _read_locked(path: Path) -> bytes:
    """A log file's bytes under a shared lock: an append (exclusive lock) is never half copied."""
    with open(path, "rb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_SH)
        return handle.read()


def create_backup(paths: Paths, dest: Path, now: datetime | None = None) -> BackupReport:
    """Write the whole data folder into the zip ``dest`` (a temp file renamed over it when complete).

    Raises:
        StorageError: the destination cannot be written (the old file, if any, is untouched).
    """
    dest = Path(dest).expanduser().resolve()
    if paths.data_dir in dest.parents or paths.config_dir in dest.parents:
        raise InputError("A backup cannot be written into the data folder it copies.",
                         "Choose a file outside " + str(paths.data_dir) + ".")
    report = BackupReport(dest, left_out=[f"data/{name}/" for name in LEFT_OUT if (paths.data_dir / name).exists()])
    scratch_of = dest.with_name(f"{dest.name}-db")  # the database's copy: .NAME-db.PID.tmp
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    db_copy = scratch_of.with_name(f".{scratch_of.name}.{os.getpid()}.tmp")
    try:
        make_private_dir(dest.parent)
        remove_stale_temps(dest)
        remove_stale_temps(scratch_of)
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
            os.chmod(tmp, 0o600)
            for path, rel in _walk(paths.config_dir, [e for e in CONFIG_ENTRIES]):
                archive.write(path, f"config/{rel}")
                report.files += 1
            same = paths.config_dir == paths.data_dir
            for path, rel in _walk(paths.data_dir):
                if skipped_in_backup(rel) or rel.parts[0] in LEFT_OUT or (same and rel.parts[0] in CONFIG_ENTRIES):
                    continue
                try:
                    data = _read_locked(path) if rel.parts[0] == "logs" else path.read_bytes()
                except FileNotFoundError:
                    continue  # a flush removed the log file: its messages are in the database copied next
                archive.writestr(f"data/{rel}", data)
                report.files += 1
            if paths.db_path.exists():  # last: see the module's note on consistency
                copy_database(paths.db_path, db_copy)
                report.counts = counts(db_copy)
                archive.write(db_copy, f"data/{DB_NAME}")
                report.files += 1
            archive.writestr(MANIFEST, json.dumps({
                "format": FORMAT, "version": VERSION, "created_at": format_ts(now or local_now()),
                "counts": report.counts, "left_out": [f"data/{name}/" for name in LEFT_OUT]}, indent=2))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
        fsync_folder(dest.parent)
    except (OSError, sqlite3.Error) as exc:
        _remove(tmp, db_copy)
        mapped = _backup_error(exc, paths, dest)
        if mapped is None:
            raise
        raise mapped from exc
    except BaseException:
        _remove(tmp, db_copy)
        raise
    _remove(db_copy)
    return report


def _backup_error(exc: OSError | sqlite3.Error, paths: Paths, dest: Path) -> Exception | None:
    """The error a failed backup reports: a full disk is the destination's, a database error the database's."""
    concerned = getattr(exc, "filename", None) or (paths.db_path if isinstance(exc, sqlite3.Error) else dest)
    mapped = storage_error(exc, concerned)
    if isinstance(mapped, StorageFull):  # the zip or the database's copy beside it could not be written
        return StorageFull(f"There is no room to write the backup {dest} (the disk is full or a file-size limit "
                           "was reached); nothing was written, and an earlier backup there is untouched.",
                           "Free some disk space, or back up to another disk, then try again.")
    return mapped


def _remove(*files: Path) -> None:
    for path in files:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
