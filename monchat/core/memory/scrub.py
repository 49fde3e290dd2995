"""One way out: every place monchat keeps words, and taking words back from each.

Delete message (``takeback.py``), Edit (``ChatService.edit_last``), a deleted memory (``MemoryService.delete``) and
off the record's expiry all end here, so a place that keeps words is named once:

- the log files and the off-the-record ones (``LogBook.remove_messages``: each file rewritten atomically under
  its append lock);
- the database (``store/scrub.py``: the archive row and its full-text entry; every other text column by its
  rule in ``TEXT_COLUMNS``, which the schema walk checks against the live schema; memories that rested only on
  the words are deleted with their history, not kept as history that still holds them);
- what is written from the database: ``memory.md`` (rebuilt), the diary's page files (removed, and written again
  by the next flush from what is left);
- text files that may quote a line: ``monchat.log`` (and its rotated copies), the MCP access log, crash reports,
  quarantined lines (``rewrite_without_words``: atomic);
- the file's old pages: ``secure_delete`` zeroes freed pages, the text indexes are merged and the WAL is emptied
  into the file (``WordScrub.checkpoint``).

Backups the user made before are zip files outside monchat's reach: the confirmation says they still hold the
words (``BACKUPS_KEEP``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..logs.files import LogBook, rewrite_without_words
from ..paths import Paths, held_lock
from ..store.message_traces import MessageTraces
from ..store.messages import MessageArchive
from ..store.scrub import WordScrub
from .undo import forget_touching
from .transitions import Transitions
from .withdraw import EDITED_AWAY, Withdrawn, withdraw

if TYPE_CHECKING:  # a type only: MemoryService.delete calls delete_memory below
    from ..records.memory import MemoryRecord
    from .service import MemoryService

log = logging.getLogger(__name__)

BACKUPS_KEEP = "Backups you made before now still hold these words."


@dataclass
class Scrubbed:
    """What taking words back did."""

    log_lines: int = 0  # lines removed from the log files
    archived: int = 0  # rows removed from the archive
    memory: Withdrawn = field(default_factory=Withdrawn)
    memories_deleted: list[str] = field(default_factory=list)  # rested only on the words: deleted with history
    ratings_cleared: int = 0
    diary_days: list[str] = field(default_factory=list)  # pages dropped (the next flush writes them again)
    rows_scrubbed: int = 0  # other rows that quoted the words
    file_lines: int = 0  # lines dropped from monchat.log, the MCP access log, crash reports, quarantine


class Scrubber:
    """Takes messages (ids and their words) out of every place monchat keeps them. The caller holds the flush
    lock (no flush reads the messages while they go)."""

    def __init__(self, logbook: LogBook, archive: MessageArchive, memory: MemoryService, paths: Paths) -> None:
        self.logbook = logbook
        self.archive = archive
        self.memory = memory
        self.paths = paths

    def take_back(self, ids: list[str], texts: list[str], why: str) -> Scrubbed:
        """Take the messages ``ids`` (whose words are ``texts``) out of everything (see the module's docstring).

        The logs are rewritten before the database transaction: a kill between the two leaves the message in
        the archive only, and taking it back again finishes.

        Raises:
            StorageError: a log file or the database could not be written.
        """
        texts = [t for t in dict.fromkeys(texts) if t.strip()]
        done = Scrubbed()
        done.log_lines = self.logbook.remove_messages(set(ids))
        if self.logbook.off_record is not None:
            done.log_lines += self.logbook.off_record.remove_messages(set(ids))
        store = self.memory.store
        memories = self.memory.memories
        t = Transitions(memories, self.memory.settings.flush, self.memory.clock())
        words = WordScrub(store)
        with store.atomic():
            done.memory = withdraw(memories, t, ids, why)
            chain = {m.id: m for mid in done.memory.retracted for m in self.memory.history(mid)}
            if chain:  # history that still holds the words would keep them: deleted with its audit trail
                t.delete(list(chain.values()))
                done.memories_deleted = list(chain)
            done.ratings_cleared = sum(self.memory.feedback.drop_message_rating(t, i) for i in ids)
            done.diary_days = MessageTraces(store).remove(ids, texts)
            done.archived = self.archive.delete(ids)
            done.rows_scrubbed = words.scrub(texts)
        self.memory.rebuild()  # the prompt and memory.md
        for day in done.diary_days:
            (self.paths.data_dir / "diary" / f"{day}.md").unlink(missing_ok=True)
        done.file_lines = self.scrub_files(texts)
        words.checkpoint()
        return done

    def take_back_edited(self, ids: list[str]) -> Scrubbed | None:
        """Edit: the versions an edit replaced (the old message and its old reply) go, as a deletion does; their
        words are read here whole (a window holds a long message cut). ``None`` when a flush runs now: it reads
        them as edited away (``memory/withdraw.py``), and Delete message takes them out afterwards."""
        with held_lock(self.paths.flush_lock) as held:
            if not held:
                log.info("a flush is running: the edited-away message stays until it is deleted")
                return None
            off = self.logbook.off_record
            logged = {m.id: m for m in self.logbook.read_all().messages
                      + (off.read_all().messages if off is not None else [])}
            chain: list[str] = list(dict.fromkeys(ids))
            texts: list[str] = []
            for message_id in chain:  # with the versions each replaced: a reply regenerated away would come back
                found = logged.get(message_id) or self.archive.get(message_id)
                if found is None:
                    continue
                texts.append(found.text)
                if found.replaces and found.replaces not in chain:
                    chain.append(found.replaces)
            return self.take_back(chain, texts, EDITED_AWAY)

    def scrub_files(self, texts: list[str]) -> int:
        """Drop the lines that quote ``texts`` from the text files monchat writes beside the database."""
        return scrub_text_files(self.paths, self.logbook, texts)


def delete_memory(memory: MemoryService, chain: list[MemoryRecord]) -> list[str]:
    """``monchat memory delete``: the memory and its history leave the memory tables (``Transitions.delete``),
    then the text files beside the database and the WAL; returns the ids deleted."""
    with memory.change() as t:
        t.delete(chain)
        forget_touching(memory.store, [m.id for m in chain])
    texts = [m.text for m in chain if m.text.strip()]
    if memory.logbook is not None and texts:
        for path in text_files(memory.paths, memory.logbook):
            _rewrite(path, texts)
    WordScrub(memory.store).checkpoint()
    return [m.id for m in chain]


def scrub_text_files(paths: Paths, logbook: LogBook, texts: list[str]) -> int:
    """Off the record's expiry and clearing (``OffRecordLog.on_removed``): the removed words out of the text
    files beside the logs."""
    return sum(_rewrite(path, texts) for path in text_files(paths, logbook)) if texts else 0


def text_files(paths: Paths, logbook: LogBook) -> list[Path]:
    """The text files (not the log files themselves) that may quote a line: ``monchat.log`` and its rotated
    copies, the MCP access log, crash reports, the diary's pages and quarantined lines."""
    data = paths.data_dir
    found = [p for p in data.glob("monchat.log*") if p.is_file()]
    found += [p for p in (data / "mcp-access.jsonl",) if p.is_file()]
    folders = [paths.crash_dir, data / "diary", paths.quarantine_dir]
    if logbook.off_record is not None:
        folders.append(logbook.off_record.quarantine_dir)
    for folder in folders:
        if folder.is_dir():
            found += [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    return found


def _rewrite(path: Path, texts: list[str]) -> int:
    """``rewrite_without_words``; a logging handler writing to the file reopens it afterwards (it would go on
    writing to the replaced file)."""
    handlers = [h for h in logging.getLogger().handlers
                if isinstance(h, logging.FileHandler) and Path(h.baseFilename) == path.resolve()]
    for handler in handlers:
        handler.acquire()
    try:
        dropped = rewrite_without_words(path, texts)
        if dropped:
            for handler in handlers:
                if handler.stream is not None:
                    handler.stream.close()
                    handler.stream = None  # reopened at the next line (FileHandler.emit)
    finally:
        for handler in handlers:
            handler.release()
    return dropped
