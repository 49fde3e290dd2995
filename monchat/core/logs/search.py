"""Finding what was said: search, browsing by day, and the conversation around a message.

Both places a message can be are searched: the archive (a trigram full-text index, so a word
inside Japanese text is found; ``LIKE`` for terms under three characters) and the unflushed
log files (scanned). A message in both — a flush killed between its commit and removing the
file — is shown once. Messages said off the record (``core/logs/off_record.py``) are found too, marked, until
they are removed. A message the user edited away (or a reply asked for again) is still found, marked
``replaced`` (``core/memory/takeback.py``): the user can see what they took back, and delete it for good. The
GUI's search window and ``monchat search`` call this.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from datetime import datetime, tzinfo

from ..errors import InputError, NotFound
from .history import merge_history
from .files import LogBook
from ..store.message_search import MessageSearch
from ..store.messages import MessageArchive
from ..vocabulary.states import ReplyStatus
from ..types import Message, parse_ts, taken_back

DEFAULT_LIMIT = 200
MAX_QUERY_CHARS = 500


@dataclass(frozen=True)
class Hit:
    """One message found: what ``monchat search --json`` prints."""

    id: str
    ts: str
    role: str
    persona: str
    text: str
    replaced: bool = False  # edited away or regenerated: taken back, never read by a flush
    off_record: bool = False  # said off the record: found until it is removed, never archived (core/logs/off_record.py)
    status: ReplyStatus = ReplyStatus.OK  # a reply the user stopped, or one an error cut off (partial)

    @classmethod
    def of(cls, m: Message, replaced: bool = False) -> "Hit":
        return cls(id=m.id, ts=m.ts, role=m.role, persona=m.persona, text=m.text, replaced=replaced,
                   off_record=m.off_record, status=m.status)

    @property
    def dt(self) -> datetime:
        return parse_ts(self.ts)

    def as_dict(self) -> dict:
        return asdict(self)


def query_terms(query: str) -> list[str]:
    """The words of a query (split on spaces, ideographic spaces too), each once.

    Raises:
        InputError: the query is empty or too long.
    """
    terms = list(dict.fromkeys(query.split()))
    if not terms:
        raise InputError("The search is empty.", "Type a word or part of a sentence to look for.")
    if any(ord(c) < 32 or ord(c) == 127 for t in terms for c in t):
        raise InputError("The search contains control characters.", "Type the words to look for as text.")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(f"The search is longer than {MAX_QUERY_CHARS} characters.", "Search for fewer words.")
    return terms


def _contains_all(text: str, folded_terms: list[str]) -> bool:
    folded = text.casefold()
    return all(t in folded for t in folded_terms)


class SearchService:
    def __init__(self, logbook: LogBook, archive: MessageArchive) -> None:
        self.logbook = logbook
        self.archive = archive
        self.sql = MessageSearch(archive.store)

    @property
    def tz(self) -> tzinfo | None:
        return self.logbook.tz

    def indexed(self) -> bool:
        """Whether archived messages are found through the full-text index (else by a scan)."""
        return self.sql.indexed()

    @staticmethod
    def index_note() -> str:
        """Why there is no index, for ``--json`` and the window (empty when there is one)."""
        return (f"This SQLite ({sqlite3.sqlite_version}) has no FTS5 trigram tokenizer (3.34 or newer); "
                "the archive is searched by a slower scan.")

    def search(self, query: str, limit: int = DEFAULT_LIMIT) -> list[Hit]:
        """Messages containing every word of ``query``, newest first, at most ``limit``."""
        terms = query_terms(query)
        folded = [t.casefold() for t in terms]
        archived = [m for m in self.sql.find(terms, limit) if _contains_all(m.text, folded)]
        logged = self._logged()
        unflushed = [m for m in logged if _contains_all(m.text, folded)]
        merged = merge_history(archived, unflushed)
        replaced = taken_back(logged) | self.archive.replaced_ids()
        return [Hit.of(m, m.id in replaced) for m in reversed(merged)][:limit]

    def _logged(self) -> list[Message]:
        """The messages of the log files, the off-the-record ones not yet removed too."""
        logged = self.logbook.read_all().messages
        off = self.logbook.off_record
        return logged + off.read_all().messages if off is not None else logged

    def replaced_ids(self) -> set[str]:
        """The ids of messages an edit or a regeneration replaced (shown marked as replaced)."""
        return taken_back(self._logged()) | self.archive.replaced_ids()

    def _day_of(self, m: Message) -> str:
        return f"{m.dt.astimezone(self.tz):%Y-%m-%d}"

    def days(self) -> dict[str, int]:
        """Every local day with messages → how many, oldest first."""
        counts = dict(self.sql.days())
        archived_ids = None
        for m in self._logged():
            if archived_ids is None:
                archived_ids = self.archive.ids()
            if m.id not in archived_ids:
                day = self._day_of(m)
                counts[day] = counts.get(day, 0) + 1
        return dict(sorted(counts.items()))

    def day_tiers(self) -> dict[str, str]:
        """Archived day → its tier at the last flush (``core/records/tiers.py``); unflushed days have none."""
        from ..store.tiers import TierStore
        return TierStore(self.archive.store).day_tiers()

    def on_day(self, day: str) -> list[Message]:
        """The messages of one local day (``YYYY-MM-DD``), oldest first."""
        unflushed = [m for m in self._logged() if self._day_of(m) == day]
        return merge_history(self.sql.on_day(day), unflushed)

    def around(self, message_id: str, before: int = 20, after: int = 20) -> list[Message]:
        """The conversation at the moment of one message: it, with up to ``before``/``after`` neighbours.

        Raises:
            NotFound: no message has that id.
        """
        unflushed = self._logged()
        target = self.sql.get(message_id) or next((m for m in unflushed if m.id == message_id), None)
        if target is None:
            raise NotFound(f"No message has the id {message_id!r}.", "Copy an id from `monchat search`.")
        epoch = target.dt.timestamp()
        older = [m for m in unflushed if m.dt.timestamp() < epoch]
        newer = [m for m in unflushed if m.dt.timestamp() >= epoch]
        earlier = merge_history(self.archive.before(epoch, before), older)[-before:] if before else []
        later = merge_history(self.archive.since(epoch), newer)
        index = next(i for i, m in enumerate(later) if m.id == message_id)
        return earlier + later[:index + 1 + after]
