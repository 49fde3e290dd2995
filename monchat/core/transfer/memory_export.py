"""Portable memory, out: every memory with its state, slot, kind, history and the words it rests on.

``monchat export --memory json|markdown`` and File → Export memory… call ``export_json`` /
``export_markdown``. The JSON form is documented in ``docs/memory-export.md`` and checked against
``docs/memory-export.schema.json``; ``core/transfer/memory_import.py`` reads both forms back, into the review
queue only. The Markdown form is for people and reads back too (its current memories only).
"""

from __future__ import annotations

import json
from datetime import datetime

from ..memory.preferences import chain
from ..records.memory import MemoryRecord
from ..store.memories import MemoryStore
from ..types import format_ts
from ..vocabulary.states import Kind, State

FORMAT = "monchat-memory"
VERSION = 1
MARKDOWN_MARK = "<!-- monchat-memory-export v1 -->"  # what tells the importer a Markdown file is ours


def _evidence(memories: MemoryStore, memory_id: str) -> list[dict]:
    return [{"id": r["id"], "ts": r["ts"], "role": r["role"], "text": r["text"],
             "persona": r["surface_persona"] or "", "contradicts": bool(r["contradicts"])}
            for r in memories.evidence_messages(memory_id)]


def memory_entry(memories: MemoryStore, m: MemoryRecord, now_epoch: float) -> dict:
    """One memory as the export writes it (``docs/memory-export.md``)."""
    entry = {
        "id": m.id, "text": m.text, "slot": m.slot, "kind": m.kind, "state": str(m.state),
        "layer": m.layer(now_epoch), "pinned": bool(m.pinned), "confidence": round(float(m.confidence or 0), 4),
        "valid_at": m.valid_at, "invalid_at": m.invalid_at, "superseded_by": m.superseded_by,
        "superseded_at": m.superseded_at, "created_at": m.created_at, "updated_at": m.updated_at,
        "evidence": _evidence(memories, m.id),
    }
    if not m.superseded_by:  # the newest of its chain: the versions it replaced, oldest first
        entry["history"] = [c.id for c in chain(memories, m) if c.id != m.id]
    return entry


def export_data(memories: MemoryStore, now: datetime) -> dict:
    """Every memory, history too, oldest slot first: the JSON export as a dict."""
    epoch = now.timestamp()
    return {"format": FORMAT, "version": VERSION, "exported_at": format_ts(now),
            "memories": [memory_entry(memories, m, epoch) for m in memories.all()]}


def export_json(memories: MemoryStore, now: datetime) -> str:
    return json.dumps(export_data(memories, now), ensure_ascii=False, indent=2) + "\n"


def _quote(text: str) -> str:
    return " ".join(text.split())


# The Markdown says each memory's place in plain words; the program's fields follow in a comment (what import reads).
PLACE_WORDS = {1: "in lasting memory", 2: "in recent memory"}
STATE_WORDS = {State.ACTIVE: "in lasting memory", State.CANDIDATE: "kept, not in use yet",
               State.QUEUED: "waiting for your review", State.PENDING: "set aside",
               State.DORMANT: "dormant (not talked about for a while)", State.SUPERSEDED: "replaced",
               State.RETRACTED: "taken back", State.FORGOTTEN: "forgotten", State.REJECTED: "rejected",
               State.RETRACTION: "a taking back"}
KIND_WORDS = {Kind.EXPLICIT: "said outright", Kind.CORRECTION: "a correction", Kind.FACT: "a fact",
              Kind.HABIT: "a habit", Kind.RETRACTION: "a taking back", Kind.SKILL: "a skill",
              Kind.PREFERENCE: "a preference"}


def _plain(e: dict) -> str:
    """``- in lasting memory · said outright · about home/city · pinned``: what the fields mean, for reading."""
    place = PLACE_WORDS.get(e["layer"]) or STATE_WORDS.get(e["state"], e["state"])
    return " · ".join([f"- {place}", KIND_WORDS.get(e["kind"], e["kind"]), f"about {e['slot'].replace('/', ' / ')}"]
                      + (["pinned"] if e["pinned"] else []))


def export_markdown(memories: MemoryStore, now: datetime) -> str:
    """The same content for reading: one section per current memory, its earlier versions and its words."""
    data = export_data(memories, now)
    by_id = {e["id"]: e for e in data["memories"]}
    lines = ["# monchat memory export", MARKDOWN_MARK, "",
             f"Exported {data['exported_at'][:16].replace('T', ' ')}. Each memory: where it is (lasting or recent "
             "memory), how you said it and what it is about, the versions it replaced, and the messages it rests on.",
             ""]
    current = [e for e in data["memories"] if not e["superseded_by"]]
    if not current:
        lines += ["_Nothing remembered yet._", ""]
    for e in current:
        lines += [f"## {_quote(e['text'])}", "",
                  _plain(e),
                  f"  <!-- state: {e['state']} · slot: {e['slot']} · kind: {e['kind']} · layer: {e['layer']} -->",
                  f"- valid from: {(e['valid_at'] or '')[:16].replace('T', ' ') or '-'}"
                  + (f" · until: {e['invalid_at'][:16].replace('T', ' ')}" if e["invalid_at"] else ""),
                  f"- id: {e['id']}"]
        for old_id in reversed(e.get("history", [])):
            old = by_id.get(old_id)
            if old is not None:
                lines.append(f"- before: “{_quote(old['text'])}” ({STATE_WORDS.get(old['state'], old['state'])}, "
                             f"{(old['valid_at'] or '')[:10]} – {(old['invalid_at'] or '')[:10]})")
        for said in e["evidence"]:
            mark = " (against)" if said["contradicts"] else ""
            lines.append(f"- said {said['ts'][:16].replace('T', ' ')}{mark}: “{_quote(said['text'])}”")
        lines.append("")
    return "\n".join(lines)
