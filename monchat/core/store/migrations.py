"""Named migrations, applied once and recorded in ``_sqlite_migrations``.

A released migration is never edited: add a new one.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlite_utils import Database, Migrations

from ..errors import StorageNewerSchema

migrations = Migrations("monchat")


def schema_version(names: list[str]) -> int:
    """The highest migration number among ``names`` (``m005_message_usage`` → 5)."""
    return max((int(m.group(1)) for n in names if (m := re.match(r"m(\d+)_", n))), default=0)


def known_names() -> list[str]:
    """The names of this monchat's migrations, in order (sqlite-utils keeps the list private)."""
    return [m.name for m in migrations._migrations]


def newer_schema_error(path: Path, applied: list[str]) -> StorageNewerSchema | None:
    """The error for a database that a newer monchat migrated past what this one knows, else None."""
    known = set(known_names())
    unknown = [name for name in applied if name not in known]
    if not unknown:
        return None
    theirs, ours = schema_version(applied), schema_version(sorted(known))
    return StorageNewerSchema(
        f"{path} has database schema version {theirs} ({', '.join(unknown)}); this monchat knows up to "
        f"version {ours}, so it will not write to it.",
        "Update monchat to the version that last used this data folder (or point MONCHAT_HOME elsewhere).")


@migrations()
def m001_messages(db: Database) -> None:
    """The archive of every raw message, idempotent by id."""
    db["messages"].create(
        {
            "id": str,
            "ts": str,  # ISO-8601 with the offset it was written with
            "ts_epoch": float,  # for ordering and windows
            "day": str,  # local calendar day, YYYY-MM-DD
            "session": str,  # the 6-hour log file it came from, e.g. 2026-11-29_18
            "role": str,
            "persona": str,
            "text": str,
            "backend": str,
            "model": str,
            "status": str,
            "replaces": str,
            "archived_at": str,
        },
        pk="id",
        not_null={"ts", "ts_epoch", "day", "session", "role", "text"},
    )
    db["messages"].create_index(["ts_epoch"])
    db["messages"].create_index(["session"])


@migrations()
def m002_kv(db: Database) -> None:
    """Small named values: backend cache handles, last choices."""
    db["kv"].create({"key": str, "value": str}, pk="key")


@migrations()
def m003_memory(db: Database) -> None:
    """Memories, their evidence ledger, verdicts, the review queue, flush runs and an audit trail.

    Nothing here is ever deleted: forgetting a memory changes its state.
    """
    db["memories"].create(
        {
            "id": str,  # stable anchor, e.g. mem-1a2b3c4d
            "text": str,  # distilled, in the user's words and language
            "slot": str,  # subject/attribute key, e.g. drink/daily
            "kind": str,  # explicit | correction | fact | habit | retraction
            "state": str,  # candidate | active | queued | pending | dormant | superseded | retracted | forgotten | rejected | retraction
            "score": float,  # the filter persona's latest score
            "confidence": float,  # confidence before decay
            "persona": str,  # filter persona that first proposed it
            "style": str,  # timeline | reinforced
            "pinned": int,
            "contradictions": int,
            "valid_at": str,
            "invalid_at": str,
            "superseded_by": str,
            "superseded_at": str,
            "layer2_until": float,  # epoch; in Layer 2 while in the future
            "last_evidence_epoch": float,
            "created_at": str,
            "updated_at": str,
            "created_run": int,
        },
        pk="id",
        not_null={"text", "slot", "kind", "state"},
        defaults={"pinned": 0, "contradictions": 0, "score": 0.0, "confidence": 0.0},
    )
    db["memories"].create_index(["slot"])
    db["memories"].create_index(["state"])
    db["memories"].create_index(["superseded_by"])
    db["memories"].enable_fts(["text", "slot"], create_triggers=True, tokenize="trigram")
    db["evidence"].create(
        {"memory_id": str, "message_id": str, "day": str, "session": str, "kind": str,
         "contradicts": int, "run_id": int, "persona": str},
        pk=("memory_id", "message_id"),
        foreign_keys=[("memory_id", "memories", "id")],
        defaults={"contradicts": 0},
    )
    db["evidence"].create_index(["message_id"])
    db["flush_runs"].create(
        {"id": int, "started_at": str, "finished_at": str, "seed": int, "personas": str,
         "items": str, "dropped": str, "verdicts": str, "changes": str, "promoted": str,
         "llm_calls": int, "tokens": int, "duration_s": float, "errors": str, "files": str,
         "messages_archived": int, "budget": str},
        pk="id",
    )
    db["verdicts"].create(
        {"id": int, "run_id": int, "memory_id": str, "target_id": str, "verdict": str,
         "confidence": float, "reasoning": str, "model": str, "escalated": int, "applied": str},
        pk="id",
    )
    db["review_queue"].create(
        {"id": int, "memory_id": str, "action": str, "target_id": str, "text": str, "old_text": str,
         "reason": str, "confidence": float, "created_at": str, "deadline_epoch": float,
         "status": str, "resolved_at": str, "run_id": int},
        pk="id",
        defaults={"status": "open"},
    )
    db["review_queue"].create_index(["status"])
    db["memory_events"].create(
        {"id": int, "memory_id": str, "at": str, "action": str, "detail": str, "run_id": int},
        pk="id",
    )
    db["memory_events"].create_index(["memory_id"])


