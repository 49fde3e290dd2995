"""Knowledge lint, cheap to dear: structure and grounding rules, one LLM check, mark → recheck → apply.

1. structure and 2. grounding are program rules (``lint_rules.py``).
3. One LLM call (``ask``, before the flush's commit like reflect) over pairs of live, well-formed memories
   of the same slot family (the slot's first part) that the program picked: the model only says which
   pairs contradict, by the two ids it was shown; an answer naming any other pair is dropped.
4. ``commit`` (inside the caller's transaction) compares this run's findings with the stored ones:
   a new finding is **marked**; a marked one that the next run finds again is **rechecked**: it becomes
   **confirmed**, and a contradiction (the one finding with a fix) is then **applied**, which only puts a
   review item in the queue through ``memory/transitions.py`` (the newer memory may replace the older;
   the user approves or rejects); a finding a run no longer finds is **resolved**. Nothing is applied at
   the run that first found it, and no memory row is edited here.

Runs at each flush (settings ``background.lint``, ``background.lint_llm``) and on demand (``monchat lint``).
"""

from __future__ import annotations

import logging
from typing import Any
from dataclasses import dataclass, field
from datetime import datetime

from ..backends.base import Backend
from ..errors import MalformedReply
from ..vocabulary.states import Action, Kind, State, Verdict
from ..store.db import Store
from ..store.lint import LintStore
from .lint_rules import Finding, grounding, malformed, structure

log = logging.getLogger(__name__)

PAIRS_MAX = 8  # candidate pairs one call reads
REASON_MAX = 200
# On a small answer room (the embedded model's 640 tokens, a server at 2,048) fewer pairs with shorter reasons,
# so an answer naming every pair, each reason at its limit, is not cut off (SmolLM2 writes to each maxLength).
SMALL_PAIRS, SMALL_REASON = 3, 100
PAIRED = (State.CANDIDATE, State.ACTIVE)  # items the LLM step compares (a queued one already waits for the user)
MARKED, CONFIRMED, APPLIED, RESOLVED = "marked", "confirmed", "applied", "resolved"  # a finding's status
OPEN = (MARKED, CONFIRMED, APPLIED)



def lint_schema(most: int = PAIRS_MAX, reason_max: int = REASON_MAX) -> dict:
    return {
        "type": "object",
        "properties": {"contradictions": {"type": "array", "maxItems": most, "items": {
            "type": "object",
            "properties": {"ids": {"type": "array", "minItems": 2, "maxItems": 2,
                                   "items": {"type": "string", "maxLength": 40}},
                           "reason": {"type": "string", "maxLength": reason_max}},
            "required": ["ids", "reason"]}}},
        "required": ["contradictions"],
    }


LINT_SCHEMA = lint_schema()


@dataclass
class LintAnswer:
    """What the LLM step said (nothing written): the pairs shown and the contradictions kept."""

    ran: bool = False  # the call was made and answered in the schema's shape
    shown: list[tuple[str, str]] = field(default_factory=list)
    contradictions: list[dict] = field(default_factory=list)  # {"ids": [a, b], "reason"}
    dropped: int = 0  # entries naming a pair it was not shown
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _since(row: dict) -> str:
    return (row["valid_at"] or row["created_at"] or "")[:10]


def candidate_pairs(rows: list[dict]) -> list[tuple[dict, dict]]:
    """Pairs of live, well-formed memories of the same slot family; the same slot first, then by id."""
    paired = [r for r in rows if r["state"] in PAIRED and r["kind"] != Kind.RETRACTION and not malformed(r)]
    pairs = []
    for n, a in enumerate(paired):
        for b in paired[n + 1:]:
            if a["slot"].split("/")[0] == b["slot"].split("/")[0]:
                pairs.append((a, b))
    pairs.sort(key=lambda p: (p[0]["slot"] != p[1]["slot"], p[0]["slot"], p[0]["id"], p[1]["id"]))
    return pairs


