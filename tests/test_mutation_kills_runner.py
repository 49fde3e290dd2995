"""The flush's stage runner where the mutmut run of ``core/flush/runner.py`` found it unpinned (issue 44).

Side by side, each stage whose needs are given starts at once, on a thread of its own (a stage never waits for a
thread another stage holds: with fewer threads than ready stages, stages that wait for each other, as a model's
call slots make them, would stop the flush); a stage starts as soon as what it reads is there, not at the runner's
next look at the cancel; and a stage that stops itself (``FlushCancelled``) ends the run as cancelled, never as a
run that finished without that stage's value. docs/testing.md lists the survivors these kill and the equivalent
ones.
"""

from __future__ import annotations

import os
import threading

import pytest

from monchat.core.asking.baton import BATON
from monchat.core.flush import runner
from monchat.core.flush.records import FlushCancelled
from monchat.core.flush.runner import Stage, run_stages
from monchat.core.memory import FlushStage


def test_every_ready_stage_runs_on_a_thread_of_its_own():
    count = (os.cpu_count() or 1) + 8  # more than a thread pool's default number of threads
    together = threading.Barrier(count, timeout=5)

    def meets_the_others(halt):
        with BATON.lent():  # a stage waits (for the model, a slot) with the baton lent
            together.wait()
        return True

    stages = [Stage(FlushStage.SCORE, (), f"v{n}", meets_the_others) for n in range(count)]
    values = run_stages(stages, {}, threading.Event())
    assert all(values[f"v{n}"] for n in range(count))


def test_a_stage_starts_as_soon_as_what_it_reads_is_there(monkeypatch):
    monkeypatch.setattr(runner, "POLL_S", 30.0)  # the runner's look at the cancel: far slower than a stage
    c_started = threading.Event()

    def slow_reader(halt):  # runs on while the quick stage ends and the one that needs it starts
        with BATON.lent():
            return c_started.wait(5)

    def needs_a(halt, a):
        c_started.set()
        return a + 1

    stages = [Stage(FlushStage.SCORE, (), "a", lambda halt: 1), Stage(FlushStage.JUDGE, (), "b", slow_reader),
              Stage(FlushStage.REFLECT, ("a",), "c", needs_a)]
    values = run_stages(stages, {}, threading.Event())
    assert values["b"] is True, "the stage that needs 'a' waited for the slow stage to end"
    assert values["c"] == 2


def test_a_stage_that_stops_itself_ends_the_run_as_cancelled():
    def stops(halt):
        raise FlushCancelled()

    stages = [Stage(FlushStage.SCORE, (), "a", lambda halt: 1), Stage(FlushStage.DIARY, (), "b", stops)]
    with pytest.raises(FlushCancelled):
        run_stages(stages, {}, threading.Event())
