"""MemoryService: read and change memory (CLI ``monchat memory …`` and the GUI's browser).

Every change is one transaction with an audit event, then the prompt selection
is rebuilt (so the next chat turn carries it) and memory.md rewritten. Forgetting
takes a memory out of the prompt and keeps its row (``restore`` undoes it);
``delete`` is the real deletion: the memory's words leave the memory tables,
while the archived messages it stood on stay.
"""

from __future__ import annotations

import builtins
from contextlib import contextmanager
from datetime import datetime, tzinfo
from functools import cached_property
from typing import Callable, Iterator

from ..errors import InputError, NotFound, PinOverBudget
from ..logs.files import LogBook
from .prompt import (REVISION_KEY, SECTION_OVERHEAD, load_selection, memory_line_tokens, rebuild_selection,
                     render_markdown)
from ..paths import Paths
from ..settings import Settings
from ..store.db import Store
from ..store.memories import MemoryStore
from ..types import Clock, local_now
from . import preferences
from .alike import review_groups
from .feedback import MEMORY, Feedback
from .rules import effective_confidence, half_life_for, leaning
from ..records.memory import MemoryRecord
from .review_item import ReviewItem
from ..records.tiers import memory_tier
from ..vocabulary.states import Action, Kind, State, Verdict, View
from .transitions import Transitions
from .undo import recorded


