"""Where monchat keeps things.

``MONCHAT_HOME`` puts everything under one folder (tests use it); otherwise the
platform's data and config folders. Folders are 0700, files 0600.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import re
import stat
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Iterator

import platformdirs

APP_NAME = "monchat"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Paths:
    data_dir: Path
    config_dir: Path

    @classmethod
    def from_env(cls, home: str | os.PathLike | None = None) -> "Paths":
        """Resolve from an explicit folder, ``MONCHAT_HOME``, or platformdirs."""
        home = home or os.environ.get("MONCHAT_HOME")
        if home:
            root = Path(home).expanduser().resolve()
            return cls(data_dir=root, config_dir=root)
        return cls(
            data_dir=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        )

    @property
    def logs_dir(self) -> Path:
        return self.data_dir / "logs"

    @property
    def quarantine_dir(self) -> Path:
        return self.data_dir / "quarantine"

    @property
    def off_record_dir(self) -> Path:
        """Off-the-record log files (``core/logs/off_record.py``): no flush reads them, no backup holds them."""
        return self.data_dir / "off_record"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "monchat.db"

    @property
    def memory_md(self) -> Path:
        return self.data_dir / "memory.md"

    @property
    def settings_path(self) -> Path:
        return self.config_dir / "settings.toml"

    @property
    def user_surface_dir(self) -> Path:
        return self.config_dir / "personas" / "surface"

    @property
    def user_filter_dir(self) -> Path:
        return self.config_dir / "personas" / "filter"

    @property
    def flush_lock(self) -> Path:
        """Held by the process that runs a flush."""
        return self.data_dir / "flush.lock"

    @property
    def flush_running(self) -> Path:
        """Locked by a flush for as long as it runs (``running_mark``); any process can probe it (``is_marked``)."""
        return self.data_dir / "flush.running"

    @property
    def models_dir(self) -> Path:
        """Downloaded embedded models (``monchat models pull``), one folder each."""
        return self.data_dir / "models"

    @property
    def crash_dir(self) -> Path:
        return self.data_dir / "crash"

    def ensure(self) -> "Paths":
        """Create every folder, private to the user."""
        try:
            for folder in (self.data_dir, self.config_dir, self.logs_dir, self.quarantine_dir,
                           self.user_surface_dir, self.user_filter_dir):
                make_private_dir(folder)
            for folder in (self.data_dir, self.config_dir, self.logs_dir, self.quarantine_dir,
                           self.config_dir / "personas", self.user_surface_dir, self.user_filter_dir):
                if stat.S_IMODE(folder.stat().st_mode) & 0o077:  # never widen: a 0500 folder stays so
                    os.chmod(folder, 0o700)
        except OSError as exc:
            raise _as_storage_error(exc, Path(exc.filename or self.data_dir)) from exc
        return self


@contextlib.contextmanager
def held_lock(path: Path) -> Iterator[bool]:
    """Try to take an exclusive lock on ``path`` across processes, without waiting.

    Yields whether it was taken; it is released when the block ends (or the process dies).
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise _as_storage_error(exc, path) from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


@contextlib.contextmanager
def running_mark(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` for the block: "this runs now", for every process to see.

    ``is_marked`` only tries a shared lock for an instant, so it never takes the mark from its holder, never
    turns away anyone else (the flush lock beside it stays untouched by probes), and a process that dies lets go.
    The wait here is at most a probe's instant.
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise _as_storage_error(exc, path) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def is_marked(path: Path) -> bool:
    """Whether some process holds ``running_mark(path)`` now (a missing file: nobody ever did)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _as_storage_error(exc, path) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also lets go of the shared lock
    return False


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd``; a short write is continued, never ignored.

    Raises:
        OSError: the rest could not be written (e.g. ENOSPC, EFBIG); the caller undoes.
    """
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # a zero-byte write would loop forever: the disk takes nothing more
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def fsync_folder(folder: Path) -> None:
    """Make a new, renamed or removed entry in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_private(path: Path, data: str | bytes) -> None:
    """Write a whole file atomically, mode 0600: the old content or the new, never a torn one.

    Temp file beside it, full write, fsync, rename over the target, fsync of the folder.

    Raises:
        StorageError: the disk is full, a size limit was hit or the folder is read-only;
            the target is unchanged and the temp file removed.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        make_private_dir(path.parent)
        remove_stale_temps(path)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            write_all(fd, raw)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        fsync_folder(path.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise _as_storage_error(exc, path) from exc


def remove_stale_temps(path: Path) -> None:
    """Remove temp files of ``path`` left by writers that were killed (their process is gone)."""
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        pid = stale.name[len(path.name) + 2:-len(".tmp")]
        if pid.isdigit() and int(pid) != os.getpid() and not _process_alive(int(pid)):
            with contextlib.suppress(OSError):
                stale.unlink()
                log.info("removed %s, left by a writer that was stopped", stale.name)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def make_private_dir(folder: Path) -> None:
    """Create ``folder`` and any missing parents, each 0700 whatever the umask."""
    missing = []
    current = folder
    while not current.exists():
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)
            os.chmod(path, 0o700)


# A log file's name: its local 6-hour slot (``core/logs/files.py``). Here, so the window's frame can count the files
# waiting for a flush before the app's core is imported (``gui/window_frame.py``), and the archive, below the logs,
# can name a message's slot (``store/messages.py``).
LOG_FILE_PATTERN = re.compile(r"^(\d{4}-\d{2}-\d{2})_(00|06|12|18)\.jsonl$")
SLOT_HOURS = 6


def slot_name(dt: datetime, tz: tzinfo | None = None) -> str:
    """The local 6-hour slot of an aware datetime, e.g. ``2026-11-29_18``."""
    local = dt.astimezone(tz)
    return f"{local:%Y-%m-%d}_{local.hour // SLOT_HOURS * SLOT_HOURS:02d}"


def log_files(logs_dir: Path) -> list[Path]:
    """The unflushed log files in ``logs_dir``, oldest first (none when the folder is not there yet)."""
    if not logs_dir.is_dir():
        return []
    return sorted(p for p in logs_dir.iterdir() if LOG_FILE_PATTERN.match(p.name))


def _as_storage_error(exc: OSError, path: Path) -> Exception:
    from .errors import storage_error

    return storage_error(exc, path) or exc


def resource_dir(name: str) -> Path:
    """A shipped folder (``personas``, ``prompts``, ``assets``).

    Inside the wheel they live in ``monchat/_data``; in a source checkout (and an
    editable install) at the top of the repository.
    """
    package = Path(__file__).resolve().parent.parent
    installed = package / "_data" / name
    if installed.is_dir():
        return installed
    return package.parent / name
