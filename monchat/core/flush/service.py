"""FlushService: runs the six stages; the GUI and ``monchat flush`` both call it.

The LLM stages (score, judge, and the background track's reflect and diary) write nothing. Archive,
consolidate, prune, the background's writes and rebuild then run in one transaction, with the run recorded
in it; memory.md is rewritten and the processed log files removed only after the commit. A kill at any
point followed by a rerun ends in the same state: before the commit nothing changed; after it, every
message of the old files is archived, so the rerun finds nothing new and only finishes the clean-up.
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

from ..background.lint import Lint, LintAnswer
from ..background import views
from ..background.summary import after_commit
from ..background.track import BackgroundTrack, Basis, Proposals
from ..backends.base import Backend
from ..backends.model_size import small_model_info
from ..errors import FlushRunning
from ..logs.files import LogBook
from ..memory.states import Kind
from ..memory.transitions import Transitions
from ..memory.withdraw import EDITED_AWAY, withdraw
from ..paths import Paths, held_lock, write_private
from ..personas.library import PersonaRegistry
from ..prompts import PromptLibrary
from ..settings import Settings
from ..store.answers import AnswerStore
from ..store.db import Store
from ..store.memories import MemoryStore
from ..store.messages import MessageArchive
from ..types import Clock, Coded, Message, local_now
from ..asking.answers import AnswerCache
from ..asking.ask import TokenUsage
from .consolidate import Consolidator
from .fold import fold_items, fold_notes
from .judge import JudgeOutcome, build_pairs, judge
from .orient import Orientation, orient, select_personas
from .prune import prune
from ..memory.prompt import compile_prompt, load_selection, render_markdown, save_selection
from .records import Dropped, small_model_note, FlushCancelled, FlushIncomplete, FlushProgress, FlushReport, Item
from .score import build_lines, plan_chunks, score_all

log = logging.getLogger(__name__)

Progress = Callable[[FlushProgress], None]
LINE_ID_KEY = "flush.line_id_key"


class _DryRun(Exception):
    """Raised inside the transaction to roll a dry run back."""


class _Tried(Exception):
    """Raised inside the trial's transaction to roll it back, carrying what the views would read."""

    def __init__(self, basis: Basis) -> None:
        super().__init__()
        self.basis = basis


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
            accept_partial: go on when a filter could not read some messages (its
                calls failed twice); the run records which. Otherwise the flush stops.

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
                return self._run(dry_run, progress or (lambda p: None), cancel or threading.Event(), seed,
                                 accept_partial)
        finally:
            self._lock.release()

    def _run(self, dry_run: bool, progress: Progress, cancel: threading.Event, seed: int | None,
             accept_partial: bool) -> FlushReport:
        """The stages in order: orient, score and judge (LLM, no writes), then one transaction."""
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
        backend = answers.wrap(backend)
        escalation = answers.wrap(self.escalation(), role="escalation")

        items, recalls, dropped = self._score(report, readable, chosen, backend, dry_run, progress, cancel,
                                              accept_partial)
        if cancel.is_set():
            raise FlushCancelled()
        outcome = self._judge(report, items, backend, escalation, progress, cancel)
        if cancel.is_set():
            raise FlushCancelled()
        basis = self._trial(orientation, items, outcome, now, (report.small_model or {}).get("model", ""))
        proposals = self._reflect(report, items, outcome, readable, backend, now, progress, cancel, basis)
        lint_answer = self._lint_ask(report, backend, progress)
        if cancel.is_set():
            raise FlushCancelled()
        try:
            with self.store.atomic():
                self._commit(report, orientation, items, dropped, outcome, now, started, progress, proposals,
                             recalls, lint_answer)
                if dry_run:
                    raise _DryRun()
                if cancel.is_set():  # stopped during the writes: roll back, as promised before the commit
                    raise FlushCancelled()
        except _DryRun:
            report.run_id = None
            report.messages_archived = len(orientation.messages)
            return report
        progress(FlushProgress("rebuild", None, 1, 1, "committed"))
        self._finish(orientation.files, now)
        report.duration_s = round(time.monotonic() - started, 3)
        log.info("flush %s: %s call(s), %s change(s), %s dropped, %.1fs", report.run_id, report.llm_calls,
                 len(report.changes), report.dropped, report.duration_s)
        return report

    # ---- the stages ----------------------------------------------------------
    def _orient(self, report: FlushReport, progress: Progress) -> tuple[Orientation, list[Message]]:
        """Stage 1 (reading): the unflushed messages not archived yet (unreadable lines were quarantined),
        and of them the ones the filters may read (see ``_readable``)."""
        progress(FlushProgress("orient", None, 0, 1, "reading the logs"))
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

        A persona with ``read_at_flush`` off (an imported character card, by default) is
        role-play: its lines are archived like any others but never read as facts about the user.
        A persona no longer installed counts as read.
        """
        readable, skipped = [], {}
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

    def _score(self, report: FlushReport, readable: list[Message], chosen: list, backend: Backend,
               dry_run: bool, progress: Progress, cancel: threading.Event,
               accept_partial: bool) -> tuple[list[Item], list[Item], list[Dropped]]:
        """Stage 2: every chosen persona reads every part; returns the items in order, the recall items
        (questions memory could not answer: counted as failures, never memories), and the dropped.

        Raises:
            FlushIncomplete: a persona could not read some messages and a partial flush was not accepted.
        """
        selection = load_selection(self.store)
        injected = [i.text for i in selection.layer1 + selection.layer2]
        lines = build_lines(readable, self.tz, self._line_id_key(dry_run))
        personas = [p for p, _ in chosen]
        chunks, chunk_notes = plan_chunks(backend, self.prompts, personas, lines)
        report.notes.extend(chunk_notes)
        names = {persona.id: f"{persona.name} ({role})" for persona, role in chosen}
        for persona in personas:
            progress(FlushProgress("score", persona.id, 0, len(chunks), f"{names[persona.id]} is reading"))

        read = {persona.id: (0, 0) for persona in personas}  # parts done, of them unread

        def on_part(persona_id: str, done: int, total: int, unread: int) -> None:
            read[persona_id] = (done, unread)
            progress(FlushProgress("score", persona_id, done, total,
                                   f"{names[persona_id]} read part {done} of {total}", unread))

        def on_tokens(persona_id: str, part: int, tokens: int) -> None:  # on a filter call's thread
            done, unread = read[persona_id]
            progress(FlushProgress("score", persona_id, done, len(chunks),
                                   f"{names[persona_id]} is reading part {part} of {len(chunks)}: "
                                   f"{tokens} tokens", unread, part=part, tokens=tokens))

        parallel = self.settings.flush.parallel or backend.PARALLEL_CALLS
        results = score_all(backend, self.prompts, personas, chunks, injected, parallel, cancel, on_part,
                            self.chunk_major, on_tokens)
        unread = {r.persona: r.unread for r in results if r.unread}
        if unread:
            what = "; ".join(f"{names[pid]} could not read {len(missed)} message(s) from {missed[0].when} "
                             f"to {missed[-1].when}" for pid, missed in unread.items())
            if not accept_partial:
                raise FlushIncomplete(what)
            report.unread = {pid: [line.message_id for line in missed] for pid, missed in unread.items()}
            report.notes.append(Coded(f"A partial flush, accepted: {what}.", "partial_accepted",
                                      sum(len(missed) for missed in unread.values())))
        items, dropped = [], []
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
        items, report.folded = fold_items([i for i in items if i.kind != Kind.RECALL])  # one item per change
        report.notes.extend(fold_notes(report.folded))
        for index, item in enumerate(items):
            item.index = index
        return items, recalls, dropped

    def _judge(self, report: FlushReport, items: list[Item], backend: Backend, escalation: Backend | None,
               progress: Progress, cancel: threading.Event) -> JudgeOutcome:
        """Stage 3: each item against the kept memories it may be about (LLM, no writes)."""
        pairs = build_pairs(items, self.memories)
        progress(FlushProgress("judge", None, 0, len(pairs), f"{len(pairs)} comparison(s)"))
        outcome = judge(pairs, backend, self.prompts, self.settings.flush.judge_confidence, escalation, cancel)
        report.add_usage(outcome.usage)
        report.errors.extend(outcome.errors)
        progress(FlushProgress("judge", None, len(pairs), len(pairs), "judged"))
        return outcome

    def _trial(self, orientation: Orientation, items: list[Item], outcome: JudgeOutcome, now: datetime,
               small_model: str = "") -> Basis:
        """What the views will be built from once this flush is applied: its state changes tried in a
        transaction that is rolled back (no LLM). Reflect and the diary ask before the commit; with this they
        read only memories the views may show, never an item that will wait for review."""
        try:
            with self.store.atomic():
                consolidator = self._apply(orientation, items, outcome, now, self.memories.next_run_id(), small_model)[0]
                raise _Tried(self.background.basis(items, outcome, consolidator.item_memory, now))
        except _Tried as tried:
            return tried.basis

    def _apply(self, orientation: Orientation, items: list[Item], outcome: JudgeOutcome, now: datetime, run_id: int,
               small_model: str = "", progress: Progress = lambda p: None) -> tuple[Consolidator, list, dict]:
        """Archive, consolidate, lengthen the half-lives replies relied on, prune: every state change of a
        flush (inside the caller's transaction). Returns the consolidator, prune's changes and the memories a
        flushed message's edit took evidence from."""
        self.archive.archive(orientation.messages, now)
        progress(FlushProgress("consolidate", None, 0, len(items), "weighing the evidence"))
        rows = self.archive.get_many(sorted({mid for i in items for mid in i.evidence}))
        consolidator = Consolidator(self.memories, self.settings.flush, now, run_id, rows, small_model=small_model)
        consolidator.run(items, list(outcome.verdicts.values()))
        progress(FlushProgress("consolidate", None, len(items), len(items), "done"))
        taken_back: dict = {}
        if orientation.newly_taken_back:  # a flushed message edited since: its words no longer count
            transitions = Transitions(self.memories, self.settings.flush, now, run_id)
            taken_back = withdraw(self.memories, transitions, orientation.newly_taken_back,
                                  EDITED_AWAY).as_dict()
            consolidator.changes += transitions.changes
        from ..memory.feedback import reinforce_use  # replies that relied on a memory lengthen its half-life
        reinforce_use(self.memories, self.settings.flush, now, run_id,  # not a reply the user asked for again
                      [m for m in orientation.messages if m.id not in orientation.taken_back])
        progress(FlushProgress("prune", None, 0, 1, "expiry, decay and the cap"))
        return consolidator, prune(self.memories, self.settings.flush, now, run_id), taken_back

    def _reflect(self, report: FlushReport, items: list[Item], outcome: JudgeOutcome, readable: list[Message],
                 backend: Backend, now: datetime, progress: Progress, cancel: threading.Event,
                 basis: Basis) -> Proposals:
        """Stage 3b, the background track's calls: reflect and the diary (LLM, no writes)."""
        proposals = self.background.ask(items, readable, backend, now, progress, cancel, basis)
        report.add_usage(proposals.usage)
        report.errors.extend(proposals.errors)
        report.notes.extend(proposals.notes)
        return proposals

    def _lint_ask(self, report: FlushReport, backend: Backend, progress: Progress) -> LintAnswer | None:
        """Stage 3c, knowledge lint's one LLM call over the kept memories (no writes)."""
        if not (self.settings.background.lint and self.settings.background.lint_llm):
            return None
        progress(FlushProgress("reflect", None, 0, 1, "knowledge lint"))
        usage = TokenUsage()
        answer = self.lint.ask(backend, usage, f"flush {self.memories.next_run_id()}")
        report.add_usage(usage)
        report.errors.extend(answer.errors)
        report.notes.extend(answer.notes)
        return answer

    def _commit(self, report: FlushReport, orientation: Orientation, items: list[Item], dropped: list[Dropped],
                outcome: JudgeOutcome, now: datetime, started: float, progress: Progress,
                proposals: Proposals, recalls: list[Item], lint_answer: LintAnswer | None = None) -> None:
        """Archive, then stages 4–6 (consolidate, prune, rebuild), the background track's writes and the
        run's row: inside the caller's transaction, so all of it lands or none."""
        run_id = report.run_id = self.memories.next_run_id()
        archived_before = self.archive.count()
        small_model = (report.small_model or {}).get("model", "")
        consolidator, pruned, taken_back = self._apply(orientation, items, outcome, now, run_id, small_model,
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
        report.background = self.background.commit(proposals, items + recalls, run_id, now)
        if self.settings.background.lint:  # marks, rechecks; a fix that still holds becomes a review item
            transitions = Transitions(self.memories, self.settings.flush, now, run_id)
            report.background["lint"] = self.lint.commit(lint_answer, transitions, run_id, now)
            report.changes += transitions.changes
            views.rebuild(self.store, self.settings, now, self.tz, run_id)  # what lint sent to review leaves them
        report.background["layers"].update(after_commit(report.changes, self._kind_of, report.background.get("lint")))
        progress(FlushProgress("rebuild", None, 0, 1, "rebuilding the prompt"))
        selection = compile_prompt(self.memories, self.settings.flush, now, self.background.hint(),
                                   self.background.prompt_labels(), self.background.prompt_tiers())
        save_selection(self.store, selection)
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

    def _line_id_key(self, dry_run: bool) -> bytes:
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
        write_private(self.paths.memory_md, render_markdown(self.memories, now, load_selection(self.store)))
        self.background.write_files()
        kept = self.logbook.remove_flushed(files, self.archive.ids())
        for path in kept:
            log.info("kept %s: it has messages written during the flush", path.name)
