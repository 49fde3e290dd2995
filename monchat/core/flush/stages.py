"""The flush's LLM stages as a graph, run before its one transaction (nothing here changes memory).

Each stage names what it reads and what it gives (``runner.Stage``); ``ask`` runs them with
``runner.run_stages``, so each starts as soon as what it reads is there. A stage is given the run's
``FlushContext`` (``context.py``: the settings, the store, the backends, the report it fills in), never the
service that runs it::

    messages ─┬─> score (filters) ─┬─> judge ──> trial ──> reflect ─┐
              │                    └─> digest ──────────────────────┤
              ├─> diary (the day's messages) ───────────────────────┼─> commit (one transaction)
    memories ─┴─> lint (memories kept before this flush) ───────────┘

The diary needs only each day's messages and the profile before this flush, and lint only the memories
kept before it: both are asked beside the filters. The judge needs the filters' items; the digests the
slots those items touch; the trial (the flush's state changes tried and rolled back) the judge's
verdicts; reflect the trial. Every model call holds one of ``flush.parallel`` ``CallSlots``; the filters,
judge and reflect (what the commit waits for) go first when calls wait for one, and once the filters' parts are
sized their calls are expected: a diary page never takes a slot between two of them. Answers are kept as they
arrive (``asking/answers.py``), so a run that fails, is cancelled or killed pays again only for what it never
got. What each stage reports is merged into the report in the order of the stages, whatever order they
ended in.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ..asking.answers import AnswerCache
from ..asking.ask import TokenUsage
from ..asking.slots import CallSlots
from ..background.lint import LintAnswer
from ..background.track import Basis, BackgroundTrack, Proposals
from ..backends.base import Backend
from ..backends.turns import call_turns
from ..memory.never import never_rules, told
from ..memory.prompt import load_selection
from ..vocabulary.states import SHOWN_STATES, FlushStage, Kind
from ..types import Coded, Message
from .commit import Asked, Read, apply
from .context import FlushContext, Progress
from .fold import fold_items, fold_notes
from .judge import JudgeOutcome, build_pairs, judge
from .orient import ROLE_WORDS, Orientation
from .records import FlushIncomplete, FlushProgress, Item
from .runner import Stage, run_stages
from .score import build_lines, plan_chunks, score_all

URGENT, LATER = 0, 1  # a call's place in line for a slot: what the commit waits for first


@dataclass
class Linted:
    answer: LintAnswer | None
    usage: TokenUsage


class _Tried(Exception):
    """Raised inside the trial's transaction to roll it back, carrying what the views would read."""

    def __init__(self, basis: Basis) -> None:
        super().__init__()
        self.basis = basis


def calls_at_once(setting: int, backend) -> int:
    """A flush's calls ready at once (``CallSlots``): ``flush.parallel``, else the backend's ``FLUSH_LINE`` or
    ``PARALLEL_CALLS``, whichever is more. A local backend is still sent only ``PARALLEL_CALLS`` at once (its
    ``CallTurns`` is not widened): a call beyond that would wait in the server's own queue, where a chat turn
    asked during the flush lines up behind it; in our line the chat turn goes first."""
    inner = getattr(backend, "inner", backend)  # an answer cache in front: the backend behind it
    return setting or max(backend.PARALLEL_CALLS, getattr(inner, "FLUSH_LINE", 0))


