"""Knowledge lint's SQL: what the rules read (memories, supersede pointers, evidence against the
archive) and the ``lint_findings`` table (m022). Written only inside the caller's transaction."""

from __future__ import annotations

import json

from ..vocabulary.states import LIVE_STATES
from .db import StoreView

COLUMNS = "id, text, slot, kind, state, score, confidence, superseded_by, valid_at, created_at, last_evidence_epoch"


def _decode(row: dict) -> dict:
    row["memory_ids"] = json.loads(row["memory_ids"]) if row.get("memory_ids") else []
    row["detail"] = json.loads(row["detail"]) if row.get("detail") else {}
    return row


class LintStore(StoreView):
    # ---- what the rules read -------------------------------------------------
    def memories(self) -> list[dict]:
        """Every memory row (history included: supersede chains run through it), by id."""
        return list(self.db.query(f"SELECT {COLUMNS} FROM memories ORDER BY id"))

    def live_ids(self) -> set[str]:
        marks = ",".join("?" * len(LIVE_STATES))
        return {r[0] for r in self.db.execute(f"SELECT id FROM memories WHERE state IN ({marks})",
                                              list(LIVE_STATES)).fetchall()}

    def unarchived_evidence(self) -> dict[str, list[str]]:
        """Memory id → the message ids its ledger cites that are in no archive (the messages table)."""
        found: dict[str, list[str]] = {}
        for memory_id, message_id in self.db.execute(
                "SELECT e.memory_id, e.message_id FROM evidence e LEFT JOIN messages m ON m.id = e.message_id "
                "WHERE m.id IS NULL ORDER BY e.memory_id, e.message_id").fetchall():
            found.setdefault(memory_id, []).append(message_id)
        return found

    def texts(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        return {r[0]: r[1] for r in self.db.execute(
            f"SELECT id, text FROM memories WHERE id IN ({','.join('?' * len(ids))})", ids).fetchall()}

    def open_review_of(self, memory_id: str) -> int | None:
        row = self.db.execute("SELECT id FROM review_queue WHERE memory_id = ? AND status = 'open' "
                              "ORDER BY id LIMIT 1", [memory_id]).fetchone()
        return row[0] if row else None

    # ---- findings --------------------------------------------------------------
    def findings(self, statuses: tuple[str, ...] = ()) -> list[dict]:
        where, params = "", []
        if statuses:
            where = f"WHERE status IN ({','.join('?' * len(statuses))})"
            params = list(statuses)
        return [_decode(r) for r in self.db.query(f"SELECT * FROM lint_findings {where} ORDER BY id", params)]

    def add(self, row: dict) -> int:
        row = {**row, "memory_ids": json.dumps(row["memory_ids"], ensure_ascii=False),
               "detail": json.dumps(row.get("detail") or {}, ensure_ascii=False, sort_keys=True)}
        return self.db["lint_findings"].insert(row).last_pk

    def update(self, finding_id: int, **values) -> None:
        if "detail" in values:
            values["detail"] = json.dumps(values["detail"], ensure_ascii=False, sort_keys=True)
        self.db["lint_findings"].update(finding_id, values)
