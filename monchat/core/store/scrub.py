"""SQL of taking words back: every text column of the database, and what a take-back does to it.

``TEXT_COLUMNS`` names each table's text columns with how its words leave when the user takes a message back
(Delete message, Edit, a deleted memory): the schema walk (``tests/test_one_way_out.py``) reads the live schema
and fails when a text column is not named here, so a table added later forces a decision.

- ``ROW``: the row is the message (or its full-text entry): it goes by id (``MessageArchive.delete``).
- ``MEMORY``: the memory domain decides (``memory/withdraw.py``: a memory that rested only on the words is
  deleted, with its history; ``MemoryStore.delete_texts`` takes its words from the memory tables).
- ``QUOTE``: a page or a cache written from the words (a kept answer, a diary page, a digest): a row that
  quotes them goes whole, and is written again from what is left if it is needed.
- ``WORDS``: a record kept for what it counts (a flush run, an audit event): the words are replaced by
  ``[deleted]`` in place, in every spelling JSON gives them.
- ``INDEX``: a full-text index's own tables, merged (``optimize``) once their rows are gone.
- ``NONE``: holds no words of a message (ids, times, states, names of models, the user's own rules).

Freed pages are zeroed (``PRAGMA secure_delete`` on every connection, ``core/store/db.py``) and the WAL is
emptied afterwards (``checkpoint``), so no old page of the file keeps the words either.
"""

from __future__ import annotations

import json
import logging

from .db import Store

log = logging.getLogger(__name__)

ROW, MEMORY, QUOTE, WORDS, INDEX, NONE = "row", "memory", "quote", "words", "index", "none"
DELETED_MARK = "[deleted]"


def _all(how: str, *columns: str) -> dict[str, str]:
    return dict.fromkeys(columns, how)


def _index(table: str) -> dict[str, dict[str, str]]:
    """An FTS5 table and its shadow tables."""
    return {table: _all(INDEX, "text", "slot") if table == "memories_fts" else _all(INDEX, "text"),
            f"{table}_data": _all(INDEX, "block"), f"{table}_idx": _all(INDEX, "segid", "term", "pgno"),
            f"{table}_docsize": _all(INDEX, "sz"), f"{table}_config": _all(INDEX, "k", "v")}


TEXT_COLUMNS: dict[str, dict[str, str]] = {
    "_sqlite_migrations": _all(NONE, "migration_set", "name", "applied_at"),
    "messages": {**_all(ROW, "text", "text_head"),
                 **_all(NONE, "id", "ts", "day", "session", "role", "persona", "backend", "model", "status",
                        "replaces", "archived_at", "usage", "memory_revision", "origin")},
    "kv": {"key": NONE, "value": WORDS},
    "sync_device": _all(NONE, "id", "name", "folder", "created_at", "last_sync"),  # core/sync: this device
    "sync_tombstones": _all(NONE, "message_id", "device", "deleted_at"),
    "sync_offsets": _all(NONE, "path", "tail"),
    "sync_journal": _all(NONE, "message_id", "month"),
    # decisions replay (core/sync/decisions.py): an event's JSON and a conflict's two versions quote memory words;
    # a row quoting deleted words goes whole (the events citing a deleted message go too, and from the folder)
    "sync_events": {**_all(NONE, "id", "hlc", "device", "kind", "memory_id", "status"), "body": QUOTE},
    "sync_event_messages": _all(NONE, "event_id", "message_id"),
    "sync_memory": _all(NONE, "memory_id", "digest"),
    "sync_conflicts": {**_all(NONE, "memory_id", "event_id", "chosen"), **_all(QUOTE, "mine", "theirs")},
    "memories": {**_all(MEMORY, "text"),
                 **_all(NONE, "id", "slot", "kind", "state", "persona", "style", "valid_at", "invalid_at",
                        "superseded_by", "superseded_at", "created_at", "updated_at")},
    **_index("memories_fts"),
    "evidence": _all(NONE, "memory_id", "message_id", "day", "session", "kind", "persona"),
    "flush_runs": {**_all(NONE, "started_at", "finished_at", "budget", "usage", "files", "accounting"),
                   **_all(WORDS, "personas", "items", "dropped", "verdicts", "changes", "promoted", "errors",
                          "notes", "background")},
    "verdicts": {**_all(NONE, "memory_id", "target_id", "verdict", "model", "applied"), "reasoning": WORDS},
    "review_queue": {**_all(NONE, "memory_id", "action", "target_id", "created_at", "status", "resolved_at",
                            "verdict", "held"),
                     **_all(WORDS, "text", "old_text", "reason", "merged_text", "proposers", "quoted")},
    "memory_events": {**_all(NONE, "memory_id", "at", "action"), "detail": WORDS},
    "flush_answers": {**_all(NONE, "key", "backend", "model"), "answer": QUOTE},
    **_index("messages_fts"),
    "profile_snapshots": {"day": NONE, **_all(WORDS, "topic", "trend")},
    "insights": {**_all(NONE, "kind", "created_at", "status"), **_all(WORDS, "text", "slots")},
    "diary": {**_all(NONE, "day", "messages", "language", "written_at"), **_all(QUOTE, "text", "topics")},
    "recall_failures": {**_all(NONE, "slot", "message_id", "day", "source"), "text": QUOTE},
    "gaps": {**_all(NONE, "kind", "created_at", "status", "source"), **_all(WORDS, "slot", "text")},
    "skill_levels": {**_all(NONE, "memory_id", "slot", "updated_at"), "name": WORDS},
    "graph_nodes": {**_all(NONE, "id", "type"), "label": WORDS},
    "graph_edges": _all(NONE, "source", "target"),
    "discoveries": {**_all(NONE, "kind", "key", "created_at", "status"), **_all(WORDS, "text", "nodes")},
    "ratings": {**_all(NONE, "kind", "target_id", "rating", "rated_at"), "effects": WORDS},
    "memory_tiers": _all(NONE, "memory_id", "tier", "digest_id", "updated_at"),
    "digests": {**_all(NONE, "id", "slot", "covers", "created_at"), "text": QUOTE},
    "day_tiers": _all(NONE, "day", "tier", "updated_at"),
    "lint_findings": {**_all(NONE, "key", "kind", "step", "memory_ids", "status", "created_at", "updated_at"),
                      **_all(WORDS, "text", "detail")},
    "never_rules": _all(NONE, "text", "key", "created_at"),  # the user's own rules, kept until they remove one
}


