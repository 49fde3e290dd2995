"""Where each unflushed message is: a turn reads only the lines of its window, not every log file.

Per log file the index keeps the byte range and the time of each readable line. The lines this
process appends are added as they are written (under the file's lock, so nothing came between).
Before each use every file is checked by (inode, size, mtime): a file another process changed — a
second window, ``monchat chat`` in a terminal, an import, a hand edit — is read on from the end of its
last known line when only bytes were added after it, and read again wholly when it shrank, was
replaced, changed in place or its known end no longer matches; a file a flush removed is dropped.
Each line is parsed once when it is indexed (a bad line is quarantined then, as a full read does) and
once more when a window that holds it is read. Tests read ``stats`` to see what a turn read.

A line too long for a turn to send whole (a pasted 50 MB message) is cut when it is indexed
(``core/records/long_text.py``) and the cut message kept, so a turn's window (``cut=True``) never reads or
parses that line again: its cost does not grow with an old huge message.
"""

from __future__ import annotations

import bisect
import logging
import os
import threading
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..types import Message
from ..records.long_text import MARK_ROOM, TURN_TEXT_CHARS, bounded

if TYPE_CHECKING:
    from .files import BadLine, LogBook

log = logging.getLogger(__name__)

TAIL = 64  # bytes before the resume point kept to check that the known part of a file is unchanged
LONG_LINE = TURN_TEXT_CHARS + MARK_ROOM  # a line of more bytes may hold a text a turn sends cut


@dataclass
class IndexStats:
    """What the index has read: a hook for tests and benchmarks (counted, never timed)."""

    lines_parsed: int = 0
    bytes_read: int = 0
    queries: int = 0  # windows and pages asked for (since / before)
    full_reads: int = 0  # files read again from their start


Span = tuple[int, int]  # a line's bytes: (start, end without the newline)


@dataclass
class _File:
    """One file's readable lines as three parallel arrays (no object per line: 40k lines stay small)."""

    ino: int
    size: int = 0
    mtime_ns: int = 0
    resume: int = 0  # just after the last newline: where reading goes on
    line_no: int = 1  # the number of the line starting at ``resume``
    tail: bytes = b""  # the bytes just before ``resume``
    starts: array = field(default_factory=lambda: array("q"))
    ends: array = field(default_factory=lambda: array("q"))  # without the newline
    epochs: array = field(default_factory=lambda: array("d"))
    ordered: bool = True  # ``epochs`` never decrease (as appends go): a window's start is found by bisection
    partial: tuple[int, int, float] | None = None  # a readable last line without its newline (a torn write)
    cut: dict[int, Message] = field(default_factory=dict)  # a long line's start → its message as a turn sends it

    def add(self, start: int, end: int, epoch: float) -> None:
        self.ordered = self.ordered and (not self.epochs or epoch >= self.epochs[-1])
        self.starts.append(start)
        self.ends.append(end)
        self.epochs.append(epoch)

    def spans(self, keep: Callable[[float], bool], first: int = 0) -> list[Span]:
        chosen = [(self.starts[i], self.ends[i]) for i in range(first, len(self.epochs)) if keep(self.epochs[i])]
        if self.partial and keep(self.partial[2]):
            chosen.append(self.partial[:2])
        return chosen

    def since(self, epoch: float) -> list[Span]:
        """The lines at or after ``epoch``, without looking at those before it when the file is in order."""
        first = bisect.bisect_left(self.epochs, epoch) if self.ordered else 0
        return self.spans(lambda t: t >= epoch, first)

    def times(self) -> list[float]:
        return list(self.epochs) + ([self.partial[2]] if self.partial else [])


