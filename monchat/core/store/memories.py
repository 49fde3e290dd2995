"""Memories, the evidence ledger, verdicts, the review queue, flush runs and the audit trail.

A memory leaves the prompt by changing ``state``; supersession sets
``superseded_by``/``superseded_at``/``invalid_at`` on the old row, so the chain
old → new is the history and active recall is ``superseded_by IS NULL``. Rows
are deleted only when the user deletes a memory for real (``delete_texts``):
then its text leaves every memory table, while the archived messages stay.
"""

from __future__ import annotations

import json
import re

from ..records.memory import COLUMNS as _COLUMNS
from ..records.memory import LedgerStats, MemoryRecord
from ..vocabulary.states import State
from .db import StoreView
from .shown import live


def _fts_query(text: str, limit_terms: int = 12) -> str:
    """An OR query of distinct trigrams (and words) from ``text`` for the trigram index."""
    cleaned = re.sub(r"[\"'*^():{}\[\]+\-]", " ", text)
    terms: list[str] = []
    for word in cleaned.split():
        if len(word) >= 3:
            for i in range(0, len(word) - 2):
                gram = word[i:i + 3]
                if gram not in terms:
                    terms.append(gram)
    return " OR ".join(f'"{t}"' for t in terms[:limit_terms * 4])


