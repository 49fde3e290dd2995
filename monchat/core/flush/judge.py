"""Stage 3, match and judge: is a new item the same as, an update of, or apart from a kept memory?

Input: validated items, the memory store, backends. Output: one ``Judgement`` per
(item, candidate) pair. Candidates are live memories in the same slot plus
full-text neighbours by rank (never an absolute score threshold), and earlier
items of this flush in the same slot. The judge reasons first, then answers
SAME / MERGE / SUPERSEDE / CONTRADICT / COEXIST with a confidence; below the
threshold the escalation model is asked; a verdict still below it is marked
for the review queue by the program — never guessed.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from datetime import datetime

from ..backends.base import Backend
from ..errors import MalformedReply
from ..prompts import PromptLibrary
from ..store.memories import MemoryStore
from ..types import Coded, Turn
from ..asking.fit import cut_text, pack
from ..vocabulary.states import Kind, Verdict
from ..asking.ask import MIN_TEXT, ask_json, shared_text_room, text_tokens
from .records import NO_VERDICT, FlushCancelled, Item, Judgement, JudgeOutcome

log = logging.getLogger(__name__)

NEIGHBOURS = 3
BATCH = 10
# A verdict's share of an answer, in tokens (SmolLM2 wrote 60-110): a batch is at most as many pairs as the
# backend's answer room holds verdicts of this size (10 with 1,024 tokens; 6 with the embedded model's 640).
VERDICT_TOKENS = 100

JUDGE_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "verdicts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "pair": {"type": "string"},
                    "reasoning": {"type": "string", "maxLength": 400},
                    "verdict": {"type": "string", "enum": [str(v) for v in Verdict]},
                    "confidence": {"type": "number"},
                    "merged_text": {"type": "string", "maxLength": 300},
                },
                "required": ["pair", "reasoning", "verdict", "confidence"],
            },
        }
    },
    "required": ["verdicts"],
}


REASONING_MAX, MERGED_MAX = 400, 300
VERDICT_FRAME = 24  # a verdict's pair id, verdict, confidence, keys and quotes, in tokens
MERGED_MIN = 80  # characters a merged wording may always have


def judge_schema(batch: list, reasoning_max: int = REASONING_MAX, merged_max: int = MERGED_MAX) -> dict:
    """``JUDGE_SCHEMA`` for one batch: at most one verdict per pair, and only the pairs it shows.

    Bounded, so a small model cannot go on adding verdicts until its answer is cut off (a grammar
    built from it, as llama.cpp builds one, cannot name a pair that was not asked about).
    """
    verdicts = JUDGE_SCHEMA["properties"]["verdicts"]
    item = {**verdicts["items"], "properties": {
        **verdicts["items"]["properties"], "pair": {"type": "string", "enum": [p.id for p in batch]},
        "reasoning": {"type": "string", "maxLength": reasoning_max},
        "merged_text": {"type": "string", "maxLength": merged_max}}}
    return {**JUDGE_SCHEMA, "properties": {"verdicts": {**verdicts, "maxItems": len(batch), "items": item}}}


def batch_schema(backend: Backend, batch: list) -> dict:
    """The schema a batch is asked with: on a small answer allowance (the embedded model's) the reasoning and
    the merged wording are short enough that a verdict for every pair, each text at its limit, still fits."""
    sample = " ".join(p.item.text + p.old_text for p in batch)
    share = shared_text_room(backend, sample, REASONING_MAX + MERGED_MAX, max(1, len(batch)), VERDICT_FRAME)
    if share >= REASONING_MAX + MERGED_MAX:
        return judge_schema(batch)
    # A merged wording becomes a memory's text: it keeps room for a short sentence whatever the script.
    merged = max(MERGED_MIN, share * 3 // 7)
    return judge_schema(batch, max(MIN_TEXT, share - merged), merged)


def batch_size(backend: Backend, pairs: list) -> int:
    """Pairs a request may hold: ``BATCH``, or as many verdicts as the answer room holds (``VERDICT_TOKENS``
    each, and on a small allowance at least their shortest texts in the pairs' script: Japanese halves it)."""
    room = backend.json_answer_reserve()
    need = VERDICT_TOKENS
    if room < Backend.JSON_ANSWER_RESERVE and pairs:
        sample = " ".join(p.item.text + p.old_text for p in pairs)
        shortest = MIN_TEXT + MERGED_MIN
        need = max(need, text_tokens(backend, sample, shortest) + VERDICT_FRAME)
    return max(1, min(BATCH, room // need))


@dataclass
class Pair:
    id: str
    item: Item
    target_id: str  # memory id, or "item:N"
    old_text: str
    old_kind: str
    old_slot: str
    old_since: str
    new_text: str | None = None  # the item's text cut to fit one request, when it had to be

    def as_prompt(self) -> dict:
        new_text = self.item.text if self.new_text is None else self.new_text
        return {"id": self.id,
                "old": {"text": self.old_text, "kind": self.old_kind, "slot": self.old_slot, "since": self.old_since},
                "new": {"text": new_text, "kind": self.item.kind, "slot": self.item.slot,
                        "when": self.item.first_ts}}


def _since(valid_at: str | None) -> str:
    if not valid_at:
        return "?"
    try:
        return f"{datetime.fromisoformat(valid_at):%Y-%m-%d}"
    except ValueError:
        return valid_at[:10]


def build_pairs(items: list[Item], memories: MemoryStore) -> list[Pair]:
    pairs: list[Pair] = []
    for item in items:
        seen: set[str] = set()
        candidates = memories.same_slot(item.slot) + memories.neighbours(item.text, NEIGHBOURS)
        for memory in candidates:
            if memory.id in seen or memory.kind == Kind.RETRACTION:
                continue
            seen.add(memory.id)
            pairs.append(Pair(f"p{len(pairs) + 1}", item, memory.id, memory.text, memory.kind, memory.slot,
                              _since(memory.valid_at)))
        for earlier in items:
            if earlier.index >= item.index or earlier.slot != item.slot or earlier.kind == Kind.RETRACTION:
                continue
            pairs.append(Pair(f"p{len(pairs) + 1}", item, f"item:{earlier.index}", earlier.text, earlier.kind,
                              earlier.slot, earlier.first_ts[:10]))
    return pairs



def _ask(backend: Backend, prompts: PromptLibrary, pairs: list[Pair], outcome: JudgeOutcome,
         escalated: bool, cancel: threading.Event | None) -> dict[str, Judgement]:
    system = prompts.render("judge.md.j2")
    found: dict[str, Judgement] = {}
    for batch in fitted_batches(backend, prompts, system, pairs):
        if cancel is not None and cancel.is_set():
            raise FlushCancelled()
        user = render_pairs(prompts, batch)
        try:
            answer = ask_json(backend, system, user, batch_schema(backend, batch), outcome.usage)
        except MalformedReply as exc:
            outcome.errors.append(Coded(f"judge ({backend.describe()}): {exc.message}", "judge_unreadable"))
            continue
        by_id = {p.id: p for p in batch}
        for raw in answer.get("verdicts") or []:
            if not isinstance(raw, dict) or raw.get("pair") not in by_id:
                continue
            verdict = Verdict.parse(raw.get("verdict") or "")
            if verdict is None:
                continue
            try:
                confidence = min(1.0, max(0.0, float(raw.get("confidence", 0))))
            except (TypeError, ValueError):
                confidence = 0.0
            pair = by_id[raw["pair"]]
            found[pair.id] = Judgement(pair.id, pair.item.index, pair.target_id, verdict, confidence,
                                       str(raw.get("reasoning") or "")[:1000],
                                       str(raw.get("merged_text") or "").strip(), backend.describe(), escalated)
    return found


def render_pairs(prompts: PromptLibrary, pairs: list[Pair]) -> str:
    return prompts.render("judge_pairs.md.j2", pairs=[p.as_prompt() for p in pairs])


def fitted_batches(backend: Backend, prompts: PromptLibrary, system: str, pairs: list[Pair]) -> list[list[Pair]]:
    """Batches of at most ``BATCH`` pairs (fewer when the backend's answer room holds fewer verdicts)
    whose requests fit the backend's context.

    A pair too long for any request (a hand-written memory can be long) is
    judged on the start of both texts.
    """
    def request_cost(batch: list[Pair]) -> int:
        return backend.count_json_request(system, [Turn("user", render_pairs(prompts, batch))],
                                          batch_schema(backend, batch))

    def pair_cost(pair: Pair) -> int:
        return backend.count_text(render_pairs(prompts, [pair]))

    def shorten(pair: Pair, over: int) -> Pair:
        cost, new_text = pair_cost(pair), pair.item.text if pair.new_text is None else pair.new_text
        log.info("judge pair %s is too long for one request; judging the start of both texts", pair.id)
        return replace(pair, old_text=cut_text(pair.old_text, cost, over),
                       new_text=cut_text(new_text, cost, over))

    batches: list[list[Pair]] = []
    size = batch_size(backend, pairs)
    for start in range(0, len(pairs), size):
        batches += pack(pairs[start:start + size], request_cost=request_cost, unit_cost=pair_cost,
                        limit=backend.json_prompt_limit(), shorten=shorten, setting=backend.CONTEXT_SETTING)
    return batches


def _same_words(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def judge(pairs: list[Pair], backend: Backend, prompts: PromptLibrary, threshold: float,
          escalation: Backend | None = None, cancel: threading.Event | None = None) -> JudgeOutcome:
    """Judge every pair; re-ask low-confidence ones with the escalation backend.

    The same wording in the same slot is SAME by rule, with no LLM call. A pair
    left without a verdict gets confidence 0, which sends it to review.
    """
    outcome = JudgeOutcome({})
    exact = [p for p in pairs if p.old_slot == p.item.slot and _same_words(p.old_text, p.item.text)]
    for pair in exact:
        outcome.verdicts[pair.id] = Judgement(pair.id, pair.item.index, pair.target_id, Verdict.SAME, 1.0,
                                              "the same words in the same slot", "", "program")
    pairs = [p for p in pairs if p not in exact]
    if not pairs:
        return outcome
    outcome.verdicts.update(_ask(backend, prompts, pairs, outcome, False, cancel))
    unsure = [p for p in pairs if p.id not in outcome.verdicts or outcome.verdicts[p.id].confidence < threshold]
    if unsure and escalation is not None:
        log.info("escalating %s low-confidence pair(s) to %s", len(unsure), escalation.describe())
        second = _ask(escalation, prompts, unsure, outcome, True, cancel)
        for pair_id, verdict in second.items():
            first = outcome.verdicts.get(pair_id)
            if first is None or verdict.confidence >= first.confidence:
                outcome.verdicts[pair_id] = verdict
    for pair in pairs:
        if pair.id not in outcome.verdicts:
            outcome.verdicts[pair.id] = Judgement(pair.id, pair.item.index, pair.target_id, Verdict.COEXIST, 0.0,
                                                  NO_VERDICT, "", backend.describe(), escalation is not None)
    return outcome
