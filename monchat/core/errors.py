"""Two error families.

``KnownError`` is the environment's fault or the user's input: it carries a
user-safe ``message``, a ``hint`` saying what to do, and a stable ``code`` the
GUI can word in the user's language. Anything else that escapes is our bug and
becomes a crash report.
"""

from __future__ import annotations

import errno
import os
import sqlite3

from .redact import redact


class KnownError(Exception):
    """An error the user can act on.

    Args:
        message: what happened, safe to show.
        hint: what to do about it.
    """

    code = "error"
    exit_code = 1

    def __init__(self, message: str, hint: str = "") -> None:
        message, hint = redact(message), redact(hint)  # a server may echo the API key it was sent
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  → {self.hint}" if self.hint else self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "hint": self.hint}

    def __copy__(self) -> "KnownError":
        """The same kind of error with the same words and fields, whatever its own constructor takes (a flush's
        call slots raise a copy of one failure in every call still waiting: ``asking/slots.py``)."""
        clone = self.__class__.__new__(self.__class__)
        clone.__dict__.update(self.__dict__)
        clone.args = self.args
        return clone


class SettingsError(KnownError):
    code = "settings"


class GateClosed(KnownError):
    """Too many unflushed log files: chat waits for a flush."""

    code = "gate_closed"
    exit_code = 3


class BackendError(KnownError):
    """A backend failed in a way we can describe.

    Args:
        message: what happened, safe to show.
        hint: what to do about it.
        transient: the same request may well succeed if asked again shortly (a busy or
            overloaded server, a timeout, a dropped connection); flush calls retry these.
            ``None`` takes the class's default.
    """

    code = "backend"
    exit_code = 4
    TRANSIENT = False

    def __init__(self, message: str, hint: str = "", *, transient: bool | None = None) -> None:
        super().__init__(message, hint)
        self.transient = self.TRANSIENT if transient is None else transient


class BackendUnreachable(BackendError):
    code = "backend_unreachable"


class ModelNotFound(BackendError):
    code = "model_not_found"


class AuthFailed(BackendError):
    code = "auth_failed"


class RateLimited(BackendError):
    code = "rate_limited"
    TRANSIENT = True


class BackendUnavailable(BackendError):
    """The backend cannot be used here at all (missing package or key)."""

    code = "backend_unavailable"


class MalformedReply(BackendError):
    """The model answered, but not in the shape we asked for."""

    code = "malformed_reply"


class ReplyCutOff(BackendError):
    """A streamed answer ended without saying why (no ``finish_reason``): a server that interrupts a
    running reply when another request arrives, or answers a request over its context with nothing.
    What arrived is kept (a chat reply marked partial); a flush call asks again."""

    code = "reply_cut_off"
    TRANSIENT = True


class ContextShrank(ReplyCutOff):
    """A request was over the server's context, which is smaller than the one assumed; the smaller one is now
    known (learned from the server's answer) and remembered. The same request would fail again: the caller
    plans its requests anew (a flush runs again, ``asking/ask.py`` ``planned_again``)."""

    TRANSIENT = False

    def __init__(self, message: str, hint: str, *, context: int) -> None:
        super().__init__(message, hint)
        self.context = context


class InputError(KnownError):
    """A file or argument the user gave us is not usable."""

    code = "input"
    exit_code = 2


class PinOverBudget(InputError):
    """Pinning this memory would leave no room in the prompt's memory budget for anything else."""

    code = "pin_over_budget"


class NotFound(KnownError):
    code = "not_found"
    exit_code = 2


class PersonaError(KnownError):
    code = "persona"
    exit_code = 2


class FlushRunning(KnownError):
    """A second flush was asked for while one runs."""

    code = "flush_running"


class CloudConsentNeeded(KnownError):
    """A cloud the user has not agreed to send to here, and no yes could be asked for (or it was no)."""

    code = "cloud_consent"
    exit_code = 2


class KeyringUnavailable(KnownError):
    """The OS keyring cannot store a secret here."""

    code = "keyring"