class MemoryService:
    def __init__(self, store: Store, settings: Settings, paths: Paths, clock: Clock = local_now,
                 tz: tzinfo | None = None, on_change: Callable[[datetime], None] | None = None,
                 logbook: LogBook | None = None) -> None:
        """``tz``: the zone of the local day (the profile's snapshot day), as the flush's. ``logbook``: the logs a
        reply's rating reads (``feedback``); without it only memories can be rated.

        ``on_change(now)`` runs after each change, before the prompt is rebuilt: what layers above memory
        keep from it (``app.py`` gives the background's views, so an approved memory enters the
        interests, skills and graph now and a rejected one leaves them now). Memory imports nothing above it.
        """
        self.store = store
        self.on_change = on_change
        self.settings = settings
        self.paths = paths
        self.clock = clock
        self.tz = tz
        self.memories = MemoryStore(store)
        self.logbook = logbook

    # ---- what the chat prompt carries ---------------------------------
    def prompt_items(self) -> tuple[list, list]:
        selection = load_selection(self.store)
        return selection.layer1, selection.layer2

    def prompt_hint(self) -> str:
        """The one "ask about it if it comes up" line the last flush chose within the budget (or "")."""
        return load_selection(self.store).hint

    def revision(self) -> str:
        return self.store.get_state(REVISION_KEY) or "empty"

    def budget_report(self) -> dict:
        return load_selection(self.store).budget

    # ---- reading -------------------------------------------------------
    def _now_epoch(self) -> float:
        return self.clock().timestamp()

    def counts(self) -> dict:
        epoch = self._now_epoch()
        live = self.memories.live()
        by_state = self.memories.counts()
        return {
            "layers": {"layer1": sum(1 for m in live if m.layer(epoch) == 1),
                       "layer2": sum(1 for m in live if m.layer(epoch) == 2),
                       "pending": by_state.get(State.PENDING, 0), "dormant": by_state.get(State.DORMANT, 0),
                       "superseded": by_state.get(State.SUPERSEDED, 0) + by_state.get(State.RETRACTED, 0)},
            "queue": len(self.memories.queue_open()),
        }

    def list(self, all: bool = False) -> list[MemoryRecord]:
        """Memories in the prompt or on their way (``all``: every row, history included)."""
        records = self.memories.all()
        if all:
            return records
        epoch = self._now_epoch()
        return [m for m in records if m.layer(epoch) in (1, 2) or (m.live and m.state is State.QUEUED)]

    def in_view(self, view: View | str) -> builtins.list[MemoryRecord]:
        """The memories of one of the browser's tabs (``View``); NEW: what the last flush proposed."""
        view, epoch = View(view), self._now_epoch()
        if view is View.NEW:
            last = self.memories.runs(1)
            if not last:
                return []
            return [m for m in self.memories.all() if m.created_run == last[0]["id"]]
        return [m for m in self.memories.all() if m.in_view(view, epoch)]

    def get(self, memory_id: str) -> MemoryRecord:
        memory = self.memories.get(memory_id)
        if memory is None:
            raise NotFound(f"There is no memory {memory_id!r}.", "See `monchat memory list --all` for ids.")
        return memory

    def to_dicts(self, records: builtins.list[MemoryRecord]) -> builtins.list[dict]:
        """``to_dict`` of many memories, their tiers read at once."""
        tiers = self.tiers(records)
        return [self.to_dict(m, tiers[m.id]) for m in records]

    def to_dict(self, memory: MemoryRecord, tier: dict | None = None) -> dict:
        data = memory.to_dict(self._now_epoch())
        if memory.kind == Kind.SKILL:  # the level the program assigned at the last flush (background/skills.py)
            from ..store.background import BackgroundStore
            level = BackgroundStore(self.store).skill_level(memory.id)
            data["skill"] = ({"level": level["level"], "xp": level["xp"], "uses": level["uses"]}
                             if level else None)
        elif memory.kind == Kind.PREFERENCE:  # its place in the version chain (memory/preferences.py)
            data.update(preferences.describe(self.memories, memory))
            data["confidence_now"] = round(effective_confidence(memory, self.clock(),
                                                                half_life_for(memory, self.settings.flush)), 4)
        data.update(tier or self.tier(memory))
        return data

    def tier(self, memory: MemoryRecord) -> dict:
        """``{"tier", "digest"}`` of one memory (see ``tiers``)."""
        return self.tiers([memory])[memory.id]

    def tiers(self, records: builtins.list[MemoryRecord]) -> dict[str, dict]:
        """Memory id → ``{"tier", "digest"}``: the tier the last flush gave it (computed now when none has
        yet), and the digest that covers it (``{"id", "slot", "text", "covers", "run_id"}``, or None).
        See core/records/tiers.py."""
        from ..store.tiers import TierStore
        store = TierStore(self.store)
        rows, digests = store.tiers(), {d["id"]: d for d in store.digests()}
        access = store.access_epochs() if any(m.id not in rows for m in records) else {}
        out = {}
        for m in records:
            row = rows.get(m.id) or {}
            found = digests.get(row.get("digest_id") or "")
            tier = row.get("tier") or str(memory_tier(m, access, self._now_epoch(), self.settings.tiers))
            out[m.id] = {"tier": tier, "digest": ({k: found[k] for k in ("id", "slot", "text", "covers", "run_id")}
                                                  if found else None)}
        return out

    def history(self, memory_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through this memory, oldest first, both ways."""
        return preferences.chain(self.memories, self.get(memory_id))

    def evidence(self, memory_id: str) -> builtins.list[dict]:
        self.get(memory_id)
        return self.memories.evidence_messages(memory_id)

    def events(self, memory_id: str) -> builtins.list[dict]:
        return self.memories.events(memory_id)

    def queue(self) -> builtins.list[ReviewItem]:
        """The open review items, oldest first; ``proposers`` is the list of filter personas that proposed each
        (empty for an item made before items recorded them, or by the user's own action)."""
        return [ReviewItem.of(row) for row in self.memories.queue_open()]

    def queue_groups(self) -> builtins.list[builtins.list[ReviewItem]]:
        """The open review rows with near-duplicates together (``alike.review_groups``, the rule the flush folds
        by): the rows of a group propose the same change and are shown and decided as one. Oldest first, in a group
        and among groups. Every review count a user sees is the number of these groups (``review_rows``)."""
        return review_groups(self.queue(), self.memories.get)

    def review_rows(self) -> int:
        """How many rows the review queue shows (near-duplicates as one): the Memory menu's and status's count."""
        return len(self.queue_groups())

    # ---- changing ------------------------------------------------------
    @contextmanager
    def change(self) -> Iterator[Transitions]:
        """One change of memory: a ``Transitions`` inside one transaction, then the rebuild after it.

        ``with service.change() as t: t.forget(memory)`` — every state change goes through ``t``; when the
        block ends without an error the transaction commits, the views above memory are told
        (``on_change``) and the prompt and memory.md are rebuilt. An error rolls back and rebuilds nothing.
        """
        t = Transitions(self.memories, self.settings.flush, self.clock())
        with self.store.atomic():
            yield t
        self._rebuild()

    def _rebuild(self, hint: str | None = None) -> None:
        now = self.clock()
        if self.on_change is not None:
            self.on_change(now)
        if hint is None:  # the last flush's gap line stays
            previous = load_selection(self.store)
            hint = previous.hint or previous.budget.get("hint_left_out", "")
        rebuild_selection(self.memories, self.settings.flush, now, hint, self.paths.memory_md)

    def rebuild(self) -> None:
        """Rebuild the prompt and memory.md after a change made elsewhere (a message deleted: ``core/memory/takeback.py``)."""
        self._rebuild()

    def refresh_hint(self, hint: str) -> None:
        """Rebuild the prompt with this gap line instead of the last one (a gap dismissed in the inbox)."""
        self._rebuild(hint)

    def _queue_row(self, ref: str) -> ReviewItem:
        """A queue item by its number, or the open item of a memory id."""
        if ref.isdigit():
            row = self.memories.queue_get(int(ref))
            if row is None or row["status"] != "open":
                raise NotFound(f"There is no open review item {ref}.", "See `monchat memory list`.")
            return ReviewItem.of(row)
        rows = self.memories.queue_for_memory(ref)
        if not rows:
            raise NotFound(f"Nothing about {ref!r} waits for review.", "See `monchat memory list`.")
        return ReviewItem.of(rows[0])

    def approve(self, ref: str, verdict: str | None = None) -> ReviewItem:
        """Apply a queued change: a Layer 1 promotion, a supersession, a merge, a retraction or a judgement.

        Args:
            ref: the review item's number, or the id of the memory it is about.
            verdict: for an unsure judgement, the verdict to apply instead of the judge's leaning
                (SAME, MERGE, SUPERSEDE, CONTRADICT or COEXIST). It is applied as a flush applies a sure
                verdict, so approving a MERGE here ends in the state a sure MERGE in a flush would.
        """
        row = self._queue_row(ref)
        chosen = None
        if verdict is not None:
            chosen = Verdict.parse(verdict)
            if chosen is None:
                raise InputError(f"{verdict!r} is not a verdict.", f"Use one of: {', '.join(Verdict)}.")
            if row.action != Action.JUDGE:
                raise InputError(f"Review item {row.id} is a {row.action}, not a judgement.",
                                 "Approve it without a verdict.")
        with self.change() as t, recorded(self.store, t.stamp):  # the decision undo reverses (memory/undo.py)
            self._approve_row(t, row, chosen)
        return row

    def _approve_row(self, t: Transitions, row: ReviewItem, chosen: Verdict | None) -> None:
        self.memories.queue_resolve(row.id, "approved", t.stamp)  # first: what it changes closes the others
        memory = self.get(row.memory_id)
        target = self.memories.get(row.target_id) if row.target_id else None
        if row.action == Action.JUDGE and target is not None:
            t.apply_verdict(chosen or leaning(row), memory, target, row.merged_text)
        elif row.action == Action.RETRACT and target is not None:
            t.retract(target, memory)
        else:
            if target is not None and not target.superseded_by:
                t.supersede(target, memory)
            t.chose(row, theirs=True) or t.approve(memory)  # two devices' versions (core/sync): approve takes theirs
        t.event(memory.id, "approved", {"queue": row.id, "action": row.action,
                                        "verdict": str(chosen) if chosen else None})

    def reject(self, ref: str) -> ReviewItem:
        """Refuse a queued change: the proposed memory is kept as rejected; a target stays as it was."""
        row = self._queue_row(ref)
        with self.change() as t, recorded(self.store, t.stamp):
            self._reject_row(t, row)
        return row

    def _reject_row(self, t: Transitions, row: ReviewItem) -> None:
        if not t.chose(row, theirs=False):  # two devices' versions of one memory (core/sync): reject keeps ours
            t.reject(self.get(row.memory_id))
        self.memories.queue_resolve(row.id, "rejected", t.stamp)
        t.event(row.memory_id, "rejected", {"queue": row.id, "action": row.action})

    def decide_many(self, refs: builtins.list[str], approve: bool) -> builtins.list[ReviewItem]:
        """Approve (each as its proposal or the judge's leaning) or reject several review items at once: one
        transaction, one rebuild. An item an earlier one of the batch closed is skipped; returns those decided.

        Raises:
            NotFound: a ref names no open item before any is decided (nothing changes).
        """
        rows = [self._queue_row(ref) for ref in refs]
        done = []
        with self.change() as t, recorded(self.store, t.stamp):
            for row in rows:
                fresh = self.memories.queue_get(row.id)
                if fresh is None or fresh["status"] != "open":
                    continue  # approving an earlier one closed it (the same memory)
                if approve:
                    self._approve_row(t, row, None)
                else:
                    self._reject_row(t, row)
                done.append(row)
        return done

    def edit(self, memory_id: str, text: str) -> MemoryRecord:
        """Reword a memory: the user's word, kept as written.

        A new version supersedes the old one, which stays in history. The new one is lasting memory
        (Layer 1) at once; if the old one waited for review, the edit is the approval: a proposal to
        replace a kept memory replaces it, an unsure comparison counts as the new words standing
        alone (or replacing, when the judge leaned that way) — never merged into other words.
        """
        text = text.strip()
        if not text:
            raise InputError("The new text is empty.", "Give the memory's new wording.")
        old = self.get(memory_id)
        if old.history:
            raise InputError(f"{memory_id} is history and cannot be edited.",
                             f"Edit the current version: `monchat memory history {memory_id}`.")
        with self.change() as t:
            own = [r["id"] for r in self.memories.queue_for_memory(old.id) if r["memory_id"] == old.id]
            new = t.edit(old, text)
            for queue_id in own:  # now about the new version
                found = self.memories.queue_get(queue_id)
                assert found is not None, queue_id  # listed a moment ago, inside this change
                row = ReviewItem.of(found)
                leaning = Verdict.parse(row.verdict or "")
                as_written = Verdict.SUPERSEDE if leaning in (Verdict.SUPERSEDE, Verdict.MERGE) else Verdict.COEXIST
                self._approve_row(t, row, as_written if row.action == Action.JUDGE else None)
            new = self.get(new.id)
            if new.live and new.state is not State.ACTIVE:
                new = t.activate(new)
            t.event(new.id, "approved as written", {"queue": own})
        return self.get(new.id)

    def forget(self, memory_id: str) -> MemoryRecord:
        """Out of the prompt for good; the row and its history stay."""
        memory = self.get(memory_id)
        with self.change() as t:
            t.forget(memory)
        return self.get(memory_id)

    def forget_many(self, memory_ids: builtins.list[str]) -> builtins.list[str]:
        """Forget several memories in one transaction (a never-remember rule's matches); returns their ids."""
        if not memory_ids:
            return []
        memories = [self.get(memory_id) for memory_id in memory_ids]
        with self.change() as t:
            for memory in memories:
                t.forget(self.get(memory.id))  # as it is now: an earlier forget may reopen it
        return [memory.id for memory in memories]

    def restore(self, memory_id: str) -> MemoryRecord:
        """Undo a forget: the memory is back in the state it had (and in the prompt, if it was)."""
        memory = self.get(memory_id)
        if memory.state is not State.FORGOTTEN:
            raise InputError(f"{memory_id} is not forgotten.", "Only a forgotten memory can be restored.")
        with self.change() as t:
            t.restore(memory)
        return self.get(memory_id)

    def delete(self, memory_id: str) -> builtins.list[str]:
        """Delete a memory for real, with its whole history: its words leave the memory tables.

        The archived messages it stood on stay (delete those from the logs and archive separately).

        Returns:
            The ids deleted (the memory and its earlier and later versions).
        """
        from .scrub import delete_memory  # the one way out (issue 36): its words leave the files too
        return delete_memory(self, self.history(memory_id))

    def pin(self, memory_id: str, pinned: bool = True) -> MemoryRecord:
        """A pinned memory is always in Layer 1: it never decays, goes dormant or is left out."""
        memory = self.get(memory_id)
        if pinned and memory.history:
            raise InputError(f"{memory_id} is history and cannot be pinned.", "Pin its current version.")
        if pinned and not memory.pinned:
            self._check_pin_room(memory)
        with self.change() as t:
            t.pin(memory, pinned)
        return self.get(memory_id)

    def _check_pin_room(self, memory: MemoryRecord) -> None:
        """Pinned memories always go into the prompt; together they must stay within its memory budget."""
        budget = self.settings.flush.memory_token_budget
        pinned = [m for m in self.memories.live() if m.pinned] + [memory]
        tokens = SECTION_OVERHEAD + sum(memory_line_tokens(m.text) for m in pinned)
        if tokens > budget:
            raise PinOverBudget(
                f"Pinned memories would take {tokens} tokens of the {budget}-token memory budget, so nothing "
                f"else would fit in the prompt.",
                "Unpin a memory you need less, or raise the budget (settings flush.memory_token_budget).")

    def unpin(self, memory_id: str) -> MemoryRecord:
        return self.pin(memory_id, False)

    @cached_property
    def feedback(self) -> Feedback:
        """The one ``Feedback`` (👍/👎 on replies and memories) over this service and its logs: ``App.feedback``."""
        return Feedback(self, self.logbook)

    def rate(self, memory_id: str, rating: str) -> dict:
        """👍 (up) / 👎 (down) / none on a memory: ``memory/feedback.py`` has the rules."""
        return self.feedback.rate_memory(memory_id, rating)

    def rating(self, memory_id: str) -> str:
        return self.feedback.rating(MEMORY, memory_id)

    def markdown(self) -> str:
        return render_markdown(self.memories, self.clock(), load_selection(self.store))
