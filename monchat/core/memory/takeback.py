"""Taking words back: messages the user edited away, and Delete message.

**Edited away.** An edit (Edit in the window, ``/edit`` in the terminal) logs a new message whose ``replaces``
is the old one's id, and the new reply replaces the old reply; a regeneration logs a reply that replaces the
last one. A message that another message replaces is *taken back* (``types.taken_back``), along the whole chain.
Once the edit is logged, the old message and its old reply go out of every file as a deletion does
(``memory/scrub.py`` ``take_back_edited``, issue 36). Only when a flush runs at that moment do they stay for a
while: then no filter persona reads them at a flush, nor do the diary and reflect (``flush/orient.py``), search
shows them marked as replaced (``core/logs/search.py``), the flush that archives the edit takes their evidence
back from memory (``memory/withdraw.py``, reason "edited away"), and Delete message takes them out.

**Deleted.** ``MessageDeletion.delete(id)`` removes a message — with the earlier versions it replaced — for
good, through the one way out (``memory/scrub.py``, which names every place words are kept): the log files,
the archive and its index, every record that quotes it. Memories that rested only on it are deleted with their
history, others lose it as evidence (``memory/withdraw.py``, reason "deleted"); a rating of it is cleared (its
effects undone); a diary page that cites it goes and its day is owed to the next flush; the prompt is rebuilt.
It runs under the flush lock, so no flush reads the message while it goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..errors import FlushRunning, NotFound
from ..logs.files import LogBook
from .scrub import Scrubber
from .service import MemoryService
from .withdraw import DELETED, Withdrawn
from ..paths import Paths, held_lock
from ..store.messages import MessageArchive
from ..types import Message, taken_back

__all__ = ["DeletionPlan", "Deleted", "MessageDeletion", "taken_back"]


@dataclass
class DeletionPlan:
    """What deleting a message would do (the confirmation shows it)."""

    message: Message
    versions: list[Message]  # it first, then the earlier versions it replaced
    retracted: list[dict] = field(default_factory=list)  # {id, text}: memories that rest only on it
    weakened: list[dict] = field(default_factory=list)  # {id, text}: memories that rest on other lines too

    @property
    def ids(self) -> list[str]:
        return [m.id for m in self.versions]


@dataclass
class Deleted:
    """What a deletion did: ``monchat message delete --json`` prints it."""

    id: str
    role: str
    ids: list[str]  # the message and its earlier versions
    log_lines: int  # lines removed from the log files
    archived: int  # rows removed from the archive
    memory: Withdrawn
    ratings_cleared: int = 0
    diary_days: list[str] = field(default_factory=list)  # pages dropped (the next flush writes them again)
    memories_deleted: list[str] = field(default_factory=list)  # retracted ones and their history, deleted

    def as_dict(self) -> dict:
        return {"id": self.id, "role": self.role, "ids": self.ids, "log_lines": self.log_lines,
                "archived": self.archived, "memories_retracted": self.memory.retracted,
                "memories_weakened": self.memory.weakened, "ratings_cleared": self.ratings_cleared,
                "diary_days": self.diary_days, "memories_deleted": self.memories_deleted}


class MessageDeletion:
    """Delete message, for the window and ``monchat message delete`` alike."""

    def __init__(self, logbook: LogBook, archive: MessageArchive, memory: MemoryService, paths: Paths,
                 on_delete: Callable[[list[str]], None] | None = None) -> None:
        self.logbook = logbook
        self.archive = archive
        self.memory = memory
        self.paths = paths
        self.on_delete = on_delete  # told the ids before they go (app.py: sync records the deletion, core/sync)

    def plan(self, message_id: str) -> DeletionPlan:
        """The message, its earlier versions, and the memories deleting it would retract or weaken.

        Raises:
            NotFound: no message (logged or archived) has that id.
        """
        off = self.logbook.off_record  # a message said off the record can be deleted too (core/logs/off_record.py)
        logged = {m.id: m for m in self.logbook.read_all().messages + (off.read_all().messages if off else [])}
        versions: list[Message] = []
        current: str = message_id
        while current and current not in {m.id for m in versions}:
            found = self.archive.get_many([current]).get(current)
            message = logged.get(current) or (self._from_row(found) if found else None)
            if message is None:
                break
            versions.append(message)
            current = message.replaces
        if not versions:
            raise NotFound(f"There is no message {message_id!r}.",
                           "Find a message's id with `monchat search WORDS --json`.")
        plan = DeletionPlan(versions[0], versions)
        memories = self.memory.memories
        ids = set(plan.ids)
        for memory_id, _cited in memories.citing(plan.ids).items():
            memory = memories.get(memory_id)
            if memory is None or memory.history:
                continue
            rest = [r for r in memories.ledger_rows(memory_id) if r["message_id"] not in ids and not r["contradicts"]]
            (plan.weakened if rest else plan.retracted).append({"id": memory.id, "text": memory.text})
        return plan

    @staticmethod
    def _from_row(row: dict) -> Message:
        return Message(id=row["id"], ts=row["ts"], role=row["role"], text=row["text"] or "",
                       persona=row.get("persona") or "", replaces=row.get("replaces") or "")

    def delete(self, message_id: str) -> Deleted:
        """Delete a message and the earlier versions it replaced, for good (see the module's docstring).

        Raises:
            NotFound: no message has that id.
            FlushRunning: a flush is running (it may be reading the message).
            StorageError: a log file or the database could not be written.
        """
        with held_lock(self.paths.flush_lock) as held:
            if not held:
                raise FlushRunning("A flush is running in another monchat window or terminal.",
                                   "Delete the message when it has finished.")
            plan = self.plan(message_id)
            if self.on_delete is not None:  # first: a deletion that began travels even if it is cut short
                self.on_delete(plan.ids)
            done = Scrubber(self.logbook, self.archive, self.memory, self.paths).take_back(
                plan.ids, [m.text for m in plan.versions], DELETED)
        return Deleted(plan.message.id, plan.message.role, plan.ids, done.log_lines, done.archived, done.memory,
                       done.ratings_cleared, done.diary_days, done.memories_deleted)
