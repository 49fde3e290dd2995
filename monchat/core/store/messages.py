"""The message archive: every raw message, once."""

from __future__ import annotations

import json
from datetime import datetime, tzinfo

from ..paths import slot_name
from ..records.long_text import MARK_ROOM, TURN_TEXT_CHARS, cut_text
from ..types import Message, format_ts, local_now
from .db import Store

COLUMNS = ("id", "ts", "role", "text", "persona", "backend", "model", "status", "replaces")


def _row_to_message(row: dict) -> Message:
    fields: dict = {k: (row[k] or "") for k in COLUMNS}
    if row.get("cut_chars") is not None:  # read cut (_select): the first part and the mark
        fields["text"] = cut_text(fields["text"], row["cut_chars"])
    return Message(**fields, usage=json.loads(row["usage"]) if row.get("usage") else {},
                   memory_revision=row.get("memory_revision") or "")


def _select(cut: bool) -> str:
    """The columns a read takes; ``cut``: a long text's first part and length (m024), never its 50 MB whole."""
    if not cut:
        return "*"
    others = ", ".join(c for c in (*COLUMNS, "usage", "memory_revision") if c != "text")
    return f"{others}, CASE WHEN text_chars IS NULL THEN text ELSE text_head END AS text, text_chars AS cut_chars"


def long_text_columns(text: str) -> dict:
    """``text_head`` and ``text_chars`` of a message's row: set only for a text a turn sends cut."""
    if len(text) <= TURN_TEXT_CHARS + MARK_ROOM:
        return {"text_head": None, "text_chars": None}
    return {"text_head": text[:TURN_TEXT_CHARS], "text_chars": len(text)}


class MessageArchive:
    def __init__(self, store: Store, tz: tzinfo | None = None) -> None:
        self.store = store
        self.tz = tz

    def archive(self, messages: list[Message], archived_at: datetime | None = None, origin: str | None = None) -> int:
        """Insert messages not yet archived; return how many were new.

        ``origin``: the device whose sync journal they came from (``core/sync/``), None for messages said here.
        Runs inside the caller's transaction when there is one.
        """
        stamp = format_ts(archived_at or local_now())
        rows = []
        for m in messages:
            dt = m.dt
            rows.append({
                "id": m.id, "ts": m.ts, "ts_epoch": dt.timestamp(),
                "day": f"{dt.astimezone(self.tz):%Y-%m-%d}", "session": slot_name(dt, self.tz),
                "role": m.role, "persona": m.persona, "text": m.text, "backend": m.backend,
                "model": m.model, "status": m.status, "replaces": m.replaces, "archived_at": stamp,
                "usage": json.dumps(m.usage) if m.usage else None,
                "memory_revision": m.memory_revision or None, **long_text_columns(m.text),
                **({"origin": origin} if origin else {}),
            })
        if not rows:
            return 0
        columns = list(rows[0])
        # One prepared statement for every row (sqlite-utils' insert_all rebuilt it per batch and checked each
        # value: a third of a second for a thousand messages, twice a flush).
        sql = (f"INSERT OR IGNORE INTO messages ({', '.join(columns)}) "
               f"VALUES ({', '.join('?' * len(columns))})")
        with self.store.atomic() as db:
            return db.conn.executemany(sql, [[row[c] for c in columns] for row in rows]).rowcount

    def since(self, epoch: float, *, cut: bool = False) -> list[Message]:
        """Messages at or after ``epoch``; ``cut``: a long text is read only as far as a turn sends it."""
        rows = self.store.db.query(
            f"SELECT {_select(cut)} FROM messages WHERE ts_epoch >= ? ORDER BY ts_epoch, id", [epoch])
        return [_row_to_message(r) for r in rows]

    def before(self, epoch: float, limit: int = 50, *, cut: bool = False) -> list[Message]:
        """Older messages for scrolling back, oldest first."""
        rows = list(self.store.db.query(
            f"SELECT {_select(cut)} FROM messages WHERE ts_epoch < ? ORDER BY ts_epoch DESC, id DESC LIMIT ?",
            [epoch, limit]))
        return [_row_to_message(r) for r in reversed(rows)]

    def get(self, message_id: str) -> Message | None:
        rows = list(self.store.db.query("SELECT * FROM messages WHERE id = ?", [message_id]))
        return _row_to_message(rows[0]) if rows else None

    def all(self) -> list[Message]:
        return [_row_to_message(r) for r in self.store.db.query(
            "SELECT * FROM messages ORDER BY ts_epoch, id")]

    def get_many(self, ids: list[str]) -> dict[str, dict]:
        """Rows by id (with day and session), for evidence checks."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {r["id"]: r for r in self.store.db.query(
            f"SELECT * FROM messages WHERE id IN ({marks})", list(ids))}

    def count(self) -> int:
        return self.store.db["messages"].count

    def ids(self) -> set[str]:
        return {r[0] for r in self.store.db.execute("SELECT id FROM messages").fetchall()}

    def replaced_ids(self) -> set[str]:
        """Ids that an archived message replaces (an edit or a regeneration took them back: ``core/memory/takeback.py``)."""
        return {r[0] for r in self.store.db.execute(
            "SELECT DISTINCT replaces FROM messages WHERE replaces IS NOT NULL AND replaces != ''").fetchall()}

    def delete(self, ids: list[str]) -> int:
        """Remove messages for good: their rows, and their words from the full-text index and the file's free
        pages (secure_delete; the index merged). Runs inside the caller's transaction; returns rows removed."""
        if not ids:
            return 0
        db = self.store.db
        db.execute("PRAGMA secure_delete = ON")
        marks = ",".join("?" * len(ids))
        removed = db.execute(f"DELETE FROM messages WHERE id IN ({marks})", list(ids)).rowcount
        if removed and db["messages_fts"].exists():  # the delete trigger took the rows out of the index
            db.execute("INSERT INTO messages_fts(messages_fts) VALUES('optimize')")
        return removed

    def known_ids(self, ids: list[str]) -> set[str]:
        """Which of ``ids`` are archived (asked in slices: SQLite limits a statement's parameters)."""
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            found.update(r[0] for r in self.store.db.execute(f"SELECT id FROM messages WHERE id IN ({marks})", part))
        return found

    def texts(self, ids: list[str]) -> dict[str, str]:
        """The text of each of ``ids`` that is archived (asked in slices)."""
        found: dict[str, str] = {}
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            found.update(self.store.db.execute(f"SELECT id, text FROM messages WHERE id IN ({marks})", part))
        return found
