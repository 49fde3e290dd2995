"""Another device's decision about a memory, made here (issue 41, ``core/sync/decisions.py``): part of
``Transitions``, the only writer of a memory's state.

A decision travels as the memory's whole state after it (its row, its evidence, the review items about it). Here
the memory is made that state: its row written (the columns this device keeps for itself — how often a reply used
it, which of this device's flushes made it — stay its own), its ledger rows added or dropped, its review items
updated by what every device knows them by (whose, when and why each was opened: their numbers are this
database's own; an item an edit moved to the new version goes with the old one's event and comes with the new one's). When two devices changed one memory from the same state, the sync opens a conflict item instead (``conflict``):
the local version stays until the user chooses (``choose``); the choice is written by the next sync.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records.memory import COLUMNS, MemoryRecord
from ..store.sync_events import CONFLICT, SyncEvents
from ..vocabulary.states import Action

if TYPE_CHECKING:
    from ..store.memories import MemoryStore

LOCAL = ("boost", "boost_epoch", "created_run", "updated_at")  # this device's own: never in a decision


class Replay:
    """Mixed into ``Transitions`` (through ``UserChanges``): uses its store, time stamp and event log."""

    memories: MemoryStore
    stamp: str
    if TYPE_CHECKING:
        def event(self, memory_id: str, action: str, detail: dict | None = None) -> None: ...
        def delete(self, chain: list[MemoryRecord]) -> None: ...

    def replay(self, memory_id: str, state: dict | None, why: dict) -> None:
        """Make the memory ``state`` (None: deleted there); ``why``: the event, for the audit trail."""
        rows = SyncEvents(self.memories.store)
        existing = self.memories.get(memory_id)
        if state is None:
            if existing is not None:
                self.delete([existing])
            return
        values = {k: v for k, v in state["row"].items() if k in COLUMNS and k not in LOCAL and k != "id"}
        if existing is None:
            self.memories.insert(MemoryRecord(id=memory_id, **values, updated_at=self.stamp))
        else:
            self.memories.update(memory_id, **values, updated_at=self.stamp)
        have = {e["message_id"]: e for e in rows.evidence_rows([memory_id]).get(memory_id, [])}
        want = {e["message_id"]: e for e in state["evidence"]}
        gone = sorted(m for m in have if have[m] != want.get(m))  # gone, or its flag changed: added again below
        if gone:
            self.memories.drop_evidence(memory_id, gone)
        added = [want[m] for m in sorted(want) if have.get(m) != want[m]]
        if added:
            self.memories.add_evidence(memory_id, added, None)
        kept = set()
        for review in state["reviews"]:
            found = rows.review_by_key(memory_id, review["created_at"], review["action"], review["reason"])
            values = {**review, "memory_id": memory_id}
            if found is None:
                kept.add(self.memories.queue_add(values))
            else:
                rows.set_review(found["id"], values)
                kept.add(found["id"])
        for row in rows.review_rows([memory_id]).get(memory_id, []):
            if row["id"] not in kept:  # closed and gone there (or moved to another memory by an edit)
                rows.drop_review(row["id"])
        self.event(memory_id, "replayed", why)

    def conflict(self, memory_id: str, mine: dict | None, theirs: dict | None, event: dict, reason: str) -> int:
        """Two devices changed this memory from the same state: one review item holds both versions (approve takes
        theirs, reject keeps this device's). A conflict still open about it takes the newer version of theirs."""
        rows = SyncEvents(self.memories.store)
        open_one = rows.open_conflict(memory_id)
        text = (theirs or {}).get("row", {}).get("text", "")
        if open_one is not None:
            rows.set_theirs(open_one["queue_id"], theirs, event["id"])
            self.memories.queue_update(open_one["queue_id"], text=text, reason=reason)
            return int(open_one["queue_id"])
        queue_id = self.memories.queue_add({
            "memory_id": memory_id, "action": Action.MERGE, "target_id": None, "text": text,
            "old_text": (mine or {}).get("row", {}).get("text", ""), "reason": reason, "confidence": None,
            "created_at": self.stamp, "deadline_epoch": None, "run_id": None, "held": CONFLICT})
        rows.add_conflict(queue_id, memory_id, mine, theirs, event["id"])
        self.event(memory_id, "sync conflict", {"queue": queue_id, "event": event["id"], "device": event["device"]})
        return queue_id

    def chose(self, item, theirs: bool) -> bool:
        """If the review item ``item`` is a conflict between two devices' versions, the user's choice is made
        (``choose``) and True returned; else False: the item is decided as any other."""
        if getattr(item, "held", None) != CONFLICT:
            return False
        self.choose(item.id, theirs)
        return True

    def choose(self, queue_id: int, theirs: bool) -> None:
        """The user's choice between two devices' versions (approve: theirs; reject: this device's). The
        caller resolved the review item."""
        rows = SyncEvents(self.memories.store)
        found = rows.conflict(queue_id)
        if found is None:  # its words were taken back (a deletion): nothing left to choose
            return
        if theirs:
            self.replay(found["memory_id"], found["theirs"], {"chosen": "theirs", "queue": queue_id})
        rows.choose(queue_id, "theirs" if theirs else "mine")
        self.event(found["memory_id"], "sync conflict decided", {"queue": queue_id,
                                                                 "kept": "theirs" if theirs else "mine"})
