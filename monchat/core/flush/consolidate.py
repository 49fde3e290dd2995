"""Stage 4, consolidate: the program decides; the LLM only proposed and judged.

Input: items, the judge's verdicts, the memory store, settings, the time. Output: changed rows
(inside the caller's transaction) and a list of ``Change``s. The state changes themselves are the
memory domain's (``core/memory/transitions.py``, shared with the review queue); this stage turns
each item and its verdicts into them:

- The evidence ledger has one row per (memory, message) with its day and session; what counts
  for Layer 1 is distinct days (``core/memory/rules.py``).
- Every sure verdict acts on its own target. The memory the statement is the SAME as is
  reinforced, or the MERGE target is reworded into a new memory; every memory it SUPERSEDEs (or,
  for a retraction, takes back) is retired pointing at that surviving memory; each CONTRADICTed
  memory gets the evidence flagged. Layer 1 and pinned targets go through the review queue.
- Unsure verdicts only: the statement waits in the review queue with the judge's leaning.
- No verdict: a new memory, promoted by the rules; a preference with a live preference in its slot
  is a new version of it (``memory/preferences.py``).
- A change to a preference (a new version, a merge) waits in the review queue unless auto-approved
  (``preferences.asks_first``), whatever layer the old version is in.
- A proposal the guard was not sure of (``Item.unsure``) waits in the review queue, marked so, with the lines it
  cites in its reason: never in a layer, never judged against kept memories (``guard_unsure.py``).
- With a model known to be small (``small_model``) nothing enters Layer 1 by itself: what auto-approval
  would have applied, a preference's new version included, waits with ``held = "small_model"``.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime

from ..memory import preferences
from ..records.memory import MemoryRecord
from ..memory.rules import merged_text
from ..memory.guard_unsure import UNSURE_REASON
from ..vocabulary.states import DECISIVE, Action, ChangeKind, Held, Kind, State, Verdict
from ..memory.transitions import Transitions, guarded
from ..memory.waiting import is_waiting, supports
from ..settings import FlushSettings
from ..store.memories import MemoryStore
from .records import NO_VERDICT, Item, Judgement

log = logging.getLogger(__name__)

PREFERENCE_REASON = ("a new version of a preference: it waits for your review "
                     "(unless flush.auto_approve_preferences)")


def memory_id_for(item: Item, salt: str = "") -> str:
    digest = hashlib.sha256("\x1f".join([item.slot, item.text, item.kind, *item.evidence, salt])
                            .encode("utf-8")).hexdigest()
    return f"mem-{digest[:8]}"


class Consolidator:
    def __init__(self, memories: MemoryStore, settings: FlushSettings, now: datetime, run_id: int | None,
                 messages: dict[str, dict], small_model: str = "") -> None:
        """
        Args:
            small_model: the flush's model, when it is known to be small: nothing goes into Layer 1 unasked.
        """
        self.memories = memories
        self.settings = settings
        self.now = now
        self.messages = messages  # message id -> archive row (day, session, ts, text, role)
        self.t = Transitions(memories, settings, now, run_id, describe=self._evidence_lines)
        self.t.small_model = small_model
        self.changes = self.t.changes
        self.counters = self.t.counters
        self.item_memory: dict[int, str] = {}  # item index -> memory id it became or reinforced
        self.unmatched_retractions: list[Item] = []
        self.unsure = 0  # proposals sent to review because the guard was not sure of their words

    # ---- an item's evidence ----------------------------------------------
    def _evidence_rows(self, item: Item) -> list[dict]:
        rows = []
        for mid in item.evidence:
            msg = self.messages.get(mid)
            if msg is None:
                continue
            rows.append({"message_id": mid, "day": msg["day"], "session": msg["session"], "kind": item.kind,
                         "contradicts": 0, "persona": item.persona})
        return rows

    def _last_epoch(self, item: Item) -> float:
        """When the item's latest evidence was said: decay and recency count from the last support."""
        said = [self.messages[m]["ts_epoch"] for m in item.evidence if m in self.messages]
        return max(said, default=item.first_epoch)

    def _evidence_lines(self, ids: list[str]) -> list[dict]:
        return [{"id": i, "ts": self.messages[i]["ts"], "text": self.messages[i]["text"]}
                for i in ids if i in self.messages]

    def _new_memory(self, item: Item, state: State = State.CANDIDATE, text: str | None = None,
                    salt: str = "") -> MemoryRecord:
        first = self.messages.get(item.evidence[0])
        memory = MemoryRecord(
            id=memory_id_for(item, salt), text=text or item.text, slot=item.slot, kind=item.kind, state=state,
            score=item.score, confidence=item.score, persona=item.persona, style=item.style,
            valid_at=first["ts"] if first else self.t.stamp, last_evidence_epoch=self._last_epoch(item),
            created_at=self.t.stamp, updated_at=self.t.stamp, created_run=self.t.run_id)
        memory = self.t.create(memory, self._evidence_rows(item))
        self.item_memory[item.index] = memory.id
        self._proposed(memory.id, item)
        return memory

    def _proposed(self, memory_id: str, item: Item) -> None:
        """Record who proposed what now becomes (or supports) this memory: its review row lists them."""
        known = self.t.proposers.setdefault(memory_id, [])
        known.extend(p for p in item.proposers or [item.persona] if p not in known)

    # ---- the rules ---------------------------------------------------------
    def run(self, items: list[Item], verdicts: list[Judgement]) -> None:
        by_item: dict[int, list[Judgement]] = {}
        for verdict in verdicts:
            by_item.setdefault(verdict.item_index, []).append(verdict)
        for item in sorted(items, key=lambda i: i.index):
            self.apply(item, by_item.get(item.index, []))

    def _target(self, verdict: Judgement) -> MemoryRecord | None:
        target_id = verdict.target_id
        if target_id.startswith("item:"):
            target_id = self.item_memory.get(int(target_id[5:]), "")
        memory = self.memories.get(target_id) if target_id else None
        return memory if memory is not None and memory.live else None

    def _decisive(self, sure: list[Judgement]) -> list[tuple[Judgement, MemoryRecord]]:
        """Each live target once, with its sure verdict, in the order SAME, MERGE, SUPERSEDE, CONTRADICT.

        Within one verdict, targets the program may change come before Layer 1 and pinned ones, so the
        surviving memory is made by a change applied now rather than one that waits for review.
        """
        order = {name: n for n, name in enumerate(DECISIVE)}
        found: list[tuple[Judgement, MemoryRecord]] = []
        seen: set[str] = set()
        for verdict in sorted((v for v in sure if v.verdict in order), key=lambda v: order[v.verdict]):
            target = self._target(verdict)
            if target is not None and target.id not in seen:
                seen.add(target.id)
                found.append((verdict, target))
        return sorted(found, key=lambda pair: (order[pair[0].verdict], guarded(pair[1])))

    def apply(self, item: Item, verdicts: list[Judgement]) -> None:
        verdicts, heard = self._apart_from_waiting(item, verdicts)
        if heard and not verdicts:  # the same as what waits for review: one row, the line kept beside it
            return
        threshold = self.settings.judge_confidence
        sure = [v for v in verdicts if v.confidence >= threshold]
        unsure = [v for v in verdicts if v.confidence < threshold]
        decisive = self._decisive(sure)
        if item.unsure:
            return self._apply_unsure(item)
        if item.kind == Kind.RETRACTION:
            return self._apply_retraction(item, decisive, unsure)
        if decisive:
            return self._apply_sure(item, decisive)
        if unsure:
            best = max(unsure, key=lambda v: v.confidence)
            target = self._target(best)
            if target is not None:
                memory = self._new_memory(item, state=State.QUEUED)
                self.t.queue(memory, Action.JUDGE, _unsure_reason(best), best.confidence, target, item.evidence,
                             verdict=best.verdict, merged_text=best.merged_text or None)
                return
        older = self._same_slot_preference(item)
        if older is not None:  # the program sees a new version of a preference
            return self._apply_sure(item, [(Judgement("slot", item.index, older.id, Verdict.SUPERSEDE, item.score,
                                                      "a new preference in the same slot"), older)])
        memory = self._new_memory(item)
        self.t.note(ChangeKind.NEW, memory, item.evidence)
        self.t.promote(memory, item.score, item.evidence)

    def _apart_from_waiting(self, item: Item, verdicts: list[Judgement]) -> tuple[list[Judgement], bool]:
        """The verdicts about memories that are memory, without those about one waiting for review, which a flush
        never reinforces, rewords, contradicts or judges (``memory/waiting.py``); only a sure SUPERSEDE stays: the
        user's newer statement replaces the proposal, whose review closes (its words never entered memory). When
        the item is the same as a waiting memory (SAME or MERGE) and its lines say the waiting words themselves,
        they are kept beside it as said again. Returns the other verdicts and whether a waiting memory heard it."""
        kept, heard = [], False
        for verdict in verdicts:
            target = self._target(verdict)
            if target is None or not is_waiting(target) or (
                    verdict.verdict == Verdict.SUPERSEDE and verdict.confidence >= self.settings.judge_confidence):
                kept.append(verdict)
                continue
            lines = [self.messages[m]["text"] for m in item.evidence if m in self.messages]
            if verdict.verdict in (Verdict.SAME, Verdict.MERGE) and supports(target.text, lines):
                self.t.said_again(target, self._evidence_rows(item))
                heard = True
        return kept, heard

    def _apply_unsure(self, item: Item) -> None:
        """A proposal the guard was not sure is the user's words: it waits for review, beside the lines it cites,
        out of every layer; approved it is theirs, unanswered it is set aside (``Held.UNSURE_WORDS``)."""
        memory = self._new_memory(item, state=State.QUEUED)
        said = " / ".join(f"“{line['text']}”" for line in self._evidence_lines(item.evidence))
        self.t.queue(memory, Action.WORDS, f"{UNSURE_REASON}. You said: {said}", item.score, None, item.evidence,
                     held=Held.UNSURE_WORDS)
        self.unsure += 1

    def _same_slot_preference(self, item: Item) -> MemoryRecord | None:
        """The newest live preference (not one waiting for review) in the slot of a preference item."""
        if item.kind != Kind.PREFERENCE:
            return None
        same = [m for m in self.memories.same_slot(item.slot)
                if m.kind == Kind.PREFERENCE and m.state in (State.CANDIDATE, State.ACTIVE, State.DORMANT)]
        return max(same, key=lambda m: (m.valid_at or "", m.id), default=None)

    def _asks(self, item: Item, target: MemoryRecord, confidence: float) -> bool:
        """A change to a Layer 1 or pinned memory, or to a preference (impact-sensitive), asks first;
        with a small model, so does a preference's new version that would have been applied unasked."""
        if preferences.involved(target, kind=item.kind):
            return self._held(item, target, confidence) or preferences.asks_first(self.settings, confidence) \
                or bool(target.pinned)
        return guarded(target)

    def _held(self, item: Item, target: MemoryRecord, confidence: float) -> bool:
        """A preference change auto-approval would apply, held back because the flush's model is small."""
        return bool(self.t.small_model) and preferences.involved(target, kind=item.kind) \
            and not preferences.asks_first(self.settings, confidence) and not target.pinned

    def _preference_review(self, item: Item, target: MemoryRecord, confidence: float) -> dict:
        """The reason (and hold) of a preference change's review row."""
        if self._held(item, target, confidence):
            return {"reason": "a new version of a preference, " + self.t.held_reason(), "held": "small_model"}
        return {"reason": PREFERENCE_REASON}

    def _apply_sure(self, item: Item, decisive: list[tuple[Judgement, MemoryRecord]]) -> None:
        """The first verdict makes the surviving memory; every other target is reinforced or retired into it."""
        first, target = decisive[0]
        survivor = self._survivor(item, first, target)
        for verdict, other in decisive[1:]:
            fresh = self.memories.get(other.id)  # an earlier verdict of this item may have changed it
            if fresh is None or not fresh.live:
                continue
            other = fresh
            if verdict.verdict == Verdict.SAME:
                self.t.promote(self._reinforce(other, item), item.score, item.evidence)
            elif verdict.verdict in (Verdict.MERGE, Verdict.SUPERSEDE) and survivor is not None:
                into = self.memories.get(survivor)
                assert into is not None, survivor  # made or kept by the first verdict, a moment ago
                self._retire_into(other, into, item, verdict)
            elif verdict.verdict == Verdict.CONTRADICT:
                self.t.contradict(other, self._evidence_rows(item), item.evidence)

    def _survivor(self, item: Item, verdict: Judgement, target: MemoryRecord) -> str | None:
        """Apply the first sure verdict; return the id of the memory the statement now lives in."""
        if verdict.verdict == Verdict.SAME:
            self.t.promote(self._reinforce(target, item), item.score, item.evidence)
            return target.id
        if verdict.verdict == Verdict.MERGE:
            text = merged_text(verdict.merged_text, target.text, item.text)
            merged = self._new_memory(item, text=text, salt="merge:" + target.id)
            if self._asks(item, target, verdict.confidence):
                self.memories.copy_evidence(target.id, merged.id)
                why = self._preference_review(item, target, verdict.confidence) \
                    if preferences.involved(target, kind=item.kind) else {"reason": "rewords an active Layer 1 memory"}
                merged = self.t.hold_for_review(merged, Action.MERGE, why["reason"], verdict.confidence, target,
                                                item.evidence, held=why.get("held"))
                return merged.id
            merged = self.t.merge(target, merged, item.evidence)
            self.t.promote(merged, item.score, item.evidence)
            return merged.id
        if verdict.verdict == Verdict.SUPERSEDE:
            new = self._new_memory(item)
            preference = preferences.involved(target, kind=item.kind)
            if preference and self._asks(item, target, verdict.confidence):
                why = self._preference_review(item, target, verdict.confidence)
                # out of the prompt until approved: the old one speaks
                new = self.t.hold_for_review(new, Action.SUPERSEDE, why["reason"], verdict.confidence, target,
                                             item.evidence, held=why.get("held"))
                return new.id
            if guarded(target) and not preference:
                new = self.t.hold_for_review(new, Action.SUPERSEDE, "replaces an active Layer 1 memory",
                                             verdict.confidence, target, item.evidence)
                self.t.layer2(self.t.refresh(new), item.score, item.evidence)
                return new.id
            self.t.supersede(target, new)
            self.counters.superseded += 1
            self.t.note(ChangeKind.SUPERSEDED, new, item.evidence, target.text)
            self.t.promote(self.t.refresh(new), item.score, item.evidence)
            return new.id
        self.item_memory[item.index] = target.id  # CONTRADICT
        self.t.contradict(target, self._evidence_rows(item), item.evidence)
        return None

    def _reinforce(self, target: MemoryRecord, item: Item) -> MemoryRecord:
        self.item_memory.setdefault(item.index, target.id)
        self._proposed(target.id, item)
        return self.t.reinforce(target, self._evidence_rows(item), item.score, self._last_epoch(item),
                                item.evidence)

    def _retire_into(self, target: MemoryRecord, survivor: MemoryRecord, item: Item, verdict: Judgement) -> None:
        """A second memory the statement replaces: it is superseded by the surviving memory (or asked)."""
        if self._asks(item, target, verdict.confidence) or survivor.state is State.QUEUED:
            why = self._preference_review(item, target, verdict.confidence) \
                if preferences.involved(target, kind=item.kind) \
                else {"reason": "replaces an active Layer 1 memory" if guarded(target)
                      else "replaces a memory, with a change that waits for your review"}
            self.t.queue(survivor, Action.SUPERSEDE, why["reason"], verdict.confidence, target, item.evidence,
                         held=why.get("held"))
            return
        if verdict.verdict == Verdict.MERGE:
            self.memories.copy_evidence(target.id, survivor.id)
        self.t.supersede(target, survivor)
        self.counters.superseded += 1
        self.t.note(ChangeKind.SUPERSEDED, survivor, item.evidence, target.text)

    def _apply_retraction(self, item: Item, decisive: list[tuple[Judgement, MemoryRecord]],
                          unsure: list[Judgement]) -> None:
        """A retraction takes back every memory it is surely about; Layer 1 and pinned ones are asked."""
        if decisive:
            retraction = self._new_memory(item, state=State.RETRACTION)
            for verdict, target in decisive:
                if guarded(target):
                    self.t.queue(retraction, Action.RETRACT, "takes back an active Layer 1 memory",
                                 verdict.confidence, target, item.evidence)
                    continue
                self.t.retract(target, retraction)
                self.counters.superseded += 1
                self.t.note(ChangeKind.RETRACTED, retraction, item.evidence, target.text)
            return
        if unsure:
            best = max(unsure, key=lambda v: v.confidence)
            kept = self._target(best)
            if kept is not None:
                retraction = self._new_memory(item, state=State.RETRACTION)
                self.t.queue(retraction, Action.RETRACT, f"unsure whether this takes back the kept memory "
                             f"(confidence {best.confidence:.2f}): {best.reasoning}", best.confidence, kept,
                             item.evidence)
                return
        self.unmatched_retractions.append(item)


def _unsure_reason(verdict: Judgement) -> str:
    if verdict.reasoning == NO_VERDICT:
        return "the judge could not tell how this relates to the kept memory; decide yourself"
    return (f"the judge leaned to {verdict.verdict} but was unsure (confidence {verdict.confidence:.2f}): "
            f"{verdict.reasoning}")
