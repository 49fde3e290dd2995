"""What a flush's stages are given: one ``FlushContext``, built once per run by ``FlushService``.

The stage modules (``stages.py``, ``commit.py``, ``paused.py``) read what they need from it and never see the
service: each field is a value (the settings, the store, this run's time) or an object that does one thing
(the background track, lint, a backend). The run's moving parts (the report the stages fill in, the progress
listener, the cancel event) travel in the same record, so a stage is called with the context and what the
stages before it gave. Frozen: a stage cannot swap what another stage reads; the report it holds is filled in.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Callable

from ..background.lint import Lint
from ..background.track import BackgroundTrack
from ..backends.base import Backend
from ..vocabulary.states import FlushStage
from ..prompts import PromptLibrary
from ..settings import Settings
from ..store.db import Store
from ..store.memories import MemoryStore
from ..store.messages import MessageArchive
from ..types import Clock
from .records import FlushProgress, FlushReport

Progress = Callable[[FlushProgress], None]


def quiet(progress: FlushProgress) -> None:
    """A progress listener that hears nothing (the trial's state changes are not the run's progress)."""


@dataclass(frozen=True)
class FlushContext:
    """Everything a flush's stages read, for one run.

    Attributes:
        backend, escalation: the models this run asks; None for a run that asks none (memory is paused).
        line_id_key: this data folder's secret for the line ids filters see (empty when no model is asked).
        started: ``time.monotonic()`` at the run's start (the report's duration).
        chunk_major: False reads the personas one after another (a benchmark's baseline).
        on_stage: hears each LLM stage as it starts (tests read the order from it).
    """

    # what the flush reads and writes through: the service's, the same at every run
    settings: Settings
    store: Store
    memories: MemoryStore
    archive: MessageArchive
    prompts: PromptLibrary
    tz: tzinfo | None
    clock: Clock
    background: BackgroundTrack
    lint: Lint
    # this run
    report: FlushReport
    now: datetime
    started: float
    dry_run: bool
    progress: Progress
    cancel: threading.Event
    accept_partial: bool = False
    chunk_major: bool = True
    on_stage: Callable[[FlushStage], None] | None = None
    # the models it asks
    backend: Backend | None = None
    escalation: Backend | None = None
    line_id_key: bytes = b""
