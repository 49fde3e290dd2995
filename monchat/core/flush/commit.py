"""The flush's writes: every state change of a run, inside the one transaction the service opens.

``apply`` archives the messages, consolidates the items by the judge's verdicts, withdraws what an edited
message no longer says, lengthens the half-lives replies relied on and prunes; the trial (``stages.py``) runs it
and rolls it back, the commit runs it for good. ``commit`` adds the verdicts, the background track's writes,
lint's, the rebuild of the prompt and the run's row. Both read the run's ``FlushContext`` and what the LLM
stages gave (``Asked``); neither opens a transaction of its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

from ..background import views
from ..background.lint import LintAnswer
from ..background.summary import after_commit
from ..background.track import Proposals
from ..memory.prompt import rebuild_selection
from ..vocabulary.states import Applied, DropCategory, FlushStage
from ..memory.transitions import Transitions
from ..memory.withdraw import EDITED_AWAY, withdraw
from ..store.memories import MemoryStore
from .accounting import account
from .consolidate import Consolidator
from .context import FlushContext, Progress, quiet
from .judge import JudgeOutcome
from .orient import Orientation
from .prune import prune
from .records import Dropped, FlushProgress, Item


@dataclass
class Read:
    """What the filters gave: items in order, recall items (never memories) and the dropped."""

    items: list[Item]
    recalls: list[Item]
    dropped: list[Dropped]
    proposals: int = 0  # every item the filters answered, whatever became of it (``accounting.py``)
    folded: int = 0  # of them, folded into another persona's identical proposal


@dataclass
class Asked:
    """Everything the LLM stages gave, for the commit."""

    read: Read
    outcome: JudgeOutcome
    proposals: Proposals
    lint: LintAnswer | None


def apply(ctx: FlushContext, orientation: Orientation, items: list[Item], outcome: JudgeOutcome, run_id: int,
          small_model: str = "", progress: Progress = quiet) -> tuple[Consolidator, list, dict]:
    """Archive, consolidate, lengthen the half-lives replies relied on, prune: every state change of a
    flush (inside the caller's transaction). Returns the consolidator, prune's changes and the memories a
    flushed message's edit took evidence from."""
    memories, settings, now = ctx.memories, ctx.settings.flush, ctx.now
    ctx.archive.archive(orientation.messages, now)
    progress(FlushProgress(FlushStage.CONSOLIDATE, None, 0, len(items), "weighing the evidence"))
    rows = ctx.archive.get_many(sorted({mid for i in items for mid in i.evidence}))
    consolidator = Consolidator(memories, settings, now, run_id, rows, small_model=small_model)
    consolidator.run(items, list(outcome.verdicts.values()))
    progress(FlushProgress(FlushStage.CONSOLIDATE, None, len(items), len(items), "done"))
    taken_back: dict = {}
    if orientation.newly_taken_back:  # a flushed message edited since: its words no longer count
        transitions = Transitions(memories, settings, now, run_id)
        taken_back = withdraw(memories, transitions, orientation.newly_taken_back, EDITED_AWAY).as_dict()
        consolidator.changes += transitions.changes
    from ..memory.feedback import reinforce_use  # replies that relied on a memory lengthen its half-life
    reinforce_use(memories, settings, now, run_id,  # not a reply the user asked for again
                  [m for m in orientation.messages if m.id not in orientation.taken_back])
    progress(FlushProgress(FlushStage.PRUNE, None, 0, 1, "expiry, decay and the cap"))
    return consolidator, prune(memories, settings, now, run_id), taken_back


def commit(ctx: FlushContext, orientation: Orientation, asked: Asked) -> None:
    """Archive, then stages 4–6 (consolidate, prune, rebuild), the background track's writes and the
    run's row: inside the caller's transaction, so all of it lands or none."""
    report, memories, now = ctx.report, ctx.memories, ctx.now
    run_id = report.run_id = memories.next_run_id()
    archived_before = ctx.archive.count()
    small_model = (report.small_model or {}).get("model", "")
    items, outcome, dropped = asked.read.items, asked.outcome, asked.read.dropped
    consolidator, pruned, taken_back = apply(ctx, orientation, items, outcome, run_id, small_model, ctx.progress)
    report.messages_archived = ctx.archive.count() - archived_before
    verdicts = list(outcome.verdicts.values())
    for item in consolidator.unmatched_retractions:
        dropped.append(Dropped(item.persona, item.text, "nothing kept to take back", item.evidence,
                               category=DropCategory.NO_TARGET))
    threshold = ctx.settings.flush.judge_confidence
    for verdict in verdicts:
        memories.add_verdict({
            "run_id": run_id, "memory_id": consolidator.item_memory.get(verdict.item_index),
            "target_id": verdict.target_id, "verdict": verdict.verdict, "confidence": verdict.confidence,
            "reasoning": verdict.reasoning, "model": verdict.model, "escalated": int(verdict.escalated),
            "applied": Applied.YES if verdict.confidence >= threshold else Applied.REVIEW})
    report.taken_back = taken_back
    report.changes = consolidator.changes + pruned
    report.background = ctx.background.commit(asked.proposals, items + asked.read.recalls, run_id, now)
    if ctx.settings.background.lint:  # marks, rechecks; a fix that still holds becomes a review item
        transitions = Transitions(memories, ctx.settings.flush, now, run_id)
        report.background["lint"] = ctx.lint.commit(asked.lint, transitions, run_id, now)
        report.changes += transitions.changes
        views.rebuild(ctx.store, ctx.settings, now, ctx.tz, run_id)  # what lint sent to review leaves them
    layers = after_commit(report.changes, partial(kind_of, memories), report.background.get("lint"))
    report.background["layers"].update(layers)
    ctx.progress(FlushProgress(FlushStage.REBUILD, None, 0, 1, "rebuilding the prompt"))
    selection = rebuild_selection(memories, ctx.settings.flush, now, ctx.background.hint())
    report.dropped_items = [vars(d) for d in dropped]
    report.dropped = sum(1 for d in dropped if d.category == DropCategory.EVIDENCE)
    report.accounting = account(asked.read.proposals, len(items) - len(consolidator.unmatched_retractions)
                                - consolidator.unsure, asked.read.folded, len(asked.read.recalls), dropped,
                                consolidator.unsure)
    report.promoted = {"layer1": consolidator.counters.layer1, "layer2": consolidator.counters.layer2}
    report.superseded = consolidator.counters.superseded
    report.queued = consolidator.counters.queued
    report.unsure = consolidator.unsure
    report.budget = selection.budget
    report.duration_s = round(time.monotonic() - ctx.started, 3)
    memories.add_run(report.run_row(now, ctx.clock(), verdicts))


def kind_of(memories: MemoryStore, memory_id: str) -> str | None:
    """A memory's kind, None when it is gone (``summary.after_commit`` names what changed by kind)."""
    memory = memories.get(memory_id)
    return memory.kind if memory is not None else None
