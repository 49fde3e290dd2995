"""The tiers' tables (migration m021): memory tiers, digests of cold slots, and archive days' tiers.

Written only inside a flush's transaction; a digest row is never changed after it is written
(one-way). ``delete_memories`` is the one exception: a memory deleted for real takes every digest
that quotes it along (its words must leave the memory tables).
"""

from __future__ import annotations

import json

from ..records.tiers import ACCESS_ACTIONS
from ..types import parse_ts
from .db import StoreView
from .shown import live


class TierStore(StoreView):
    # ---- what tiers are computed from ----------------------------------
    def access_epochs(self) -> dict[str, float]:
        """Memory id → when the user last acted on it (approve, edit, pin, restore …)."""
        marks = ",".join("?" * len(ACCESS_ACTIONS))
        out: dict[str, float] = {}
        for row in self.db.query(f"SELECT memory_id, MAX(at) AS at FROM memory_events WHERE action IN ({marks}) "
                                 f"GROUP BY memory_id", list(ACCESS_ACTIONS)):
            try:
                out[row["memory_id"]] = parse_ts(row["at"]).timestamp()
            except (TypeError, ValueError):
                continue
        return out

    def day_facts(self) -> list[dict]:
        """Per archived local day: its messages, its last message, and the live memories citing it."""
        kept, params = live("mem")
        cited: dict[str, dict] = {}
        for row in self.db.query(
                f"SELECT m.day, COUNT(DISTINCT e.memory_id) AS memories, MAX(mem.last_evidence_epoch) AS touched "
                f"FROM evidence e JOIN messages m ON m.id = e.message_id JOIN memories mem ON mem.id = e.memory_id "
                f"WHERE {kept} GROUP BY m.day", params):
            cited[row["day"]] = row
        out = []
        for row in self.db.query("SELECT day, COUNT(*) AS messages, MAX(ts_epoch) AS last FROM messages "
                                 "GROUP BY day ORDER BY day"):
            extra = cited.get(row["day"], {})
            out.append({"day": row["day"], "messages": row["messages"],
                        "last_epoch": max(row["last"] or 0.0, extra.get("touched") or 0.0) or None,
                        "memories": extra.get("memories", 0)})
        return out

    # ---- memory tiers ----------------------------------------------------
    def put_tiers(self, rows: list[dict]) -> None:
        """Rows {memory_id, tier, run_id, updated_at}; a memory's digest link is kept as it was."""
        for row in rows:
            self.db.execute(
                "INSERT INTO memory_tiers(memory_id, tier, run_id, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(memory_id) DO UPDATE SET tier = excluded.tier, run_id = excluded.run_id, "
                "updated_at = excluded.updated_at",
                [row["memory_id"], row["tier"], row["run_id"], row["updated_at"]])

    def tiers(self) -> dict[str, dict]:
        """Memory id → {"tier", "digest_id"} as the last flush wrote them."""
        return {r["memory_id"]: {"tier": r["tier"], "digest_id": r["digest_id"]}
                for r in self.db.query("SELECT memory_id, tier, digest_id FROM memory_tiers")}

    def tier(self, memory_id: str) -> dict | None:
        row = next(iter(self.db.query("SELECT tier, digest_id FROM memory_tiers WHERE memory_id = ?",
                                      [memory_id])), None)
        return dict(row) if row else None

    # ---- digests -----------------------------------------------------------
    def add_digest(self, row: dict) -> None:
        """A new digest {id, slot, text, covers, run_id, created_at}; its memories point to it from now on."""
        self.db["digests"].insert({**row, "covers": json.dumps(row["covers"])})
        for memory_id in row["covers"]:
            self.db.execute(
                "INSERT INTO memory_tiers(memory_id, tier, digest_id, run_id, updated_at) "
                "VALUES (?, 'cold', ?, ?, ?) ON CONFLICT(memory_id) DO UPDATE SET digest_id = excluded.digest_id",
                [memory_id, row["id"], row["run_id"], row["created_at"]])

    def digests(self) -> list[dict]:
        return [{**r, "covers": json.loads(r["covers"])}
                for r in self.db.query("SELECT * FROM digests ORDER BY slot, created_at, id")]

    def digest(self, digest_id: str) -> dict | None:
        row = next(iter(self.db.query("SELECT * FROM digests WHERE id = ?", [digest_id])), None)
        return {**row, "covers": json.loads(row["covers"])} if row else None

    def delete_memories(self, memory_ids: list[str]) -> None:
        """A real deletion: the digests quoting these memories go, and their memories' links with them."""
        doomed = {d["id"] for d in self.digests() if set(d["covers"]) & set(memory_ids)}
        for digest_id in doomed:
            self.db.execute("UPDATE memory_tiers SET digest_id = NULL WHERE digest_id = ?", [digest_id])
            self.db.execute("DELETE FROM digests WHERE id = ?", [digest_id])
        marks = ",".join("?" * len(memory_ids))
        self.db.execute(f"DELETE FROM memory_tiers WHERE memory_id IN ({marks})", memory_ids)

    # ---- archive days ------------------------------------------------------
    def put_day_tiers(self, rows: list[dict]) -> None:
        self.db["day_tiers"].upsert_all(rows, pk="day")

    def day_tiers(self) -> dict[str, str]:
        return {r["day"]: r["tier"] for r in self.db.query("SELECT day, tier FROM day_tiers")}
