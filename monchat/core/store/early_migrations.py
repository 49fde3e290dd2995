"""The schema's first era, migrations m001–m016: the log archive, settings, memory and its review queue,
flush runs and their answers, search, and the background track's first tables (profile, reflect, diary, gaps,
skills). Released: never edited. They register first in ``migrations``, the registry every later migration
joins (``migrations.py`` imports this module before it adds its own, so the order stays m001 → newest).
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("monchat")


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
