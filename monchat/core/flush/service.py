"""FlushService: runs the flush; the GUI and ``monchat flush`` both call it.

Orient reads the logs; the LLM stages (the filters, judge, and the background track's reflect, digests,
diary and lint) write nothing and run as a graph, each as soon as what it reads is there
(``stages.py``). Archive, consolidate, prune, the background's writes and rebuild
then run in one transaction, with the run recorded in it; memory.md is
rewritten and the processed log files removed only after the commit. A kill
at any point followed by a rerun ends in the same state: before the commit
nothing changed; after it, every message of the old files is archived, so the
rerun finds nothing new and only finishes the clean-up. Memory paused: archived only
(``flush/paused.py``).
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Callable

from ..background.lint import Lint
from ..background import views
from ..background.summary import after_commit
from ..background.track import BackgroundTrack
from ..backends.base import Backend
from ..backends.model_size import small_model_info
from ..errors import FlushRunning
from ..logs.files import LogBook
from ..memory.alike import review_groups
from ..memory.states import FlushStage
from ..memory.transitions import Transitions
from ..memory.withdraw import EDITED_AWAY, withdraw
from ..paths import Paths, held_lock, running_mark
from ..personas.library import PersonaRegistry
from ..prompts import PromptLibrary
from ..settings import Settings
from ..store.answers import AnswerStore
from ..store.db import Store
from ..store.memories import MemoryStore
from ..store.messages import MessageArchive
from ..types import Clock, Coded, Message, local_now
from . import stages
from ..asking.answers import AnswerCache
from ..asking.ask import planned_again
from .consolidate import Consolidator
from .judge import JudgeOutcome
from .orient import Orientation, orient, select_personas
from .paused import archive_only, is_paused
from .prune import prune
from ..memory.prompt import rebuild_selection, write_markdown
from .records import Dropped, small_model_note, FlushCancelled, FlushProgress, FlushReport, Item

log = logging.getLogger(__name__)

Progress = Callable[[FlushProgress], None]
LINE_ID_KEY = "flush.line_id_key"


class _DryRun(Exception):
    """Raised inside the transaction to roll a dry run back."""


@dataclass
class FlushPlan:
    files: list[str]
    messages: int
    personas: list[dict]
    seed: int
    last_run: dict | None = None
    bad_lines: int = 0
    already_archived: int = 0
    pool: list[str] = field(default_factory=list)
    small_model: dict | None = None  # the backend's model is known to be small (see FlushService.small_model)


class FlushService:
    def __init__(self, settings: Settings, store: Store, logbook: LogBook, archive: MessageArchive,
                 personas: PersonaRegistry, prompts: PromptLibrary, paths: Paths,
                 backend: Callable[[], Backend], escalation: Callable[[], Backend | None],
                 clock: Clock = local_now, tz: tzinfo | None = None) -> None:
        self.settings = settings
        self.store = store
        self.logbook = logbook
        self.archive = archive
        self.personas = personas
        self.prompts = prompts
        self.paths = paths
        self.backend = backend
        self.escalation = escalation
        self.clock = clock
        self.tz = tz
        self.memories = MemoryStore(store)
        self.background = BackgroundTrack(store, prompts, settings, paths, tz, self._reads)
        self.lint = Lint(store, prompts)
        self._lock = threading.Lock()  # one flush at a time in this process
        self.chunk_major = True  # False: personas read one after another (a benchmark's baseline)
        self.on_stage: Callable[[FlushStage], None] | None = None  # hears each LLM stage start (tests)

    def _seed(self, seed: int | None) -> int:
        if seed is not None:
            return seed
        if self.settings.flush.seed >= 0:
            return self.settings.flush.seed
        return random.SystemRandom().randrange(2**31)

    def plan(self, seed: int | None = None) -> FlushPlan:
        """What a flush would read and which personas would run (the random one with this seed)."""
        orientation = orient(self.logbook, self.archive)
        seed = self._seed(seed)
        chosen = select_personas(self.personas, self.settings.flush.fixed_personas, seed)
        runs = self.memories.runs(1)
        return FlushPlan(files=[p.name for p in orientation.files], messages=len(orientation.messages),
                         personas=[{"id": p.id, "role": role} for p, role in chosen], seed=seed,
                         last_run=runs[0] if runs else None, bad_lines=len(orientation.bad_lines),
                         already_archived=orientation.already_archived,
                         pool=[p.id for p in self.personas.pool()], small_model=small_model_info(self.backend()))

    running = property(lambda self: self._lock.locked(), doc="A flush of this process runs (chat stays open).")

    def runs(self, limit: int = 20) -> list[dict]:
        return self.memories.runs(limit)

    def run(self, *, dry_run: bool = False, progress: Progress | None = None,
            cancel: threading.Event | None = None, seed: int | None = None,
            accept_partial: bool = False) -> FlushReport:
        """Flush the unflushed logs into memory.

        Args:
            accept_partial: go on when a filter could not read some messages (its calls failed twice); the run
                records which. Otherwise the flush stops.

        Raises:
            FlushCancelled: ``cancel`` was set before the commit; nothing changed.
            FlushIncomplete: a filter could not read some messages; nothing changed.
            BackendError: a filter or judge call failed; nothing changed.
        """
        if not self._lock.acquire(blocking=False):
            raise FlushRunning("A flush is already running.", "Wait for it to finish.")
        try:
            with held_lock(self.paths.flush_lock) as held:  # and one across processes (GUI and CLI)
                if not held:
                    raise FlushRunning("A flush is already running in another monchat window or terminal.",
                                       "Wait for it to finish; its summary shows what changed.")
                with running_mark(self.paths.flush_running):  # chat in any process stays open (ChatService.gate)
                    return planned_again(lambda: self._run(dry_run, progress or (lambda p: None),
                                                           cancel or threading.Event(), seed, accept_partial))
        finally:
            self._lock.release()

    def _run(self, dry_run: bool, progress: Progress, cancel: threading.Event, seed: int | None,
             accept_partial: bool) -> FlushReport:
        """Orient, the graph of LLM stages (``stages.py``: no writes), then one transaction."""
        started = time.monotonic()
        now = self.clock()
        report = FlushReport(dry_run=dry_run)
        orientation, readable = self._orient(report, progress)
        if not orientation.messages:
            report.nothing_to_flush = True
            if not dry_run:
                self._finish(orientation.files, now)
            report.duration_s = round(time.monotonic() - started, 3)
            return report
        if is_paused(self.store):  # memory is paused: archive, propose nothing, ask no model
            return archive_only(self, report, orientation, now, started, dry_run, progress)
        report.seed = self._seed(seed)
        chosen = select_personas(self.personas, self.settings.flush.fixed_personas, report.seed)
        report.personas = [{"id": p.id, "role": role} for p, role in chosen]
        # Answers already paid for (a failed, cancelled or killed run over these logs) are not asked again.
        answers = AnswerCache(AnswerStore(self.store), clock=lambda: self.clock().timestamp(), write=not dry_run)
        answers.prune()
        backend = self.backend()
        report.small_model = small_model_info(backend)
        if report.small_model:
            report.notes.append(small_model_note(report.small_model))
        asked = stages.ask(self, report, orientation, readable, chosen, backend, answers, now, dry_run, progress,
                           cancel, accept_partial, self.on_stage)
        try:
            with self.store.atomic():
                self._commit(report, orientation, asked, now, started, progress)
                if dry_run:
                    raise _DryRun()
                if cancel.is_set():  # stopped during the writes: roll back, as promised before the commit
                    raise FlushCancelled()
        except _DryRun:
            report.run_id = None
            report.messages_archived = len(orientation.messages)
            return report
        progress(FlushProgress(FlushStage.REBUILD, None, 1, 1, "committed"))
        self._finish(orientation.files, now)
        # what "Open review queue (N)" says: the queue's rows (near-duplicates as one), as the Memory menu counts
        report.review_rows = len(review_groups(self.memories.queue_open(), self.memories.get))
        report.duration_s = round(time.monotonic() - started, 3)
        log.info("flush %s: %s call(s), %s change(s), %s dropped, %.1fs", report.run_id, report.llm_calls,
                 len(report.changes), report.dropped, report.duration_s)
        return report

    # ---- the stages ----------------------------------------------------------
    def _orient(self, report: FlushReport, progress: Progress) -> tuple[Orientation, list[Message]]:
        """Stage 1 (reading): the unflushed messages not archived yet (unreadable lines were quarantined),
        and of them the ones the filters may read (see ``_readable``)."""
        progress(FlushProgress(FlushStage.ORIENT, None, 0, 1, "reading the logs"))
        orientation = orient(self.logbook, self.archive)
        report.files = [p.name for p in orientation.files]
        if orientation.bad_lines:
            report.errors.append(Coded(f"{len(orientation.bad_lines)} unreadable log line(s) kept in "
                                       f"{self.paths.quarantine_dir}", "unreadable_lines",
                                       len(orientation.bad_lines), str(self.paths.quarantine_dir)))
        unread = [m for m in orientation.messages if m.id in orientation.taken_back]
        if unread:  # the user edited them away (or a reply was regenerated): never read (core/logs/takeback.py)
            report.notes.append(Coded(f"{len(unread)} message(s) you edited away (or replies asked for again) were "
                                      f"archived unread.", "taken_back_unread", len(unread)))
        readable, report.skipped = self._readable([m for m in orientation.messages
                                                   if m.id not in orientation.taken_back])
        for persona_id, count in report.skipped.items():
            report.notes.append(Coded(f"{count} message(s) with {persona_id} were archived unread "
                                      f"(that persona's conversations are not read at a flush).", "archived_unread",
                                      count, persona_id))
        return orientation, readable

    def _readable(self, messages: list[Message]) -> tuple[list[Message], dict[str, int]]:
        """The messages filters may read, and per surface persona how many are skipped.

        A persona with ``read_at_flush`` off (an imported character card, by default) is role-play: its lines are
        archived like any others but never read as facts about the user. A persona no longer installed counts as read.
        """
        readable: list[Message] = []
        skipped: dict[str, int] = {}
        for message in messages:
            persona = self.personas.surface.get(message.persona)
            if persona is not None and not persona.read_at_flush:
                skipped[message.persona] = skipped.get(message.persona, 0) + 1
            else:
                readable.append(message)
        return readable, skipped

    def _reads(self, persona_id: str) -> bool:
        """Whether a surface persona's conversations are read at a flush (see ``_readable``)."""
        persona = self.personas.surface.get(persona_id)
        return persona is None or persona.read_at_flush

    def apply(self, orientation: Orientation, items: list[Item], outcome: JudgeOutcome, now: datetime, run_id: int,
              small_model: str = "", progress: Progress = lambda p: None) -> tuple[Consolidator, list, dict]:
        """Archive, consolidate, lengthen the half-lives replies relied on, prune: every state change of a
        flush (inside the caller's transaction). Returns the consolidator, prune's changes and the memories a
        flushed message's edit took evidence from."""
        self.archive.archive(orientation.messages, now)
        progress(FlushProgress(FlushStage.CONSOLIDATE, None, 0, len(items), "weighing the evidence"))
        rows = self.archive.get_many(sorted({mid for i in items for mid in i.evidence}))
        consolidator = Consolidator(self.memories, self.settings.flush, now, run_id, rows, small_model=small_model)
        consolidator.run(items, list(outcome.verdicts.values()))
        progress(FlushProgress(FlushStage.CONSOLIDATE, None, len(items), len(items), "done"))
        taken_back: dict = {}
        if orientation.newly_taken_back:  # a flushed message edited since: its words no longer count
            transitions = Transitions(self.memories, self.settings.flush, now, run_id)
            taken_back = withdraw(self.memories, transitions, orientation.newly_taken_back,
                                  EDITED_AWAY).as_dict()
            consolidator.changes += transitions.changes
        from ..memory.feedback import reinforce_use  # replies that relied on a memory lengthen its half-life
        reinforce_use(self.memories, self.settings.flush, now, run_id,  # not a reply the user asked for again
                      [m for m in orientation.messages if m.id not in orientation.taken_back])
        progress(FlushProgress(FlushStage.PRUNE, None, 0, 1, "expiry, decay and the cap"))
        return consolidator, prune(self.memories, self.settings.flush, now, run_id), taken_back

    def _commit(self, report: FlushReport, orientation: Orientation, asked: stages.Asked, now: datetime,
                started: float, progress: Progress) -> None:
        """Archive, then stages 4–6 (consolidate, prune, rebuild), the background track's writes and the
        run's row: inside the caller's transaction, so all of it lands or none."""
        run_id = report.run_id = self.memories.next_run_id()
        archived_before = self.archive.count()
        small_model = (report.small_model or {}).get("model", "")
        items, outcome, dropped = asked.read.items, asked.outcome, asked.read.dropped
        consolidator, pruned, taken_back = self.apply(orientation, items, outcome, now, run_id, small_model,
                                                      progress)
        report.messages_archived = self.archive.count() - archived_before
        verdicts = list(outcome.verdicts.values())
        for item in consolidator.unmatched_retractions:
            dropped.append(Dropped(item.persona, item.text, "nothing kept to take back", item.evidence,
                                   category="no_target"))
        threshold = self.settings.flush.judge_confidence
        for verdict in verdicts:
            self.memories.add_verdict({
                "run_id": run_id, "memory_id": consolidator.item_memory.get(verdict.item_index),
                "target_id": verdict.target_id, "verdict": verdict.verdict, "confidence": verdict.confidence,
                "reasoning": verdict.reasoning, "model": verdict.model, "escalated": int(verdict.escalated),
                "applied": "yes" if verdict.confidence >= threshold else "review"})
        report.taken_back = taken_back
        report.changes = consolidator.changes + pruned
        report.background = self.background.commit(asked.proposals, items + asked.read.recalls, run_id, now)
        if self.settings.background.lint:  # marks, rechecks; a fix that still holds becomes a review item
            transitions = Transitions(self.memories, self.settings.flush, now, run_id)
            report.background["lint"] = self.lint.commit(asked.lint, transitions, run_id, now)
            report.changes += transitions.changes
            views.rebuild(self.store, self.settings, now, self.tz, run_id)  # what lint sent to review leaves them
        report.background["layers"].update(after_commit(report.changes, self._kind_of, report.background.get("lint")))
        progress(FlushProgress(FlushStage.REBUILD, None, 0, 1, "rebuilding the prompt"))
        selection = rebuild_selection(self.memories, self.settings.flush, now, self.background.hint())
        report.dropped_items = [vars(d) for d in dropped]
        report.dropped = sum(1 for d in dropped if d.category == "evidence")
        report.promoted = {"layer1": consolidator.counters.layer1, "layer2": consolidator.counters.layer2}
        report.superseded = consolidator.counters.superseded
        report.queued = consolidator.counters.queued
        report.budget = selection.budget
        report.duration_s = round(time.monotonic() - started, 3)
        self.memories.add_run(report.run_row(now, self.clock(), verdicts))

    def _kind_of(self, memory_id: str) -> str | None:
        memory = self.memories.get(memory_id)
        return memory.kind if memory is not None else None

    def line_id_key(self, dry_run: bool) -> bytes:
        """This data folder's secret for the line ids filters see (made on first use; a dry run
        before the first flush uses one of its own, as it writes nothing)."""
        key = self.store.get_state(LINE_ID_KEY)
        if key is None:
            key = secrets.token_hex(16)
            if not dry_run:
                self.store.set_state(LINE_ID_KEY, key)
        return bytes.fromhex(key)

    def _finish(self, files, now) -> None:
        """After the commit: rewrite memory.md, then remove the files whose messages are archived."""
        write_markdown(self.memories, now, self.paths.memory_md)
        self.background.write_files()
        kept = self.logbook.remove_flushed(files, self.archive.ids())
        for path in kept:
            log.info("kept %s: it has messages written during the flush", path.name)