@migrations()
def m004_review_verdict(db: Database) -> None:
    """The judge's leaning for an unsure comparison, so approving it applies that verdict."""
    db["review_queue"].add_column("verdict", str)


@migrations()
def m005_message_usage(db: Database) -> None:
    """A reply's reported token counts (prompt, output, cached), as JSON."""
    db["messages"].add_column("usage", str)


@migrations()
def m006_run_notes(db: Database) -> None:
    """Notes of a flush run that are not errors: e.g. a message cut to fit one request."""
    db["flush_runs"].add_column("notes", str)


@migrations()
def m007_flush_answers(db: Database) -> None:
    """Structured answers already paid for, by a hash of the request: a rerun does not ask again."""
    db["flush_answers"].create(
        {"key": str, "backend": str, "model": str, "answer": str, "created_epoch": float},
        pk="key",
        not_null={"answer", "created_epoch"},
    )
    db["flush_answers"].create_index(["created_epoch"])


@migrations()
def m008_review_merged_text(db: Database) -> None:
    """The judge's merged wording for an unsure MERGE, so approving it merges as a flush would."""
    db["review_queue"].add_column("merged_text", str)


@migrations()
def m009_run_usage(db: Database) -> None:
    """A run's token usage as the backends reported it (prompt, output, cached, thinking; estimates flagged)."""
    db["flush_runs"].add_column("usage", str)


@migrations()
def m010_message_search(db: Database) -> None:
    """A full-text index over the archive (FTS5, trigram: Japanese has no spaces between words).

    Filled for the rows already archived and kept in step by triggers. Where this SQLite has no
    trigram tokenizer (before 3.34) no index is made and search scans instead (core/logs/search.py says so).
    """
    if not trigram_available(db):
        return
    db["messages"].enable_fts(["text"], create_triggers=True, tokenize="trigram")


def trigram_available(db: Database) -> bool:
    """Whether this SQLite has FTS5 with the trigram tokenizer."""
    import sqlite3
    try:
        db.conn.execute("CREATE VIRTUAL TABLE temp._monchat_trigram_probe USING fts5(x, tokenize='trigram')")
    except sqlite3.OperationalError:
        return False
    db.conn.execute("DROP TABLE temp._monchat_trigram_probe")
    return True


@migrations()
def m012_profile(db: Database) -> None:
    """The interest profile: one snapshot a day per topic and window (7, 30, 90 days), written by a flush."""
    db["profile_snapshots"].create(
        {"day": str, "topic": str, "window": int, "count": int, "weight": float, "trend": str,
         "delta": int, "run_id": int},
        pk=("day", "topic", "window"),
        not_null={"day", "topic", "window"},
    )


@migrations()
def m013_reflect(db: Database) -> None:
    """What the reflect stage noticed in a flush: insights and suspected gaps, with the slots they rest on."""
    db["insights"].create(
        {"id": int, "run_id": int, "kind": str, "text": str, "slots": str, "created_at": str,
         "status": str},
        pk="id",
        not_null={"kind", "text"},
        defaults={"status": "open"},
    )
    db["insights"].create_index(["run_id"])
    db["flush_runs"].add_column("background", str)  # the run's background summary (stages, reflect, diary, …)


@migrations()
def m014_diary(db: Database) -> None:
    """One page a local day with user messages, rewritten when a later flush adds to that day."""
    db["diary"].create(
        {"day": str, "text": str, "messages": str, "topics": str, "language": str, "run_id": int,
         "written_at": str},
        pk="day",
        not_null={"text"},
    )


@migrations()
def m015_gaps(db: Database) -> None:
    """Recall failures (the user corrected what was remembered of them) and the gap marks they lead to."""
    db["recall_failures"].create(
        {"slot": str, "message_id": str, "day": str, "text": str, "run_id": int},
        pk=("slot", "message_id"),
    )
    db["gaps"].create(
        {"id": int, "kind": str, "slot": str, "text": str, "failures": int, "created_at": str,
         "run_id": int, "status": str},
        pk="id",
        not_null={"kind", "text"},
        defaults={"status": "open", "failures": 0},
    )
    db["gaps"].create_index(["slot"])


