"""Other devices' decisions, replayed here in clock order (issue 41; what an event is: ``decisions.py``).

**Read.** Each other device's ``decisions/YYYY-MM.jsonl`` is read up to its last whole line (a torn line waits,
as in the message journal), from where the last sync stopped; each new event is kept in ``sync_events`` (by id:
a file read again changes nothing) and its clock observed, so this device's next decision comes after it. An event
citing a message deleted here (a tombstone) is never kept.

**Apply.** The events not applied yet, in clock order, inside one change of memory (``MemoryService.change``:
one transaction, then the prompt and memory.md rebuilt):

- its ``after`` is this memory's state already → nothing to do (``same``): the two devices agree;
- this memory is in its ``base`` state → made ``after`` (``Transitions.replay``; ``applied``);
- else both devices changed the memory from the same state → a **conflict**: this device's version stays and one
  review item holds both (``Transitions.conflict``); never the later writer's silently;
- a ``resolve`` (the user chose between two versions on another device) is applied when this memory is one of the
  two, unless the user here chose the other one: then a conflict again;
- a memory **deleted for real** (``delete``) is deleted here whatever was changed here meanwhile, and a change made
  elsewhere to a memory deleted here is dropped: a deletion is the user's take-back of the words (as a message's
  tombstone is), not a decision to weigh against another;
- ``never_add``/``never_remove``: the rule is added (and the memories it covers forgotten, as adding it does) or
  removed.

An event whose evidence cites a message this archive does not hold yet (the other device's journal not synced
here yet) **waits**, and so does every later event about the same memory: it is applied at a later sync. While a
flush runs (it holds the flush lock, as Delete message and lint wait for it) nothing is applied: at a later sync.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import NotFound
from ..memory.never import NeverRules, fold
from ..paths import held_lock
from ..store.db import Store
from ..store.messages import MessageArchive
from ..store.sync import Offset, SyncStore
from ..store.sync_events import SyncEvents, cited
from ..vocabulary.states import Action, State
from .decisions import DECISIONS, agreed_rules, digest, set_agreed_rules, states
from .folder import JOURNAL_FILE, DeviceFiles, SyncFolder, read_whole_lines
from .hlc import HybridClock, Stamp

STATES, ACTIONS = {str(s) for s in State}, {str(a) for a in Action}
KINDS = ("flush", "approve", "reject", "edit", "forget", "restore", "pin", "unpin", "rate", "undo", "resolve",
         "change", "delete", "never_add", "never_remove")


@dataclass
class Replayed:
    read: int = 0  # new events read from other devices' files
    applied: int = 0
    same: int = 0
    conflicts: int = 0
    waiting: int = 0  # wait for their evidence to arrive
    deferred: int = 0  # wait for a running flush to end (applied at a later sync)
    torn: list[str] = field(default_factory=list)
    bad_lines: int = 0
    refused: int = 0  # lines of an encrypted folder that do not open in their file (moved there): never read


def read_decisions(store: Store, place: SyncFolder, other: DeviceFiles, clock: HybridClock, done: Replayed) -> None:
    """Keep the new events of ``other``'s decisions files (above)."""
    folder = other.folder / DECISIONS
    if not folder.is_dir():
        return
    sync, events = SyncStore(store), SyncEvents(store)
    for path in sorted(folder.iterdir()):
        if not JOURNAL_FILE.match(path.name) or not path.is_file():
            continue
        key = str(path.relative_to(place.folder))
        known = sync.offset(key) or Offset(0, "")
        lines = read_whole_lines(path, known.offset, known.tail, codec=place.codec)
        if lines.torn:
            done.torn.append(key)
        done.bad_lines += lines.bad
        done.refused += lines.refused
        good = [r for r in lines.records if _event(r, other.id)]
        done.bad_lines += len(lines.records) - len(good)
        deleted = sync.tombstoned()
        good = [r for r in good if not set(cited(r)) & deleted]
        if not good and known == Offset(lines.end, lines.tail):
            continue
        with store.atomic():  # the events and how far the file was read: together or not at all
            done.read += events.add_events(good, own=False, status="new")
            sync.set_offset(key, Offset(lines.end, lines.tail))
        if good:  # the latest only: each observation is a write of monchat.db
            clock.observe(max(record["hlc"] for record in good))


def _event(record: dict, device: str) -> bool:
    try:
        Stamp.parse(str(record.get("hlc")))
    except ValueError:
        return False
    if not (isinstance(record.get("id"), str) and record.get("device") == device and record.get("kind") in KINDS):
        return False
    if record["kind"].startswith("never_"):
        return isinstance(record.get("text"), str)
    return isinstance(record.get("memory_id"), str) and all(_state(record.get(k)) for k in ("after", "mine"))


