"""Structured answers a backend already gave, kept by a hash of the request.

Design: a flush makes many paid LLM calls before its one transaction. If it
fails, is cancelled or is killed after some of them, a rerun sends the same
requests (same logs, same personas and seed, nothing committed), and these rows
answer them without asking again. The rows hold model answers, not memory: each
is written and committed on its own, outside any flush transaction (flush calls
happen before it opens), so a rollback of the flush keeps them. Old rows are
removed by age; a committed flush's requests are never sent again anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from .db import Store


@dataclass
class StoredAnswer:
    key: str
    backend: str
    model: str
    answer: str  # the JSON object as the backend returned it, serialised
    created_epoch: float


class AnswerStore:
    """The ``flush_answers`` table."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, key: str) -> StoredAnswer | None:
        row = self.store.db.execute(
            "SELECT key, backend, model, answer, created_epoch FROM flush_answers WHERE key = ?",
            [key]).fetchone()
        return StoredAnswer(*row) if row else None

    def put(self, answer: StoredAnswer) -> None:
        """Keep an answer; committed at once (a savepoint only if a transaction is open on this thread)."""
        with self.store.atomic() as db:
            db.execute(
                "INSERT INTO flush_answers(key, backend, model, answer, created_epoch) VALUES(?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET answer = excluded.answer, "
                "created_epoch = excluded.created_epoch",
                [answer.key, answer.backend, answer.model, answer.answer, answer.created_epoch])

    def prune(self, older_than_epoch: float) -> int:
        """Remove answers kept before ``older_than_epoch``; return how many."""
        with self.store.atomic() as db:
            cursor = db.execute("DELETE FROM flush_answers WHERE created_epoch < ?", [older_than_epoch])
            return cursor.rowcount

    def count(self) -> int:
        return self.store.db.execute("SELECT count(*) FROM flush_answers").fetchone()[0]
