"""6-hour log files and the flush gate.

One JSONL file per local 6-hour slot (``YYYY-MM-DD_HH.jsonl``, HH in 00/06/12/18).
A message is appended and fsynced before anything else happens with it, so a
crash never loses what the user typed; an append that cannot be completed (a
full disk, a file-size limit) is cut back to the file's old length and raised
as ``StorageFull``, so no torn line is ever left or sent on. Files are
append-only — but for Delete message, which rewrites a file whole and atomically (``remove_messages``);
reading never changes them. A line that cannot be read (truncated JSON, bad encoding, missing
fields) is copied to ``quarantine/`` and reported, and the good lines around it
are used. A flush removes a file only after its messages are in the archive.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import StorageError, storage_error
from .index import LogIndex
from ..vocabulary.states import GateState
from ..paths import (LOG_FILE_PATTERN, fsync_folder, log_files, make_private_dir, slot_name,
                     write_all, write_private)
from ..types import Message

if TYPE_CHECKING:
    from .off_record import OffRecordLog

log = logging.getLogger(__name__)

FILE_PATTERN = LOG_FILE_PATTERN  # YYYY-MM-DD_HH.jsonl (``core/paths.py``: the window's frame counts them too)


@dataclass
class BadLine:
    file: str
    line_no: int
    reason: str
    raw: bytes = field(repr=False, default=b"")


@dataclass
class LogRead:
    messages: list[Message]
    bad_lines: list[BadLine]


@dataclass(frozen=True)
class FlushGate:
    """How many log files wait for a flush, and what that means for chat.

    While a flush runs (``flushing``) chat is open at any count: the flush read its files when it started,
    archives only what it read, and keeps a file that got a message meanwhile (``remove_flushed``), so a
    message sent now is archived by the next flush. The state is then at most "warn".
    """

    unflushed_files: int
    warn_at: int
    stop_at: int
    flushing: bool = False

    @property
    def state(self) -> GateState:
        if self.unflushed_files >= self.stop_at and not self.flushing:
            return GateState.STOP
        if self.unflushed_files >= self.warn_at:
            return GateState.WARN
        return GateState.OK

    @property
    def closed(self) -> bool:
        """Chat waits for a flush (``GateState.STOP``)."""
        return self.state is GateState.STOP


class LogBook:
    """The folder of 6-hour log files."""

    def __init__(self, logs_dir: Path, quarantine_dir: Path, tz: tzinfo | None = None,
                 off_record: OffRecordLog | None = None) -> None:
        self.logs_dir = logs_dir
        self.quarantine_dir = quarantine_dir
        self.tz = tz
        self.off_record = off_record  # the off-the-record files (core/logs/off_record.py): never read by a flush
        self.index = LogIndex(self, parse_line)

    # ---- writing -------------------------------------------------------
    def path_for(self, dt: datetime) -> Path:
        return self.logs_dir / f"{slot_name(dt, self.tz)}.jsonl"

    def append(self, message: Message) -> Path:
        """Append one message to its slot's file and sync it to disk."""
        path = self.path_for(message.dt)
        self._append_lines(path, [message.to_json()])
        return path

    def _append_lines(self, path: Path, lines: list[str]) -> None:
        """Append whole lines, synced; on any failure the file is cut back to its old length.

        Raises:
            StorageError: the disk is full, a size limit was hit, the folder is read-only…
                (nothing of ``lines`` stays in the file).
        """
        payload = "".join(line + "\n" for line in lines).encode("utf-8")
        try:
            make_private_dir(self.logs_dir)
            while True:
                created = not path.exists()
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                    if not _same_file(fd, path):
                        continue  # a flush removed the file meanwhile: write to a fresh one
                    if created:
                        os.fchmod(fd, 0o600)
                    size = os.fstat(fd).st_size
                    data = payload
                    if size and os.pread(fd, 1, size - 1) != b"\n":
                        # A crash left a torn last line: start ours on a fresh line.
                        data = b"\n" + payload
                    try:
                        write_all(fd, data)
                        os.fsync(fd)
                    except OSError:
                        _undo_append(fd, size)
                        raise
                    self.index.appended(path, fd, size, data)  # still locked: nobody wrote since
                    break
                finally:
                    os.close(fd)  # also releases the lock
            if created:
                fsync_folder(self.logs_dir)
        except OSError as exc:
            raise storage_error(exc, path) or exc from exc

    def import_messages(self, messages: list[Message]) -> int:
        """Place messages into their slots' files, skipping ids already logged.

        Returns the number of messages written.
        """
        known = self.ids()
        by_file: dict[Path, list[Message]] = {}
        for message in sorted(messages, key=lambda m: m.dt):
            if message.id in known:
                continue
            known.add(message.id)
            by_file.setdefault(self.path_for(message.dt), []).append(message)
        for path, batch in by_file.items():
            self.append_batch(path, batch)
        return sum(len(batch) for batch in by_file.values())

    def append_batch(self, path: Path, messages: list[Message]) -> None:
        """Append messages of one slot file (``path_for`` of each) in one synced write: all or none."""
        self._append_lines(path, [m.to_json() for m in messages])

    def remove_messages(self, ids: set[str]) -> int:
        """Take these messages out of the log files for good (Delete message); return how many lines went.

        Each file holding one is rewritten whole under its append lock: every other line is kept byte for
        byte (an unreadable one too), the new file is written beside it and renamed over it
        (``write_private``), so a kill leaves the old file or the new one, never a torn one. A file left
        with no line is removed. An append waiting on the lock then finds a new file and writes there
        (``_append_lines``); the index reads a replaced file again (``core/logs/index.py``).

        Raises:
            StorageError: a file could not be rewritten (it is unchanged).
        """
        removed = 0
        for path in self.files():
            while True:
                try:
                    fd = os.open(path, os.O_RDONLY)
                except FileNotFoundError:
                    break
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                    if not _same_file(fd, path):
                        continue  # replaced meanwhile: read the new one
                    removed += self._rewrite_without(path, fd, ids)
                    break
                finally:
                    os.close(fd)  # also releases the lock
        return removed

    def _rewrite_without(self, path: Path, fd: int, ids: set[str]) -> int:
        data = os.pread(fd, os.fstat(fd).st_size, 0)
        kept, gone = [], 0
        for line_no, raw in enumerate(data.split(b"\n"), start=1):
            parsed = parse_line(path.name, line_no, raw) if raw.strip() else None
            if isinstance(parsed, Message) and parsed.id in ids:
                gone += 1
            else:
                kept.append(raw)
        if not gone:
            return 0
        if any(raw.strip() for raw in kept):
            write_private(path, b"\n".join(kept))
        else:
            try:
                path.unlink()
                fsync_folder(self.logs_dir)
            except OSError as exc:
                raise storage_error(exc, path) or exc from exc
        log.info("removed %s deleted message line(s) from %s", gone, path.name)
        return gone

    # ---- reading -------------------------------------------------------
    def files(self) -> list[Path]:
        """Unflushed log files, oldest first."""
        return log_files(self.logs_dir)

    def read(self, path: Path, seen: dict[str, bytes] | None = None) -> LogRead:
        """Every readable message of one file; bad lines are quarantined and reported.

        Args:
            seen: id → digest of the text of the lines read before (``read_all`` shares it across files): a
                line that reuses an id with a different text is a bad line, so it is quarantined, not lost.
        """
        messages: list[Message] = []
        bad: list[BadLine] = []
        seen = {} if seen is None else seen
        try:
            raw_lines = path.read_bytes().split(b"\n")
        except FileNotFoundError:
            return LogRead([], [])
        for line_no, raw in enumerate(raw_lines, start=1):
            if not raw.strip():
                continue
            parsed = parse_line(path.name, line_no, raw)
            if isinstance(parsed, Message):
                digest = hashlib.sha256(parsed.text.encode("utf-8")).digest()
                if seen.setdefault(parsed.id, digest) != digest:
                    parsed = BadLine(path.name, line_no, f"reuses the id {parsed.id} of an earlier line with a "
                                     f"different text", raw)
            if isinstance(parsed, Message):
                messages.append(parsed)
            else:
                bad.append(parsed)
        self.try_quarantine(bad, path.name)
        return LogRead(messages, bad)

    def since(self, epoch: float, *, cut: bool = False) -> list[Message]:
        """Unflushed messages at or after ``epoch``: only those lines are read (``core/logs/index.py``);
        ``cut``: long texts cut as a turn sends them, from the index without reading their lines."""
        return self.index.since(epoch, cut=cut)

    def before(self, epoch: float, limit: int, *, cut: bool = False) -> list[Message]:
        """At least the last ``limit`` unflushed messages before ``epoch`` (all of any tied at the edge)."""
        return self.index.before(epoch, limit, cut=cut)

    def find(self, message_id: str) -> Message | None:
        """An unflushed message by id, whole (every file is read, one at a time)."""
        for path in self.files():
            for message in self.read(path).messages:
                if message.id == message_id:
                    return message
        return None

    def ids(self) -> set[str]:
        """The ids of every readable message in the unflushed files (read one file at a time)."""
        return {m.id for path in self.files() for m in self.read(path).messages}

    def read_all(self, paths: list[Path] | None = None) -> LogRead:
        messages: list[Message] = []
        bad: list[BadLine] = []
        seen: dict[str, bytes] = {}
        for path in self.files() if paths is None else paths:
            part = self.read(path, seen)
            messages.extend(part.messages)
            bad.extend(part.bad_lines)
        return LogRead(messages, bad)

    def try_quarantine(self, bad: list[BadLine], name: str) -> bool:
        """Quarantine ``bad``; False if the disk refused (reading goes on: the next read tries again)."""
        if not bad:
            return True
        try:
            self.quarantine(bad)
        except StorageError as exc:
            # Reading must not be blocked by a full disk: the lines are still reported, and
            # copied out at the next read that has room.
            log.warning("could not quarantine %s bad line(s) of %s: %s", len(bad), name, exc.message)
            return False
        return True

    def quarantine(self, bad_lines: list[BadLine]) -> list[Path]:
        """Copy unreadable lines out, once each; the log file itself is not touched."""
        written = []
        for bad in bad_lines:
            digest = hashlib.sha256(bad.raw).hexdigest()[:12]
            target = self.quarantine_dir / f"{bad.file}.line{bad.line_no}.{digest}.bad"
            if not target.exists():
                write_private(target, bad.raw)  # whole or not at all: never a torn copy
            written.append(target)
        return written

    def conflicts(self, messages: list[Message], archived_texts: dict[str, str]) -> list[BadLine]:
        """The ``messages`` whose id an archived message has with a different text, quarantined.

        A flush would take such a line for its archived copy and remove its file: it is copied out
        instead, and reported with the unreadable lines.
        """
        bad = [BadLine(self.path_for(m.dt).name, 0, f"reuses the id {m.id} of an archived message with a "
                       "different text", m.to_json().encode("utf-8"))
               for m in messages if m.id in archived_texts and archived_texts[m.id] != m.text]
        self.try_quarantine(bad, "the log files")
        return bad

    def quarantined(self) -> list[Path]:
        if not self.quarantine_dir.is_dir():
            return []
        return sorted(self.quarantine_dir.glob("*.bad"))

    # ---- gate and flush ------------------------------------------------
    def gate(self, warn_at: int, stop_at: int) -> FlushGate:
        return FlushGate(len(self.files()), warn_at, stop_at)

    def remove_flushed(self, paths: list[Path], archived_ids: set[str]) -> list[Path]:
        """Remove files whose every message is archived; return those kept.

        Each file is locked while it is checked and removed, so a message
        appended meanwhile either is seen (and the file kept) or goes to a
        new file. Call only after the archive is committed.
        """
        kept = []
        for path in paths:
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                if not _same_file(fd, path):
                    continue
                ids = {m.id for m in self.read(path).messages}
                if ids <= archived_ids:
                    path.unlink()
                else:
                    kept.append(path)
            finally:
                os.close(fd)
        return kept