class StorageError(KnownError):
    """The disk or the database cannot do what monchat needs (the environment's fault)."""

    code = "storage"
    exit_code = 6


class StorageFull(StorageError):
    """The disk is full or a file-size limit was hit; the write was undone."""

    code = "storage_full"
    exit_code = 5


class StorageCorrupt(StorageError):
    code = "storage_corrupt"


class StorageLocked(StorageError):
    code = "storage_locked"


class StorageReadOnly(StorageError):
    code = "storage_read_only"


class StorageNewerSchema(StorageError):
    """The database was written by a newer monchat; this one will not write to it."""

    code = "storage_newer_schema"


_FULL_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
_FULL_IOERRS = {"SQLITE_IOERR_WRITE", "SQLITE_IOERR_SHMSIZE"}
NEARLY_FULL_BYTES = 256 * 1024  # less room than this beside the database: an I/O error there is a full disk


def _nearly_full(where: str) -> bool:
    """Whether the disk that holds ``where`` has less than NEARLY_FULL_BYTES free for us."""
    folder = os.path.dirname(where) or "."
    try:
        stat = os.statvfs(folder)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize < NEARLY_FULL_BYTES
_READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}


def storage_error(exc: BaseException, path: str | os.PathLike = "") -> StorageError | None:
    """The StorageError an OS or SQLite error stands for, or None if it is not the environment's fault.

    The one place where errors from the disk and the database are worded.

    Args:
        exc: an ``OSError`` or ``sqlite3.Error``.
        path: the file or folder it concerns, named in the message.
    """
    where = str(path or getattr(exc, "filename", "") or "monchat's data folder")
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, OSError):
        if exc.errno in _FULL_ERRNOS:
            return StorageFull(f"There is no room to write {where} (the disk is full or a file-size limit "
                               f"was reached); nothing was half-written.",
                               "Free some disk space (or raise the limit), then try again.")
        if exc.errno in _READ_ONLY_ERRNOS:
            return StorageReadOnly(f"monchat may not write {where} ({exc.strerror}).",
                                   "Make the data folder writable by you (`chmod u+w`), or set MONCHAT_HOME "
                                   "to a folder you can write.")
        if isinstance(exc, IsADirectoryError | NotADirectoryError):
            return StorageError(f"{where} is in the way ({exc.strerror}).",
                                "Move or rename it; monchat needs that name for its own file.")
        if exc.errno == errno.EIO:
            return StorageError(f"The disk reported an input/output error on {where}.",
                                "Check the disk (it may be failing or disconnected), then try again.")
        return None
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", "") or ""
        text = str(exc).lower()
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
            return StorageLocked(f"The database {where} is locked by another program.",
                                 "Close other monchat windows or programs using the file, then try again.")
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
            return StorageReadOnly(f"monchat cannot open the database {where} for writing ({exc}).",
                                   "Make the data folder and monchat.db writable by you, or set MONCHAT_HOME "
                                   "to a folder you can write.")
        if name.startswith("SQLITE_FULL") or name in _FULL_IOERRS or (
                name.startswith("SQLITE_IOERR") and _nearly_full(where)):
            # A write the OS cut short (ENOSPC, EFBIG) reaches us as a write I/O error; the WAL index
            # (-shm) that cannot grow to its 32 KB as SHMSIZE; any other I/O error on a disk with next to no
            # room left is that room running out, not a failing disk.
            return StorageFull(f"There is no room to write the database {where} ({exc}); the change was "
                               "rolled back.", "Free some disk space (or raise the file-size limit), then try "
                               "again; if there is room, check the disk itself.")
        if name.startswith("SQLITE_IOERR"):
            return StorageError(f"The disk could not read or write the database {where} ({exc}).",
                                "Check free disk space and the disk itself, then try again.")
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or \
                "malformed" in text or "not a database" in text:
            return StorageCorrupt(f"The database {where} is damaged or unreadable ({exc}).",
                                  "Run `monchat doctor` for how to recover it; your unflushed log files are "
                                  "safe and `monchat export --jsonl` still exports them.")
        return None
    return None
