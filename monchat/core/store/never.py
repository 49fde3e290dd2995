"""The rows of the user's "never remember this" rules (``core/memory/never.py`` decides what they match)."""

from __future__ import annotations

from .db import Store


class NeverStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def rules(self) -> list[dict]:
        """Every rule, oldest first: ``{id, text, created_at}``."""
        rows = self.store.db.execute("SELECT id, text, created_at FROM never_rules ORDER BY id").fetchall()
        return [{"id": r[0], "text": r[1], "created_at": r[2]} for r in rows]

    def by_key(self, key: str) -> dict | None:
        row = self.store.db.execute("SELECT id, text, created_at FROM never_rules WHERE key = ?", [key]).fetchone()
        return None if row is None else {"id": row[0], "text": row[1], "created_at": row[2]}

    def add(self, text: str, key: str, at: str) -> dict:
        """The rule ``key`` (added now, or the one already there)."""
        with self.store.atomic() as db:
            db.execute("INSERT INTO never_rules(text, key, created_at) VALUES(?, ?, ?) ON CONFLICT(key) DO NOTHING",
                       [text, key, at])
        rule = self.by_key(key)
        assert rule is not None, key  # inserted or already there, a moment ago
        return rule

    def remove(self, rule_id: int) -> None:
        with self.store.atomic() as db:
            db.execute("DELETE FROM never_rules WHERE id = ?", [rule_id])
