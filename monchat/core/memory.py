"""MemoryService: read and change memory (CLI ``monchat memory …`` and the GUI's browser).

Every change is one transaction with an audit event, then the prompt selection
is rebuilt (so the next chat turn carries it) and memory.md rewritten. Nothing
is deleted: forgetting takes a memory out of the prompt and keeps its row.
"""

from __future__ import annotations

import hashlib

from .errors import InputError, NotFound
from .flush.consolidate import HABIT_CONTRADICTIONS_TO_PENDING, activate, retract, supersede
from .flush.records import VERDICTS
from .flush.rebuild import (REVISION_KEY, compile_prompt, load_selection, render_markdown,
                            save_selection)
from .paths import Paths, write_private
from .settings import Settings
from .store.db import Store
from .store.memories import MemoryRecord, MemoryStore
from .types import Clock, format_ts, local_now

SHOWN_STATES = ("active", "candidate", "queued")


class MemoryService:
    def __init__(self, store: Store, settings: Settings, paths: Paths, clock: Clock = local_now) -> None:
        self.store = store
        self.settings = settings
        self.paths = paths
        self.clock = clock
        self.memories = MemoryStore(store)

    # ---- what the chat prompt carries ---------------------------------
    def prompt_items(self) -> tuple[list, list]:
        selection = load_selection(self.store)
        return selection.layer1, selection.layer2

    def revision(self) -> str:
        return self.store.get_state(REVISION_KEY) or "empty"

    def budget_report(self) -> dict:
        return load_selection(self.store).budget

    # ---- reading -------------------------------------------------------
    def _now_epoch(self) -> float:
        return self.clock().timestamp()

    def counts(self) -> dict:
        epoch = self._now_epoch()
        live = self.memories.live()
        by_state = self.memories.counts()
        return {
            "layers": {"layer1": sum(1 for m in live if m.layer(epoch) == 1),
                       "layer2": sum(1 for m in live if m.layer(epoch) == 2),
                       "pending": by_state.get("pending", 0), "dormant": by_state.get("dormant", 0),
                       "superseded": by_state.get("superseded", 0) + by_state.get("retracted", 0)},
            "queue": len(self.memories.queue_open()),
        }

    def list(self, all: bool = False) -> list[MemoryRecord]:
        """Memories in the prompt or on their way (``all``: every row, history included)."""
        records = self.memories.all()
        if all:
            return records
        epoch = self._now_epoch()
        return [m for m in records if m.layer(epoch) in (1, 2) or m.state == "queued"]

    def get(self, memory_id: str) -> MemoryRecord:
        memory = self.memories.get(memory_id)
        if memory is None:
            raise NotFound(f"There is no memory {memory_id!r}.", "See `monchat memory list --all` for ids.")
        return memory

    def to_dict(self, memory: MemoryRecord) -> dict:
        return memory.to_dict(self._now_epoch())

    def history(self, memory_id: str) -> list[MemoryRecord]:
        """The supersession chain through this memory, oldest first, both ways."""
        start = self.get(memory_id)
        chain = [start]
        seen = {start.id}
        frontier = [start]
        while frontier:  # back: everything this one (transitively) replaced
            older = []
            for m in frontier:
                for p in self.memories.predecessors(m.id):
                    if p.id not in seen:
                        seen.add(p.id)
                        older.append(p)
            chain = older + chain
            frontier = older
        current = start
        while current.superseded_by and current.superseded_by not in seen:  # forward
            current = self.get(current.superseded_by)
            seen.add(current.id)
            chain.append(current)
        return chain

    def evidence(self, memory_id: str) -> list[dict]:
        self.get(memory_id)
        return self.memories.evidence_messages(memory_id)

    def events(self, memory_id: str) -> list[dict]:
        return self.memories.events(memory_id)

    def queue(self) -> list[dict]:
        return self.memories.queue_open()

    # ---- changing ------------------------------------------------------
    def _after_change(self) -> None:
        now = self.clock()
        selection = compile_prompt(self.memories, self.settings.flush, now)
        save_selection(self.store, selection)
        write_private(self.paths.memory_md, render_markdown(self.memories, now, selection))

    def _queue_row(self, ref: str) -> dict:
        """A queue row by its number, or the open row of a memory id."""
        if ref.isdigit():
            row = self.memories.queue_get(int(ref))
            if row is None or row["status"] != "open":
                raise NotFound(f"There is no open review item {ref}.", "See `monchat memory list`.")
            return row
        rows = self.memories.queue_for_memory(ref)
        if not rows:
            raise NotFound(f"Nothing about {ref!r} waits for review.", "See `monchat memory list`.")
        return rows[0]

    def approve(self, ref: str, verdict: str | None = None) -> dict:
        """Apply a queued change: a Layer 1 promotion, a supersession, a merge, a retraction or a judgement.

        Args:
            ref: the review item's number, or the id of the memory it is about.
            verdict: for an unsure judgement, the verdict to apply instead of the judge's leaning
                (SAME, MERGE, SUPERSEDE, CONTRADICT or COEXIST).
        """
        row = self._queue_row(ref)
        if verdict is not None:
            verdict = verdict.upper()
            if verdict not in VERDICTS:
                raise InputError(f"{verdict!r} is not a verdict.", f"Use one of: {', '.join(VERDICTS)}.")
            if row["action"] != "judge":
                raise InputError(f"Review item {row['id']} is a {row['action']}, not a judgement.",
                                 "Approve it without a verdict.")
        now = self.clock()
        stamp = format_ts(now)
        with self.store.atomic():
            memory = self.get(row["memory_id"])
            target = self.memories.get(row["target_id"]) if row["target_id"] else None
            if row["action"] == "judge" and target is not None:
                applied = verdict or row.get("verdict") or "SUPERSEDE"
                self._apply_judgement(applied, memory, target, now)
            elif row["action"] == "retract" and target is not None:
                retract(self.memories, target, memory, now)
            else:
                if target is not None and not target.superseded_by:
                    supersede(self.memories, target, memory, now)
                activate(self.memories, memory, now)
            self.memories.queue_resolve(row["id"], "approved", stamp)
            self.memories.event(memory.id, stamp, "approved",
                                {"queue": row["id"], "action": row["action"], "verdict": verdict})
        self._after_change()
        return row

    def _apply_judgement(self, verdict: str, memory: MemoryRecord, target: MemoryRecord, now) -> None:
        """What the user decided an unsure comparison is."""
        stamp = format_ts(now)
        if verdict == "COEXIST":
            self.memories.update(memory.id, state="candidate", updated_at=stamp)
            return
        if verdict == "SUPERSEDE":
            was_layer1 = target.state == "active" and not target.superseded_by
            supersede(self.memories, target, memory, now)
            if was_layer1:
                activate(self.memories, memory, now)
            else:
                self.memories.update(memory.id, state="candidate", updated_at=stamp)
            return
        # SAME, MERGE, CONTRADICT: the new statement is folded into the kept memory as evidence.
        contradicts = int(verdict == "CONTRADICT")
        self.memories.copy_evidence(memory.id, target.id, contradicts=bool(contradicts))
        stats = self.memories.ledger(target.id)
        values = {"contradictions": stats.contradictions, "updated_at": stamp}
        if not contradicts:
            values["last_evidence_epoch"] = max(target.last_evidence_epoch or 0, stats.last_epoch or 0)
        if (contradicts and target.kind == "habit" and stats.contradictions >= HABIT_CONTRADICTIONS_TO_PENDING
                and not target.pinned):
            values["state"] = "pending"
        self.memories.update(target.id, **values)
        self.memories.update(memory.id, state="superseded", superseded_by=target.id, superseded_at=stamp,
                             invalid_at=stamp, layer2_until=None, updated_at=stamp)
        self.memories.event(memory.id, stamp, "folded into", {"target": target.id, "verdict": verdict})

    def reject(self, ref: str) -> dict:
        """Refuse a queued change: the proposed memory is kept as rejected; a target stays as it was."""
        row = self._queue_row(ref)
        stamp = format_ts(self.clock())
        with self.store.atomic():
            memory = self.get(row["memory_id"])
            if memory.state in ("queued", "retraction", "candidate"):
                self.memories.update(memory.id, state="rejected", layer2_until=None, updated_at=stamp)
            self.memories.queue_resolve(row["id"], "rejected", stamp)
            self.memories.event(memory.id, stamp, "rejected", {"queue": row["id"], "action": row["action"]})
        self._after_change()
        return row

    def edit(self, memory_id: str, text: str) -> MemoryRecord:
        """Reword a memory: a new version supersedes the old one, which stays in history."""
        text = text.strip()
        if not text:
            raise InputError("The new text is empty.", "Give the memory's new wording.")
        old = self.get(memory_id)
        if old.superseded_by or old.state in ("superseded", "retracted", "forgotten", "retraction"):
            raise InputError(f"{memory_id} is history and cannot be edited.",
                             f"Edit the current version: `monchat memory history {memory_id}`.")
        now = self.clock()
        stamp = format_ts(now)
        new_id = "mem-" + hashlib.sha256(f"{old.id}\x1f{text}\x1f{stamp}".encode()).hexdigest()[:8]
        with self.store.atomic():
            new = MemoryRecord(id=new_id, text=text, slot=old.slot, kind=old.kind, state=old.state,
                               score=old.score, confidence=max(old.confidence or 0, 0.8), persona="user",
                               style=old.style, pinned=old.pinned, valid_at=old.valid_at,
                               layer2_until=old.layer2_until, last_evidence_epoch=old.last_evidence_epoch,
                               created_at=stamp, updated_at=stamp)
            self.memories.insert(new)
            self.memories.copy_evidence(old.id, new.id)
            for row in self.memories.queue_for_memory(old.id):
                if row["memory_id"] == old.id:
                    self.memories.queue_update(row["id"], memory_id=new.id, text=text)
                elif row["target_id"] == old.id:  # a proposal about this memory is now about its new version
                    self.memories.queue_update(row["id"], target_id=new.id, old_text=text)
            self.memories.update(old.id, state="superseded", superseded_by=new.id, superseded_at=stamp,
                                 invalid_at=stamp, layer2_until=None, updated_at=stamp)
            self.memories.event(old.id, stamp, "edited", {"by": new.id})
            self.memories.event(new.id, stamp, "created by edit", {"from": old.id, "old_text": old.text})
        self._after_change()
        return self.get(new.id)

    def forget(self, memory_id: str) -> MemoryRecord:
        """Out of the prompt for good; the row and its history stay."""
        memory = self.get(memory_id)
        stamp = format_ts(self.clock())
        with self.store.atomic():
            self.memories.update(memory.id, state="forgotten", pinned=0, layer2_until=None, updated_at=stamp)
            for row in self.memories.queue_for_memory(memory.id):
                self.memories.queue_resolve(row["id"], "rejected", stamp)
                proposal = self.memories.get(row["memory_id"]) if row["memory_id"] != memory.id else None
                if proposal is not None and proposal.state == "queued":
                    # It proposed to change what is now forgotten: it returns to candidate, as when unanswered.
                    self.memories.update(proposal.id, state="candidate", updated_at=stamp)
                    self.memories.event(proposal.id, stamp, "review closed",
                                        {"queue": row["id"], "forgotten": memory.id})
            self.memories.event(memory.id, stamp, "forgotten", {"was": memory.state})
        self._after_change()
        return self.get(memory_id)

    def pin(self, memory_id: str, pinned: bool = True) -> MemoryRecord:
        """A pinned memory is always in Layer 1: it never decays, goes dormant or is left out."""
        memory = self.get(memory_id)
        if pinned and (memory.superseded_by or memory.state in ("superseded", "retracted", "forgotten",
                                                                 "rejected", "retraction")):
            raise InputError(f"{memory_id} is history and cannot be pinned.", "Pin its current version.")
        stamp = format_ts(self.clock())
        with self.store.atomic():
            values = {"pinned": int(pinned), "updated_at": stamp}
            if pinned:
                values.update(state="active", layer2_until=None)
            self.memories.update(memory.id, **values)
            self.memories.event(memory.id, stamp, "pinned" if pinned else "unpinned", {})
        self._after_change()
        return self.get(memory_id)

    def unpin(self, memory_id: str) -> MemoryRecord:
        return self.pin(memory_id, False)

    def markdown(self) -> str:
        return render_markdown(self.memories, self.clock(), load_selection(self.store))