def ask(ctx: FlushContext, *, orientation: Orientation, readable: list[Message], chosen: list,
        answers: AnswerCache) -> Asked:
    """Run the graph over ``readable`` (the messages filters may read) with the ``chosen`` personas; calls go
    through ``answers``. The stages' usage, errors and notes go into ``ctx.report`` in the order of the stages.

    Raises:
        FlushCancelled, FlushIncomplete, BackendError: as the stage that raised it; nothing changed.
    """
    if ctx.backend is None:
        raise ValueError("a flush that asks a model is given its backend (a bug of ours)")
    report, progress, now = ctx.report, ctx.progress, ctx.now
    parallel = calls_at_once(ctx.settings.flush.parallel, ctx.backend)
    slots = CallSlots(parallel, reserved=1)  # one slot kept for the commit's path until reflect asked
    if not ctx.backend.is_local():  # a cloud serves this many at once; a local model's line stays its own
        call_turns(ctx.backend).widen(parallel)
    urgent = answers.wrap(ctx.backend, slots=slots, urgency=URGENT)
    later = answers.wrap(ctx.backend, slots=slots, urgency=LATER)
    escalation = answers.wrap(ctx.escalation, role="escalation", slots=slots, urgency=URGENT)
    track = ctx.background
    small_model = (report.small_model or {}).get("model", "")
    stages = [
        Stage(FlushStage.SCORE, (), "read", lambda halt: score(ctx, readable, chosen, urgent, halt, slots)),
        Stage(FlushStage.JUDGE, ("read",), "outcome",
              lambda halt, read: judge_items(ctx, read.items, urgent, escalation, halt)),
        Stage(FlushStage.TRIAL, ("read", "outcome"), "basis",
              lambda halt, read, outcome: trial(ctx, orientation, read.items, outcome, small_model)),
        Stage(FlushStage.REFLECT, ("basis",), "reflected", lambda halt, basis: reflected(track, urgent, basis,
                                                                                              progress, slots)),
        Stage(FlushStage.DIGEST, ("read",), "digested",
              lambda halt, read: track.ask_digests(read.items, later, now, progress)),
        Stage(FlushStage.DIARY, (), "written",
              lambda halt: track.ask_diary(readable, later, now, progress, halt, parallel)),
        Stage(FlushStage.LINT, (), "linted", lambda halt: lint_ask(ctx, later)),
    ]
    values = run_stages(stages, {}, ctx.cancel, side_by_side=parallel > 1, on_start=ctx.on_stage)
    proposals = track.merge(values["reflected"], values["digested"], values["written"])
    report.add_usage(proposals.usage)
    report.errors.extend(proposals.errors)
    report.notes.extend(proposals.notes)
    linted: Linted = values["linted"]
    report.add_usage(linted.usage)
    if linted.answer is not None:
        report.errors.extend(linted.answer.errors)
        report.notes.extend(linted.answer.notes)
    return Asked(values["read"], values["outcome"], proposals, linted.answer)


def reflected(track: BackgroundTrack, backend: Backend, basis: Basis, progress: Progress,
              slots: CallSlots) -> Proposals:
    """Reflect, the last call the commit waits for: then the slot kept for that path is free for anyone."""
    try:
        return track.ask_reflect(backend, basis, progress)
    finally:
        slots.unreserve()


