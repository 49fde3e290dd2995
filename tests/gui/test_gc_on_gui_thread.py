"""Cycles that hold Qt objects are freed on the GUI thread, never by a worker thread that happens to allocate
(``gui/kit/collector.py``): freed off the GUI thread, a window's timers stay in the event dispatcher and its
timers stop firing or crash the event loop."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QObject, QTimer

from monchat.gui.kit.collector import GuiThreadCollector


class Cycle(QObject):
    """A closed dialog as garbage: a Qt object with a running timer, reachable only from itself."""

    def __init__(self) -> None:
        super().__init__()
        self.me = self
        self.timer = QTimer(self)
        self.timer.start(60_000)


def test_a_cycle_holding_a_qt_object_is_freed_on_the_gui_thread_not_by_a_worker_that_allocates(qtbot):
    freed_on: list[int] = []
    cycle = Cycle()
    weakref.finalize(cycle, lambda: freed_on.append(threading.get_ident()))
    del cycle

    kept: list = []

    def worker() -> None:  # a flush's thread: allocates containers far past the collector's threshold, and keeps
        kept.extend([n] for n in range(20 * gc.get_threshold()[0]))  # them (freed, they would take the count back)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert freed_on == []  # no worker thread ran the collector
    qtbot.waitUntil(lambda: bool(freed_on), timeout=5000)  # the GUI thread's timer did
    assert freed_on == [threading.get_ident()] and kept


def test_the_collector_collects_the_generation_whose_count_passed_its_threshold_and_gives_collection_back(qtbot):
    collector = GuiThreadCollector()
    try:
        assert not gc.isenabled()
        gc.collect()
        assert collector.check() == -1  # nothing counted yet: nothing collected
        kept = [[n] for n in range(2 * gc.get_threshold()[0])]
        assert collector.check() == 0 and gc.get_count()[0] < gc.get_threshold()[0]
        assert kept
    finally:
        collector.stop()
    assert not gc.isenabled()  # the suite's own collector (tests/gui/conftest.py) still holds it off


def test_the_window_runs_with_automatic_collection_off_and_gives_it_back_when_it_closes():
    enabled = gc.isenabled()
    gc.enable()
    try:
        collector = GuiThreadCollector()
        assert not gc.isenabled()
        collector.stop()
        assert gc.isenabled()
    finally:
        (gc.enable if enabled else gc.disable)()