class LogIndex:
    """The unflushed messages' places in their files, kept up to date incrementally."""

    def __init__(self, logbook: LogBook, parse: Callable[[str, int, bytes], Message | BadLine]) -> None:
        self.logbook = logbook
        self.parse = parse
        self.stats = IndexStats()
        self._files: dict[str, _File] = {}
        self._unquarantined: list[BadLine] = []  # bad lines the disk had no room to copy out yet
        self._lock = threading.Lock()

    # ---- asking ---------------------------------------------------------
    def since(self, epoch: float, *, cut: bool = False) -> list[Message]:
        """Messages at or after ``epoch``, in file and line order; ``cut``: long ones as a turn sends them."""
        return self._select(lambda known: known.since(epoch), cut)

    def before(self, epoch: float, limit: int, *, cut: bool = False) -> list[Message]:
        """The last ``limit`` messages before ``epoch`` by time, with any others of the earliest one's time."""
        if limit <= 0:
            return []
        with self._lock:
            self.stats.queries += 1
            self._refresh()
            times = sorted(t for known in self._files.values() for t in known.times() if t < epoch)
            edge = times[-limit] if len(times) > limit else float("-inf")
            return self._read(lambda known: known.spans(lambda t: edge <= t < epoch), cut)

    def _select(self, pick: Callable[[_File], list[Span]], cut: bool) -> list[Message]:
        with self._lock:
            self.stats.queries += 1
            self._refresh()
            return self._read(pick, cut)

    # ---- keeping it current -----------------------------------------------
    def appended(self, path, fd: int, offset: int, data: bytes) -> None:
        """``data`` was written at ``offset`` of ``path`` by this process (``fd`` still holds the lock)."""
        with self._lock:
            stat = os.fstat(fd)
            known = self._files.get(path.name)
            if offset == 0:
                known = self._files[path.name] = _File(stat.st_ino)
            elif known is None or known.ino != stat.st_ino or known.size != offset or known.partial:
                return  # not known up to here: the next refresh reads it
            if known.resume != offset:
                return
            self._index(known, path.name, offset, data)
            known.size, known.mtime_ns = stat.st_size, stat.st_mtime_ns

    def _refresh(self) -> None:
        names = {path.name for path in self.logbook.files()}
        for name in list(self._files):
            if name not in names:
                del self._files[name]  # removed by a flush (its messages are archived)
        for name in sorted(names):
            try:
                fd = os.open(self.logbook.logs_dir / name, os.O_RDONLY)
            except FileNotFoundError:
                self._files.pop(name, None)
                continue
            try:
                self._update(name, fd)
            finally:
                os.close(fd)
        if self._unquarantined and self.logbook.try_quarantine(self._unquarantined, "the log files"):
            self._unquarantined = []

    def _update(self, name: str, fd: int) -> None:
        stat = os.fstat(fd)
        known = self._files.get(name)
        same_end = known is not None and self._pread(fd, len(known.tail), known.resume - len(known.tail)) == known.tail
        if known and same_end and (known.ino, known.size, known.mtime_ns) == (stat.st_ino, stat.st_size,
                                                                               stat.st_mtime_ns):
            return  # (a file's time has the clock's coarse steps: two edits within one look alike but for bytes)
        if (known is None or not same_end or known.ino != stat.st_ino or stat.st_size <= known.size):
            known = self._files[name] = _File(stat.st_ino)
            self.stats.full_reads += 1
        known.partial = None
        self._index(known, name, known.resume, self._pread(fd, stat.st_size - known.resume, known.resume))
        known.size, known.mtime_ns = stat.st_size, stat.st_mtime_ns

    def _index(self, known: _File, name: str, offset: int, data: bytes) -> None:
        """Add the lines of ``data``, the file's bytes from ``offset`` (which is ``known.resume``)."""
        pieces = data.split(b"\n")
        bad: list[BadLine] = []
        start, first_line = offset, known.line_no
        for i, raw in enumerate(pieces[:-1]):
            epoch = self._parse_into(name, first_line + i, raw, bad, known, start)
            if epoch is not None:
                known.add(start, start + len(raw), epoch)
            start += len(raw) + 1
        used = start - offset
        known.tail = (known.tail + data[max(0, used - TAIL):used])[-TAIL:]
        known.resume, known.line_no = start, first_line + len(pieces) - 1
        # A last line without its newline is read as a full read reads it, and read again with what follows.
        epoch = self._parse_into(name, known.line_no, pieces[-1], bad, known, start)
        known.partial = None if epoch is None else (start, start + len(pieces[-1]), epoch)
        if bad and not self.logbook.try_quarantine(bad, name):
            self._unquarantined.extend(bad)

    def _parse_into(self, name: str, line_no: int, raw: bytes, bad: list, known: _File, start: int) -> float | None:
        """The time of the message on a line; None for a blank line or a bad one (added to ``bad``)."""
        if not raw.strip():
            return None
        self.stats.lines_parsed += 1
        parsed = self.parse(name, line_no, raw)
        if not isinstance(parsed, Message):
            bad.append(parsed)
            return None
        if len(raw) > LONG_LINE and (cut := bounded(parsed)) is not parsed:
            known.cut[start] = cut
        return parsed.dt.timestamp()

    # ---- reading the chosen lines -----------------------------------------
    def _read(self, pick: Callable[[_File], list[Span]], cut: bool = False) -> list[Message]:
        messages: list[Message] = []
        for name in sorted(self._files):
            known = self._files[name]
            chosen = pick(known)
            if not chosen:
                continue
            try:
                fd = os.open(self.logbook.logs_dir / name, os.O_RDONLY)
            except FileNotFoundError:
                continue  # a flush removed it since the refresh: the archive holds its messages
            try:
                if os.fstat(fd).st_ino != known.ino:
                    self._update(name, fd)  # replaced since the refresh: index the new file and choose again
                    known = self._files[name]
                    chosen = pick(known)
                messages.extend(self._messages(fd, name, chosen, known.cut if cut else {}))
            finally:
                os.close(fd)
        return messages

    def _messages(self, fd: int, name: str, chosen: list[Span], cut: dict[int, Message]) -> list[Message]:
        """The messages on ``chosen`` lines, one read per run of adjacent lines; those in ``cut`` are not read."""
        found: dict[int, Message] = {}
        runs: list[list[Span]] = []
        for span in chosen:
            if span[0] in cut:
                continue
            if runs and span[0] <= runs[-1][-1][1] + 1:
                runs[-1].append(span)
            else:
                runs.append([span])
        for run in runs:
            base = run[0][0]
            data = self._pread(fd, run[-1][1] - base, base)
            for start, end in run:
                self.stats.lines_parsed += 1
                parsed = self.parse(name, 0, data[start - base:end - base])
                if isinstance(parsed, Message):
                    found[start] = parsed
                elif self._files.pop(name, None):  # changed in place, size and time kept: read it again next time
                    log.warning("log file %s changed under its index; it is read again", name)
        return [cut.get(start) or found[start] for start, _ in chosen if start in cut or start in found]

    def _pread(self, fd: int, length: int, offset: int) -> bytes:
        if length <= 0:
            return b""
        data = os.pread(fd, length, offset)
        self.stats.bytes_read += len(data)
        return data
