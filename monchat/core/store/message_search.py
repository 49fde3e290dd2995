"""SQL for finding archived messages: the trigram index, a plain scan, and the days.

``messages_fts`` (migration m010) is a trigram FTS5 index: a term of three or more characters
matches anywhere inside a message, in any script. Shorter terms, and a SQLite without the
trigram tokenizer, are matched with ``LIKE`` instead.
"""

from __future__ import annotations

from .db import Store
from .messages import _row_to_message
from ..types import Message

TRIGRAM = 3
COMMON = 20  # words in 1 of 20 messages or more: scan instead of the index


def _like(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


class MessageSearch:
    def __init__(self, store: Store) -> None:
        self.store = store

    def indexed(self) -> bool:
        """Whether the archive has its full-text index (SQLite with FTS5 trigram)."""
        return self.store.db["messages_fts"].exists()

    def find(self, terms: list[str], limit: int) -> list[Message]:
        """Archived messages that contain every term (case-insensitive), newest first."""
        long_terms = [t for t in terms if len(t) >= TRIGRAM] if self.indexed() else []
        if long_terms and self._common(long_terms):
            long_terms = []  # a newest-first scan meets enough matches long before the index's sort ends
        params: list = []
        if long_terms:
            # Order only the matching rowids (a narrow sort), then read the few rows shown.
            inner = ("SELECT m.rowid FROM messages_fts f JOIN messages m ON m.rowid = f.rowid "
                     "WHERE messages_fts MATCH ?")
            params.append(" AND ".join(_phrase(t) for t in long_terms))
        else:
            inner = "SELECT m.rowid FROM messages m WHERE 1"  # walks the ts_epoch index, stops at the limit
        for term in (t for t in terms if t not in long_terms):
            inner += r" AND m.text LIKE ? ESCAPE '\'"
            params.append(_like(term))
        inner += " ORDER BY m.ts_epoch DESC, m.id DESC LIMIT ?"
        sql = f"SELECT * FROM messages WHERE rowid IN ({inner}) ORDER BY ts_epoch DESC, id DESC"
        with self.store.mapped_errors():
            rows = list(self.store.db.query(sql, [*params, limit]))
        return [_row_to_message(r) for r in rows]

    def _common(self, long_terms: list[str]) -> bool:
        """Whether the words occur in at least one message in COMMON (then scanning is the faster way)."""
        with self.store.mapped_errors():
            matches = self.store.db.execute("SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH ?",
                                            [" AND ".join(_phrase(t) for t in long_terms)]).fetchone()[0]
            total = self.store.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
        return matches * COMMON >= total > 0

    def days(self) -> dict[str, int]:
        """Local calendar day → number of archived messages."""
        with self.store.mapped_errors():
            return {day: n for day, n in self.store.db.execute(
                "SELECT day, COUNT(*) FROM messages GROUP BY day ORDER BY day").fetchall()}

    def on_day(self, day: str) -> list[Message]:
        with self.store.mapped_errors():
            rows = list(self.store.db.query("SELECT * FROM messages WHERE day = ? ORDER BY ts_epoch, id", [day]))
        return [_row_to_message(r) for r in rows]

    def get(self, message_id: str) -> Message | None:
        row = next(iter(self.store.db.query("SELECT * FROM messages WHERE id = ?", [message_id])), None)
        return _row_to_message(row) if row else None
