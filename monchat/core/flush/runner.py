"""A small runner for a graph of stages: each starts as soon as what it reads is there.

A ``Stage`` names what it needs and what it gives; ``run_stages`` starts, in the order given, every stage
whose needs are all given (by the caller or by a stage that ended), each on a thread of its own, and waits
for them. Model calls are bounded apart from the stages: every call a flush makes holds one of its
``CallSlots`` (``flush.parallel`` of them), and a call of a more urgent stage (the filters, the judge,
reflect: what the commit waits for) is given a free slot before one of a stage that can wait (the diary,
lint, digests), and one slot is kept for that path until reflect asked. Once the filters know how many calls
they will make (``expect``), a call that can wait does not take a slot one of them is about to ask for: the
slowest reader's calls, the longest path of the graph, run back to back, and the calls that can wait fill
the time before them (while the requests are sized) and after them (the judge, the trial, reflect). A call keeps its slot through its
retries (a busy server is sent nothing more meanwhile); a call that fails (not a malformed answer, which its
stage handles) ends the flush: no call starts after it. With one slot the stages run one after another, in
the order given, on the caller's thread: a backend that answers one call at a time is asked in the same order
at every run.

A stage is told to stop through the ``halt`` event it is given: set when the caller's ``cancel`` is set or
when another stage failed. The runner waits for the stages still running before it raises: the first
stage's error, else ``FlushCancelled``. Nothing here writes: stages that write (the trial) do so in their
own transaction.
"""

from __future__ import annotations

import copy
import heapq
import itertools
import threading
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ..asking.baton import BATON
from ..errors import BackendError, MalformedReply
from ..memory.states import FlushStage
from .records import FlushCancelled

POLL_S = 0.05  # how often the runner looks at the caller's cancel while stages run


@dataclass(frozen=True)
class Stage:
    """One stage: ``run(halt, **needs)`` returns the value named ``gives``."""

    name: FlushStage
    needs: tuple[str, ...]
    gives: str
    run: Callable[..., Any]


class CallSlots:
    """At most ``size`` model calls at once; a waiting call with a lower ``urgency`` gets a free slot first
    (among equals, the one that asked first). While ``reserved`` is set, that many slots are kept for calls
    of urgency 0: a call that can wait never takes the last free one (a call is not stopped once it runs,
    so this is what keeps the commit's path from waiting a whole call for a slot)."""

    def __init__(self, size: int, reserved: int = 0) -> None:
        self.size = max(1, size)
        self.reserved = min(reserved, self.size - 1)
        self._free = self.size
        self._waiting: list[tuple[int, int]] = []  # (urgency, ticket), a heap
        self._tickets = itertools.count()
        self._changed = threading.Condition()
        self.expected = 0  # urgent calls announced (``expect``) that have not asked for a slot yet
        self.failed: BackendError | None = None  # a call's error that ends the flush: no call starts after it
        self.in_use = 0  # calls holding a slot now
        self.most_in_use = 0  # the most that ever held one at once

    def unreserve(self) -> None:
        """The commit's path asked its last call: every slot is for anyone now."""
        with self._changed:
            self.reserved = 0
            self._changed.notify_all()

    def expect(self, calls: int) -> None:
        """``calls`` urgent calls will ask soon, one after another as slots come free (the filters' calls,
        once their requests are sized; 0 when they all asked or their stage ended). Until each asked, a call
        that can wait takes a slot only where every one of them would still find one: a slot given back
        between two filter calls goes to the next filter call, not to a diary page."""
        with self._changed:
            self.expected = max(0, calls)
            self._changed.notify_all()

    @contextmanager
    def hold(self, urgency: int = 0) -> Iterator[None]:
        """A slot for one call, held while it runs, its retries and their waits included (a busy server
        is not sent another call meanwhile).

        Raises:
            BackendError: a call failed before (not a malformed answer, which its stage handles): that
                error ends the flush, so no other call is started.
        """
        with BATON.lent():  # while this call waits for its slot and for the model, another stage runs Python
            self._take(urgency)
            try:
                yield
            except BackendError as exc:
                if not isinstance(exc, MalformedReply):
                    with self._changed:
                        self.failed = self.failed or exc
                        self._changed.notify_all()
                raise
            finally:
                self._give()

    def _take(self, urgency: int) -> None:
        with self._changed:
            ticket = (urgency, next(self._tickets))
            heapq.heappush(self._waiting, ticket)
            if not urgency and self.expected:
                self.expected -= 1  # an expected call asked: it waits in line, ahead of every call that can wait
            while not (self._free > self._kept(urgency) and self._waiting[0] == ticket):
                if self.failed is not None:
                    break
                self._changed.wait()
            if self.failed is not None:
                self._waiting.remove(ticket)
                heapq.heapify(self._waiting)
                self._changed.notify_all()
                raise copy.copy(self.failed)
            heapq.heappop(self._waiting)  # the first in line: calls of urgency 0 are always ahead of the rest
            self._free -= 1
            self.in_use += 1
            self.most_in_use = max(self.most_in_use, self.in_use)
            self._changed.notify_all()  # the next in line may take another free slot

    def _kept(self, urgency: int) -> int:
        """Free slots a call of this urgency must leave to others: none for an urgent one; for one that can
        wait, the slot kept for the commit's path and one for each expected call (never every slot)."""
        return max(self.reserved, min(self.expected, self.size - 1)) if urgency else 0

    def _give(self) -> None:
        with self._changed:
            self._free += 1
            self.in_use -= 1
            self._changed.notify_all()


