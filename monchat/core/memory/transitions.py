"""Every change of a memory's state, written once and used by the flush and the review queue alike.

A ``Transitions`` object belongs to one flush run or one review action: it knows the time, the run,
the settings, and collects the ``Change``s it made (each also written to the audit trail). The
caller holds the transaction. What is decided here:

- SUPERSEDE: ``old.superseded_by = new.id``, ``superseded_at = now``, ``invalid_at = new.valid_at``;
  the old row stays as history, its own open reviews close.
- RETRACT: a supersession whose successor is the statement that took the memory back.
- MERGE (one meaning everywhere): the merged wording becomes a memory that carries the evidence of
  both and supersedes the kept memory. A flush does it when the judge is sure; approving a review
  item as MERGE does the same.
- CONTRADICT: the evidence is kept with a flag and never decrements; a habit contradicted twice
  goes pending.
- Promotion: Layer 2 by score; Layer 1 by distinct days of evidence, auto-approved at confidence
  ≥ the threshold unless the user asks to approve every Layer 1 change; otherwise the review queue.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable, Iterable

from ..settings import FlushSettings
from ..store.decisions import TABLES, DecisionRows
from ..store.memories import MemoryStore
from ..types import format_ts
from ..records.memory import Change, MemoryRecord
from . import learning, reliance
from .user_changes import UserChanges
from .alike import same_change
from .waiting import SAID_AGAIN, is_waiting, said_again_rows
from .rules import habit_set_aside, merged_text, required_days
from ..vocabulary.states import ONLY_IF_APPROVED, Action, ChangeKind, State, Verdict

# A supersession (or a judgement that may be one) unanswered past its deadline is set aside as pending;
# a Layer 1 promotion (or a wording review from before the guard dropped such items) returns to candidate. Neither is ever confirmed silently.
EXPIRES_TO_PENDING = (Action.SUPERSEDE, Action.MERGE, Action.JUDGE)
USER_WORD = 1.0  # the confidence of a memory the user approved that had none of its own


@dataclass
class Counters:
    layer1: int = 0
    layer2: int = 0
    superseded: int = 0
    queued: int = 0


def guarded(memory: MemoryRecord) -> bool:
    """Layer 1 and pinned memories change only through the review queue."""
    return memory.in_layer1 or bool(memory.pinned)


class Transitions(UserChanges):
    def __init__(self, memories: MemoryStore, settings: FlushSettings, now: datetime, run_id: int | None = None,
                 describe: Callable[[list[str]], list[dict]] | None = None) -> None:
        """``describe``: message ids → the evidence lines a ``Change`` shows (the flush knows the messages)."""
        self.memories = memories
        self.settings = settings
        self.now = now
        self.stamp = format_ts(now)
        self.run_id = run_id
        self.describe = describe or (lambda ids: [])
        self.changes: list[Change] = []
        self.counters = Counters()
        self._learned: dict | None = None  # review learning's offsets, read once (memory/learning.py)
        self.proposers: dict[str, list[str]] = {}  # memory id -> the filter personas behind this run's proposal
        # The flush's model is known to be small (its description): nothing goes into Layer 1 unasked.
        self.small_model = ""

    # ---- recording ---------------------------------------------------------
    def note(self, kind: ChangeKind, memory: MemoryRecord, evidence: Iterable[str] = (), old_text: str = "",
             layer: int = 0, detail: dict | None = None) -> None:
        """A change for the report, and its line in the audit trail."""
        self.changes.append(Change(kind, memory.id, memory.text, old_text, layer, self.describe(list(evidence))))
        if detail is None:
            detail = {"old_text": old_text} if old_text else {}
        self.memories.event(memory.id, self.stamp, kind, detail, self.run_id)

    def event(self, memory_id: str, action: str, detail: dict | None = None) -> None:
        """An audit line only (a user's decision: approved, rejected, edited, pinned …)."""
        self.memories.event(memory_id, self.stamp, action, detail or {}, self.run_id)

    def refresh(self, memory: MemoryRecord) -> MemoryRecord:
        found = self.memories.get(memory.id)
        assert found is not None, f"{memory.id} is gone inside its own change"
        return found

    def _set_state(self, memory: MemoryRecord, state: State, **values) -> MemoryRecord:
        self.memories.update(memory.id, state=state, updated_at=self.stamp, **values)
        return self.refresh(memory)

    # ---- coming into being ---------------------------------------------------
    def create(self, memory: MemoryRecord, evidence_rows: list[dict]) -> MemoryRecord:
        """A new memory with its evidence; the same id seen before (a rerun) is reused, never doubled."""
        existing = self.memories.get(memory.id)
        if existing is not None:
            return existing
        self.memories.insert(memory)
        self.memories.add_evidence(memory.id, evidence_rows, self.run_id)
        return self.refresh(memory)

    def queue(self, memory: MemoryRecord, action: Action, reason: str, confidence: float | None,
              target: MemoryRecord | None = None, evidence: Iterable[str] = (), verdict: str | None = None,
              merged_text: str | None = None, held: str | None = None) -> int:
        """Ask the user: a review item with a deadline (past it: ``expire_review``). Returns its number.

        Args:
            held: why the flush held back a change it would otherwise have made ("small_model"), if it did.
        """
        deadline = (self.now + timedelta(days=self.settings.review_deadline_days)).timestamp()
        queue_id = self.memories.queue_add({
            "memory_id": memory.id, "action": action, "target_id": target.id if target else None,
            "text": memory.text, "old_text": target.text if target else "", "reason": reason,
            "confidence": confidence, "created_at": self.stamp, "deadline_epoch": deadline, "run_id": self.run_id,
            "verdict": verdict, "merged_text": merged_text,
            "proposers": json.dumps(self.proposers[memory.id]) if memory.id in self.proposers else None,
            "held": held})
        self.counters.queued += 1
        self.note(ChangeKind.QUEUED, memory, evidence, target.text if target else "")
        return queue_id

    def hold_for_review(self, memory: MemoryRecord, action: Action, reason: str, confidence: float,
                        target: MemoryRecord | None = None, evidence: Iterable[str] = (), verdict: str | None = None,
                        merged_text: str | None = None, held: str | None = None) -> MemoryRecord:
        """Out of the prompt until the user answers: the memory waits (queued) with its review item."""
        memory = self._set_state(memory, State.QUEUED)
        self.queue(memory, action, reason, confidence, target, evidence, verdict=verdict, merged_text=merged_text,
                   held=held)
        return memory

    def apply_verdict(self, verdict: Verdict, memory: MemoryRecord, target: MemoryRecord,
                      proposed_text: str | None = None) -> None:
        """What the user decided an unsure comparison is, applied as a flush applies a sure verdict (``memory``
        waited, ``target`` is the kept memory, ``proposed_text`` the judge's merged wording if it gave one)."""
        score = memory.score or 0.0
        if is_waiting(target):  # a review row from before issue 45 against one that waits too: both stand alone
            verdict = Verdict.COEXIST
        if verdict is Verdict.COEXIST:
            self.promote(self._set_state(memory, State.CANDIDATE), score)
        elif verdict in (Verdict.SUPERSEDE, Verdict.MERGE):
            was_guarded = guarded(target)  # the user approved replacing a Layer 1 memory: the new one takes its place
            memory = self._set_state(memory, State.CANDIDATE)
            if verdict is Verdict.MERGE:
                memory = self.merge(target, self.reword(memory, merged_text(proposed_text, target.text, memory.text)))
            else:
                self.supersede(target, memory)
                self.note(ChangeKind.SUPERSEDED, memory, old_text=target.text)
            if was_guarded:
                self.activate(memory)
            else:
                self.promote(self.refresh(memory), score)
        else:  # SAME or CONTRADICT: the statement is folded into the kept memory as evidence
            rows = self.memories.ledger_rows(memory.id)
            if verdict is Verdict.SAME:
                self.promote(self.reinforce(target, rows, score, memory.last_evidence_epoch or 0), score)
            else:
                self.contradict(target, rows)
            self.fold_into(memory, target, verdict)

    # ---- evidence ------------------------------------------------------------
    def said_again(self, memory: MemoryRecord, evidence_rows: list[dict]) -> None:
        """Lines the user said again for a memory waiting for review: kept beside it, not its evidence until the
        user approves it (``memory/waiting.py``; the caller checked that the lines support its words)."""
        lines = [{k: row[k] for k in ("message_id", "day", "session", "kind", "persona")} for row in evidence_rows]
        self.event(memory.id, SAID_AGAIN, {"lines": lines})

    def reinforce(self, target: MemoryRecord, evidence_rows: list[dict], score: float, last_epoch: float,
                  evidence: Iterable[str] = ()) -> MemoryRecord:
        """More support for a kept memory; new support wakes a dormant one (the rules decide again). Never for a
        memory waiting for review (``said_again`` is what a flush may do to it)."""
        assert not is_waiting(target), f"{target.id} waits for review: it is not reinforced"
        added = self.memories.add_evidence(target.id, evidence_rows, self.run_id)
        self.memories.update(target.id, score=max(target.score or 0, score),
                             confidence=max(target.confidence or 0, score),
                             last_evidence_epoch=max(target.last_evidence_epoch or 0, last_epoch),
                             updated_at=self.stamp)
        if target.state is State.DORMANT and added:
            self.memories.update(target.id, state=State.CANDIDATE)
        if added:
            self.boost(target, reliance.EVIDENCE_STEP, "evidence")
        refreshed = self.refresh(target)
        if added:
            self.note(ChangeKind.REINFORCED, refreshed, evidence)
        return refreshed

    def boost(self, memory: MemoryRecord, step: float, why: str) -> None:
        """A longer half-life (up to 10×, decaying back over 30 days): reinforced, used in a reply, or 👍."""
        epoch = self.now.timestamp()
        value = reliance.raised(memory.boost, memory.boost_epoch, epoch, step)
        self.memories.update(memory.id, boost=value, boost_epoch=epoch)
        self.event(memory.id, "boosted", {"why": why, "boost": round(value, 4)})

    def contradict(self, target: MemoryRecord, evidence_rows: list[dict], evidence: Iterable[str] = ()) -> None:
        """Counted against the memory, never a decrement; a habit contradicted twice goes pending. Never for a
        memory waiting for review: it is not memory yet."""
        assert not is_waiting(target), f"{target.id} waits for review: it is not contradicted"
        rows = [{**row, "contradicts": 1} for row in evidence_rows]
        if not self.memories.add_evidence(target.id, rows, self.run_id):
            return
        stats = self.memories.ledger(target.id)
        self.memories.update(target.id, contradictions=stats.contradictions, updated_at=self.stamp)
        refreshed = self.refresh(target)
        self.note(ChangeKind.CONTRADICTED, refreshed, evidence)
        if refreshed.live and refreshed.state in (State.CANDIDATE, State.ACTIVE, State.QUEUED) \
                and habit_set_aside(refreshed, stats.contradictions):
            self.set_pending(refreshed, evidence)

    def set_pending(self, memory: MemoryRecord, evidence: Iterable[str] = ()) -> None:
        self.note(ChangeKind.PENDING, self._set_state(memory, State.PENDING), evidence)

    # ---- replacing -----------------------------------------------------------
    def supersede(self, old: MemoryRecord, new: MemoryRecord) -> None:
        """Retire ``old`` in favour of ``new``; the old row stays as history."""
        self.memories.update(old.id, state=State.SUPERSEDED, superseded_by=new.id, superseded_at=self.stamp,
                             invalid_at=new.valid_at or self.stamp, layer2_until=None, updated_at=self.stamp)
        self.memories.event(old.id, self.stamp, "superseded", {"by": new.id}, self.run_id)
        self._close_reviews_of(old.id)

    def retract(self, target: MemoryRecord, retraction: MemoryRecord) -> None:
        """A retraction supersedes with no successor text: the statement that took it back."""
        self.memories.update(target.id, state=State.RETRACTED, superseded_by=retraction.id,
                             superseded_at=self.stamp, invalid_at=retraction.valid_at or self.stamp,
                             layer2_until=None, updated_at=self.stamp)
        self.memories.event(target.id, self.stamp, "retracted", {"by": retraction.id}, self.run_id)
        self._close_reviews_of(target.id)

    def lose_evidence(self, memory: MemoryRecord, message_ids: list[str], why: str) -> bool:
        """The user took these messages back (deleted, or edited away after a flush read them): they no longer
        count for ``memory``. A live memory left with no supporting line is retracted — out of the prompt,
        history with ``why`` in its audit trail; one with other lines keeps its state and layer, its days
        counted again from what is left. Returns whether it was retracted."""
        self.memories.drop_evidence(memory.id, message_ids)
        stats = self.memories.ledger(memory.id)
        detail = {"why": why, "messages": sorted(message_ids)}
        if stats.days or memory.history:
            self.memories.update(memory.id, contradictions=stats.contradictions, updated_at=self.stamp,
                                 last_evidence_epoch=stats.last_epoch or memory.last_evidence_epoch)
            self.event(memory.id, "lost evidence", {**detail, "days_left": stats.days})
            return False
        self.memories.update(memory.id, state=State.RETRACTED, pinned=0, layer2_until=None, superseded_at=self.stamp,
                             invalid_at=self.stamp, updated_at=self.stamp)
        self.note(ChangeKind.RETRACTED, self.refresh(memory), detail=detail)
        self._close_reviews_of(memory.id)
        return True

    def merge(self, target: MemoryRecord, merged: MemoryRecord, evidence: Iterable[str] = ()) -> MemoryRecord:
        """``merged`` (the new wording) takes the kept memory's evidence and supersedes it."""
        self.memories.copy_evidence(target.id, merged.id)
        self.supersede(target, merged)
        self.counters.superseded += 1
        merged = self.refresh(merged)
        self.note(ChangeKind.MERGED, merged, evidence, target.text)
        return merged

    def merge_duplicate(self, duplicate: MemoryRecord, keeper: MemoryRecord) -> MemoryRecord:
        """A kept memory that says what ``keeper`` says (``merge.py``): ``keeper`` takes its evidence and replaces it,
        from now (``merge`` dates the end by the successor's start, which for an older keeper is before it began)."""
        kept = self.merge(duplicate, keeper)
        self.memories.update(duplicate.id, invalid_at=self.stamp)
        self.memories.update(kept.id, updated_at=self.stamp, last_evidence_epoch=max(  # its newest line, either's
            kept.last_evidence_epoch or 0, duplicate.last_evidence_epoch or 0) or None)  # (and undo sees it changed)
        return self.refresh(kept)

    def fold_into(self, statement: MemoryRecord, target: MemoryRecord, verdict: str) -> None:
        """A proposal judged SAME as (or CONTRADICTing) a kept memory lives on only as that memory's evidence."""
        self.memories.update(statement.id, state=State.SUPERSEDED, superseded_by=target.id,
                             superseded_at=self.stamp, invalid_at=self.stamp, layer2_until=None,
                             updated_at=self.stamp)
        self.event(statement.id, "folded into", {"target": target.id, "verdict": str(verdict)})

    def _close_reviews_of(self, memory_id: str) -> None:
        """A memory that became history has nothing left to approve, and nothing may change it any more:
        close its own open reviews, and those proposing to replace it (their proposal returns to
        candidate, so a later flush weighs it against what is live now)."""
        for row in self.memories.queue_for_memory(memory_id):
            self.memories.queue_resolve(row["id"], "superseded", self.stamp)
            if row["memory_id"] == memory_id:
                continue
            proposal = self.memories.get(row["memory_id"])
            if proposal is not None and proposal.state is State.QUEUED:
                self._set_state(proposal, State.CANDIDATE)
                self.event(proposal.id, "review closed", {"queue": row["id"], "history": memory_id})

    def undo_decision(self, rows: DecisionRows, changes: list[tuple[str, dict | None, dict | None]],
                      queue_ids: list[int]) -> None:
        """Put back every row a review decision changed (``memory/undo.py`` checked none changed since): what it
        added goes first (a ledger row before its memory), then what it changed or removed comes back as it was."""
        order = list(TABLES)
        added = sorted((c for c in changes if c[1] is None), key=lambda c: -order.index(c[0]))
        for table, before, after in added + sorted((c for c in changes if c[1] is not None),
                                                   key=lambda c: order.index(c[0])):
            rows.put_back(table, before, after)
        for memory_id in sorted({b["id"] for table, b, _a in changes if table == "memories" and b}):
            self.event(memory_id, "undone", {"queue": queue_ids})

    # ---- the layers ----------------------------------------------------------
    def activate(self, memory: MemoryRecord) -> MemoryRecord:
        memory = self._set_state(memory, State.ACTIVE, layer2_until=None)
        self.memories.event(memory.id, self.stamp, "activated", {}, self.run_id)
        return memory

    def approve(self, memory: MemoryRecord) -> MemoryRecord:
        """The user approved it into lasting memory. The lines said again while it waited become its evidence
        (``memory/waiting.py``). One with no confidence of its own (a pasted list's line, which no file gave a
        number) takes the user's word, 1.0: left at 0 it would decay out at the next flush."""
        again = said_again_rows(self.memories, memory.id)
        if again and self.memories.add_evidence(memory.id, again, self.run_id):
            memory = self.refresh(memory)
        twin = self._kept_alike(memory)
        if twin is not None:  # the same thing is kept already (or was approved a moment ago): one memory
            self.memories.copy_evidence(memory.id, twin.id)
            self.fold_into(memory, twin, Verdict.SAME)
            return twin if twin.state is State.ACTIVE else self.activate(twin)
        if not memory.confidence:
            memory = self._set_state(memory, memory.state, confidence=USER_WORD, score=max(memory.score or 0, USER_WORD))
        return self.activate(memory)

    def _kept_alike(self, memory: MemoryRecord) -> MemoryRecord | None:
        """A live memory, not waiting, that says the same change as ``memory`` (``alike.same_change``)."""
        mine = (memory.slot, memory.kind, memory.text)
        return next((m for m in self.memories.live() if m.id != memory.id and not is_waiting(m)
                     and same_change(mine, (m.slot, m.kind, m.text))), None)

    def layer2(self, memory: MemoryRecord, score: float, evidence: Iterable[str] = ()) -> None:
        """Recent memory for ``layer2_hours``, for a proposal that scored at least the threshold."""
        if score < self.settings.layer2_threshold or not memory.state.layer2_eligible:
            return
        until = (self.now + timedelta(hours=self.settings.layer2_hours)).timestamp()
        was_live = bool(memory.layer2_until and memory.layer2_until > self.now.timestamp())
        self.memories.update(memory.id, layer2_until=until)
        self.counters.layer2 += 1
        if not was_live:
            self.note(ChangeKind.LAYER2, memory, evidence, layer=2)

    def promote(self, memory: MemoryRecord, score: float, evidence: Iterable[str] = ()) -> None:
        """Promote by the rules: Layer 2 by score; Layer 1 by distinct days of evidence.

        Only what passed the guard (``memory/guard.py``) reaches here: a statement not in the user's
        words is dropped at the flush, never proposed.
        """
        if memory.state is not State.CANDIDATE:
            self.layer2(memory, score, evidence)
            return
        stats = self.memories.ledger(memory.id)
        need = required_days(stats.kinds | {memory.kind})
        if need is None or stats.days < need:
            self.layer2(memory, score, evidence)
            return
        if habit_set_aside(memory, stats.contradictions):
            self.set_pending(memory, evidence)
            return
        confidence = memory.confidence or 0.0
        if self._learned is None:
            self._learned = learning.learned(self.memories.store)
        needed = learning.threshold(self.settings.auto_approve_confidence, self._learned, memory.slot, Action.LAYER1)
        sure = confidence >= needed and not self.settings.ask_before_layer1
        if sure and not self.small_model:
            memory = self.activate(memory)
            self.counters.layer1 += 1
            self.note(ChangeKind.LAYER1, memory, evidence, layer=1)
            return
        reason = (f"reached Layer 1 on {stats.days} day(s) of evidence; "
                  + (self.held_reason() if sure
                     else "you asked to approve every Layer 1 change" if self.settings.ask_before_layer1
                     else f"confidence {confidence:.2f} is below {needed:.2f}"))
        memory = self.hold_for_review(memory, Action.LAYER1, reason, confidence, None, evidence,
                                      held="small_model" if sure else None)
        self.layer2(self.refresh(memory), score, evidence)

    def held_reason(self) -> str:
        """Why a change that would have gone into Layer 1 by itself waits for the user instead."""
        return (f"made with a small model ({self.small_model}), whose memory is unreliable: nothing from it goes "
                f"into lasting memory without your approval")

    # ---- prune -------------------------------------------------------------------
    def expire_review(self, row: dict) -> None:
        """A review unanswered past its deadline closes, never confirmed: a proposed supersession (or merge,
        or unsure judgement), and anything imported or proposed by another app, is set aside as pending; any other
        proposal returns to candidate."""
        self.memories.queue_resolve(row["id"], "expired", self.stamp)
        memory = self.memories.get(row["memory_id"])
        if memory is None:
            return
        if memory.state is State.QUEUED:
            outside = row.get("held") in ONLY_IF_APPROVED  # an import, another app's, words unsure: set aside
            back = State.PENDING if row["action"] in EXPIRES_TO_PENDING or outside else State.CANDIDATE
            self.memories.update(memory.id, state=back, updated_at=self.stamp)
        self.note(ChangeKind.EXPIRED, memory, detail={"queue": row["id"], "action": row["action"]})

    def expire_layer2(self, memory: MemoryRecord) -> None:
        self.memories.update(memory.id, layer2_until=None)
        self.note(ChangeKind.EXPIRED, memory, detail={"layer": 2})

    def dormant(self, memory: MemoryRecord, reason: str) -> None:
        self.memories.update(memory.id, state=State.DORMANT, updated_at=self.stamp)
        self.note(ChangeKind.DORMANT, memory, detail={"reason": reason})