def rewrite_without_words(path: Path, words: list[str]) -> int:
    """Rewrite a text file (``monchat.log``, the MCP access log) without its lines that hold any of ``words``,
    atomically (``write_private``: a temp file, fsync, rename, fsync of the folder); return the lines dropped.

    Raises:
        StorageError: the file could not be rewritten (it is unchanged).
    """
    wanted = [w.encode("utf-8") for w in words if w.strip()]
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise storage_error(exc, path) or exc from exc
    lines = data.splitlines(keepends=True)
    kept = [line for line in lines if not any(w in line for w in wanted)]
    if len(kept) != len(lines):
        write_private(path, b"".join(kept))
    return len(lines) - len(kept)


def parse_line(name: str, line_no: int, raw: bytes) -> Message | BadLine:
    """One non-blank line of a log file: its message, or why it cannot be read."""
    try:
        return Message.from_dict(json.loads(raw.decode("utf-8")))
    except UnicodeDecodeError:
        return BadLine(name, line_no, "not valid UTF-8", raw)
    except json.JSONDecodeError as exc:
        return BadLine(name, line_no, f"not valid JSON ({exc.msg})", raw)
    except RecursionError:
        return BadLine(name, line_no, "nested too deeply to read", raw)
    except ValueError as exc:
        return BadLine(name, line_no, str(exc), raw)


def _undo_append(fd: int, size: int) -> None:
    """Cut a file back to ``size`` after a failed append, so no torn line stays behind."""
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    except OSError:
        log.exception("could not cut a log file back to %s bytes after a failed write", size)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False
