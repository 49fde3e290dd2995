"""Decisions as events (issue 41): what this device decided about memory, written for the others.

A memory's **state** is its row, its ledger rows and the review items about it, less what each device keeps for
itself (how often a reply used it: ``boost``; which local flush made it: ``created_run``; ``updated_at``). Its
**digest** leaves out too what two devices doing the same thing write with their own clocks (``superseded_at``,
``invalid_at``, a review's ``resolved_at``): two devices in the same state have the same digest.

**Export.** Every change of memory goes through ``core/memory/transitions.py`` into these rows, so the rows are
where export reads from: each memory whose digest is not the one all devices last agreed on (``sync_memory``) is
an event ``{id, hlc, device, kind, memory_id, base, after, actions, runs}`` — ``after`` its whole state now,
``base`` the agreed digest it was changed from (None: new), ``kind`` named from its audit lines since the last
export (``flush`` when a flush run changed it, else approve, reject, edit, forget, pin …; ``actions`` lists
them). A memory deleted for real is an event whose ``after`` is None. The user's never-remember rules travel as
``never_add``/``never_remove``; a choice between two devices' versions as ``resolve`` (``versions``: both digests).
Events go to ``<folder>/monchat/devices/<id>/decisions/YYYY-MM.jsonl`` (the month of their clock), appended and
synced to disk before ``monchat.db`` notes them (killed between the two, the next sync writes the same change again
under a new id: a device that applied the first finds the second already there).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..memory.never import fold
from ..store.db import Store
from ..store.never import NeverStore
from ..store.sync_events import EVIDENCE, REVIEW, SyncEvents
from .folder import SyncFolder, append_lines
from .hlc import HybridClock, Stamp

DECISIONS = "decisions"
LOCAL = ("boost", "boost_epoch", "created_run", "updated_at")  # never in a state (also ``memory/replay.py``)
UNCOMPARED = ("superseded_at", "invalid_at")  # carried, not compared: each device's own clock
NEVER_KEY = "sync.never"  # the never-remember rules all devices last agreed on: {folded: text}
ACTIONS_KEY = "sync.memory_events"  # the last audit line an export named kinds from
KINDS = {"approved": "approve", "approved as written": "approve", "rejected": "reject", "edited": "edit",
         "created by edit": "edit", "forgotten": "forget", "restored": "restore", "pinned": "pin",
         "unpinned": "unpin", "rated down": "rate", "rating cleared": "rate", "undone": "undo",
         "sync conflict decided": "resolve"}


def state_of(row: dict, evidence: list[dict], reviews: list[dict]) -> dict:
    return {"row": {k: row[k] for k in sorted(row) if k not in LOCAL},
            "evidence": sorted(({k: e.get(k) for k in EVIDENCE} for e in evidence), key=lambda e: e["message_id"]),
            "reviews": sorted(({k: r.get(k) for k in REVIEW} for r in reviews),
                              key=lambda r: (r["created_at"] or "", r["action"] or "", r["reason"] or ""))}


def digest(state: dict | None) -> str | None:
    if state is None:
        return None
    compared = {"row": {k: v for k, v in state["row"].items() if k not in UNCOMPARED},
                "evidence": state["evidence"],
                "reviews": [{k: v for k, v in r.items() if k != "resolved_at"} for r in state["reviews"]]}
    text = json.dumps(compared, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def states(events: SyncEvents, ids: list[str] | None = None) -> dict[str, dict]:
    """Memory id → its state (every memory, or those of ``ids`` that exist)."""
    rows, evidence, reviews = events.memory_rows(ids), events.evidence_rows(ids), events.review_rows(ids)
    return {i: state_of(row, evidence.get(i, []), reviews.get(i, [])) for i, row in rows.items()}


def month_of(stamp: Stamp) -> str:
    return datetime.fromtimestamp(stamp.wall_ms / 1000, timezone.utc).strftime("%Y-%m")


def decisions_file(folder: SyncFolder, device_id: str, month: str) -> Path:
    return folder.device_dir(device_id) / DECISIONS / f"{month}.jsonl"


def hybrid_clock(store: Store, device_id: str, wall_ms) -> HybridClock:
    from .hlc import KEY
    return HybridClock(device_id, wall_ms, lambda: store.get_state(KEY), lambda text: store.set_state(KEY, text))


def agreed_rules(store: Store) -> dict[str, str]:
    return json.loads(store.get_state(NEVER_KEY) or "{}")


def set_agreed_rules(store: Store, rules: dict[str, str]) -> None:
    store.set_state(NEVER_KEY, json.dumps(rules, ensure_ascii=False, sort_keys=True))


@dataclass
class Written:
    events: int = 0
    conflicts_decided: int = 0


def export_decisions(store: Store, folder: SyncFolder, device_id: str, clock: HybridClock) -> Written:
    """Append to this device's decisions journal every change all devices have not agreed on yet (above)."""
    events = SyncEvents(store)
    done = Written()
    out: list[dict] = []
    agreed_now: dict[str, str | None] = {}

    def add(kind: str, memory_id: str | None, **fields) -> None:
        out.append({"id": uuid.uuid4().hex, "hlc": "", "device": device_id, "kind": kind, "memory_id": memory_id,
                    **fields})

    now = states(events)
    for choice in events.unwritten_choices():  # the user's choices first: the state they leave is agreed
        memory_id = choice["memory_id"]
        add("resolve", memory_id, versions=sorted({str(digest(choice["mine"])), str(digest(choice["theirs"]))}),
            chosen=choice["chosen"], after=now.get(memory_id))
        agreed_now[memory_id] = digest(now.get(memory_id))
        done.conflicts_decided += 1
    rules = {fold(r["text"]): r["text"] for r in NeverStore(store).rules()}
    agreed = agreed_rules(store)
    for key in sorted(set(rules) - set(agreed)):
        add("never_add", None, text=rules[key])
    for key in sorted(set(agreed) - set(rules)):
        add("never_remove", None, text=agreed[key])
    top = int(store.get_state(ACTIONS_KEY) or 0)
    actions, new_top = events.actions_since(top)
    base = events.agreed()
    for memory_id in sorted(set(now) | set(base)):
        if memory_id in agreed_now:
            continue
        after = now.get(memory_id)
        if digest(after) == base.get(memory_id):
            continue
        seen = [a for a in actions.get(memory_id, []) if a[0] != "replayed"]
        add(_kind(seen, after), memory_id, base=base.get(memory_id), after=after,
            actions=[a for a, _run in seen], runs=sorted({r for _a, r in seen if r is not None}))
        agreed_now[memory_id] = digest(after)
    for event, stamp in zip(out, clock.ticks(len(out))):  # in the order made; the clock kept once, first
        event["hlc"] = str(stamp)
    by_month: dict[str, list[dict]] = {}
    for event in out:
        by_month.setdefault(month_of(Stamp.parse(event["hlc"])), []).append(event)
    for month, written in sorted(by_month.items()):  # on disk first, then noted here
        append_lines(decisions_file(folder, device_id, month),
                     [json.dumps(e, ensure_ascii=False, sort_keys=True, separators=(",", ":")) for e in written],
                     codec=folder.codec)
    with store.atomic():
        events.add_events(out, own=True, status="written")
        for memory_id, value in agreed_now.items():
            events.set_agreed(memory_id, value)
        for choice in events.unwritten_choices():
            events.choice_written(choice["queue_id"])
        set_agreed_rules(store, rules)
        store.set_state(ACTIONS_KEY, str(new_top))
    done.events = len(out)
    return done


