"""The background track's tables: the profile snapshots, insights, diary pages, recall failures and gaps.

Written inside a flush's transaction (the caller's ``store.atomic()``); read by the inbox, which also
changes an insight's or a gap's status (``open`` → ``read`` or ``dismissed``) when the user says so.
"""

from __future__ import annotations

import json

from ..vocabulary.states import Kind
from .db import StoreView
from .shown import ShownStore, said, shown

# An inbox entry's status: new, seen by the user, or set aside by them (a dismissed gap is not hinted
# at in the prompt, nor marked again).
OPEN, READ, DISMISSED = "open", "read", "dismissed"
STATUSES = (OPEN, READ, DISMISSED)


def _decode(row: dict, *keys: str) -> dict:
    for key in keys:
        row[key] = json.loads(row[key]) if row.get(key) else []
    return row


class BackgroundStore(StoreView):
    # ---- what the profile is computed from: memories the views may show (store/shown.py) --------
    def mentions(self, since_epoch: float) -> list[tuple[str, str, float]]:
        """(slot, message id, epoch) for every user line since ``since_epoch`` supporting a memory the views
        may show, or an earlier version of one: a topic is counted only where a user line supports it."""
        cte, params = said()
        return [(r[0], r[1], r[2]) for r in self.db.execute(
            f"{cte}SELECT DISTINCT mem.slot, e.message_id, m.ts_epoch FROM said s "
            f"JOIN memories mem ON mem.id = s.id JOIN evidence e ON e.memory_id = mem.id "
            f"JOIN messages m ON m.id = e.message_id "
            f"WHERE m.ts_epoch >= ? AND m.role = 'user' AND e.contradicts = 0 ORDER BY m.ts_epoch, e.message_id",
            [*params, since_epoch]).fetchall()]

    def first_message_epoch(self) -> float | None:
        row = self.db.execute("SELECT MIN(ts_epoch) FROM messages").fetchone()
        return row[0]

    def slots_on_day(self, day: str) -> list[str]:
        """The slots of memories the views may show whose evidence cites a user line of this local day."""
        condition, params = shown("mem")
        return [r[0] for r in self.db.execute(
            f"SELECT DISTINCT mem.slot FROM evidence e JOIN memories mem ON mem.id = e.memory_id "
            f"JOIN messages m ON m.id = e.message_id WHERE m.day = ? AND m.role = 'user' AND {condition} "
            f"ORDER BY mem.slot", [day, *params]).fetchall()]

    def user_messages_on_day(self, day: str) -> list[dict]:
        """The day's archived user messages, but those an edit replaced (the user took them back)."""
        return list(self.db.query("SELECT id, ts, ts_epoch, persona, text FROM messages "
                                  "WHERE day = ? AND role = 'user' AND origin IS NULL "  # another device's: its own flush reads it
                                  "AND id NOT IN (SELECT replaces FROM messages "
                                  "WHERE replaces IS NOT NULL AND replaces != '') ORDER BY ts_epoch, id", [day]))

    def superseded_per_slot(self) -> dict[str, int]:
        """Slot → how many earlier versions the memories the views may show have there."""
        cte, params = said()
        return {r[0]: r[1] for r in self.db.execute(
            f"{cte}SELECT mem.slot, COUNT(*) FROM said s JOIN memories mem ON mem.id = s.id "
            f"WHERE mem.superseded_by IS NOT NULL GROUP BY mem.slot", params).fetchall()}

    def said_text(self, memory_id: str) -> str | None:
        """The text of this memory if the views may show it or it is an earlier version of one, else None."""
        cte, params = said()
        row = self.db.execute(f"{cte}SELECT mem.text FROM said s JOIN memories mem ON mem.id = s.id "
                              f"WHERE mem.id = ?", [*params, memory_id]).fetchone()
        return row[0] if row else None

    def live_slots(self) -> list[str]:
        """The slots of the memories the views may show."""
        condition, params = shown("mem")
        return [r[0] for r in self.db.execute(
            f"SELECT DISTINCT mem.slot FROM memories mem WHERE {condition} ORDER BY mem.slot", params).fetchall()]

    # ---- profile snapshots ---------------------------------------------------
    def previous_counts(self, day: str) -> dict[tuple[str, int], int]:
        """The counts of the last snapshot before ``day``: (topic, window) → count."""
        row = self.db.execute("SELECT MAX(day) FROM profile_snapshots WHERE day < ?", [day]).fetchone()
        if row[0] is None:
            return {}
        return {(r[0], r[1]): r[2] for r in self.db.execute(
            "SELECT topic, window, count FROM profile_snapshots WHERE day = ?", [row[0]]).fetchall()}

    def replace_snapshot(self, day: str, rows: list[dict]) -> None:
        self.db.execute("DELETE FROM profile_snapshots WHERE day = ?", [day])
        if rows:
            self.db["profile_snapshots"].insert_all([{"day": day, **r} for r in rows])

    def latest_snapshot(self) -> tuple[str | None, list[dict]]:
        row = self.db.execute("SELECT MAX(day) FROM profile_snapshots").fetchone()
        if row[0] is None:
            return None, []
        return row[0], list(self.db.query(
            "SELECT topic, window, count, weight, trend, delta FROM profile_snapshots WHERE day = ? "
            "ORDER BY window, count DESC, topic", [row[0]]))

    # ---- insights (the reflect stage) -------------------------------------
    def add_insight(self, row: dict) -> None:
        self.db["insights"].insert({**row, "slots": json.dumps(row["slots"], ensure_ascii=False),
                                    "status": OPEN})

    def insights(self) -> list[dict]:
        return [_decode(r, "slots") for r in self.db.query("SELECT * FROM insights ORDER BY id DESC")]

    def open_reviews(self) -> int:
        """How many review items wait (a number only: what waits is not the user's until approved)."""
        return self.db.execute("SELECT COUNT(*) FROM review_queue WHERE status = 'open'").fetchone()[0]

    # ---- diary ---------------------------------------------------------------
    def put_page(self, row: dict) -> None:
        encoded = {**row, "messages": json.dumps(row["messages"]),
                   "topics": json.dumps(row["topics"], ensure_ascii=False)}
        self.db["diary"].insert(encoded, pk="day", replace=True)

    OWED_KEY = "diary_owed"  # days whose page a flush asked for and did not get (JSON list), asked again

    def diary_owed(self) -> list[str]:
        return json.loads(self.store.get_state(self.OWED_KEY) or "[]")

    def set_diary_owed(self, days: list[str]) -> None:
        self.store.set_state(self.OWED_KEY, json.dumps(sorted(days)) if days else None)

    def pages(self, day: str | None = None) -> list[dict]:
        if day is None:
            rows = self.db.query("SELECT * FROM diary ORDER BY day")
        else:
            rows = self.db.query("SELECT * FROM diary WHERE day = ?", [day])
        return [_decode(r, "messages", "topics") for r in rows]

    # ---- skills -----------------------------------------------------------------
    def skill_uses(self) -> list[dict]:
        """Each skill memory the views may show, with its uses: the last supporting user line of each local day."""
        condition, params = shown("mem")
        skills: dict[str, dict] = {}
        for r in self.db.query(
                f"SELECT mem.id, mem.slot, mem.text, m.day, MAX(m.ts_epoch) AS epoch FROM memories mem "
                f"JOIN evidence e ON e.memory_id = mem.id AND e.contradicts = 0 "
                f"JOIN messages m ON m.id = e.message_id AND m.role = 'user' "
                f"WHERE mem.kind = ? AND {condition} "
                f"GROUP BY mem.id, m.day ORDER BY mem.id, m.day", [Kind.SKILL, *params]):
            skill = skills.setdefault(r["id"], {"memory_id": r["id"], "slot": r["slot"], "name": r["text"],
                                                "uses": []})
            skill["uses"].append(r["epoch"])
        return list(skills.values())

    def replace_skill_levels(self, rows: list[dict]) -> None:
        self.db.execute("DELETE FROM skill_levels")
        if rows:
            self.db["skill_levels"].insert_all(rows, pk="memory_id")

    def skill_levels(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM skill_levels ORDER BY level DESC, xp DESC, memory_id"))

    def skill_level(self, memory_id: str) -> dict | None:
        rows = list(self.db.query("SELECT * FROM skill_levels WHERE memory_id = ?", [memory_id]))
        return rows[0] if rows else None

    # ---- recall failures and gaps ------------------------------------------
    def add_failure(self, row: dict) -> bool:
        """Record one recall failure; False when this message was already counted for the slot."""
        table = self.db["recall_failures"]
        before = table.count_where("slot = ?", [row["slot"]])
        table.insert(row, pk=("slot", "message_id"), ignore=True)
        return table.count_where("slot = ?", [row["slot"]]) > before

    def failures(self, slot: str) -> int:
        return self.db["recall_failures"].count_where("slot = ?", [slot])

    def latest_gap(self, kind: str, slot: str) -> dict | None:
        """The gap of this kind and slot that still stands (open or read), else a dismissed one, else None."""
        rows = list(self.db.query("SELECT * FROM gaps WHERE kind = ? AND slot = ? "
                                  "ORDER BY status = ?, id DESC", [kind, slot, DISMISSED]))
        return rows[0] if rows else None

    def add_gap(self, row: dict) -> int:
        return self.db["gaps"].insert({"status": OPEN, **row}).last_pk

    def all_slots(self) -> list[str]:
        """Every slot the user talked about: of the memories the views may show and their earlier versions."""
        return ShownStore(self.store).said_slots()

    def set_status(self, table: str, entry_id: int, status: str) -> dict | None:
        """Set an insight's, a gap's or a discovery's status; the row as it is now, or None when there is none.

        Marking a dismissed entry read leaves it dismissed (as the Inbox, which offers "read" only on a new
        entry): a dismissed gap must not come back into the inbox or the prompt's hint by a second mark.
        """
        assert table in ("insights", "gaps", "discoveries") and status in STATUSES
        found = self.db.execute(f"SELECT status FROM {table} WHERE id = ?", [entry_id]).fetchone()
        if not found:
            return None
        if not (status == READ and found[0] == DISMISSED):
            self.db[table].update(entry_id, {"status": status})
        row = dict(self.db[table].get(entry_id))
        return _decode(row, {"insights": "slots", "discoveries": "nodes"}[table]) if table != "gaps" else row

    def update_gap(self, gap_id: int, **values) -> None:
        self.db["gaps"].update(gap_id, values)

    def gaps(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM gaps ORDER BY status, id"))
