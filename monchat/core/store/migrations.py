"""Named migrations, applied once and recorded in ``_sqlite_migrations``.

A released migration is never edited: add a new one at the end of this file. The first era (m001–m016) is
in ``early_migrations.py``, which holds the registry they all join; importing it first keeps them in order.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sqlite_utils import Database

from ..errors import StorageNewerSchema
from .early_migrations import m010_message_search, migrations, trigram_available  # noqa: F401 (re-exported)


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


@migrations()
def m024_long_text_head(db: Database) -> None:
    """A long message's first 100,000 characters and its length beside its text, so the chat window reads an
    archived 50 MB message as a turn sends it without loading it (SQLite reads a whole TEXT value for length()
    or substr()). NULL for a message of at most 100,200 characters (``core/records/long_text.py``)."""
    db["messages"].add_column("text_head", str)
    db["messages"].add_column("text_chars", int)
    db.execute("UPDATE messages SET text_head = substr(text, 1, 100000), text_chars = length(text) "
               "WHERE length(text) > 100200")


@migrations()
def m025_never_remember(db: Database) -> None:
    """The user's "never remember this" rules (``core/memory/never.py``): a topic, a word or a slot family that no
    flush turns into memory, whatever a model proposes. ``key`` is the rule as it is matched (NFKC, casefolded)."""
    db["never_rules"].create(
        {"id": int, "text": str, "key": str, "created_at": str},
        pk="id",
        not_null={"text", "key"},
    )
    db["never_rules"].create_index(["key"], unique=True)


@migrations()
def m026_quoted_material(db: Database) -> None:
    """Quoted material (issue 36): the lines a memory file says its memory rests on, kept with the review item that
    quotes them (a JSON list of ``{text, said_at, persona}``), never in the archive: the user did not say them here.
    NULL for an item that quotes nothing. The lines an earlier ``import --memory`` archived as the user's messages
    become what they were (``quote_imported_evidence``)."""
    db["review_queue"].add_column("quoted", str)
    quote_imported_evidence(db)


def quote_imported_evidence(db: Database) -> int:
    """Lines a memory import archived before issue 36 — messages with backend "import" that the ledger cites as
    "import" evidence — become quoted material of the imported items that cite them; their ledger rows go, and
    so does each such message no other ledger row cites (its words leave the index and the file's free pages).
    A history import's messages (backend "import" too) are never cited as "import": they stay. Returns the
    messages removed."""
    cited = db.execute(
        "SELECT e.memory_id, m.id, m.ts, m.text, m.persona FROM evidence e JOIN messages m ON m.id = e.message_id "
        "WHERE e.persona = 'import' AND m.backend = 'import' AND m.role = 'user' ORDER BY m.ts_epoch, m.id").fetchall()
    if not cited:
        return 0
    quoted: dict[str, list[dict]] = {}
    for memory_id, _message_id, ts, text, persona in cited:
        quoted.setdefault(memory_id, []).append({"text": text, "said_at": ts, "persona": persona or ""})
    for memory_id, lines in quoted.items():
        db.execute("UPDATE review_queue SET quoted = ? WHERE memory_id = ? AND held = 'imported'",
                   [json.dumps(lines, ensure_ascii=False), memory_id])
    db.execute("PRAGMA secure_delete = ON")
    ids = sorted({row[1] for row in cited})
    removed = 0
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        marks = ",".join("?" * len(part))
        db.execute(f"DELETE FROM evidence WHERE persona = 'import' AND message_id IN ({marks})", part)
        removed += db.execute(f"DELETE FROM messages WHERE backend = 'import' AND id IN ({marks}) AND id NOT IN "
                              f"(SELECT message_id FROM evidence)", part).rowcount
    if removed and db["messages_fts"].exists():  # the delete trigger took them out; merge the index's segments
        db.execute("INSERT INTO messages_fts(messages_fts) VALUES('optimize')")
    return removed


@migrations()
def m027_flush_accounting(db: Database) -> None:
    """Every proposal of a flush accounted for (``flush/accounting.py``, issue 45): a run's row keeps how many items
    its filters answered and what became of each — kept, folded, recalls, and the drops by reason — as JSON
    (``{"proposals", "kept", "folded", "recalls", "dropped": {category: n}}``). NULL for a run before this."""
    db["flush_runs"].add_column("accounting", str)


@migrations()
def m028_sync(db: Database) -> None:
    """One history on every device (issue 41, ``core/sync/``): this data folder's device (``sync_device``: one row,
    its stable id, name, sync folder and the end of its last sync), a message's origin (``messages.origin``: the
    device that wrote it, NULL for this one), the deletions that travel (``sync_tombstones``: ``written`` 0 until
    carried out here and, for this device's own, written to its tombstone file) and how far each other device's file was read (``sync_offsets``:
    the offset after the last whole line and a hash of the bytes before it, so a rewritten file is read again) and
    which messages this device's journal holds (``sync_journal``)."""
    db["sync_device"].create({"key": int, "id": str, "name": str, "folder": str, "created_at": str,
                              "last_sync": str}, pk="key")
    db["messages"].add_column("origin", str)
    # what this device wrote, by id alone: a sync finds what its journal lacks without reading every row's text
    db.execute("CREATE INDEX messages_written_here ON messages(id) WHERE origin IS NULL")
    db["sync_tombstones"].create({"message_id": str, "device": str, "deleted_at": str, "written": int},
                                 pk="message_id", not_null={"device", "deleted_at", "written"})
    db["sync_offsets"].create({"path": str, "offset": int, "tail": str}, pk="path")
    db["sync_journal"].create({"message_id": str, "month": str}, pk="message_id")  # in this device's journal


@migrations()
def m029_sync_decisions(db: Database) -> None:
    """Decisions travel (issue 41, ``core/sync/decisions.py``, ``store/sync_events.py``): every decision event this
    device wrote or read (``sync_events``, its JSON line in ``body``; ``sync_event_messages``: the messages it cites),
    each memory's state as the devices last agreed on it (``sync_memory``, a digest) and the review items that hold
    two devices' contradicting versions of one memory (``sync_conflicts``: which one the user chose, and whether that
    choice is in this device's decisions journal yet)."""
    db["sync_events"].create({"id": str, "hlc": str, "device": str, "kind": str, "memory_id": str, "body": str,
                              "own": int, "status": str}, pk="id", not_null={"hlc", "device", "kind", "body"})
    db["sync_events"].create_index(["own", "status", "hlc"])
    db["sync_events"].create_index(["memory_id"])
    db["sync_event_messages"].create({"event_id": str, "message_id": str}, pk=("event_id", "message_id"))
    db["sync_event_messages"].create_index(["message_id"])
    db["sync_memory"].create({"memory_id": str, "digest": str}, pk="memory_id")
    db["sync_conflicts"].create({"queue_id": int, "memory_id": str, "mine": str, "theirs": str, "event_id": str,
                                 "chosen": str, "written": int}, pk="queue_id")  # chosen: "mine" or "theirs"