def check(stages: list[Stage], given: set[str]) -> None:
    """Each value given once, and every need given (by the caller or an earlier stage): a graph that can end.

    Raises:
        ValueError: the graph is wrong (a bug of ours, not the user's).
    """
    known = set(given)
    for stage in stages:
        missing = [n for n in stage.needs if n not in known]
        if missing:
            raise ValueError(f"stage {stage.name} needs {missing}, given by no stage before it")
        if stage.gives in known:
            raise ValueError(f"{stage.gives!r} is given twice (stage {stage.name})")
        known.add(stage.gives)


def run_stages(stages: list[Stage], given: dict[str, Any], cancel: threading.Event, side_by_side: bool = True,
               on_start: Callable[[FlushStage], None] | None = None) -> dict[str, Any]:
    """Run every stage once; return ``given`` with every stage's value added.

    Args:
        stages: in an order where each stage's needs come from ``given`` or a stage before it.
        side_by_side: False runs them one after another, in that order, on this thread.
        on_start: hears each stage's name as it starts (tests read the order from it).

    Raises:
        the first error a stage raised (after every started stage ended), else FlushCancelled when
        ``cancel`` was set.
    """
    check(stages, set(given))
    values = dict(given)
    if not side_by_side:
        for stage in stages:
            if cancel.is_set():
                raise FlushCancelled()
            if on_start is not None:
                on_start(stage.name)
            values[stage.gives] = stage.run(cancel, **{n: values[n] for n in stage.needs})
        if cancel.is_set():
            raise FlushCancelled()
        return values
    halt = threading.Event()  # the caller's cancel, or a stage failed: the others stop at their next check
    waiting = list(stages)
    running: dict[Future, Stage] = {}
    failures: list[BaseException] = []
    with BATON.pool(len(stages) or 1, "stage") as pool:
        while waiting or running:
            if cancel.is_set():
                halt.set()
            if not halt.is_set():
                for stage in [s for s in waiting if all(n in values for n in s.needs)]:
                    waiting.remove(stage)
                    if on_start is not None:
                        on_start(stage.name)
                    running[pool.submit(stage.run, halt, **{n: values[n] for n in stage.needs})] = stage
            if not running:
                break  # halted: what waits never starts
            done, _ = wait(running, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in done:
                stage = running.pop(future)
                try:
                    values[stage.gives] = future.result()
                except BaseException as exc:  # noqa: BLE001 (raised below, once every running stage ended)
                    failures.append(exc)
                    halt.set()
    real = [f for f in failures if not isinstance(f, FlushCancelled)]
    if real or failures:
        raise (real or failures)[0]
    if cancel.is_set() or waiting:
        raise FlushCancelled()
    return values