class Lint:
    """Knowledge lint over one data folder. ``findings()`` is what the inbox lists."""

    def __init__(self, store: Store, prompts=None) -> None:
        self.store = LintStore(store)
        self.prompts = prompts

    # ---- reading ---------------------------------------------------------------
    def findings(self, all: bool = False) -> list[dict]:
        """``[{id, kind, step, memory_ids, text, status, detail, review_id, texts, …}]``: open ones, or every one.

        ``texts`` are the memories' own words, in the order of ``memory_ids`` ("" for one that is gone).
        """
        rows = self.store.findings(() if all else OPEN)
        words = self.store.texts(sorted({mid for r in rows for mid in r["memory_ids"]}))
        return [{**{key: r[key] for key in ("id", "kind", "step", "memory_ids", "text", "status", "detail",
                                           "review_id", "created_run", "checked_run")},
                 "texts": [words.get(mid, "") for mid in r["memory_ids"]]} for r in rows]

    # ---- step 3, before the commit: one call, no writes ------------------------------
    def ask(self, backend: Backend, usage, check: str) -> LintAnswer:
        """Ask which candidate pairs contradict (``usage``: the run's ``TokenUsage``).

        ``check`` names this lint run in the request ("flush 4"), so a recheck asks the model again
        instead of reading the earlier run's kept answer, while a killed flush's rerun still reads its own.

        Raises:
            BackendError: the call failed (as a reflect call would).
        """
        from ..asking.ask import ask_json
        from ..types import Turn
        answer = LintAnswer()
        pairs = candidate_pairs(self.store.memories())
        if not pairs:
            return answer
        small = backend.json_answer_reserve() < Backend.JSON_ANSWER_RESERVE
        most, schema = (SMALL_PAIRS, lint_schema(SMALL_PAIRS, SMALL_REASON)) if small else (PAIRS_MAX, LINT_SCHEMA)
        if len(pairs) > most:
            answer.notes.append(f"lint compared the first {most} of {len(pairs)} candidate pair(s).")
            pairs = pairs[:most]
        system = self.prompts.render("lint.md.j2", most=most)
        while pairs:
            view = [{"a": {**a, "since": _since(a)}, "b": {**b, "since": _since(b)}} for a, b in pairs]
            user = self.prompts.render("lint_pairs.md.j2", pairs=view, check=check)
            if backend.count_json_request(system, [Turn("user", user)], schema) <= backend.json_prompt_limit():
                break
            pairs = pairs[:len(pairs) // 2]
        if not pairs:
            answer.notes.append("lint's LLM check was skipped: no pair fits the model's context.")
            return answer
        answer.shown = [(a["id"], b["id"]) for a, b in pairs]
        try:
            raw = ask_json(backend, system, user, schema, usage)
        except MalformedReply as exc:
            answer.errors.append(f"lint ({backend.describe()}): {exc.message}")
            return answer
        entries = raw.get("contradictions") if isinstance(raw, dict) else None
        if not isinstance(entries, list):
            answer.errors.append(f"lint ({backend.describe()}): the answer has no list of contradictions")
            return answer
        answer.ran = True
        shown = {frozenset(p): p for p in answer.shown}
        cut = 0
        for entry in entries[:most]:
            ids = entry.get("ids") if isinstance(entry, dict) else None
            pair = shown.get(frozenset(ids)) if isinstance(ids, list) and len(ids) == 2 \
                and all(isinstance(i, str) for i in ids) else None
            if pair is None:
                answer.dropped += 1
                continue
            said = entry.get("reason")
            reason = " ".join(said.split()) if isinstance(said, str) else ""
            if len(reason) > REASON_MAX:
                cut += 1
                reason = reason[:REASON_MAX]
            if all(c["ids"] != list(pair) for c in answer.contradictions):
                answer.contradictions.append({"ids": list(pair), "reason": reason})
        if answer.dropped:
            log.info("lint: %s entr(ies) named a pair that was not shown", answer.dropped)
            answer.notes.append(f"lint: {answer.dropped} entr(ies) of the contradiction check left out: they did not "
                                "name a pair it was shown.")
        if cut:
            answer.notes.append(f"lint: {cut} reason(s) longer than {REASON_MAX} characters were cut to that length.")
        return answer

    # ---- inside the caller's transaction -----------------------------------------------
    def commit(self, answer: LintAnswer | None, transitions, run_id: int | None, now: datetime) -> dict:
        """Steps 1, 2 and the kept answer of 3 against the memories as they are now; mark, recheck, apply.

        ``transitions`` (``memory/transitions.py``) is the only way a fix reaches memory: a review item.
        Returns the summary a flush report (or ``monchat lint``) shows.
        """
        at = now.isoformat(timespec="seconds")
        rows = self.store.memories()
        live = self.store.live_ids()
        current = structure(rows, live, self.store.unarchived_evidence())
        bad = {mid for f in current for mid in f.memory_ids}
        current += grounding([r for r in rows if r["id"] in live and r["id"] not in bad])
        by_id = {r["id"]: r for r in rows}
        steps = ["structure", "grounding"]
        if answer is not None and answer.ran:
            steps.append("llm")
            for entry in answer.contradictions:
                a, b = (by_id.get(i) for i in entry["ids"])
                if a is None or b is None or not {a["state"], b["state"]} <= set(PAIRED) or malformed(a) \
                        or malformed(b):
                    continue  # consolidation replaced or set one aside in this flush: nothing left to fix
                older, newer = sorted((a, b), key=lambda r: (_since(r), r["created_at"] or "", r["id"]))
                current.append(Finding("contradiction", "llm", [older["id"], newer["id"]],
                                       f"{older['id']} and {newer['id']} may contradict: {entry['reason']}",
                                       {"reason": entry["reason"], "older": older["id"], "newer": newer["id"]},
                                       fixable=True))
        found = {f.key: f for f in current}
        summary: dict[str, Any] = {"steps": steps, "marked": 0, "confirmed": 0, "applied": 0, "resolved": 0,
                   "pairs": len(answer.shown) if answer else 0, "dropped": answer.dropped if answer else 0}
        for row in self.store.findings():
            finding = found.pop(row["key"], None)
            if finding is None:
                if row["status"] in (MARKED, CONFIRMED) and self._gone(row, steps, by_id):
                    self.store.update(row["id"], status=RESOLVED, checked_run=run_id, updated_at=at)
                    summary["resolved"] += 1
                continue
            if row["status"] == RESOLVED:  # found again: it starts over
                self.store.update(row["id"], status=MARKED, text=finding.text, detail=finding.detail,
                                  created_run=run_id, checked_run=None, updated_at=at)
                summary["marked"] += 1
            elif row["status"] in (MARKED, CONFIRMED):  # rechecked: it still holds
                status = CONFIRMED
                review = self._apply(finding, transitions, by_id) if finding.fixable else None
                if review is not None:
                    status = APPLIED
                    summary["applied"] += 1
                elif row["status"] == MARKED:
                    summary["confirmed"] += 1
                self.store.update(row["id"], status=status, text=finding.text, detail=finding.detail,
                                  review_id=review, checked_run=run_id, updated_at=at)
        for key, finding in found.items():
            self.store.add({"key": key, "kind": finding.kind, "step": finding.step, "memory_ids": finding.memory_ids,
                            "text": finding.text, "detail": finding.detail, "status": MARKED,
                            "created_run": run_id, "created_at": at, "updated_at": at})
            summary["marked"] += 1
        return summary

    def _gone(self, row: dict, steps: list[str], by_id: dict) -> bool:
        """A stored finding this run did not find: gone, unless its step did not run (the LLM was off
        or failed) and its memories are still there to be rechecked next time."""
        if row["step"] in steps:
            return True
        return any(mid not in by_id or by_id[mid]["state"] not in PAIRED for mid in row["memory_ids"])

    def _apply(self, finding: Finding, transitions, by_id: dict) -> int | None:
        """The fix of a contradiction that still holds: ask the user whether the newer memory replaces
        the older (a judgement in the review queue). None when the newer one already waits for review."""
        newer = transitions.memories.get(finding.detail["newer"])
        older = transitions.memories.get(finding.detail["older"])
        if self.store.open_review_of(newer.id) is not None:
            return None
        transitions.queue(newer, Action.JUDGE, f"knowledge lint: {finding.detail['reason'] or 'they contradict'}",
                          0.0, older, (), verdict=Verdict.SUPERSEDE)
        return self.store.open_review_of(newer.id)


def run(store: Store, prompts, settings, backend: Backend | None, now: datetime) -> dict:
    """``monchat lint``: the LLM step (unless ``backend`` is None), then one transaction of its own."""
    from ..asking.ask import TokenUsage
    from ..memory.transitions import Transitions
    from ..store.memories import MemoryStore
    from ..asking.answers import AnswerCache
    from ..store.answers import AnswerStore
    lint = Lint(store, prompts)
    usage = TokenUsage()
    backend = AnswerCache(AnswerStore(store), clock=now.timestamp).wrap(backend)  # kept answers, as a flush keeps
    answer = lint.ask(backend, usage, f"on demand at {now.isoformat(timespec='seconds')}") if backend else None
    transitions = Transitions(MemoryStore(store), settings.flush, now)
    with store.atomic():
        summary = lint.commit(answer, transitions, None, now)
    summary.update(usage=usage.to_dict(), errors=answer.errors if answer else [],
                   notes=answer.notes if answer else [], queued=[c.memory_id for c in transitions.changes],
                   findings=lint.findings())
    return summary
