"""The background track inside a flush: what it asks before the commit, and what it writes in it.

The ``ask_*`` methods write nothing; each is a stage of the flush's graph (``flush/stages.py``) and starts
as soon as what it reads is there: one diary call per local day with new user messages (``diary.py``)
beside the filters, one digest call per cold slot (``background/digest.py``, chosen by ``tiering.py``) once
the filters said which slots they touch, and the reflect call (``background/reflect.py``) after the judge and
the trial. ``commit`` runs inside the flush's one transaction, after
consolidation and before the run's row: the day's profile snapshot, the insights, the diary pages,
the recall failures and gap marks (from corrections and recall items, the reflect stage and the
neighbour table), the tiers and digests (``tiering.py``), the skill levels, the graph and its
discoveries (``graph.py``), and the per-layer summary the report shows (``summary.py``).
``write_files`` runs after the commit (the diary's Markdown pages, like memory.md).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Callable

from ..backends.base import Backend
from ..paths import Paths
from ..prompts import PromptLibrary
from ..settings import Settings
from ..store.background import BackgroundStore
from ..store.db import Store
from ..store.graph import GraphStore
from ..store.shown import ShownStore
from ..types import Message
from . import diary, gaps, graph, profile, skills, tiering, views
from .summary import layers
from . import digest, reflect
from ..asking.ask import TokenUsage
from ..asking.records import FlushProgress
from ..memory.proposals import Item, JudgeOutcome
from ..vocabulary.states import FlushStage, Kind


@dataclass
class Basis:
    """What the views will be built from once a flush is applied (``FlushService._trial``)."""

    items: set[int]  # this flush's items whose memory the views may show, or an earlier version of one (shown.py)
    statistics: dict | None  # what reflect reads (None: reflect is off, or no item may be shown)


@dataclass
class Proposals:
    """What the background's LLM calls proposed in one flush (nothing written yet)."""

    reflection: reflect.Reflection | None = None
    pages: list[diary.Page] = field(default_factory=list)
    digests: list[digest.Digest] = field(default_factory=list)
    diary_days: list[str] | None = None  # the days a page was asked for (None: the diary did not run)
    usage: TokenUsage = field(default_factory=TokenUsage)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    basis: Basis | None = None  # what reflect read (the commit writes from the same)


def resting(reflection: reflect.Reflection, shown: set[str]) -> reflect.Reflection:
    """The reflection's entries with only the slots the views may show; an entry left with none is dropped."""
    kept = reflect.Reflection(dropped=reflection.dropped)
    for entries, into in ((reflection.insights, kept.insights), (reflection.gaps, kept.gaps)):
        for entry in entries:
            slots = [s for s in entry["slots"] if s in shown]
            if slots:
                into.append({**entry, "slots": slots})
            else:
                kept.dropped += 1
    return kept


