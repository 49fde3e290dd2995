"""A flush's threads run Python one at a time (``core/asking/baton.py``), so the window's thread gets the GIL.

Several flush threads running Python side by side hand the GIL to each other at every short call that lets it
go, and the window's thread then waited 50-80 ms for it at a flush's start (``benchmarks/bench_gui_stall.py``
measures that; no time is asserted here). What is asserted is the rule: every flush thread's own Python runs
with the baton, a model call runs without it, and no thread ever had to run without it after waiting.
"""

from __future__ import annotations

import sys
import threading
import time

from monchat.core.asking.baton import BATON, Baton
from tests.flush.conftest import ollama_world

POOLS = ("stage_", "filter_", "diary_")  # the flush's thread pools (thread_name_prefix)
SLOT_WAIT = {"hold", "_take", "_kept", "_give"}  # CallSlots waiting for a slot: lent, as the call it is for


def test_a_second_thread_waits_until_the_first_lends_the_baton():
    baton = Baton()
    order = []
    first_has_it, second_started = threading.Event(), threading.Event()

    def first():
        with baton.held():
            first_has_it.set()
            second_started.wait(5)
            time.sleep(0.05)  # the second thread is waiting for the baton now
            order.append("first runs")
            with baton.lent():
                time.sleep(0.1)  # "a model call": the second thread runs meanwhile
            order.append("first again")

    def second():
        first_has_it.wait(5)
        second_started.set()
        with baton.held():
            order.append("second runs")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert order == ["first runs", "second runs", "first again"]
    assert baton.waited_out == 0


def test_held_twice_on_one_thread_and_lent_without_it_change_nothing():
    baton = Baton()
    with baton.held():
        with baton.held():
            assert baton.holding()
        assert baton.holding()  # the inner one did not give away what the outer one holds
    assert not baton.holding()
    with baton.lent():
        assert not baton.holding()
    assert not baton.holding()


def test_a_wait_nobody_lent_for_costs_patience_not_the_flush():
    baton = Baton(patience_s=0.1)
    ran = []
    with baton.held():
        thread = threading.Thread(target=baton.wrap(lambda: ran.append(baton.holding())))
        thread.start()
        thread.join(5)  # waiting for a thread without lending the baton: the rule broken on purpose
    assert ran == [False] and baton.waited_out == 1


CALLS = {"complete_json", "_complete_json"}  # a backend's model call (the flush asks for JSON only)


def _in_model_call(frame) -> bool:
    while frame is not None:
        if "/monchat/core/backends/" in frame.f_code.co_filename and frame.f_code.co_name in CALLS:
            return True
        frame = frame.f_back
    return False


def test_every_flush_thread_runs_its_python_with_the_baton_and_lends_it_for_each_call(home):
    seen = {"with": 0, "without": [], "in_call_holding": []}

    def watch(frame, event, _arg):
        if event != "call" or not threading.current_thread().name.startswith(POOLS):
            return
        path = frame.f_code.co_filename
        if "/monchat/" not in path or path.endswith("/asking/baton.py"):
            return
        if path.endswith("/asking/slots.py") and frame.f_code.co_name in SLOT_WAIT:
            return
        where = f"{threading.current_thread().name} {path.split('/monchat/')[-1]}:{frame.f_code.co_name}"
        if _in_model_call(frame):  # the call, its streamed tokens and retries included: lent
            if BATON.holding():
                seen["in_call_holding"].append(where)
        elif BATON.holding():
            seen["with"] += 1
        else:
            seen["without"].append(where)

    with ollama_world(home, 4096, background=True) as (world, server):
        server.latency_s = 0.05
        for day in (20, 21, 22):  # three days: the diary writes them on threads of its own
            for n in range(4):
                world.say(f"2026-11-{day}T19:{n:02d}:00+09:00", f"I walked to the river on day {day} ({n}).")
        waited = BATON.waited_out
        threading.setprofile(watch)
        try:
            world.flush("2026-11-23T09:00:00+09:00")
        finally:
            threading.setprofile(None)
            sys.setprofile(None)
        assert server.max_in_flight > 1  # the calls did run side by side
    assert seen["with"] > 100
    assert sorted(set(seen["without"])) == []
    assert seen["in_call_holding"] == []
    assert BATON.waited_out == waited  # every wait for another thread lent the baton