@migrations()
def m016_skills(db: Database) -> None:
    """The level the program assigned each skill memory at the last flush (L1 exposure … L3 generative)."""
    db["skill_levels"].create(
        {"memory_id": str, "slot": str, "name": str, "level": int, "xp": float, "uses": int,
         "last_use_epoch": float, "run_id": int, "updated_at": str},
        pk="memory_id",
        not_null={"level"},
    )


@migrations()
def m018_gap_sources(db: Database) -> None:
    """Where a gap mark and a recall failure came from, so each is worded and hinted as what it is.

    A gap's source: ``reflect`` (the reflect stage suspected it), ``neighbours`` (the program's neighbour
    table), ``failures`` (recall failures in one slot). A failure's: ``correction`` or ``question``.
    Rows from before this migration have none (read as ``reflect`` and ``correction``)."""
    db["gaps"].add_column("source", str)
    db["recall_failures"].add_column("source", str)


@migrations()
def m019_graph(db: Database) -> None:
    """The graph of what the user talks about (rebuilt at each flush) and the discoveries queued from it."""
    db["graph_nodes"].create(
        {"id": str, "label": str, "type": str, "sessions": int, "memories": int, "cluster": int, "run_id": int},
        pk="id",
        not_null={"label", "type"},
    )
    db["graph_edges"].create(
        {"source": str, "target": str, "weight": float, "drawn": int, "shared": int, "co_occurrence": float,
         "session_overlap": float, "adamic_adar": float, "type_affinity": float, "similarity": float,
         "run_id": int},
        pk=("source", "target"),
    )
    db["discoveries"].create(
        {"id": int, "kind": str, "key": str, "text": str, "nodes": str, "score": float, "run_id": int,
         "created_at": str, "status": str},
        pk="id",
        not_null={"kind", "key", "text"},
        defaults={"status": "open"},
    )
    db["discoveries"].create_index(["key"], unique=True)


@migrations()
def m020_feedback(db: Database) -> None:
    """The feedback loop: the user's 👍/👎 on replies and memories, the half-life boost of a memory, and which
    prompt revision (and so which memories) each reply was written with."""
    db["ratings"].create(
        {"kind": str,  # memory | message
         "target_id": str, "rating": str,  # up | down
         "rated_at": str,
         "effects": str,  # JSON: memory id → its values before the rating (what clearing it restores)
         "queue_id": int},  # the review item a 👎 on a memory opened
        pk=("kind", "target_id"),
        not_null={"kind", "target_id", "rating"},
    )
    db["memories"].add_column("boost", float, not_null_default=1.0)  # half-life multiplier, 1–10×
    db["memories"].add_column("boost_epoch", float)  # when the boost was last raised (it decays back from there)
    db["messages"].add_column("memory_revision", str)


@migrations()
def m021_tiers(db: Database) -> None:
    """Temperature tiers: each memory's tier and digest, the digests of cold slots, and archive days' tiers.

    A digest is one-way: its row and the memories it covers (``covers``, and each memory's
    ``digest_id``) are never re-expanded; the original memory rows stay as they were.
    """
    db["memory_tiers"].create(
        {"memory_id": str, "tier": str, "digest_id": str, "run_id": int, "updated_at": str},
        pk="memory_id",
        not_null={"tier"},
    )
    db["digests"].create(
        {"id": str, "slot": str, "text": str, "covers": str, "run_id": int, "created_at": str},
        pk="id",
        not_null={"slot", "text", "covers"},
    )
    db["digests"].create_index(["slot"])
    db["day_tiers"].create(
        {"day": str, "tier": str, "messages": int, "memories": int, "run_id": int, "updated_at": str},
        pk="day",
        not_null={"tier"},
    )


@migrations()
def m022_lint(db: Database) -> None:
    """Knowledge lint's findings: marked at one run, rechecked at the next, applied only through the review queue."""
    db["lint_findings"].create(
        {"id": int, "key": str, "kind": str, "step": str, "memory_ids": str, "text": str, "detail": str,
         "status": str, "review_id": int, "created_run": int, "checked_run": int, "created_at": str,
         "updated_at": str},
        pk="id",
        not_null={"key", "kind", "step", "text", "status"},
        defaults={"status": "marked"},
    )
    db["lint_findings"].create_index(["key"], unique=True)


@migrations()
def m023_review_row_proposers(db: Database) -> None:
    """A review row records which filter personas proposed it (several, when their identical proposals were
    folded into one item: flush/fold.py), and why a flush held it back when that is not its action: "small_model",
    nothing from a flush with a model known to be small goes into lasting memory unasked."""
    db["review_queue"].add_column("proposers", str)  # JSON list of persona ids; NULL before this migration
    db["review_queue"].add_column("held", str)
