"""Stage 4, consolidate: the program decides; the LLM only proposed and judged.

Input: items, verdicts, the memory store, settings, the time. Output: changed
rows (inside the caller's transaction) and a list of ``Change``s.

Rules (DESIGN §4–5):
- The evidence ledger has one row per (memory, message) with its day and
  session; repeats inside one session count once, and what counts is distinct
  days. Layer 1 candidacy: explicit/correction on 1 day, fact on 2, habit on 3;
  with mixed kinds the loosest rule applies.
- Contradicting evidence never decrements: it is kept with a flag; a habit with
  2 contradictions goes ``pending`` (kept, out of the prompt).
- SUPERSEDE: ``old.superseded_by = new.id``, ``superseded_at = now``,
  ``invalid_at = new.valid_at``; a retraction supersedes with no successor text.
- Layer 2: items scoring at least the threshold, for ``layer2_hours``.
- Layer 1: auto-approved when confidence ≥ 0.8 and no active Layer 1 item is
  superseded, merged or retracted; otherwise (or with "ask before any Layer 1
  change") the review queue. Queued items never confirm silently.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..settings import FlushSettings
from ..store.memories import MemoryRecord, MemoryStore
from ..types import format_ts
from .records import NO_VERDICT, Change, Item, Verdict

log = logging.getLogger(__name__)

REQUIRED_DAYS = {"explicit": 1, "correction": 1, "fact": 2, "habit": 3}
HABIT_CONTRADICTIONS_TO_PENDING = 2
DECISIVE = ("SAME", "MERGE", "SUPERSEDE", "CONTRADICT")


def required_days(kinds) -> int | None:
    """Days of evidence needed for Layer 1; the loosest rule of the kinds present."""
    needs = [REQUIRED_DAYS[k] for k in kinds if k in REQUIRED_DAYS]
    return min(needs) if needs else None


def memory_id_for(item: Item, salt: str = "") -> str:
    digest = hashlib.sha256("\x1f".join([item.slot, item.text, item.kind, *item.evidence, salt])
                            .encode("utf-8")).hexdigest()
    return f"mem-{digest[:8]}"


@dataclass
class Counters:
    layer1: int = 0
    layer2: int = 0
    superseded: int = 0
    queued: int = 0


class Consolidator:
    def __init__(self, memories: MemoryStore, settings: FlushSettings, now: datetime, run_id: int | None,
                 messages: dict[str, dict]) -> None:
        self.memories = memories
        self.settings = settings
        self.now = now
        self.stamp = format_ts(now)
        self.run_id = run_id
        self.messages = messages  # message id -> archive row (day, session, ts, text, role)
        self.changes: list[Change] = []
        self.counters = Counters()
        self.item_memory: dict[int, str] = {}  # item index -> memory id it became or reinforced
        self.unmatched_retractions: list[Item] = []

    # ---- helpers -------------------------------------------------------
    def _evidence_rows(self, item: Item, contradicts: bool = False) -> list[dict]:
        rows = []
        for mid in item.evidence:
            msg = self.messages.get(mid)
            if msg is None:
                continue
            rows.append({"message_id": mid, "day": msg["day"], "session": msg["session"], "kind": item.kind,
                         "contradicts": int(contradicts), "persona": item.persona})
        return rows

    def _last_epoch(self, item: Item) -> float:
        """When the item's latest evidence was said: decay and recency count from the last support."""
        said = [self.messages[m]["ts_epoch"] for m in item.evidence if m in self.messages]
        return max(said, default=item.first_epoch)

    def _evidence_lines(self, ids: list[str]) -> list[dict]:
        return [{"id": i, "ts": self.messages[i]["ts"], "text": self.messages[i]["text"]}
                for i in ids if i in self.messages]

    def _change(self, kind: str, memory: MemoryRecord, item: Item | None = None, old_text: str = "",
                layer: int = 0) -> None:
        evidence = self._evidence_lines(item.evidence) if item else []
        self.changes.append(Change(kind, memory.id, memory.text, old_text, layer, evidence))
        self.memories.event(memory.id, self.stamp, kind, {"old_text": old_text} if old_text else {}, self.run_id)

    def _queue(self, memory: MemoryRecord, action: str, reason: str, confidence: float,
               target: MemoryRecord | None = None, item: Item | None = None, verdict: str | None = None) -> None:
        deadline = (self.now + timedelta(days=self.settings.review_deadline_days)).timestamp()
        self.memories.queue_add({
            "memory_id": memory.id, "action": action, "target_id": target.id if target else None,
            "text": memory.text, "old_text": target.text if target else "", "reason": reason,
            "confidence": confidence, "created_at": self.stamp, "deadline_epoch": deadline, "run_id": self.run_id,
            "verdict": verdict})
        self.counters.queued += 1
        self._change("queued", memory, item, target.text if target else "")

    def _new_memory(self, item: Item, state: str = "candidate", text: str | None = None,
                    kind: str | None = None, salt: str = "") -> MemoryRecord:
        memory_id = memory_id_for(item, salt)
        existing = self.memories.get(memory_id)
        if existing is not None:  # the same item seen before (a rerun): reuse, never double
            return existing
        memory = MemoryRecord(
            id=memory_id, text=text or item.text, slot=item.slot, kind=kind or item.kind, state=state,
            score=item.score, confidence=item.score, persona=item.persona, style=item.style,
            valid_at=self.messages[item.evidence[0]]["ts"] if item.evidence[0] in self.messages else self.stamp,
            last_evidence_epoch=self._last_epoch(item), created_at=self.stamp, updated_at=self.stamp,
            created_run=self.run_id)
        self.memories.insert(memory)
        self.memories.add_evidence(memory.id, self._evidence_rows(item), self.run_id)
        return memory

    def _is_layer1(self, memory: MemoryRecord) -> bool:
        return memory.state == "active" and not memory.superseded_by

    # ---- the rules -----------------------------------------------------
    def run(self, items: list[Item], verdicts: list[Verdict]) -> None:
        by_item: dict[int, list[Verdict]] = {}
        for verdict in verdicts:
            by_item.setdefault(verdict.item_index, []).append(verdict)
        for item in sorted(items, key=lambda i: i.index):
            self.apply(item, by_item.get(item.index, []))

    def _target(self, verdict: Verdict) -> MemoryRecord | None:
        target_id = verdict.target_id
        if target_id.startswith("item:"):
            target_id = self.item_memory.get(int(target_id[5:]), "")
        memory = self.memories.get(target_id) if target_id else None
        if memory is None or memory.superseded_by or memory.state not in (
                "candidate", "active", "queued", "pending", "dormant"):
            return None
        return memory

    def apply(self, item: Item, verdicts: list[Verdict]) -> None:
        threshold = self.settings.judge_confidence
        sure = [v for v in verdicts if v.confidence >= threshold]
        unsure = [v for v in verdicts if v.confidence < threshold]
        order = {name: n for n, name in enumerate(DECISIVE)}
        decisive = sorted((v for v in sure if v.verdict in DECISIVE), key=lambda v: order[v.verdict])
        if item.kind == "retraction":
            return self._apply_retraction(item, decisive, unsure)
        for verdict in decisive:
            target = self._target(verdict)
            if target is None:
                continue
            if verdict.verdict == "SAME":
                return self.reinforce(target, item)
            if verdict.verdict == "MERGE":
                return self.merge(target, item, verdict.merged_text or f"{target.text} / {item.text}",
                                  verdict.confidence)
            if verdict.verdict == "SUPERSEDE":
                return self.supersede_with(target, item, verdict.confidence)
            if verdict.verdict == "CONTRADICT":
                return self.contradict(target, item)
        if unsure:
            best = max(unsure, key=lambda v: v.confidence)
            target = self._target(best)
            if target is not None:
                memory = self._new_memory(item, state="queued")
                self.item_memory[item.index] = memory.id
                self._queue(memory, "judge", _unsure_reason(best), best.confidence, target, item,
                            verdict=best.verdict)
                return
        memory = self._new_memory(item)
        self.item_memory[item.index] = memory.id
        self._change("new", memory, item)
        self.evaluate(memory, item)

    def reinforce(self, target: MemoryRecord, item: Item) -> None:
        added = self.memories.add_evidence(target.id, self._evidence_rows(item), self.run_id)
        self.item_memory[item.index] = target.id
        self.memories.update(target.id, score=max(target.score or 0, item.score),
                             confidence=max(target.confidence or 0, item.score),
                             last_evidence_epoch=max(target.last_evidence_epoch or 0, self._last_epoch(item)),
                             updated_at=self.stamp)
        if target.state == "dormant" and added:
            # New support wakes a memory that went dormant (cap or decay); the rules decide again.
            self.memories.update(target.id, state="candidate")
        refreshed = self.memories.get(target.id)
        if added:
            self._change("reinforced", refreshed, item)
        self.evaluate(refreshed, item)

    def merge(self, target: MemoryRecord, item: Item, merged_text: str, confidence: float) -> None:
        merged = self._new_memory(item, state="candidate", text=merged_text, salt="merge:" + target.id)
        self.item_memory[item.index] = merged.id
        self.memories.copy_evidence(target.id, merged.id)
        if self._is_layer1(target):
            self.memories.update(merged.id, state="queued")
            self._queue(self.memories.get(merged.id), "merge", "rewords an active Layer 1 memory",
                        confidence, target, item)
            return
        supersede(self.memories, target, merged, self.now, self.run_id)
        self.counters.superseded += 1
        self._change("merged", merged, item, target.text)
        self.evaluate(self.memories.get(merged.id), item)

    def supersede_with(self, target: MemoryRecord, item: Item, confidence: float) -> None:
        new = self._new_memory(item)
        self.item_memory[item.index] = new.id
        if self._is_layer1(target) or target.pinned:
            self.memories.update(new.id, state="queued")
            self._queue(self.memories.get(new.id), "supersede", "replaces an active Layer 1 memory",
                        confidence, target, item)
            self._layer2(self.memories.get(new.id), item)
            return
        supersede(self.memories, target, new, self.now, self.run_id)
        self.counters.superseded += 1
        self._change("superseded", new, item, target.text)
        self.evaluate(self.memories.get(new.id), item)

    def contradict(self, target: MemoryRecord, item: Item) -> None:
        added = self.memories.add_evidence(target.id, self._evidence_rows(item, contradicts=True), self.run_id)
        self.item_memory[item.index] = target.id
        if not added:
            return
        stats = self.memories.ledger(target.id)
        self.memories.update(target.id, contradictions=stats.contradictions, updated_at=self.stamp)
        refreshed = self.memories.get(target.id)
        self._change("contradicted", refreshed, item)
        if (refreshed.kind == "habit" and stats.contradictions >= HABIT_CONTRADICTIONS_TO_PENDING
                and refreshed.state in ("candidate", "active", "queued") and not refreshed.pinned):
            self.memories.update(target.id, state="pending", updated_at=self.stamp)
            self._change("pending", self.memories.get(target.id), item)

    def _apply_retraction(self, item: Item, decisive: list[Verdict], unsure: list[Verdict]) -> None:
        for verdict in decisive:
            target = self._target(verdict)
            if target is None:
                continue
            retraction = self._new_memory(item, state="retraction")
            self.item_memory[item.index] = retraction.id
            if self._is_layer1(target) or target.pinned:
                self._queue(retraction, "retract", "takes back an active Layer 1 memory",
                            verdict.confidence, target, item)
                return
            retract(self.memories, target, retraction, self.now, self.run_id)
            self.counters.superseded += 1
            self._change("retracted", retraction, item, target.text)
            return
        if unsure:
            best = max(unsure, key=lambda v: v.confidence)
            target = self._target(best)
            if target is not None:
                retraction = self._new_memory(item, state="retraction")
                self.item_memory[item.index] = retraction.id
                self._queue(retraction, "retract", f"unsure whether this takes back the kept memory "
                            f"(confidence {best.confidence:.2f}): {best.reasoning}", best.confidence, target, item)
                return
        self.unmatched_retractions.append(item)

    def _layer2(self, memory: MemoryRecord, item: Item) -> None:
        if item.score < self.settings.layer2_threshold or memory.state not in ("candidate", "queued"):
            return
        until = (self.now + timedelta(hours=self.settings.layer2_hours)).timestamp()
        was_live = bool(memory.layer2_until and memory.layer2_until > self.now.timestamp())
        self.memories.update(memory.id, layer2_until=until)
        self.counters.layer2 += 1
        if not was_live:
            self._change("layer2", memory, item, layer=2)

    def evaluate(self, memory: MemoryRecord, item: Item) -> None:
        """Promote by the rules: Layer 2 by score; Layer 1 by distinct days of evidence.

        An item not found in the user's words (see ``words.py``) goes to the
        review queue and nowhere else: neither layer takes it unreviewed.
        """
        if not item.grounded:
            if memory.state == "candidate":
                self.memories.update(memory.id, state="queued", updated_at=self.stamp)
                self._queue(self.memories.get(memory.id), "words",
                            "not found in your words: the text shares almost nothing with the messages it cites",
                            memory.confidence or 0.0, None, item)
            return
        if memory.state != "candidate":
            self._layer2(memory, item)
            return
        stats = self.memories.ledger(memory.id)
        need = required_days(stats.kinds | {memory.kind})
        if need is None or stats.days < need:
            self._layer2(memory, item)
            return
        if memory.kind == "habit" and stats.contradictions >= HABIT_CONTRADICTIONS_TO_PENDING:
            self.memories.update(memory.id, state="pending", updated_at=self.stamp)
            self._change("pending", memory, item)
            return
        confidence = memory.confidence or 0.0
        if confidence >= self.settings.auto_approve_confidence and not self.settings.ask_before_layer1:
            activate(self.memories, memory, self.now, self.run_id)
            self.counters.layer1 += 1
            self._change("layer1", self.memories.get(memory.id), item, layer=1)
            return
        self.memories.update(memory.id, state="queued", updated_at=self.stamp)
        reason = (f"reached Layer 1 on {stats.days} day(s) of evidence; "
                  + ("you asked to approve every Layer 1 change" if self.settings.ask_before_layer1
                     else f"confidence {confidence:.2f} is below {self.settings.auto_approve_confidence:.2f}"))
        self._queue(self.memories.get(memory.id), "layer1", reason, confidence, None, item)
        self._layer2(self.memories.get(memory.id), item)


