"""A small runner for a graph of stages: each starts as soon as what it reads is there.

A ``Stage`` names what it needs and what it gives; ``run_stages`` starts, in the order given, every stage
whose needs are all given (by the caller or by a stage that ended), each on a thread of its own, and waits
for them. Model calls are bounded apart from the stages, by the flush's ``CallSlots``
(``asking/slots.py``: ``flush.parallel`` of them, the commit's path first): once the filters know how many
calls they will make, the slowest reader's calls, the longest path of the graph, run back to back, and the
calls that can wait fill the time before them (while the requests are sized) and after them (the judge, the
trial, reflect). With one slot the stages run one after another, in the order given, on the caller's thread:
a backend that answers one call at a time is asked in the same order at every run.

A stage is told to stop through the ``halt`` event it is given: set when the caller's ``cancel`` is set or
when another stage failed. The runner waits for the stages still running before it raises: the first
stage's error, else ``FlushCancelled``. Nothing here writes: stages that write (the trial) do so in their
own transaction.
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any, Callable

from ..asking.baton import BATON
from ..vocabulary.states import FlushStage
from .records import FlushCancelled

POLL_S = 0.05  # how often the runner looks at the caller's cancel while stages run


@dataclass(frozen=True)
class Stage:
    """One stage: ``run(halt, **needs)`` returns the value named ``gives``."""

    name: FlushStage
    needs: tuple[str, ...]
    gives: str
    run: Callable[..., Any]


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
