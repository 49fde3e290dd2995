"""Quoted material: words that came from outside with a review item (a memory file's evidence), kept in the item's
``quoted`` column (migration m026), never as messages. What a memory quotes stays readable after its review closes,
and goes with the memory's review rows when the memory is deleted (``MemoryStore.delete_texts``)."""

from __future__ import annotations

import json

from .db import Store


def quoted_lines(value: str | None) -> list[dict]:
    """The quoted lines of a ``review_queue.quoted`` value (NULL: none)."""
    return [q for q in json.loads(value) if isinstance(q, dict)] if value else []


class QuotedStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def keep(self, queue_id: int, lines: list[dict]) -> None:
        """Keep ``lines`` with review item ``queue_id`` (inside the caller's transaction)."""
        self.store.db["review_queue"].update(queue_id, {"quoted": json.dumps(lines, ensure_ascii=False)})

    def of_memory(self, memory_id: str) -> list[dict]:
        """What the review items of ``memory_id`` quote, open or closed, each line once, oldest item first."""
        lines: list[dict] = []
        for (value,) in self.store.db.execute(
                "SELECT quoted FROM review_queue WHERE memory_id = ? AND quoted IS NOT NULL ORDER BY id", [memory_id]):
            lines.extend(q for q in quoted_lines(value) if q not in lines)
        return lines
