"""While the window runs, its workers and a flush's threads run below the window's thread; without it, they don't.

On two busy cores the window's thread waited for a core, and with it for the GIL, 40-90 ms at a reply's or a
flush's start while the workers ran at its own priority (``benchmarks/bench_gui_stall.py``; no time is
asserted here). On Linux a thread's niceness is its own, and that is what is read.
"""

from __future__ import annotations

import os
import sys
import threading

from monchat.core.asking.baton import BACKGROUND_NICE, BATON
from monchat.gui.kit.workers import TaskRunner


def niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) if sys.platform.startswith("linux") \
        else os.getpriority(os.PRIO_PROCESS, 0)


def in_a_flush_pool() -> int:
    with BATON.pool(1, "probe") as pool:
        return pool.submit(niceness).result()


def in_a_pool_in_a_flush_pool() -> int:
    """A filter's thread: started by a stage's thread, itself lowered."""
    with BATON.pool(1, "stage") as pool:
        return pool.submit(in_a_flush_pool).result()


def test_filling_the_window_puts_background_work_below_it(app, translators, qtbot):
    from monchat.gui.main import create_main_window
    BATON.set_background(0)
    window = create_main_window(app, translators)  # fill_window, as open_window fills the frame
    qtbot.addWidget(window)
    assert BATON.background_nice == BACKGROUND_NICE
    assert window.shutdown(10000)


def test_the_windows_workers_and_a_flushs_threads_run_below_the_window(qtbot):
    assert BATON.background_nice == BACKGROUND_NICE  # tests/gui/conftest.py tunes as run_gui does
    own = niceness()
    runner = TaskRunner()
    seen = []
    with qtbot.waitSignal(runner.busy_changed, timeout=10000, check_params_cb=lambda busy: not busy):
        runner.start("probe", lambda _report: seen.append(niceness()))
    expected = own + BACKGROUND_NICE if sys.platform.startswith("linux") else own  # elsewhere: left alone
    assert seen == [min(19, expected)]
    assert in_a_flush_pool() == min(19, expected)
    assert in_a_pool_in_a_flush_pool() == min(19, expected)  # lowered once, not once more at every level
    assert niceness() == own  # the window's thread stays where it was


def test_without_a_window_a_flushs_threads_keep_their_priority():
    BATON.set_background(0)  # as `monchat flush` runs, with no window
    try:
        assert in_a_flush_pool() == niceness()
    finally:
        BATON.set_background(BACKGROUND_NICE)  # as tests/gui/conftest.py left it
