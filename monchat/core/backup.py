"""One-file backup and restore of the data folder: database, settings, personas, logs, memory.md.

A backup is a zip: ``monchat-backup.json`` (format, version, time, counts), ``data/…`` (the data
folder) and ``config/…`` (settings.toml and personas/). It is consistent while the app runs:
the log files are copied first, each under the lock an append takes, and the database last
through SQLite's backup API — a flush that commits in between only moves messages from a log
file into the archive, so every message is in the copy at least once (and the archive's copy
wins on reading, as in ``core/history.py``). Lock files, the app's log and crash reports are
left out.

Restore unpacks into a hidden folder beside the target, checks every file's CRC and the
database's integrity, and only then renames it into place: a failure at any step leaves the
target as it was. It refuses a folder that is not empty unless told to replace it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import sqlite3
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from .errors import InputError
from .paths import Paths, fsync_folder, make_private_dir, remove_stale_temps, write_all
from .store.snapshot import check_database, copy_database, counts
from .types import format_ts, local_now

MANIFEST = "monchat-backup.json"
FORMAT = "monchat-backup"
VERSION = 1
DB_NAME = "monchat.db"
CONFIG_ENTRIES = ("settings.toml", "personas")
SKIP_NAMES = {DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal", f"{DB_NAME}.lock", "flush.lock",
              "crash"}


@dataclass
class BackupReport:
    path: Path
    files: int = 0
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class RestoreReport:
    data_dir: Path
    files: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    created_at: str = ""
    replaced: bool = False


def _skipped(rel: PurePosixPath) -> bool:
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
    report = BackupReport(dest)
    make_private_dir(dest.parent)
    remove_stale_temps(dest)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        with tempfile.TemporaryDirectory(prefix="monchat-backup-") as scratch:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
                os.chmod(tmp, 0o600)
                for path, rel in _walk(paths.config_dir, [e for e in CONFIG_ENTRIES]):
                    archive.write(path, f"config/{rel}")
                    report.files += 1
                same = paths.config_dir == paths.data_dir
                for path, rel in _walk(paths.data_dir):
                    if _skipped(rel) or (same and rel.parts[0] in CONFIG_ENTRIES):
                        continue
                    try:
                        data = _read_locked(path) if rel.parts[0] == "logs" else path.read_bytes()
                    except FileNotFoundError:
                        continue  # a flush removed the log file: its messages are in the database copied next
                    archive.writestr(f"data/{rel}", data)
                    report.files += 1
                db_copy = Path(scratch, DB_NAME)
                if paths.db_path.exists():  # last: see the module's note on consistency
                    copy_database(paths.db_path, db_copy)
                    report.counts = counts(db_copy)
                    archive.write(db_copy, f"data/{DB_NAME}")
                    report.files += 1
                archive.writestr(MANIFEST, json.dumps({
                    "format": FORMAT, "version": VERSION, "created_at": format_ts(now or local_now()),
                    "counts": report.counts}, indent=2))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
        fsync_folder(dest.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return report


def _not_a_backup(path: Path, why: str) -> InputError:
    return InputError(f"{path} is not a usable monchat backup: {why.rstrip('.')}. Nothing was restored.",
                      "Choose a file made by `monchat backup` (or File → Back up…); a damaged copy cannot be used.")


def _safe_member(name: str) -> PurePosixPath | None:
    rel = PurePosixPath(name)
    if rel.is_absolute() or ".." in rel.parts or "\\" in name or not rel.parts:
        return None
    return rel


def read_manifest(path: Path, archive: zipfile.ZipFile) -> dict:
    try:
        manifest = json.loads(archive.read(MANIFEST))
    except KeyError:
        raise _not_a_backup(path, "it has no manifest") from None
    except (ValueError, UnicodeDecodeError):
        raise _not_a_backup(path, "its manifest is not JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _not_a_backup(path, "its manifest is not a monchat backup's")
    if not isinstance(manifest.get("version"), int) or manifest["version"] > VERSION:
        raise _not_a_backup(path, f"it is format version {manifest.get('version')!r}; this monchat reads "
                                  f"up to {VERSION}")
    return manifest


def _is_empty(folder: Path) -> bool:
    return not folder.exists() or not any(folder.iterdir())


def restore_backup(source: Path, paths: Paths, force: bool = False) -> RestoreReport:
    """Restore a backup into ``paths`` (whole or not at all).

    Raises:
        InputError: not a backup, damaged (bad CRC, damaged database), or the folder is not empty
            and ``force`` is False.
    """
    source = Path(source)
    targets = list(dict.fromkeys([paths.data_dir, paths.config_dir]))
    for target in targets:
        recover_interrupted(target)
    busy = [t for t in targets if not _is_empty(t)]
    if busy and not force:
        raise InputError(f"{busy[0]} is not empty; restoring would replace what is there.",
                         "Restore into an empty folder (MONCHAT_HOME=…), or add --force to replace it "
                         "(quit monchat first).")
    try:
        archive = zipfile.ZipFile(source)
    except FileNotFoundError:
        raise InputError(f"{source} does not exist.", "Check the path.") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise _not_a_backup(source, f"not a zip file ({exc})") from None
    stages: dict[Path, Path] = {}
    try:
        with archive:
            manifest = read_manifest(source, archive)
            for target in targets:
                make_private_dir(target.parent)
                stages[target] = Path(tempfile.mkdtemp(prefix=f".{target.name}-restore-", dir=target.parent))
            report = RestoreReport(paths.data_dir, created_at=str(manifest.get("created_at", "")),
                                   replaced=bool(busy))
            for info in archive.infolist():
                if info.is_dir() or info.filename == MANIFEST:
                    continue
                rel = _safe_member(info.filename)
                if rel is None or rel.parts[0] not in ("data", "config") or len(rel.parts) < 2:
                    raise _not_a_backup(source, f"it holds an unexpected entry {info.filename!r}")
                root = stages[paths.data_dir if rel.parts[0] == "data" else paths.config_dir]
                out = root.joinpath(*rel.parts[1:])
                make_private_dir(out.parent)
                try:
                    data = archive.read(info)
                except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                    raise _not_a_backup(source, f"{info.filename} is damaged ({exc})") from None
                fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    write_all(fd, data)
                    os.fsync(fd)
                finally:
                    os.close(fd)
                report.files += 1
            db = stages[paths.data_dir] / DB_NAME
            if db.exists():
                try:
                    problem = check_database(db)
                    report.counts = counts(db)
                except sqlite3.DatabaseError as exc:
                    raise _not_a_backup(source, f"its database is damaged ({exc})") from None
                if problem != "ok":
                    raise _not_a_backup(source, f"its database is damaged ({problem})")
            _swap_in(stages)
            stages = {}
    except zipfile.BadZipFile as exc:
        raise _not_a_backup(source, str(exc)) from None
    finally:
        for stage in stages.values():
            shutil.rmtree(stage, ignore_errors=True)
    return report


def recover_interrupted(target: Path) -> None:
    """Undo what a restore killed part-way left: staged copies are removed, and a folder moved aside
    for replacing goes back when nothing took its place (the target is whole again, old or new)."""
    if not target.parent.is_dir():
        return
    for stale in target.parent.glob(f".{target.name}-restore-*"):
        shutil.rmtree(stale, ignore_errors=True)
    for old in sorted(target.parent.glob(f".{target.name}-old-*")):
        if not target.exists():
            os.replace(old, target)
        else:
            shutil.rmtree(old, ignore_errors=True)


def _swap_in(stages: dict[Path, Path]) -> None:
    """Rename each staged folder over its target; on a failure put back what was moved."""
    moved: list[tuple[Path, Path | None]] = []
    try:
        for target, stage in stages.items():
            old = None
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
                os.rmdir(old)
                os.replace(target, old)
            moved.append((target, old))
            os.replace(stage, target)
            os.chmod(target, 0o700)
            fsync_folder(target.parent)
    except BaseException:
        for target, old in reversed(moved):
            if old is not None:
                if target.exists():
                    shutil.rmtree(target, ignore_errors=True)
                os.replace(old, target)
        raise
    for _target, old in moved:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
