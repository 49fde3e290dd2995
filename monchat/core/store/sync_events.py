"""The rows of the decisions replay (issue 41, ``core/sync/decisions.py``): every decision event this device wrote
or read, the state of each memory all devices last agreed on, and the conflicts waiting in the review queue.

- ``sync_events``: one row an event (``body`` is its whole JSON line), this device's (``own`` 1) and the others';
  ``status`` says what became of another device's: ``new`` (not applied yet: in clock order at this sync, or it
  waits for its evidence to arrive), ``applied``, ``same`` (this device was there already), ``conflict``,
  ``dropped`` (it cites a deleted message).
- ``sync_event_messages``: which messages each event cites (a deletion finds the events that quote it).
- ``sync_memory``: a memory's digest as all devices last agreed (exported or replayed here): the ``base`` the next
  event about it is made on.
- ``sync_conflicts``: a review item (``review_queue.held`` = ``sync_conflict``) and the two versions it holds.
"""

from __future__ import annotations

import json

from .db import StoreView
from ..vocabulary.states import Held

CONFLICT = Held.SYNC_CONFLICT  # review_queue.held of a conflict between two devices' decisions
EVIDENCE = ("message_id", "day", "session", "kind", "contradicts", "persona")
REVIEW = ("action", "target_id", "text", "old_text", "reason", "confidence", "created_at", "deadline_epoch",
          "status", "resolved_at", "verdict", "merged_text", "proposers", "held", "quoted")


