"""The user's own changes to a memory (👍/👎, edit, reject, forget, restore, delete, pin): part of
``Transitions`` (``transitions.py``), the only writer of a memory's state, kept apart to stay readable."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Iterable

from ..records.memory import MemoryRecord
from ..vocabulary.states import Action, State
from .replay import Replay

if TYPE_CHECKING:
    from ..store.memories import MemoryStore


class UserChanges(Replay):
    """Mixed into ``Transitions``: uses its store (``memories``), time stamp and event log."""

    # What Transitions provides (there: set in __init__, defined as methods), named here for the type checker.
    memories: MemoryStore
    stamp: str
    if TYPE_CHECKING:
        def event(self, memory_id: str, action: str, detail: dict | None = None) -> None: ...
        def refresh(self, memory: MemoryRecord) -> MemoryRecord: ...
        def _set_state(self, memory: MemoryRecord, state: State, **values) -> MemoryRecord: ...
        def queue(self, memory: MemoryRecord, action: Action, reason: str, confidence: float,
                  target: MemoryRecord | None = None, evidence: Iterable[str] = (), verdict: str | None = None,
                  merged_text: str | None = None, held: str | None = None) -> int: ...

    # ---- the user's ratings (memory/feedback.py) -----------------------------------
    def rate_down(self, memory: MemoryRecord, factor: float, why: str, review: bool) -> int | None:
        """A 👎: confidence × ``factor`` and the boost gone; with ``review`` a kept or proposed memory (not
        pinned) waits for the user's review (approve keeps it, reject refuses it). Returns the review's number."""
        self.memories.update(memory.id, confidence=(memory.confidence or 0.0) * factor, boost=1.0,
                             updated_at=self.stamp)
        self.event(memory.id, "rated down", {"why": why, "confidence": memory.confidence})
        if not review or memory.pinned or memory.state not in (State.ACTIVE, State.CANDIDATE):
            return None
        memory = self._set_state(memory, State.QUEUED, layer2_until=None)
        return self.queue(memory, Action.RATED, "you rated it 👎: keep it (approve) or drop it (reject)",
                          memory.confidence or 0.0)

    def unrate(self, memory: MemoryRecord, before: dict, queue_id: int | None) -> None:
        """Undo a rating: confidence and boost as they were; the review a 👎 opened, if still open, is
        withdrawn and the memory back in the state it had."""
        self.memories.update(memory.id, confidence=before["confidence"], boost=before["boost"],
                             boost_epoch=before["boost_epoch"], updated_at=self.stamp)
        row = self.memories.queue_get(queue_id) if queue_id else None
        if row is not None and row["status"] == "open":
            self.memories.queue_resolve(row["id"], "withdrawn", self.stamp)
            if memory.state is State.QUEUED:
                self._set_state(memory, State(before["state"]), layer2_until=before.get("layer2_until"))
        self.event(memory.id, "rating cleared", {"queue": queue_id})

    # ---- the user's own changes ------------------------------------------------
    def reword(self, memory: MemoryRecord, text: str) -> MemoryRecord:
        """Give a proposal (not yet kept) new words, e.g. the merged wording of an approved MERGE."""
        if text == memory.text:
            return memory
        self.memories.update(memory.id, text=text, updated_at=self.stamp)
        self.event(memory.id, "reworded", {"old_text": memory.text})
        return self.refresh(memory)

    def edit(self, old: MemoryRecord, text: str) -> MemoryRecord:
        """The user's new wording: a new version supersedes the old one, which stays in history.

        Reviews of the old version follow it: a proposal it made, or one about it, is now the new one's.
        """
        new_id = "mem-" + hashlib.sha256(f"{old.id}\x1f{text}\x1f{self.stamp}".encode()).hexdigest()[:8]
        new = MemoryRecord(id=new_id, text=text, slot=old.slot, kind=old.kind, state=old.state,
                           score=old.score, confidence=max(old.confidence or 0, 0.8), persona="user",
                           style=old.style, pinned=old.pinned, valid_at=old.valid_at,
                           layer2_until=old.layer2_until, last_evidence_epoch=old.last_evidence_epoch,
                           created_at=self.stamp, updated_at=self.stamp)
        self.memories.insert(new)
        self.memories.copy_evidence(old.id, new.id)
        for row in self.memories.queue_for_memory(old.id):
            if row["memory_id"] == old.id:
                self.memories.queue_update(row["id"], memory_id=new.id, text=text)
            elif row["target_id"] == old.id:
                self.memories.queue_update(row["id"], target_id=new.id, old_text=text)
        self.memories.update(old.id, state=State.SUPERSEDED, superseded_by=new.id, superseded_at=self.stamp,
                             invalid_at=self.stamp, layer2_until=None, updated_at=self.stamp)
        self.event(old.id, "edited", {"by": new.id})
        self.event(new.id, "created by edit", {"from": old.id, "old_text": old.text})
        return self.refresh(new)

    def reject(self, memory: MemoryRecord) -> None:
        """A proposal the user refused is kept as rejected; a kept memory it named (or that it would
        have replaced something with) stays as it was."""
        if memory.state in (State.QUEUED, State.RETRACTION):
            self._set_state(memory, State.REJECTED, layer2_until=None)

    def forget(self, memory: MemoryRecord) -> None:
        """Out of the prompt for good; the row and its history stay. Proposals about it return to candidate."""
        self.memories.update(memory.id, state=State.FORGOTTEN, pinned=0, layer2_until=None, updated_at=self.stamp)
        for row in self.memories.queue_for_memory(memory.id):
            self.memories.queue_resolve(row["id"], "rejected", self.stamp)
            proposal = self.memories.get(row["memory_id"]) if row["memory_id"] != memory.id else None
            if proposal is not None and proposal.state is State.QUEUED:
                self._set_state(proposal, State.CANDIDATE)
                self.event(proposal.id, "review closed", {"queue": row["id"], "forgotten": memory.id})
        self.event(memory.id, "forgotten", {"was": str(memory.state), "pinned": int(bool(memory.pinned)),
                                            "layer2_until": memory.layer2_until})

    def restore(self, memory: MemoryRecord) -> MemoryRecord:
        """Undo a forget: the memory is back where it was (a proposal that waited for review comes back
        as a candidate: its review was closed, and a flush reviews it again if it must)."""
        detail: dict = next((json.loads(e["detail"] or "{}") for e in reversed(self.memories.events(memory.id))
                       if e["action"] == "forgotten"), {})
        was = State(detail.get("was", State.CANDIDATE))
        state = was if was in (State.ACTIVE, State.CANDIDATE, State.PENDING, State.DORMANT) else State.CANDIDATE
        memory = self._set_state(memory, state, pinned=int(detail.get("pinned", 0)),
                                layer2_until=detail.get("layer2_until"))
        self.event(memory.id, "restored", {"to": str(state)})
        return memory

    def delete(self, chain: list[MemoryRecord]) -> None:
        """Delete memories for real (a memory and its whole history): their words leave the memory tables.

        A proposal that waited to replace one of them goes back to candidate, as when one is forgotten.
        """
        ids = [m.id for m in chain]
        for row in self.memories.proposals_about(ids):
            proposal = self.memories.get(row["memory_id"])
            self.memories.queue_resolve(row["id"], "rejected", self.stamp)
            if proposal is not None and proposal.state is State.QUEUED:
                self._set_state(proposal, State.CANDIDATE)
                self.event(proposal.id, "review closed", {"queue": row["id"], "deleted": True})
        self.memories.delete_texts(ids, [m.text for m in chain])

    def pin(self, memory: MemoryRecord, pinned: bool) -> None:
        """A pinned memory is always in Layer 1: it never decays, goes dormant or is left out."""
        values = {"pinned": int(pinned), "updated_at": self.stamp}
        if pinned:
            values.update(state=State.ACTIVE, layer2_until=None)
        self.memories.update(memory.id, **values)
        self.event(memory.id, "pinned" if pinned else "unpinned")
