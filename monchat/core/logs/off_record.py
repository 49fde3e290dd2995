"""Off the record: a conversation no flush reads, removed after a set time.

A chat off the record (the window's toggle, ``monchat chat --off-record``, or a persona listed in the setting
``off_record.personas``) logs its messages, marked ``off_record``, to their own 6-hour files in
``off_record/`` beside ``logs/`` — the same format, the same crash safety, but a folder the flush never lists:
nothing said there is archived, read by a filter, the judge, reflect or the diary, or kept in a backup. The
persona still answers with the memory prompt (reading memory is fine; nothing said is written to it).

They can be found (search, the window) until they are removed: ``expire`` takes out every message older than
``off_record.hours`` (24 by default; run at start, at each turn and whenever the window reads the conversation),
``clear`` takes out all of them at once (``monchat offrecord clear``, the window's Chat menu).

``is_off_record(message)`` is the core's one test of it, for other faces (the MCP server shows none of them).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from ..errors import StorageError, storage_error
from ..paths import SLOT_HOURS
from .files import FILE_PATTERN, LogBook
from ..paths import fsync_folder
from ..types import Message

log = logging.getLogger(__name__)


def is_off_record(message) -> bool:
    """Whether a message (or a search hit) was said off the record: never archived, never read by a flush."""
    return bool(getattr(message, "off_record", False))


@dataclass
class OffRecordSummary:
    """What ``monchat offrecord status`` and the window show."""

    messages: int
    files: int
    hours: int
    oldest: str | None  # the oldest message's time
    removed_after: str | None  # when that message goes

    def to_dict(self) -> dict:
        return vars(self).copy()


class OffRecordLog(LogBook):
    """The folder of off-the-record log files: a ``LogBook`` whose every message is marked ``off_record``.

    Its unreadable lines are set aside in its own ``quarantine/`` (removed with the rest), not the main one.
    """

    def __init__(self, folder: Path, tz=None) -> None:
        super().__init__(folder, folder / "quarantine", tz)
        # the words of removed messages → out of the text files that may quote them (``memory/scrub.py``, set by
        # app.py: the logs sit below memory); the files themselves are removed or rewritten atomically here
        self.on_removed: Callable[[list[str]], object] | None = None

    def append(self, message: Message) -> Path:
        return super().append(message if message.off_record else replace(message, off_record=True))

    def read(self, path: Path, seen=None):
        read = super().read(path, seen)
        read.messages = [m if m.off_record else replace(m, off_record=True) for m in read.messages]
        return read

    def since(self, epoch: float, *, cut: bool = False) -> list[Message]:
        return [m if m.off_record else replace(m, off_record=True) for m in super().since(epoch, cut=cut)]

    def before(self, epoch: float, limit: int, *, cut: bool = False) -> list[Message]:
        return [m if m.off_record else replace(m, off_record=True)
                for m in super().before(epoch, limit, cut=cut)]

    def expire(self, now: datetime, hours: int) -> int:
        """Remove every message older than ``hours``; return how many went.

        A file whose whole slot ended before the cut is removed without reading it; a file the cut falls in
        is rewritten without its older lines (``LogBook.remove_messages``: atomic, under the append lock).
        """
        cut = now.timestamp() - hours * 3600
        removed = 0
        straddling = []
        texts: list[str] = []
        for path in self.files():
            start = _slot_start(path, self.tz)
            if start is None:
                continue
            if start + SLOT_HOURS * 3600 <= cut:
                removed += self._remove_file(path, texts)
            elif start < cut:
                straddling.append(path)
        old = {m.id: m.text for path in straddling for m in self.read(path).messages if m.dt.timestamp() < cut}
        if old:
            removed += self.remove_messages(set(old))
            texts += old.values()
        self._removed(texts)
        for bad in self.quarantined():  # an unreadable off-the-record line is not kept longer than the rest
            if bad.stat().st_mtime < cut:
                bad.unlink(missing_ok=True)
        if removed:
            log.info("off the record: removed %s message(s) older than %s hours", removed, hours)
        return removed

    def clear(self) -> int:
        """Remove every off-the-record message now; return how many went."""
        texts: list[str] = []
        removed = sum(self._remove_file(path, texts) for path in self.files())
        for bad in self.quarantined():
            bad.unlink(missing_ok=True)
        self._removed(texts)
        log.info("off the record: cleared %s message(s)", removed)
        return removed

    def summary(self, hours: int) -> OffRecordSummary:
        messages = self.read_all().messages
        oldest = min(messages, key=lambda m: m.dt.timestamp(), default=None)
        goes = (oldest.dt + timedelta(hours=hours)).isoformat(timespec="seconds") if oldest else None
        return OffRecordSummary(len(messages), len(self.files()), hours, oldest.ts if oldest else None, goes)

    def _removed(self, texts: list[str]) -> None:
        if texts and self.on_removed is not None:
            self.on_removed(texts)

    def _remove_file(self, path: Path, texts: list[str]) -> int:
        messages = self.read(path).messages
        texts += [m.text for m in messages]
        count = len(messages)
        try:
            path.unlink()
            fsync_folder(self.logs_dir)
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise storage_error(exc, path) or exc from exc
        return count


def _slot_start(path: Path, tz) -> float | None:
    """The epoch a slot file's 6 hours begin (files are named in the log book's local time)."""
    match = FILE_PATTERN.match(path.name)
    if match is None:
        return None
    try:
        start = datetime.strptime(match.group(1), "%Y-%m-%d").replace(hour=int(match.group(2)))
    except ValueError:
        return None
    return (start.replace(tzinfo=tz) if tz is not None else start).timestamp()


def expire_quietly(off: OffRecordLog | None, now: datetime, hours: int) -> int:
    """``expire``, where monchat only tidies up (at start, reading the window): a disk that refuses now is
    logged, and the messages are removed at the next chance."""
    if off is None or not off.logs_dir.is_dir():
        return 0
    try:
        return off.expire(now, hours)
    except StorageError as exc:
        log.warning("off the record: could not remove old messages yet: %s", exc.message)
        return 0
