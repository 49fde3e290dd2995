"""FlushService: runs the flush; the GUI and ``monchat flush`` both call it.

Orient reads the logs; the LLM stages (the filters, judge, and the background track's reflect, digests,
diary and lint) write nothing and run as a graph, each as soon as what it reads is there
(``stages.py``). Archive, consolidate, prune, the background's writes and rebuild
then run in one transaction (``commit.py``), with the run recorded in it. The service builds one
``FlushContext`` per run (``context.py``) and hands it to the stages: they never see the service. memory.md is
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
from ..background.track import BackgroundTrack
from ..backends.base import Backend
from ..backends.model_size import small_model_info
from ..errors import FlushRunning
from ..logs.files import LogBook
from ..memory.alike import review_groups
from ..memory.review_item import ReviewItem
from ..vocabulary.states import FlushStage
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
from .commit import commit
from .context import FlushContext, Progress
from .orient import Orientation, orient, select_personas
from .paused import archive_only, is_paused
from ..memory.prompt import write_markdown
from .records import small_model_note, FlushCancelled, FlushProgress, FlushReport

log = logging.getLogger(__name__)

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
        told: list = []  # orientation's progress, said once the backend is known to answer
        orientation, readable = self._orient(report, told.append)
        if orientation.messages and not is_paused(self.store):
            down = self.backend().not_running()
            if down is not None:  # before any stage says it is reading or writing (issue 39)
                raise down
        for step in told:
            progress(step)
        if not orientation.messages:
            report.nothing_to_flush = True
            if not dry_run:
                self._finish(orientation.files, now)
            report.duration_s = round(time.monotonic() - started, 3)
            return report
        if is_paused(self.store):  # memory is paused: archive, propose nothing, ask no model
            paused = self._context(report=report, now=now, started=started, dry_run=dry_run, progress=progress,
                                   cancel=cancel)
            archive_only(paused, orientation)
            if not dry_run:
                self._finish(orientation.files, now)
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
        context = self._context(report=report, now=now, started=started, dry_run=dry_run, progress=progress,
                                cancel=cancel, accept_partial=accept_partial, backend=backend)
        asked = stages.ask(context, orientation=orientation, readable=readable, chosen=chosen, answers=answers)
        try:
            with self.store.atomic():
                commit(context, orientation, asked)
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
        report.review_rows = len(review_groups(map(ReviewItem.of, self.memories.queue_open()), self.memories.get))
        report.duration_s = round(time.monotonic() - started, 3)
        log.info("flush %s: %s call(s), %s change(s), %s dropped, %.1fs", report.run_id, report.llm_calls,
                 len(report.changes), report.dropped, report.duration_s)
        return report

    def _context(self, *, report: FlushReport, now: datetime, started: float, dry_run: bool, progress: Progress,
                 cancel: threading.Event, accept_partial: bool = False,
                 backend: Backend | None = None) -> FlushContext:
        """What this run's stages read (``context.py``), built once per run. ``backend`` None: a run that asks
        no model (memory is paused), so no escalation is built and no line-id key made."""
        asks = backend is not None
        return FlushContext(
            settings=self.settings, store=self.store, memories=self.memories, archive=self.archive,
            prompts=self.prompts, tz=self.tz, clock=self.clock, background=self.background, lint=self.lint,
            report=report, now=now, started=started, dry_run=dry_run, progress=progress, cancel=cancel,
            accept_partial=accept_partial, chunk_major=self.chunk_major, on_stage=self.on_stage,
            backend=backend, escalation=self.escalation() if asks else None,
            line_id_key=self.line_id_key(dry_run) if asks else b"")

    # ---- orient ----------------------------------------------------------------
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
        if unread:  # the user edited them away (or a reply was regenerated): never read (core/memory/takeback.py)
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
