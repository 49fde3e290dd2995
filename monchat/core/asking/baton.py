"""One flush thread runs Python at a time; the others wait for the model or for the baton.

A flush asks the model on several threads at once (the stages of its graph, the filters' parts, the diary's
days). Waiting for a model is parallel work, but their Python is not: the GIL runs one thread at a time. When
several of them run Python side by side, they hand the GIL to each other at every short call that lets it go
(each SQLite statement, each token count), and CPython's hand-over then never asks them for it on behalf of
the window's thread, which waited 50-80 ms at a flush's start (``benchmarks/bench_gui_stall.py``): its
waiting thread asks the holder to let go only after an interval in which the GIL did not change hands.

So a flush thread holds the baton while it runs (``held``) and lends it while it waits (``lent``): for a
model call and its slot, for the threads it started. With one flush thread running Python, the window's
thread is the only other one that asks for the GIL, and it gets it within one switch interval.

In the window, the flush's threads and the window's workers also run below the window's thread where the OS
allows (``nice`` ``background_nice``, Linux: a thread's own priority): on two busy cores the window's thread
was otherwise kept waiting for a core, and with it for the GIL, 40-90 ms at a reply's or a flush's start.

The baton is a courtesy, never a lock that work depends on: a thread that cannot have it within
``PATIENCE_S`` runs anyway (a wait nobody lent it for would otherwise stop the flush), and nothing is
guarded by it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

PATIENCE_S = 2.0
BACKGROUND_NICE = 10  # what the window sets (gui/main.py): background work gets about a tenth of a busy core

T = TypeVar("T")


class Baton:
    def __init__(self, patience_s: float = PATIENCE_S) -> None:
        self.patience_s = patience_s
        self._lock = threading.Lock()
        self._here = threading.local()  # .holding: this thread has the baton
        self.waited_out = 0  # takes that ran without the baton after waiting PATIENCE_S (tests read it)
        self.background_nice = 0  # > 0 while a window runs: how far ``background`` lowers a worker thread
        self._base_nice = 0  # the window's thread's niceness when it was set

    def holding(self) -> bool:
        return getattr(self._here, "holding", False)

    def _take(self) -> None:
        if self._lock.acquire(timeout=self.patience_s):
            self._here.holding = True
        else:
            self.waited_out += 1

    def _give(self) -> None:
        if self.holding():
            self._here.holding = False
            self._lock.release()

    @contextmanager
    def held(self) -> Iterator[None]:
        """This thread's work, with the baton (a thread that holds it already keeps it)."""
        if self.holding():
            yield
            return
        self._take()
        try:
            yield
        finally:
            self._give()

    @contextmanager
    def lent(self) -> Iterator[None]:
        """A wait (a model call, other threads' work) during which another thread may run Python."""
        if not self.holding():
            yield
            return
        self._give()
        try:
            yield
        finally:
            self._take()

    def set_background(self, nice: int) -> None:
        """Background work runs ``nice`` below the calling thread (the window's) from now on; 0: no longer."""
        self.background_nice = nice
        self._base_nice = os.getpriority(os.PRIO_PROCESS, 0) if nice and sys.platform.startswith("linux") else 0

    def background(self) -> None:
        """This thread does background work: below the window's thread, once ``set_background`` was called (Linux
        only: there a thread's niceness is its own; elsewhere the call would change the whole process)."""
        if not self.background_nice or not sys.platform.startswith("linux"):
            return
        me = threading.get_native_id()
        wanted = min(19, self._base_nice + self.background_nice)  # a thread started by a lowered one starts there
        with contextlib.suppress(OSError):  # a niceness can only rise; a limit may forbid even that
            if os.getpriority(os.PRIO_PROCESS, me) < wanted:
                os.setpriority(os.PRIO_PROCESS, me, wanted)

    def wrap(self, fn: Callable[..., T]) -> Callable[..., T]:
        """``fn`` run with the baton: what a thread of a flush's pool is given."""
        def run(*args, **kwargs) -> T:
            self.background()
            with self.held():
                return fn(*args, **kwargs)
        return run

    def waiting(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, each next one waited for with the baton lent (futures as they complete, their results)."""
        items = iter(items)
        while True:
            with self.lent():
                try:
                    item = next(items)
                except StopIteration:
                    return
            yield item

    def results(self, futures: Iterable) -> list:
        """Each future's result in order, waited for with the baton lent; the first error is raised."""
        return list(self.waiting(future.result() for future in futures))

    def pool(self, workers: int, name: str) -> "BatonPool":
        """A thread pool whose threads run what they are given with the baton; its end lends it."""
        return BatonPool(self, max_workers=workers, thread_name_prefix=name)


class BatonPool(ThreadPoolExecutor):
    def __init__(self, baton: Baton, **kwargs) -> None:
        super().__init__(**kwargs)
        self.baton = baton

    def submit(self, fn, /, *args, **kwargs):
        return super().submit(self.baton.wrap(fn), *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self.baton.lent():  # waiting for the pool's threads, which need the baton to end
            super().shutdown(wait, cancel_futures=cancel_futures)


BATON = Baton()  # one per process: the GIL it shares out is one per process
