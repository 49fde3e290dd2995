"""The feedback loop's rows: ratings (👍/👎 on replies and memories) and the review decisions learning reads."""

from __future__ import annotations

import json

from .db import Store

LEARNING_SINCE_KEY = "review.learning.since"  # epoch: decisions before it are not learned from (reset)


class FeedbackStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # ---- ratings ---------------------------------------------------------
    def rating(self, kind: str, target_id: str) -> dict | None:
        row = self.store.db.execute(
            "SELECT kind, target_id, rating, rated_at, effects, queue_id FROM ratings WHERE kind = ? AND target_id = ?",
            [kind, target_id]).fetchone()
        if row is None:
            return None
        return {"kind": row[0], "target_id": row[1], "rating": row[2], "rated_at": row[3],
                "effects": json.loads(row[4] or "{}"), "queue_id": row[5]}

    def ratings(self, kind: str | None = None) -> list[dict]:
        sql = "SELECT kind, target_id FROM ratings" + (" WHERE kind = ?" if kind else "") + " ORDER BY rated_at, target_id"
        rows = self.store.db.execute(sql, [kind] if kind else []).fetchall()
        return [rating for k, t in rows if (rating := self.rating(k, t)) is not None]

    def put_rating(self, kind: str, target_id: str, rating: str, rated_at: str, effects: dict,
                   queue_id: int | None) -> None:
        self.store.db.execute(
            "INSERT INTO ratings(kind, target_id, rating, rated_at, effects, queue_id) VALUES(?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(kind, target_id) DO UPDATE SET rating = excluded.rating, rated_at = excluded.rated_at, "
            "effects = excluded.effects, queue_id = excluded.queue_id",
            [kind, target_id, rating, rated_at, json.dumps(effects, ensure_ascii=False), queue_id])

    def drop_rating(self, kind: str, target_id: str) -> None:
        self.store.db.execute("DELETE FROM ratings WHERE kind = ? AND target_id = ?", [kind, target_id])

    def message(self, message_id: str) -> dict | None:
        row = self.store.db.execute("SELECT id, role, text, memory_revision FROM messages WHERE id = ?",
                                    [message_id]).fetchone()
        return None if row is None else {"id": row[0], "role": row[1], "text": row[2], "memory_revision": row[3] or ""}

    # ---- review learning -------------------------------------------------
    def review_decisions(self) -> list[dict]:
        """The user's approve/reject decisions in review: ``{slot, action, decision, at, queue, status, held}``,
        oldest first; ``status`` and ``held`` are the review item's now (None when the item is gone)."""
        rows = self.store.db.execute(
            "SELECT m.slot, e.action, e.detail, e.at, q.id, q.status, q.held FROM memory_events e "
            "JOIN memories m ON m.id = e.memory_id "
            "LEFT JOIN review_queue q ON q.id = json_extract(e.detail, '$.queue') "
            "WHERE e.action IN ('approved', 'rejected') ORDER BY e.id").fetchall()
        out = []
        for slot, decision, detail, at, queue_id, status, held in rows:
            action = json.loads(detail or "{}").get("action")
            if action:
                out.append({"slot": slot, "action": action, "decision": decision, "at": at, "queue": queue_id,
                            "status": status, "held": held})
        return out