def score(ctx: FlushContext, readable: list[Message], chosen: list, backend: Backend, halt: threading.Event,
          slots: CallSlots) -> Read:
    """The filters: every chosen persona reads every part; returns the items in order, the recall items
    (questions memory could not answer: counted as failures, never memories), and the dropped. Once the parts
    are sized, their calls are ``expected`` by ``slots``: the slowest reader's calls run back to back.

    Raises:
        FlushIncomplete: a persona could not read some messages and a partial flush was not accepted.
    """
    report, progress = ctx.report, ctx.progress
    selection = load_selection(ctx.store)
    injected = [i.text for i in selection.layer1 + selection.layer2]
    known = [m.text for m in ctx.memories.in_state(*SHOWN_STATES)]  # what a proposal may restate (the guard)
    lines = build_lines(readable, ctx.tz, ctx.line_id_key)
    personas = told([p for p, _ in chosen], never_rules(ctx.store))  # the user's never-remember rules
    chunks, chunk_notes = plan_chunks(backend, ctx.prompts, personas, lines)
    report.notes.extend(chunk_notes)
    names = {persona.id: f"{persona.name} ({ROLE_WORDS[role]})" for persona, role in chosen}
    for persona in personas:
        progress(FlushProgress(FlushStage.SCORE, persona.id, 0, len(chunks), f"{names[persona.id]} is reading"))

    read = {persona.id: (0, 0) for persona in personas}  # parts done, of them unread

    def on_part(persona_id: str, done: int, total: int, unread: int) -> None:
        read[persona_id] = (done, unread)
        progress(FlushProgress(FlushStage.SCORE, persona_id, done, total,
                               f"{names[persona_id]} read part {done} of {total}", unread))

    def on_tokens(persona_id: str, part: int, tokens: int) -> None:  # on a filter call's thread
        done, unread = read[persona_id]
        progress(FlushProgress(FlushStage.SCORE, persona_id, done, len(chunks),
                               f"{names[persona_id]} is reading part {part} of {len(chunks)}: "
                               f"{tokens} tokens", unread, part=part, tokens=tokens))

    slots.expect(len(chunks) * sum(1 for persona in personas if persona.max_items > 0))
    try:
        results = score_all(backend, ctx.prompts, personas, chunks, injected, slots.size, halt, on_part,
                            ctx.chunk_major, on_tokens, known=known)
    finally:
        slots.expect(0)  # answers kept from an earlier run asked for no slot
    unread = {r.persona: r.unread for r in results if r.unread}
    if unread:
        what = "; ".join(f"{names[pid]} could not read {len(missed)} message(s) from {missed[0].when} "
                         f"to {missed[-1].when}" for pid, missed in unread.items())
        if not ctx.accept_partial:
            raise FlushIncomplete(what)
        report.unread = {pid: [line.message_id for line in missed] for pid, missed in unread.items()}
        report.notes.append(Coded(f"A partial flush, accepted: {what}.", "partial_accepted",
                                  sum(len(missed) for missed in unread.values())))
    items, dropped = [], []
    proposals = sum(len(result.items) + len(result.dropped) for result in results)  # each answered item once
    for result in results:
        report.add_usage(result.usage)
        report.errors.extend(result.errors)
        report.notes.extend(result.notes)
        items.extend(result.items)
        dropped.extend(result.dropped)
        report.items[result.persona] = [{"text": i.text, "slot": i.slot, "kind": i.kind, "score": i.score,
                                         "evidence": i.evidence} for i in result.items]
    order = {p.id: n for n, p in enumerate(personas)}
    items.sort(key=lambda i: (i.first_epoch, order[i.persona], i.slot, i.text))
    recalls = [i for i in items if i.kind == Kind.RECALL]
    statements = [i for i in items if i.kind != Kind.RECALL]
    items, report.folded = fold_items(statements)  # one item per change
    report.notes.extend(fold_notes(report.folded))
    for index, item in enumerate(items):
        item.index = index
    return Read(items, recalls, dropped, proposals, len(statements) - len(items))


def judge_items(ctx: FlushContext, items: list[Item], backend: Backend, escalation: Backend | None,
                halt: threading.Event) -> JudgeOutcome:
    """Each item against the kept memories it may be about (LLM, no writes)."""
    pairs = build_pairs([item for item in items if not item.unsure], ctx.memories)  # unsure: review, not judged
    ctx.progress(FlushProgress(FlushStage.JUDGE, None, 0, len(pairs), f"{len(pairs)} comparison(s)"))
    outcome = judge(pairs, backend, ctx.prompts, ctx.settings.flush.judge_confidence, escalation, halt)
    ctx.report.add_usage(outcome.usage)
    ctx.report.errors.extend(outcome.errors)
    ctx.progress(FlushProgress(FlushStage.JUDGE, None, len(pairs), len(pairs), "judged"))
    return outcome


def trial(ctx: FlushContext, orientation: Orientation, items: list[Item], outcome: JudgeOutcome,
          small_model: str = "") -> Basis:
    """What the views will be built from once this flush is applied: its state changes tried in a
    transaction that is rolled back (no LLM). Reflect asks after it, so it reads only memories the views may
    show, never an item that will wait for review. Other stages read meanwhile on their own connections:
    they see only what is committed."""
    try:
        with ctx.store.atomic():
            consolidator = apply(ctx, orientation, items, outcome, ctx.memories.next_run_id(), small_model)[0]
            raise _Tried(ctx.background.basis(items, outcome, consolidator.item_memory, ctx.now))
    except _Tried as tried:
        return tried.basis


def lint_ask(ctx: FlushContext, backend: Backend) -> Linted:
    """Knowledge lint's one LLM call over the memories kept before this flush (no writes)."""
    usage = TokenUsage()
    if not (ctx.settings.background.lint and ctx.settings.background.lint_llm):
        return Linted(None, usage)
    ctx.progress(FlushProgress(FlushStage.LINT, None, 0, 1, "knowledge lint"))
    answer = ctx.lint.ask(backend, usage, f"flush {ctx.memories.next_run_id()}")
    ctx.progress(FlushProgress(FlushStage.LINT, None, 1, 1, "done"))
    return Linted(answer, usage)
