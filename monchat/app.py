"""The composition root: builds paths, settings, store, backends and services once.

The GUI and the CLI both start here and use the same service objects.
"""

from __future__ import annotations

import logging
import os
import logging.handlers
import sys
import threading
from dataclasses import dataclass, field
from functools import cached_property
from datetime import tzinfo
from typing import TYPE_CHECKING, Callable

from .core.backends.base import Backend
from .core.backends.registry import BackendRegistry
from .core.chat.service import ChatService
from .core.logs.files import LogBook
from .core.logs.off_record import OffRecordLog, expire_quietly
from .core.memory.learning import ReviewLearning
from .core.memory.pause import MemoryPause
from .core.memory.service import MemoryService
from .core.models.catalog import resolve as resolve_model
from .core.paths import Paths, is_marked, resource_dir
from .core.personas.library import PersonaRegistry
from .core.privacy.cloud import CloudConsent
from .core.prompts import PromptLibrary
from .core.redact import RedactingFormatter
from .core.privacy.secrets import SecretStore
from .core.settings import Settings, load_settings, save_settings
from .core.status import StatusService
from .core.store import Store
from .core.transfer.swap import recover_interrupted
from .core.store.messages import MessageArchive
from .core.types import Clock, local_now

if TYPE_CHECKING:  # the flush machinery is imported when it is first used, not at every start
    from .core.background.inbox import Inbox  # the background's modules too (the graph's): not for the window
    from .core.background.lint_service import LintService
    from .core.evaluation.service import MemoryScore
    from .core.flush.service import FlushService
    from .core.memory.feedback import Feedback
    from .core.memory.takeback import MessageDeletion
    from .core.memory.never import NeverRules
    from .core.models.service import Models
    from .core.sync.service import SyncService
    from .core.transfer.service import Transfer

log = logging.getLogger(__name__)


def scrub_text_files(paths, logbook, texts: list[str]) -> object:
    """Words removed off the record, out of monchat.log and the other text files (``core/memory/scrub.py``)."""
    from .core.memory.scrub import scrub_text_files
    return scrub_text_files(paths, logbook, texts)


def take_back_edited(logbook, archive, memory, paths, ids: list[str], store=None, clock=None) -> object:
    """What an edit replaced, out of every file (``core/memory/scrub.py``, imported at the first edit); its deletion
    travels to the other devices (``core/sync``)."""
    from .core.memory.scrub import Scrubber
    if store is not None and clock is not None:
        from .core.sync.service import record_deletion
        record_deletion(store, clock, ids)
    return Scrubber(logbook, archive, memory, paths).take_back_edited(ids)


