"""SQL for what a deleted message leaves behind outside the archive and the memory tables.

A recall failure it was, a diary page that cites it (the page goes, and its day is owed again, so the next
flush writes it from the words that are left), and kept flush answers that quote it (only a cache).
"""

from __future__ import annotations

import json

from .background import BackgroundStore
from .db import Store


class MessageTraces:
    def __init__(self, store: Store) -> None:
        self.store = store

    def remove(self, ids: list[str], texts: list[str]) -> list[str]:
        """Remove the traces of these messages (inside the caller's transaction); return the diary days dropped."""
        db = self.store.db
        marks = ",".join("?" * len(ids))
        db.execute(f"DELETE FROM recall_failures WHERE message_id IN ({marks})", list(ids))
        background = BackgroundStore(self.store)
        wanted = set(ids)
        days = [page["day"] for page in background.pages() if wanted & set(page.get("messages") or [])]
        if days:
            day_marks = ",".join("?" * len(days))
            db.execute(f"DELETE FROM diary WHERE day IN ({day_marks})", days)
            background.set_diary_owed(sorted(set(background.diary_owed()) | set(days)))
        for text in (t for t in texts if t.strip()):
            db.execute("DELETE FROM flush_answers WHERE instr(answer, ?) > 0 OR instr(answer, ?) > 0",
                       [text, json.dumps(text)[1:-1]])
        return days
