"""The rows a review decision may change, read before and after it, and put back: what undo needs (``memory/undo.py``).

A decision (approve, reject, a batch of them) runs ``Transitions`` inside one transaction; what it changes is
spread over the memories, their ledger, the review queue, the ratings (a 👎's review) and a sync conflict's choice
(which the next sync writes for the other devices: an undone choice must not go). Rather than teach every
transition its own inverse, the tables are read before and after and the difference kept: undo writes each
changed row back as it was, deletes what the decision added and re-adds what it removed. The audit trail
(``memory_events``) is not part of it: it keeps the decision and gets an "undone" line.
"""

from __future__ import annotations

from .db import StoreView

# table → its key columns; every column of a row is kept
TABLES: dict[str, tuple[str, ...]] = {
    "memories": ("id",),
    "evidence": ("memory_id", "message_id"),
    "review_queue": ("id",),
    "ratings": ("kind", "target_id"),
    "sync_conflicts": ("queue_id",),  # a choice between two devices' versions: undone, it is not sent (issue 41)
}

Rows = dict[str, dict[str, dict]]  # table → key (joined) → row


def _key(table: str, row: dict) -> str:
    return "\x1f".join(str(row[c]) for c in TABLES[table])


GROWS_ONLY = ("evidence",)  # a decision only adds ledger rows (INSERT OR IGNORE): read what is new, not all ...
# ... but for a memory two devices changed while apart: choosing the other device's version makes the memory that
# version, ledger and all (``memory/replay.py``), which may have fewer lines. Those memories' rows are read whole.
_CONFLICTED = ("SELECT c.memory_id FROM sync_conflicts c JOIN review_queue q ON q.id = c.queue_id "
               "WHERE q.status = 'open'")


class DecisionRows(StoreView):
    def snapshot(self) -> Rows:
        """Every row of the tables a decision can change, by table and key; of the ledger only its mark (the highest
        rowid and the count) and the rows of memories in an open sync conflict, read again by ``changed_since`` —
        the whole ledger took 0.6 s at 50,000 rows."""
        rows: Rows = {table: {_key(table, row): row for row in self.db.query(f"SELECT * FROM {table}")}
                      for table in TABLES if table not in GROWS_ONLY}
        for table in GROWS_ONLY:
            top, count = self.db.execute(f"SELECT COALESCE(MAX(rowid), 0), COUNT(*) FROM {table}").fetchone()
            held = [r[0] for r in self.db.execute(_CONFLICTED)]
            rows[table] = {"": {"top": top, "count": count, "held": held, "whole": self._rows_of(table, held)}}
        return rows

    def _rows_of(self, table: str, memory_ids: list[str]) -> dict[str, dict]:
        marks = ", ".join("?" * len(memory_ids))
        return {_key(table, row): row for row in self.db.query(
            f"SELECT * FROM {table} WHERE memory_id IN ({marks})", memory_ids)} if memory_ids else {}

    def changed_since(self, table: str, mark: dict) -> tuple[dict[str, dict], dict[str, dict]]:
        """``(before, after)`` of a grow-only table since ``mark`` (a ``snapshot``'s): after, the rows added and
        the conflicted memories' rows now; before, those memories' rows then.

        Raises:
            RuntimeError: other rows were removed meanwhile (then the table did not only grow: our bug).
        """
        added = {_key(table, row): row for row in self.db.query(f"SELECT * FROM {table} WHERE rowid > ?", [mark["top"]])}
        whole = self._rows_of(table, mark["held"])
        removed = [key for key in mark["whole"] if key not in whole and key not in added]
        count = self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        if count != mark["count"] + len(added) - len(removed):
            raise RuntimeError(f"{table} lost rows inside a review decision; it may only grow there")
        return dict(mark["whole"]), {**whole, **added}

    def current(self, table: str, row: dict) -> dict | None:
        """The row with ``row``'s key as it is now (None: there is none)."""
        where = " AND ".join(f"{c} = ?" for c in TABLES[table])
        found = list(self.db.query(f"SELECT * FROM {table} WHERE {where}", [row[c] for c in TABLES[table]]))
        return found[0] if found else None

    def put_back(self, table: str, before: dict | None, after: dict | None) -> None:
        """Make the row that is ``after`` now what it was ``before`` (None: it did not exist / does not now)."""
        keys = TABLES[table]
        where = " AND ".join(f"{c} = ?" for c in keys)
        if before is None:
            assert after is not None
            self.db.execute(f"DELETE FROM {table} WHERE {where}", [after[c] for c in keys])
            if table == "memories":  # a memory the decision made: its audit lines go with it
                self.db.execute("DELETE FROM memory_events WHERE memory_id = ?", [after["id"]])
        elif after is None:
            columns, marks = ", ".join(before), ", ".join("?" * len(before))
            self.db.execute(f"INSERT INTO {table}({columns}) VALUES({marks})", list(before.values()))
        else:
            sets = ", ".join(f"{c} = ?" for c in before)
            self.db.execute(f"UPDATE {table} SET {sets} WHERE {where}",
                            [*before.values(), *(after[c] for c in keys)])