def _unsure_reason(verdict: Verdict) -> str:
    if verdict.reasoning == NO_VERDICT:
        return "the judge could not tell how this relates to the kept memory; decide yourself"
    return (f"the judge leaned to {verdict.verdict} but was unsure (confidence {verdict.confidence:.2f}): "
            f"{verdict.reasoning}")


# ---- transitions shared with MemoryService (approvals) ----------------------
def activate(memories: MemoryStore, memory: MemoryRecord, now: datetime, run_id: int | None = None) -> None:
    memories.update(memory.id, state="active", layer2_until=None, updated_at=format_ts(now))
    memories.event(memory.id, format_ts(now), "activated", {}, run_id)


def supersede(memories: MemoryStore, old: MemoryRecord, new: MemoryRecord, now: datetime,
              run_id: int | None = None) -> None:
    """Retire ``old`` in favour of ``new``; the old row stays as history."""
    stamp = format_ts(now)
    memories.update(old.id, state="superseded", superseded_by=new.id, superseded_at=stamp,
                    invalid_at=new.valid_at or stamp, layer2_until=None, updated_at=stamp)
    memories.event(old.id, stamp, "superseded", {"by": new.id}, run_id)
    close_reviews_of(memories, old.id, stamp)


def retract(memories: MemoryStore, target: MemoryRecord, retraction: MemoryRecord, now: datetime,
            run_id: int | None = None) -> None:
    """A retraction supersedes with no successor text."""
    stamp = format_ts(now)
    memories.update(target.id, state="retracted", superseded_by=retraction.id, superseded_at=stamp,
                    invalid_at=retraction.valid_at or stamp, layer2_until=None, updated_at=stamp)
    memories.event(target.id, stamp, "retracted", {"by": retraction.id}, run_id)
    close_reviews_of(memories, target.id, stamp)


def close_reviews_of(memories: MemoryStore, memory_id: str, stamp: str) -> None:
    """A memory that became history has nothing left to approve: close its own open reviews."""
    for row in memories.queue_for_memory(memory_id):
        if row["memory_id"] == memory_id:
            memories.queue_resolve(row["id"], "superseded", stamp)