class SyncEvents(StoreView):
    # ---- what a memory is, as rows ---------------------------------------------------
    def memory_rows(self, ids: list[str] | None = None) -> dict[str, dict]:
        return {r["id"]: r for r in self._where("SELECT * FROM memories", "id", ids)}

    def evidence_rows(self, ids: list[str] | None = None) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for r in self._where(f"SELECT memory_id, {', '.join(EVIDENCE)} FROM evidence", "memory_id", ids):
            out.setdefault(r.pop("memory_id"), []).append(r)
        return out

    def review_rows(self, ids: list[str] | None = None) -> dict[str, list[dict]]:
        """The review items about each memory (its own proposals), conflicts between devices left out."""
        out: dict[str, list[dict]] = {}
        for r in self._where(f"SELECT id, memory_id, {', '.join(REVIEW)} FROM review_queue WHERE held IS NOT "
                             f"'{CONFLICT}'", "memory_id", ids):
            out.setdefault(r["memory_id"], []).append(r)
        return out

    def _where(self, sql: str, column: str, ids: list[str] | None) -> list[dict]:
        if ids is None:
            return list(self.db.query(sql))
        joint = " AND " if " WHERE " in sql else " WHERE "
        rows: list[dict] = []
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            rows += self.db.query(f"{sql}{joint}{column} IN ({','.join('?' * len(part))})", part)
        return rows

    def review_by_key(self, memory_id: str, created_at: str, action: str, reason: str) -> dict | None:
        """A review item as every device knows it (its number is this database's own)."""
        rows = list(self.db.query(
            f"SELECT * FROM review_queue WHERE memory_id = ? AND created_at IS ? AND action = ? AND reason IS ? "
            f"AND held IS NOT '{CONFLICT}' ORDER BY id LIMIT 1", [memory_id, created_at, action, reason]))
        return rows[0] if rows else None

    def set_review(self, queue_id: int, values: dict) -> None:
        self.db["review_queue"].update(queue_id, values)

    def drop_review(self, queue_id: int) -> None:
        self.db.execute("DELETE FROM review_queue WHERE id = ?", [queue_id])

    def actions_since(self, top: int) -> tuple[dict[str, list[tuple[str, int | None]]], int]:
        """Memory id → (action, run) of each audit line after ``top`` (``memory_events``' id), and the new top."""
        out: dict[str, list[tuple[str, int | None]]] = {}
        last = top
        for event_id, memory_id, action, run_id in self.db.execute(
                "SELECT id, memory_id, action, run_id FROM memory_events WHERE id > ? ORDER BY id", [top]):
            out.setdefault(memory_id, []).append((action, run_id))
            last = event_id
        return out, last

    # ---- events ----------------------------------------------------------------
    def add_events(self, events: list[dict], *, own: bool, status: str) -> int:
        """Keep events (an id already kept keeps its row); return how many were new."""
        added = 0
        for event in events:
            added += self.db.execute(
                "INSERT OR IGNORE INTO sync_events(id, hlc, device, kind, memory_id, body, own, status) "
                "VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                [event["id"], event["hlc"], event["device"], event["kind"], event.get("memory_id"),
                 json.dumps(event, ensure_ascii=False, sort_keys=True), int(own), status]).rowcount
            self.db.conn.executemany("INSERT OR IGNORE INTO sync_event_messages(event_id, message_id) VALUES(?, ?)",
                                     [[event["id"], m] for m in cited(event)])
        return added

    def known_events(self, ids: list[str]) -> set[str]:
        return {r["id"] for r in self._where("SELECT id FROM sync_events", "id", ids)}

    def waiting(self) -> list[dict]:
        """Other devices' events not applied yet, in clock order."""
        return [json.loads(r[0]) for r in self.db.execute(
            "SELECT body FROM sync_events WHERE own = 0 AND status = 'new' ORDER BY hlc, id")]

    def set_status(self, event_id: str, status: str) -> None:
        self.db.execute("UPDATE sync_events SET status = ? WHERE id = ?", [status, event_id])

    def choices(self, memory_id: str) -> list[dict]:
        """The conflicts about this memory the user decided here (written for the others or not yet)."""
        return [_conflict(r) for r in self.db.query(
            "SELECT queue_id, memory_id, mine, theirs, event_id, chosen FROM sync_conflicts WHERE memory_id = ? "
            "AND chosen IS NOT NULL ORDER BY queue_id", [memory_id])]

    def counts(self) -> dict[str, int]:
        return {r[0]: r[1] for r in self.db.execute("SELECT status, COUNT(*) FROM sync_events GROUP BY status")}

    def citing_deleted(self) -> list[tuple[str, int]]:
        """(event id, own) of every event that cites a message deleted (a tombstone)."""
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT DISTINCT e.id, e.own FROM sync_events e JOIN sync_event_messages c ON c.event_id = e.id "
            "WHERE c.message_id IN (SELECT message_id FROM sync_tombstones)")]

    def about_deleted_memories(self) -> list[tuple[str, int]]:
        """(event id, own) of every event about a memory deleted for real (a ``delete`` event names it, and it is
        not here): its words must not outlive it. Conflicts whose review item went with it go too."""
        self.db.execute("DELETE FROM sync_conflicts WHERE queue_id NOT IN (SELECT id FROM review_queue)")
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT id, own FROM sync_events WHERE kind != 'delete' AND memory_id IN "
            "(SELECT memory_id FROM sync_events WHERE kind = 'delete') AND memory_id NOT IN (SELECT id FROM memories)")]

    def deleted(self, memory_id: str) -> bool:
        """Whether a device deleted this memory for real (a ``delete`` event names it)."""
        return self.db.execute("SELECT 1 FROM sync_events WHERE kind = 'delete' AND memory_id = ? LIMIT 1",
                               [memory_id]).fetchone() is not None

    def own_ids(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT id FROM sync_events WHERE own = 1")}

    def drop_events(self, ids: list[str]) -> None:
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            self.db.execute(f"DELETE FROM sync_event_messages WHERE event_id IN ({marks})", part)
            self.db.execute(f"DELETE FROM sync_events WHERE id IN ({marks})", part)

    # ---- what all devices agreed on -------------------------------------------------
    def agreed(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self.db.execute("SELECT memory_id, digest FROM sync_memory")}

    def agreed_of(self, memory_id: str) -> str | None:
        row = self.db.execute("SELECT digest FROM sync_memory WHERE memory_id = ?", [memory_id]).fetchone()
        return None if row is None else row[0]

    def set_agreed(self, memory_id: str, digest: str | None) -> None:
        if digest is None:
            self.db.execute("DELETE FROM sync_memory WHERE memory_id = ?", [memory_id])
        else:
            self.db.execute("INSERT INTO sync_memory(memory_id, digest) VALUES(?, ?) ON CONFLICT(memory_id) "
                            "DO UPDATE SET digest = excluded.digest", [memory_id, digest])

    # ---- conflicts ------------------------------------------------------------------
    def add_conflict(self, queue_id: int, memory_id: str, mine: dict | None, theirs: dict | None,
                     event_id: str) -> None:
        self.db.execute("INSERT INTO sync_conflicts(queue_id, memory_id, mine, theirs, event_id, written) "
                        "VALUES(?, ?, ?, ?, ?, 0)", [queue_id, memory_id, json.dumps(mine, ensure_ascii=False),
                                                  json.dumps(theirs, ensure_ascii=False), event_id])

    def open_conflict(self, memory_id: str) -> dict | None:
        rows = list(self.db.query(
            "SELECT c.queue_id, c.memory_id, c.mine, c.theirs, c.event_id FROM sync_conflicts c JOIN review_queue q "
            "ON q.id = c.queue_id WHERE c.memory_id = ? AND q.status = 'open' ORDER BY c.queue_id DESC LIMIT 1",
            [memory_id]))
        return _conflict(rows[0]) if rows else None

    def conflict(self, queue_id: int) -> dict | None:
        rows = list(self.db.query("SELECT queue_id, memory_id, mine, theirs, event_id FROM sync_conflicts "
                                  "WHERE queue_id = ?", [queue_id]))
        return _conflict(rows[0]) if rows else None

    def set_theirs(self, queue_id: int, theirs: dict | None, event_id: str) -> None:
        self.db.execute("UPDATE sync_conflicts SET theirs = ?, event_id = ? WHERE queue_id = ?",
                        [json.dumps(theirs, ensure_ascii=False), event_id, queue_id])

    def choose(self, queue_id: int, chosen: str) -> None:
        """The user chose one of the two versions ("mine" or "theirs"): the next sync writes the choice."""
        self.db.execute("UPDATE sync_conflicts SET chosen = ?, written = 0 WHERE queue_id = ?", [chosen, queue_id])

    def unwritten_choices(self) -> list[dict]:
        return [_conflict(r) for r in self.db.query(
            "SELECT queue_id, memory_id, mine, theirs, event_id, chosen FROM sync_conflicts WHERE chosen IS NOT NULL "
            "AND NOT written ORDER BY queue_id")]

    def choice_written(self, queue_id: int) -> None:
        self.db.execute("UPDATE sync_conflicts SET written = 1 WHERE queue_id = ?", [queue_id])

    def open_conflicts(self) -> int:
        return self.db.execute(f"SELECT COUNT(*) FROM review_queue WHERE held = '{CONFLICT}' AND status = 'open'"
                               ).fetchone()[0]


def _conflict(row: dict) -> dict:
    return {**row, "mine": json.loads(row["mine"]), "theirs": json.loads(row["theirs"])}


def cited(event: dict) -> list[str]:
    """The message ids an event's states cite (their evidence)."""
    ids: set[str] = set()
    for key in ("after", "mine"):
        state = event.get(key)
        if isinstance(state, dict):
            ids.update(str(e.get("message_id")) for e in state.get("evidence", []) if isinstance(e, dict))
    return sorted(ids)