def _state(state) -> bool:
    """A memory's state as ``decisions.state_of`` writes it (or None: deleted), with what replaying it needs."""
    if state is None:
        return True
    if not isinstance(state, dict) or not isinstance(state.get("row"), dict):
        return False
    row, evidence, reviews = state["row"], state.get("evidence"), state.get("reviews")
    return (all(isinstance(row.get(k), str) for k in ("text", "slot", "kind")) and row.get("state") in STATES
            and isinstance(evidence, list) and all(isinstance(e, dict) and isinstance(e.get("message_id"), str)
                                                   for e in evidence)
            and isinstance(reviews, list) and all(isinstance(r, dict) and r.get("action") in ACTIONS
                                                  for r in reviews))


def apply_decisions(store: Store, memory, archive: MessageArchive, clock, done: Replayed) -> None:
    """Apply the events not applied yet (above). ``memory``: the ``MemoryService``."""
    events = SyncEvents(store)
    pending = events.waiting()
    if not pending:
        return
    with held_lock(memory.paths.flush_lock) as held:  # as Delete message and lint: not while a flush decides
        if not held:
            done.deferred = len(pending)
            return
        _apply_all(store, memory, archive, clock, pending, done)


def _apply_all(store: Store, memory, archive: MessageArchive, clock, pending: list[dict], done: Replayed) -> None:
    events = SyncEvents(store)
    blocked: set[str] = set()
    with memory.change() as t:
        for event in pending:
            memory_id = str(event.get("memory_id"))
            if event["kind"].startswith("never_"):
                _rule(store, memory, clock, t, event)
                events.set_status(event["id"], "applied")
                done.applied += 1
                continue
            needed = cited(event)
            if memory_id in blocked or len(archive.known_ids(needed)) < len(needed):
                blocked.add(memory_id)
                done.waiting += 1
                continue
            status = _apply(events, t, event)
            events.set_status(event["id"], status)
            done.applied += status == "applied"
            done.same += status == "same"
            done.conflicts += status == "conflict"


def _apply(events: SyncEvents, t, event: dict) -> str:
    memory_id, after = event["memory_id"], event.get("after")
    local = states(events, [memory_id]).get(memory_id)
    mine, theirs = digest(local), digest(after)
    why = {"event": event["id"], "device": event["device"], "kind": event["kind"]}
    if mine == theirs:
        _settle(events, t, memory_id, theirs)
        return "same"
    if after is None and event["kind"] == "delete":  # deleted for real there: the user's take-back, everywhere
        t.replay(memory_id, None, why)
        _settle(events, t, memory_id, None)
        return "applied"
    if local is None and (events.deleted(memory_id) or events.agreed_of(memory_id) is not None):
        return "dropped"  # deleted for real here (its delete written, or about to be): a change made there is moot
    if event["kind"] == "resolve":
        versions = set(event.get("versions") or [])
        chose_other = any({str(digest(c["mine"])), str(digest(c["theirs"]))} == versions
                          for c in events.choices(memory_id))  # the user here chose between the same two
        if mine in versions and not chose_other:
            t.replay(memory_id, after, why)
            _settle(events, t, memory_id, theirs)
            return "applied"
    elif mine == event.get("base"):
        t.replay(memory_id, after, why)
        events.set_agreed(memory_id, theirs)
        return "applied"
    t.conflict(memory_id, local, after, event, _reason(local, after))
    return "conflict"


def _settle(events: SyncEvents, t, memory_id: str, agreed: str | None) -> None:
    """Both devices hold this version now: it is agreed, and a conflict open about the memory is over."""
    events.set_agreed(memory_id, agreed)
    found = events.open_conflict(memory_id)
    if found is not None:
        t.memories.queue_resolve(found["queue_id"], "withdrawn", t.stamp)


def _reason(local: dict | None, after: dict | None) -> str:
    def said(state: dict | None) -> str:
        if state is None:
            return "deleted"
        row = state["row"]
        return f"{row.get('state')}{', pinned' if row.get('pinned') else ''}: {row.get('text')!r}"
    return (f"changed on two devices from the same version. Approve takes the other device's ({said(after)}); "
            f"reject keeps this device's ({said(local)}).")


def _rule(store: Store, memory, clock, t, event: dict) -> None:
    text = str(event.get("text") or "")
    rules = NeverRules(store, memory, clock)
    agreed = agreed_rules(store)
    if event["kind"] == "never_add":
        if fold(text).strip("/ "):
            rules.add(text)
            for found, _rule_text in rules.matching([text]):
                t.forget(t.memories.get(found.id) or found)
            agreed[fold(text)] = text
    else:
        try:
            rules.remove(text)
        except NotFound:
            pass
        agreed.pop(fold(text), None)
    set_agreed_rules(store, agreed)