class MemoryStore(StoreView):
    # ---- memories ------------------------------------------------------
    def _records(self, sql: str, params=()) -> list[MemoryRecord]:
        rows = list(self.db.query(sql, list(params)))
        records = [MemoryRecord(**{k: r[k] for k in _COLUMNS}) for r in rows]
        if records:
            ids = [m.id for m in records]
            marks = ",".join("?" * len(ids))
            ev: dict[str, list[str]] = {}
            days: dict[str, set] = {}
            for r in self.db.query(
                    f"SELECT e.memory_id, e.message_id, e.day, e.contradicts FROM evidence e "
                    f"JOIN messages m ON m.id = e.message_id WHERE e.memory_id IN ({marks}) "
                    f"ORDER BY m.ts_epoch, e.message_id", ids):
                ev.setdefault(r["memory_id"], []).append(r["message_id"])
                if not r["contradicts"]:
                    days.setdefault(r["memory_id"], set()).add(r["day"])
            for m in records:
                m.evidence = ev.get(m.id, [])
                m.days = len(days.get(m.id, ()))
        return records

    def get(self, memory_id: str) -> MemoryRecord | None:
        found = self._records("SELECT * FROM memories WHERE id = ?", [memory_id])
        return found[0] if found else None

    def all(self) -> list[MemoryRecord]:
        return self._records("SELECT * FROM memories ORDER BY slot, created_at, id")

    def live(self) -> list[MemoryRecord]:
        kept, params = live()
        return self._records(f"SELECT * FROM memories WHERE {kept} ORDER BY slot, id", params)

    def in_state(self, *states: State) -> list[MemoryRecord]:
        marks = ",".join("?" * len(states))
        return self._records(f"SELECT * FROM memories WHERE state IN ({marks}) ORDER BY slot, id", states)

    def same_slot(self, slot: str) -> list[MemoryRecord]:
        kept, params = live()
        return self._records(f"SELECT * FROM memories WHERE slot = ? AND {kept} ORDER BY id", [slot, *params])

    def neighbours(self, text: str, limit: int = 3) -> list[MemoryRecord]:
        """Live memories that share wording with ``text``, best rank first (no score threshold)."""
        query = _fts_query(text)
        if not query:
            return []
        kept, params = live("m")
        return self._records(
            f"SELECT m.* FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
            f"WHERE memories_fts MATCH ? AND {kept} "
            f"ORDER BY bm25(memories_fts), m.id LIMIT ?", [query, *params, limit])

    def insert(self, record: MemoryRecord) -> None:
        self.db["memories"].insert(record.row(), pk="id")

    def update(self, memory_id: str, **values) -> None:
        unknown = set(values) - _COLUMNS
        if unknown:
            raise ValueError(f"unknown memory columns: {sorted(unknown)}")
        self.db["memories"].update(memory_id, values)

    def predecessors(self, memory_id: str) -> list[MemoryRecord]:
        return self._records("SELECT * FROM memories WHERE superseded_by = ? ORDER BY superseded_at, id",
                             [memory_id])

    # ---- ledger --------------------------------------------------------
    def add_evidence(self, memory_id: str, rows: list[dict], run_id: int | None) -> int:
        """Add ledger rows (message_id, day, session, kind, contradicts, persona); return new ones."""
        table = self.db["evidence"]
        before = table.count_where("memory_id = ?", [memory_id])
        table.insert_all(
            [{"memory_id": memory_id, "run_id": run_id, **row} for row in rows],
            pk=("memory_id", "message_id"), ignore=True)
        return table.count_where("memory_id = ?", [memory_id]) - before

    def copy_evidence(self, source_id: str, target_id: str, contradicts: bool | None = None) -> int:
        """Copy ``source_id``'s ledger rows to ``target_id`` (rows it already has are kept).

        ``contradicts`` None keeps each row's flag; True or False sets it. Returns the rows added.
        """
        table = self.db["evidence"]
        before = table.count_where("memory_id = ?", [target_id])
        flag = "contradicts" if contradicts is None else str(int(contradicts))
        self.db.execute(
            "INSERT OR IGNORE INTO evidence(memory_id, message_id, day, session, kind, contradicts, run_id, persona) "
            f"SELECT ?, message_id, day, session, kind, {flag}, run_id, persona FROM evidence WHERE memory_id = ?",
            [target_id, source_id])
        return table.count_where("memory_id = ?", [target_id]) - before

    def ledger(self, memory_id: str) -> LedgerStats:
        rows = list(self.db.query(
            "SELECT e.day, e.session, e.kind, e.contradicts, m.ts_epoch FROM evidence e "
            "JOIN messages m ON m.id = e.message_id WHERE e.memory_id = ?", [memory_id]))
        support = [r for r in rows if not r["contradicts"]]
        return LedgerStats(
            days=len({r["day"] for r in support}),
            sessions=len({r["session"] for r in support}),
            kinds={r["kind"] for r in support},
            contradictions=sum(1 for r in rows if r["contradicts"]),
            last_epoch=max((r["ts_epoch"] for r in support), default=None),
        )

    def ledger_rows(self, memory_id: str) -> list[dict]:
        """A memory's ledger rows as ``add_evidence`` takes them (to carry a statement's evidence over)."""
        return list(self.db.query(
            "SELECT message_id, day, session, kind, contradicts, persona, run_id FROM evidence "
            "WHERE memory_id = ? ORDER BY message_id", [memory_id]))

    def citing(self, message_ids: list[str]) -> dict[str, list[str]]:
        """Memory id → which of ``message_ids`` its ledger cites (memories citing none are left out)."""
        out: dict[str, list[str]] = {}
        for start in range(0, len(message_ids), 500):
            part = list(message_ids[start:start + 500])
            marks = ",".join("?" * len(part))
            for memory_id, message_id in self.db.execute(
                    f"SELECT memory_id, message_id FROM evidence WHERE message_id IN ({marks}) "
                    f"ORDER BY memory_id, message_id", part).fetchall():
                out.setdefault(memory_id, []).append(message_id)
        return out

    def drop_evidence(self, memory_id: str, message_ids: list[str]) -> int:
        """Remove a memory's ledger rows for these messages; return how many went."""
        marks = ",".join("?" * len(message_ids))
        return self.db.execute(f"DELETE FROM evidence WHERE memory_id = ? AND message_id IN ({marks})",
                               [memory_id, *message_ids]).rowcount

    def evidence_messages(self, memory_id: str) -> list[dict]:
        return list(self.db.query(
            "SELECT m.id, m.ts, m.role, m.text, m.session, m.persona AS surface_persona, e.kind, e.contradicts, "
            "e.persona FROM evidence e "
            "JOIN messages m ON m.id = e.message_id WHERE e.memory_id = ? ORDER BY m.ts_epoch, m.id",
            [memory_id]))

    # ---- audit, verdicts, runs ----------------------------------------
    def event(self, memory_id: str, at: str, action: str, detail: dict | None = None,
              run_id: int | None = None) -> None:
        self.db["memory_events"].insert({"memory_id": memory_id, "at": at, "action": action,
                                         "detail": json.dumps(detail or {}, ensure_ascii=False),
                                         "run_id": run_id})

    def events(self, memory_id: str) -> list[dict]:
        return list(self.db.query("SELECT * FROM memory_events WHERE memory_id = ? ORDER BY id", [memory_id]))

    def add_verdict(self, row: dict) -> None:
        self.db["verdicts"].insert(row)

    def add_run(self, row: dict) -> int:
        encoded = {k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v)
                   for k, v in row.items()}
        return self.db["flush_runs"].insert(encoded).last_pk

    def runs(self, limit: int = 20) -> list[dict]:
        return [_run_row(r) for r in self.db.query("SELECT * FROM flush_runs ORDER BY id DESC LIMIT ?", [limit])]

    def run(self, run_id: int) -> dict | None:
        """One flush's row, as ``runs`` reads it; None when there is no such run."""
        rows = list(self.db.query("SELECT * FROM flush_runs WHERE id = ?", [run_id]))
        return _run_row(rows[0]) if rows else None

    def next_run_id(self) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM flush_runs").fetchone()
        return int(row[0])

    # ---- review queue --------------------------------------------------
    def queue_add(self, row: dict) -> int:
        return self.db["review_queue"].insert({"status": "open", **row}).last_pk

    def queue_open(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM review_queue WHERE status = 'open' ORDER BY id"))

    def queue_get(self, queue_id: int) -> dict | None:
        rows = list(self.db.query("SELECT * FROM review_queue WHERE id = ?", [queue_id]))
        return rows[0] if rows else None

    def queue_for_memory(self, memory_id: str) -> list[dict]:
        return list(self.db.query("SELECT * FROM review_queue WHERE status = 'open' AND "
                                  "(memory_id = ? OR target_id = ?) ORDER BY id", [memory_id, memory_id]))

    def queue_update(self, queue_id: int, **values) -> None:
        self.db["review_queue"].update(queue_id, values)

    def queue_resolve(self, queue_id: int, status: str, at: str) -> None:
        self.db["review_queue"].update(queue_id, {"status": status, "resolved_at": at})

    def counts(self) -> dict:
        return {r["state"]: r["n"] for r in self.db.query(
            "SELECT state, COUNT(*) AS n FROM memories GROUP BY state")}

    # ---- deleting for real ---------------------------------------------
    def proposals_about(self, memory_ids: list[str]) -> list[dict]:
        """Open reviews whose target is one of ``memory_ids`` but whose proposal is not."""
        marks = ",".join("?" * len(memory_ids))
        return list(self.db.query(f"SELECT * FROM review_queue WHERE status = 'open' AND target_id IN ({marks}) "
                                  f"AND memory_id NOT IN ({marks})", memory_ids + memory_ids))

    def delete_texts(self, memory_ids: list[str], texts: list[str]) -> None:
        """Remove these memories and every trace of their words from the memory tables.

        The rows of the memories, their ledger, reviews, verdicts and audit events go; flush
        runs keep their counts with the words scrubbed; kept flush answers that quote them are
        dropped (a rerun asks again). The archived messages they stood on stay. Freed pages are
        zeroed and the text index merged, so the words are not left in the file either.
        """
        marks = ",".join("?" * len(memory_ids))
        db = self.db
        db.execute("PRAGMA secure_delete = ON")
        db.execute(f"DELETE FROM evidence WHERE memory_id IN ({marks})", memory_ids)
        db.execute(f"DELETE FROM review_queue WHERE memory_id IN ({marks}) OR target_id IN ({marks})",
                   memory_ids + memory_ids)
        db.execute(f"DELETE FROM verdicts WHERE memory_id IN ({marks}) OR target_id IN ({marks})",
                   memory_ids + memory_ids)
        db.execute(f"DELETE FROM memory_events WHERE memory_id IN ({marks})", memory_ids)
        from .tiers import TierStore
        TierStore(self.store).delete_memories(memory_ids)  # and the digests that quote them
        db.execute(f"DELETE FROM memories WHERE id IN ({marks})", memory_ids)
        words = [t for t in texts if t]
        for text in words:
            db.execute("DELETE FROM flush_answers WHERE instr(answer, ?) > 0 OR instr(answer, ?) > 0",
                       [text, json.dumps(text)[1:-1]])
        columns = ("items", "dropped", "verdicts", "changes", "notes", "errors")
        for run in list(db.query(f"SELECT id, {', '.join(columns)} FROM flush_runs")):
            scrubbed = {c: json.dumps(_scrub(json.loads(run[c]), words, memory_ids), ensure_ascii=False)
                        for c in columns if run[c]}
            scrubbed = {c: v for c, v in scrubbed.items() if v != run[c]}
            if scrubbed:
                db["flush_runs"].update(run["id"], scrubbed)
        from .graph import GraphStore  # the graph's names come from memory texts
        GraphStore(self.store).forget_words(words)
        db.execute("INSERT INTO memories_fts(memories_fts) VALUES('optimize')")


def _scrub(value, words: list[str], ids: list[str]):
    """``value`` with the deleted words (and whole entries about the deleted ids) taken out."""
    if isinstance(value, dict):
        if any(value.get(key) in ids for key in ("memory_id", "id", "target_id")):
            return {"deleted": True}
        return {k: _scrub(v, words, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, words, ids) for v in value]
    if isinstance(value, str):
        for word in words:
            value = value.replace(word, "[deleted]")
        return value
    return value


def _run_row(r: dict) -> dict:
    """A ``flush_runs`` row with its JSON columns read."""
    for key in ("personas", "items", "dropped", "verdicts", "changes", "promoted", "errors",
                "files", "budget", "notes", "usage", "background", "accounting"):
        if r.get(key):
            r[key] = json.loads(r[key])
    return r