def spellings(text: str) -> list[str]:
    """``text`` as a column may hold it: plain, and inside a JSON string (escaped, and ASCII-escaped)."""
    forms = [text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]]
    return [f for f in dict.fromkeys(forms) if f.strip()]


DISTINCT_CHARS = 8  # a text this long is the user's wherever it appears; a shorter one only as a whole value


def _without(value: str, text: str) -> str:
    """``value`` with ``text`` replaced by ``DELETED_MARK``: inside JSON, in its string values only (never a key)."""
    if value.lstrip()[:1] in ("{", "["):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if parsed is not None:
            scrubbed = _scrub_json(parsed, text)
            return value if scrubbed == parsed else json.dumps(scrubbed, ensure_ascii=False)
    return _scrub_string(value, text)


def _scrub_string(value: str, text: str) -> str:
    if value == text or value.strip() == text.strip():
        return DELETED_MARK
    return value.replace(text, DELETED_MARK) if len(text) >= DISTINCT_CHARS else value


def _scrub_json(value, text: str):
    if isinstance(value, dict):
        return {k: _scrub_json(v, text) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_json(v, text) for v in value]
    if isinstance(value, str):
        return _without(value, text) if value.lstrip()[:1] in ("{", "[") else _scrub_string(value, text)
    return value


def text_columns(store: Store) -> dict[str, list[str]]:
    """Every table of the live schema and its text columns (declared TEXT, BLOB or with no type)."""
    db = store.db
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                       "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    found: dict[str, list[str]] = {}
    for table in tables:
        columns = db.execute(f'PRAGMA table_info("{table}")').fetchall()
        found[table] = [c[1] for c in columns if (c[2] or "").upper() in ("", "TEXT", "BLOB")
                        or "CHAR" in (c[2] or "").upper() or "CLOB" in (c[2] or "").upper()]
    return found


def unknown_columns(store: Store) -> list[str]:
    """``table.column`` of every text column the scrubber has no rule for (none, or the walk fails)."""
    return [f"{table}.{column}" for table, columns in text_columns(store).items() for column in columns
            if column not in TEXT_COLUMNS.get(table, {})]


class WordScrub:
    """The database part of taking words back."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def scrub(self, texts: list[str]) -> int:
        """Take ``texts`` out of every QUOTE and WORDS column (inside the caller's transaction); return the
        rows changed or dropped.

        A text shorter than ``DISTINCT_CHARS`` ("ok", "yes") is taken out only where a value (or a JSON string
        in it) is that text whole: as a part of other words it says nothing of the user, and replacing it would
        change words that are not theirs (a JSON key, a status).
        """
        db = self.store.db
        present = text_columns(self.store)
        texts = [t for t in dict.fromkeys(texts) if t.strip()]
        changed = 0
        for table, columns in TEXT_COLUMNS.items():
            for column, how in columns.items():
                if column not in present.get(table, ()) or how not in (QUOTE, WORDS):
                    continue
                for text in texts:
                    for form in spellings(text):
                        rows = db.execute(f'SELECT rowid, "{column}" FROM "{table}" WHERE instr("{column}", ?) > 0',
                                          [form]).fetchall()
                        for rowid, value in rows:
                            changed += self._take_out(table, column, how, rowid, value, text)
        return changed

    def _take_out(self, table: str, column: str, how: str, rowid: int, value, text: str) -> int:
        new = _without(value, text) if isinstance(value, str) else value
        if new == value:
            return 0
        if how == QUOTE:
            return self.store.db.execute(f'DELETE FROM "{table}" WHERE rowid = ?', [rowid]).rowcount
        return self.store.db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = ?', [new, rowid]).rowcount

    def checkpoint(self) -> None:
        """Merge the text indexes and empty the WAL into the file (outside any transaction), so the words'
        old pages are overwritten (secure_delete) and no copy stays in ``monchat.db-wal``."""
        db = self.store.db
        with self.store.mapped_errors():
            for index in ("messages_fts", "memories_fts"):
                if db[index].exists():
                    db.execute(f"INSERT INTO {index}({index}) VALUES('optimize')")
            db.conn.commit()
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy and busy[0]:
            log.info("the database's WAL could not be emptied yet (another reader); it is at the next checkpoint")
