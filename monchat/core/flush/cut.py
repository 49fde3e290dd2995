"""What a persona's limit cut at a flush, and sending it to the user's review (issue 45).

A filter persona keeps at most ``max_items`` items a flush (``score.collect`` chooses them by score, spread over
the flush's days); the rest are dropped as over its limit, recorded in the run's row with their slot, kind, score
and lines. Nothing of them is lost: ``cut_items`` lists them, and ``queue_cut`` puts the ones the user picks in the
review queue, each a waiting memory that rests on the lines it was proposed from (the archive keeps them), so
approving it stores it as any other proposal. ``monchat memory cut RUN`` lists them, ``monchat memory queue-cut RUN [N …]`` sends them.
Sending one twice adds nothing: its memory's id comes from its words and lines.
"""

from __future__ import annotations

import hashlib

from ..errors import InputError, NotFound
from ..memory.review_item import CUT_PREFIX
from ..memory.service import MemoryService
from ..records.memory import MemoryRecord
from ..store.messages import MessageArchive
from ..vocabulary.states import Action, DropCategory, State


def cut_items(memory: MemoryService, run_id: int) -> list[dict]:
    """The proposals the limit cut at flush ``run_id``, numbered from 1 as ``queue_cut`` names them: each
    ``{"number", "persona", "text", "slot", "kind", "score", "day", "evidence", "reason", "memory_id", "queued"}``
    (``queued``: it waits, or waited, for review already).

    Raises:
        NotFound: no flush has that number.
    """
    run = memory.memories.run(run_id)
    if run is None:
        raise NotFound(f"There is no flush {run_id}.", "`monchat flush --json` shows a run's number (run_id).")
    out: list[dict] = []
    for entry in run.get("dropped") or []:
        if entry.get("category") != DropCategory.LIMIT or not entry.get("slot") or not entry.get("evidence"):
            continue  # a run before cuts kept their slot cannot be sent: it names no subject
        memory_id = cut_memory_id(entry)
        out.append({"number": len(out) + 1, **{k: entry.get(k) for k in ("persona", "text", "slot", "kind", "score",
                                                                          "day", "evidence", "reason")},
                    "memory_id": memory_id, "queued": memory.memories.get(memory_id) is not None})
    return out


def cut_memory_id(entry: dict) -> str:
    key = "\x1f".join([entry["slot"], entry.get("kind") or "", entry["text"], *entry["evidence"]])
    return CUT_PREFIX + hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]


def queue_cut(memory: MemoryService, archive: MessageArchive, run_id: int,
              numbers: list[int] | None = None) -> list[int]:
    """Send what the limit cut at flush ``run_id`` to the review queue (``numbers``: those of ``cut_items``; None:
    all). One transaction; an item sent before, or whose lines are gone from the archive, is skipped. Returns the
    review items' numbers.

    Raises:
        NotFound: no such flush. InputError: a number names no cut proposal of it.
    """
    cut = cut_items(memory, run_id)
    chosen = cut if numbers is None else []
    for number in numbers or []:
        if not 1 <= number <= len(cut):
            raise InputError(f"Flush {run_id} cut no proposal {number}.",
                             f"It cut {len(cut)}: see them with `monchat memory cut {run_id}`.")
        chosen.append(cut[number - 1])
    queued: list[int] = []
    with memory.change() as t:
        for entry in chosen:
            if memory.memories.get(entry["memory_id"]) is not None:
                continue
            lines = archive.get_many(entry["evidence"])
            rows = [{"message_id": mid, "day": lines[mid]["day"], "session": lines[mid]["session"],
                     "kind": entry["kind"], "contradicts": 0, "persona": entry["persona"]}
                    for mid in entry["evidence"] if mid in lines]
            if not rows:
                continue  # the user deleted the lines it stood on: nothing left to rest on
            first = min((lines[r["message_id"]] for r in rows), key=lambda m: m["ts_epoch"])
            last = max(lines[r["message_id"]]["ts_epoch"] for r in rows)
            score = float(entry.get("score") or 0.0)
            record = MemoryRecord(id=entry["memory_id"], text=entry["text"], slot=entry["slot"],
                                  kind=entry["kind"], state=State.QUEUED, score=score, confidence=score,
                                  persona=entry["persona"] or "", valid_at=first["ts"], last_evidence_epoch=last,
                                  created_at=t.stamp, updated_at=t.stamp)
            record = t.create(record, rows)
            t.proposers[record.id] = [entry["persona"]]
            queued.append(t.queue(record, Action.LAYER1, f"over {entry['persona']}'s limit at flush {run_id}; "
                                  f"you sent it to review", score, evidence=entry["evidence"]))
    return queued