class BackgroundTrack:
    def __init__(self, store: Store, prompts: PromptLibrary, settings: Settings, paths: Paths,
                 tz: tzinfo | None, read: Callable[[str], bool]) -> None:
        self.store = BackgroundStore(store)
        self.read = read  # whether a surface persona's conversations are read at a flush
        self.prompts = prompts
        self.settings = settings
        self.paths = paths
        self.tz = tz

    def day_of(self, epoch_or_dt) -> str:
        dt = epoch_or_dt if isinstance(epoch_or_dt, datetime) else datetime.fromtimestamp(epoch_or_dt, self.tz)
        return f"{dt.astimezone(self.tz):%Y-%m-%d}"

    # ---- the profile ---------------------------------------------------------
    def profile_rows(self, now: datetime) -> list[profile.TopicRow]:
        """The profile as of ``now``, from the memories the views may show (``store/shown.py``)."""
        return views.profile_rows(self.store, now, self.day_of(now))

    def basis(self, items: list[Item], outcome: JudgeOutcome, item_memory: dict[int, str], now: datetime) -> Basis:
        """Inside a flush's trial, after its state changes: which items the views may show, the profile and
        reflect's statistics, as the flush will leave them."""
        said = ShownStore(self.store.store).said_ids()  # an item replaced by a later one of the flush counts
        indexes = {index for index, memory_id in item_memory.items() if memory_id in said}
        shown = [i for i in items if i.index in indexes]
        rows = self.profile_rows(now)
        stats = None
        if self.settings.background.reflect and shown:
            stats = reflect.statistics(shown, outcome, profile.moving(rows), self.store,
                                       self.settings.flush.judge_confidence)
        return Basis(indexes, stats)

    # ---- before the commit: LLM calls, no writes --------------------------------
    # Each is a stage of the flush's graph (``flush/stages.py``): it starts once what it reads is there.
    def ask_reflect(self, backend: Backend, basis: Basis, progress: Callable[[FlushProgress], None]) -> Proposals:
        """Reflect, after the trial: it reads only ``basis`` (the items whose memory the views may show once the
        flush is applied)."""
        proposals = Proposals(basis=basis)
        if basis.statistics is not None:
            progress(FlushProgress(FlushStage.REFLECT, None, 0, 1, "looking back over this flush"))
            proposals.reflection = reflect.reflect(backend, self.prompts, basis.statistics, proposals.usage,
                                                   proposals.errors, proposals.notes, self.settings.chat.language)
            progress(FlushProgress(FlushStage.REFLECT, None, 1, 1, "done"))
        return proposals

    def ask_digests(self, items: list[Item], backend: Backend, now: datetime,
                    progress: Callable[[FlushProgress], None]) -> Proposals:
        """A digest per cold slot, once the filters said which slots this flush touches (those stay warm)."""
        proposals = Proposals()
        cold = tiering.slots(self.store.store, self.settings.tiers, {i.slot for i in items}, now)
        if cold:
            progress(FlushProgress(FlushStage.DIGEST, None, 0, len(cold), f"{len(cold)} cold slot(s)"))
            proposals.digests = digest.ask_digests(backend, self.prompts, cold, proposals.usage, proposals.errors,
                                                   proposals.notes, self.settings.chat.language)
            progress(FlushProgress(FlushStage.DIGEST, None, len(cold), len(cold), "done"))
        return proposals

    def ask_diary(self, readable: list[Message], backend: Backend, now: datetime,
                  progress: Callable[[FlushProgress], None], cancel: threading.Event, parallel: int) -> Proposals:
        """The diary's pages, beside the filters: from the day's messages and the profile before this flush."""
        proposals = Proposals()
        if self.settings.background.diary:
            proposals.pages = diary.write_pages(backend, self.prompts, self.store, readable, self.profile_rows(now),
                                                self.day_of, proposals, progress, cancel,
                                                self.settings.chat.language, self.read, self.store.diary_owed(),
                                                parallel)
        return proposals

    @staticmethod
    def merge(reflected: Proposals, digested: Proposals, written: Proposals) -> Proposals:
        """The three asks as one, in the order reflect, digests, diary (the report's errors and notes keep it)."""
        proposals = Proposals(reflection=reflected.reflection, pages=written.pages, digests=digested.digests,
                              diary_days=written.diary_days, basis=reflected.basis)
        for part in (reflected, digested, written):
            proposals.usage.add(part.usage)
            proposals.errors.extend(part.errors)
            proposals.notes.extend(part.notes)
        return proposals

    # ---- inside the flush's transaction -----------------------------------------
    def commit(self, proposals: Proposals, items: list[Item], run_id: int, now: datetime) -> dict:
        """Write what the program decided; return the report's summary of it.

        ``items`` are this flush's items with its recall items (which never become memories). What is written
        rests only on memories the views may show (``store/shown.py``): a correction counts as a recall failure
        only when its memory may be shown, and an insight or gap keeps only the slots that may be shown now."""
        at = now.isoformat(timespec="seconds")
        if proposals.basis is not None:
            items = [i for i in items if i.kind == Kind.RECALL or i.index in proposals.basis.items]
        if proposals.reflection is not None:
            proposals.reflection = resting(proposals.reflection, set(self.store.live_slots()))
        rows = self.profile_rows(now)
        self.store.replace_snapshot(self.day_of(now), [r.row(run_id) for r in rows])
        summary: dict = {"stages": ["profile"], "profile": profile.moving(rows), "reflect": None, "diary": [],
                         "gaps": []}
        reflection = proposals.reflection
        if reflection is not None:
            summary["stages"].insert(0, "reflect")
            for kind, entries in (("insight", reflection.insights), ("gap", reflection.gaps)):
                for entry in entries:
                    self.store.add_insight({"run_id": run_id, "kind": kind, "text": entry["text"],
                                            "slots": entry["slots"], "created_at": at})
            summary["reflect"] = {"insights": reflection.insights, "gaps": reflection.gaps,
                                  "dropped": reflection.dropped}
        if proposals.pages:
            summary["stages"].append("diary")
        for page in proposals.pages:  # its topics: of the memories this flush leaves (asked before they were)
            page.topics = diary.topics_on_day(self.store, page.day)
            self.store.put_page(page.row(run_id, at))
            summary["diary"].append(page.day)
        if proposals.diary_days is not None:  # a day asked for without a page is asked again next time
            self.store.set_diary_owed(sorted(set(proposals.diary_days) - {p.day for p in proposals.pages}))
        summary["gaps"] = gaps.record(self.store, items, proposals.reflection, run_id, at, rows,
                                      self.settings.background.structural_gap_after)
        summary["tiers"] = tiering.commit(self.store.store, proposals.digests, self.settings.tiers, run_id, now)
        summary["skills"] = skills.update(self.store, now.timestamp(), self.settings.background.skill_half_life_days,
                                          run_id, at)
        if self.settings.graph.enabled:
            summary["graph"] = graph.update(GraphStore(self.store.store), self.settings.graph, run_id, at)
        summary["layers"] = layers(summary)
        views.built_from(self.store.store)
        return summary

    def hint(self) -> str:
        """The prompt's "ask about it if it comes up" line: the newest open gap (``background.gap_hint``)."""
        return gaps.hint(self.store) if self.settings.background.gap_hint else ""

    # ---- after the commit -------------------------------------------------------
    def write_files(self) -> None:
        """Every diary page as ``diary/YYYY-MM-DD.md`` (rewritten only when it differs)."""
        diary.write_files(self.store.pages(), self.paths.data_dir / "diary")
