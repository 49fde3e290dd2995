"""The conversation as it stands: the archive and the unflushed log files, each message once.

A message lives in its 6-hour log file until a flush archives it. For a while it can be in
both (a flush killed after its commit, before it removed the file): the two are copies of one
message, so the archived copy is kept. The chat window, scrolling back and export all read the
history through here, so "each message once, oldest first" is written in one place.
"""

from __future__ import annotations

from typing import Iterable

from .files import LogBook
from ..store.messages import MessageArchive
from ..types import Message


def merge_history(archived: Iterable[Message], unflushed: Iterable[Message]) -> list[Message]:
    """Each message once (the archived copy where both hold it), oldest first, ties by id."""
    by_id = {m.id: m for m in archived}
    for message in unflushed:
        by_id.setdefault(message.id, message)
    return sorted(by_id.values(), key=lambda m: (m.dt.timestamp(), m.id))


class History:
    """Reads the whole conversation, archived or not."""

    def __init__(self, logbook: LogBook, archive: MessageArchive) -> None:
        self.logbook = logbook
        self.archive = archive

    def since(self, epoch: float, *, cut: bool = False) -> list[Message]:
        """Messages at or after ``epoch``, oldest first.

        Args:
            cut: each long text cut as a turn sends it (``core/records/long_text.py``), never read whole.
        """
        unflushed = self.logbook.since(epoch, cut=cut)  # read before the archive: a flush between moves them there
        return merge_history(self.archive.since(epoch, cut=cut), unflushed)

    def before(self, epoch: float, limit: int, *, cut: bool = False) -> list[Message]:
        """The last ``limit`` messages before ``epoch`` (scrolling back), oldest first."""
        unflushed = self.logbook.before(epoch, limit, cut=cut)
        return merge_history(self.archive.before(epoch, limit, cut=cut), unflushed)[-limit:]

    def message(self, message_id: str) -> Message | None:
        """One message, whole (a window's message may be cut): the archived copy, else the logged one."""
        return self.archive.get(message_id) or self.logbook.find(message_id)

    def all(self) -> list[Message]:
        """Every message, oldest first."""
        return merge_history(self.archive.all(), self.logbook.read_all().messages)