@dataclass
class App:
    """What one monchat is made of. The services below the fields are each built once, at first use (their modules
    imported then, not at every start), and kept: one object per service for every caller, whether it holds state
    (the flush's ``running``, ``feedback`` shared with ``memory``) or only the App's own objects. Each is a
    ``cached_property`` but ``flush``, built under a lock because a worker and the window may ask for it at once."""

    paths: Paths
    settings: Settings
    settings_warnings: list[str]
    store: Store
    logbook: LogBook
    archive: MessageArchive
    personas: PersonaRegistry
    prompts: PromptLibrary
    secrets: SecretStore
    backends: BackendRegistry
    chat: ChatService
    memory: MemoryService
    make_flush: Callable[[], "FlushService"]
    clock: Clock
    _flush: "FlushService | None" = field(default=None, repr=False)
    _flush_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def flush(self) -> "FlushService":
        """The flush service, built (and its modules imported) at first use."""
        with self._flush_lock:
            if self._flush is None:
                self._flush = self.make_flush()
            return self._flush

    @cached_property
    def inbox(self) -> "Inbox":
        """The background track's inbox: insights, gaps, diary, profile, skills, lint findings, the graph."""
        from .core.background.inbox import Inbox
        return Inbox(self.store, self.settings, self.memory)

    @cached_property
    def learning(self) -> ReviewLearning:
        """What the user's review decisions taught the auto-approval (``core/memory/learning.py``)."""
        return ReviewLearning(self.store, self.settings, self.clock)

    @cached_property
    def consent(self) -> CloudConsent:
        """The user's yes to each cloud destination (asked before the first message or flush goes there)."""
        return CloudConsent(self.store)

    @cached_property
    def status(self) -> StatusService:
        """What ``monchat status`` shows (``core/status.py``)."""
        return StatusService(settings=self.settings, settings_warnings=self.settings_warnings, paths=self.paths,
                             chat=self.chat, logbook=self.logbook, archive=self.archive, backends=self.backends,
                             memory=self.memory, learning=self.learning, store=self.store)

    @cached_property
    def lint(self) -> "LintService":
        """Knowledge lint on demand (``monchat lint``, the inbox's Lint tab and Check now)."""
        from .core.background.lint_service import LintService
        return LintService(self.store, self.settings, self.prompts, self.paths, self.logbook, self.backends,
                           self.clock)

    @cached_property
    def feedback(self) -> "Feedback":
        """👍/👎 on replies and memories (``core/memory/feedback.py``): the one ``memory`` rates with, over the logs."""
        return self.memory.feedback

    @cached_property
    def messages(self) -> "MessageDeletion":
        """Delete message (``core/memory/takeback.py``), for the window and ``monchat message delete``."""
        from .core.memory.takeback import MessageDeletion
        return MessageDeletion(self.logbook, self.archive, self.memory, self.paths,
                               on_delete=lambda ids: self.sync.record_deletion(ids))  # deletions travel (core/sync)

    @cached_property
    def sync(self) -> "SyncService":
        """One history on every device through a synced folder (``core/sync/``): ``monchat sync``."""
        from .core.sync.service import SyncService
        return SyncService(self.store, self.archive, self.logbook, self.clock, self._delete_quietly,
                           self.paths.data_dir / "sync.lock", memory=self.memory)  # decisions replay here

    def _delete_quietly(self, message_id: str) -> bool:
        """Delete message for sync: another device deleted it; False when it is not here."""
        from .core.errors import NotFound
        try:
            self.messages.delete(message_id)
        except NotFound:
            return False
        return True

    @cached_property
    def pause(self) -> MemoryPause:
        """Pause memory (``core/memory/pause.py``): the Memory menu's switch and ``monchat memory pause|resume``."""
        return MemoryPause(self.store, self.clock)

    @cached_property
    def never(self) -> "NeverRules":
        """The user's never-remember rules and the memories they cover (``core/memory/never.py``)."""
        from .core.memory.never import NeverRules
        return NeverRules(self.store, self.memory, self.clock)

    @cached_property
    def transfer(self) -> "Transfer":
        """History and memory in and out (``core/transfer/service.py``): File → Import/Export, ``monchat import|export``."""
        from .core.transfer.service import Transfer
        return Transfer(self.logbook, self.archive, self.memory, self.settings, self.personas, self.paths, self.clock)

    @cached_property
    def models(self) -> "Models":
        """The embedded backend's catalog models (``core/models/service.py``): list, pull and select, remove."""
        from .core.models.service import Models
        return Models(self.settings, self.save_settings, self.backends, self.paths.models_dir)

    def close(self) -> None:
        """Release backends and this thread's database connection."""
        self.backends.close()
        self.store.close()

    def save_settings(self) -> None:
        save_settings(self.settings, self.paths.settings_path)


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """The app's log, created (and re-created at each rotation) 0600 whatever the umask."""

    _monchat = False  # set on the one setup_logging adds to the root logger (added once)
    _failed = False  # monchat.log could not be written (a full disk): said once on stderr, then quiet

    def _open(self):
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging.Handler's name)
        """A line monchat.log cannot take (a full disk, a size limit) is dropped with one short line on
        stderr, once, instead of logging's traceback for every line: the command's own error says the rest."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError) and not self._failed:
            self._failed = True
            print(f"monchat: warning: {self.baseFilename} cannot be written ({error.strerror or error}); "
                  "its lines are dropped for now.", file=sys.stderr)
        elif not isinstance(error, OSError):
            super().handleError(record)  # our bug (a bad format string…): logging's own report
        if self.stream is not None and isinstance(error, OSError):
            try:
                self.stream.close()  # a half-written buffer would fail again at every later line
            except OSError:
                pass
            self.stream = None


def setup_logging(paths: Paths, verbose: bool = False) -> None:
    """Log to ``monchat.log`` in the data folder (rotated) and warnings to stderr."""
    root = logging.getLogger()
    if any(getattr(h, "_monchat", False) for h in root.handlers):
        return
    handler = PrivateRotatingFileHandler(paths.data_dir / "monchat.log", maxBytes=2_000_000,
                                         backupCount=3, encoding="utf-8")
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler._monchat = True
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    for noisy in ("httpx", "httpx2", "httpcore", "httpcore2", "google_genai"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def build_app(home: str | None = None, *, backend: str | None = None, model: str | None = None,
              pinned_backend: Backend | None = None, clock: Clock = local_now,
              tz: tzinfo | None = None, open_timeout: float | None = None) -> App:
    """Build everything monchat needs, wired together.

    Args:
        home: a folder for everything (else ``MONCHAT_HOME`` or the platform folders).
        backend, model: the ``--backend`` / ``--model`` CLI options.
        pinned_backend: one backend object for every call (tests and benchmarks).
        clock, tz: time source and the zone that defines the 6-hour slots (tests).
        open_timeout: seconds to wait for a locked database while opening it (``Store``).
    """
    paths = Paths.from_env(home)
    recover_interrupted(paths)  # a restore killed part-way is finished before the folder is used or made
    paths.ensure()
    settings, warnings = load_settings(paths.settings_path)
    for warning in warnings:
        log.warning("settings: %s", warning)
    store = Store(paths.db_path, open_timeout=open_timeout)
    off_record = OffRecordLog(paths.off_record_dir, tz=tz)  # its own files: no flush reads them (core/logs/off_record.py)
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir, tz=tz, off_record=off_record)
    off_record.on_removed = lambda texts: scrub_text_files(paths, logbook, texts)  # the one way out (memory/scrub.py)
    expire_quietly(off_record, clock(), settings.off_record.hours)
    archive = MessageArchive(store, tz=tz)
    personas = PersonaRegistry(resource_dir("personas"), paths.user_surface_dir, paths.user_filter_dir,
                               templates_dir=resource_dir("prompts"))
    for source, problems in personas.problems.items():
        log.warning("persona %s: %s", source, "; ".join(problems))
    prompts = PromptLibrary(resource_dir("prompts"))
    secrets = SecretStore()
    backends = BackendRegistry(settings, secrets, store, backend=backend, model=model, pinned=pinned_backend,
                               models_dir=paths.models_dir, resolve_model=resolve_model)

    def rebuild_views(now) -> None:  # memory imports nothing above it: the background's views are told here
        from .core.background import views
        views.rebuild(store, settings, now, logbook.tz)

    memory = MemoryService(store, settings, paths, clock=clock, tz=logbook.tz, on_change=rebuild_views,
                           logbook=logbook)
    built: list = []  # the flush service, once built: while it (or one in another process) runs, chat stays open
    chat = ChatService(settings, logbook, archive, personas, prompts, backends, memory=memory, clock=clock,
                       flush_running=lambda: (bool(built) and built[0].running) or is_marked(paths.flush_running),
                       take_back=lambda ids: take_back_edited(logbook, archive, memory, paths, ids, store, clock))

    def make_flush() -> "FlushService":
        from .core.flush.service import FlushService
        built.append(FlushService(settings, store, logbook, archive, personas, prompts, paths,
                                  backend=backends.default, escalation=backends.escalation, clock=clock,
                                  tz=logbook.tz))
        return built[-1]

    return App(paths, settings, warnings, store, logbook, archive, personas, prompts, secrets,
               backends, chat, memory, make_flush, clock)




def scratch_factory(user: Paths, *, backend: str | None = None, model: str | None = None,
                    pinned_backend: Backend | None = None) -> Callable:
    """``make_app(home, clock)`` for ``monchat eval`` (``core/evaluation/runner.py``): a monchat in a scratch folder
    with a copy of the user's settings and a link to their models, so it measures their own model; their data folder
    is never opened."""
    def make_app(home, clock: Clock) -> App:
        import shutil
        home.mkdir(parents=True, exist_ok=True)
        if user.settings_path.is_file():
            shutil.copyfile(user.settings_path, home / "settings.toml")
        if user.models_dir.is_dir():
            (home / "models").symlink_to(user.models_dir, target_is_directory=True)
        return build_app(str(home), backend=backend, model=model, pinned_backend=pinned_backend, clock=clock)
    return make_app


def memory_score(user: Paths) -> "MemoryScore":
    """Settings → Model's memory score (``core/evaluation/service.py``), measured with the saved settings."""
    from .core.evaluation.service import MemoryScore
    return MemoryScore(user.data_dir, scratch_factory(user))