def _kind(actions: list[tuple[str, int | None]], after: dict | None) -> str:
    if after is None:
        return "delete"
    if any(run is not None for _a, run in actions):
        return "flush"
    for action, _run in reversed(actions):
        if action in KINDS:
            return KINDS[action]
    return "change"


def scrub_decisions(store: Store, folder: SyncFolder, device_id: str, deletions: bool) -> int:
    """A deleted message's words leave the decisions too, and so do a memory's deleted for real: every event citing
    such a message, or about such a memory (its delete event aside), goes from ``sync_events``; then every line of
    this device's decisions files whose event is no longer kept (those, or one that quoted deleted words:
    ``WordScrub``) is removed from the file (rewritten, temp file and rename). The files are read only when
    something went (``deletions``: messages were deleted this sync). Returns the lines removed."""
    from .folder import JOURNAL_FILE, read_whole_lines, rewrite_without
    events = SyncEvents(store)
    with store.atomic():
        dropped = events.citing_deleted() + events.about_deleted_memories()
        events.drop_events(sorted({event_id for event_id, _own in dropped}))
    if not deletions and not any(own for _id, own in dropped):
        return 0
    kept = events.own_ids()
    removed = 0
    own = folder.device_dir(device_id) / DECISIONS
    if own.is_dir():
        for path in sorted(own.iterdir()):
            if JOURNAL_FILE.match(path.name) and path.is_file():
                ids = {r.get("id") for r in read_whole_lines(path, 0, "", codec=folder.codec).records}  # folder.py's
                gone = {i for i in ids if isinstance(i, str) and i not in kept}
                if gone:
                    removed += rewrite_without(path, gone, codec=folder.codec)
    return removed
