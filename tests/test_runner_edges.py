"""The flush's stage runner at its edges (issue 44: mutants of ``core/flush/runner.py``).

One stage after another (one call at a time) and side by side: what each stage is handed, a cancel before a
stage, during it and after the last, a graph that gives a value twice, an empty graph. A flush that is
cancelled must say so (and change nothing); one that ran to its end must hand back every stage's value.
"""

from __future__ import annotations

import threading

import pytest

from monchat.core.flush.records import FlushCancelled
from monchat.core.flush.runner import Stage, check, run_stages
from monchat.core.memory import FlushStage


def chain() -> list[Stage]:
    return [Stage(FlushStage.SCORE, ("start",), "a", lambda halt, start: start + 1),
            Stage(FlushStage.JUDGE, ("a",), "b", lambda halt, a: a * 10),
            Stage(FlushStage.REFLECT, ("a", "b"), "c", lambda halt, a, b: (a, b))]


@pytest.mark.parametrize("side_by_side", [True, False])
def test_every_stage_is_handed_its_needs_and_every_value_comes_back(side_by_side):
    started: list[str] = []
    values = run_stages(chain(), {"start": 1}, threading.Event(), side_by_side, on_start=started.append)
    assert values == {"start": 1, "a": 2, "b": 20, "c": (2, 20)}
    assert started == [FlushStage.SCORE, FlushStage.JUDGE, FlushStage.REFLECT]


@pytest.mark.parametrize("side_by_side", [True, False])
def test_without_on_start_the_graph_runs_the_same(side_by_side):
    assert run_stages(chain(), {"start": 0}, threading.Event(), side_by_side)["c"] == (1, 10)


@pytest.mark.parametrize("side_by_side", [True, False])
def test_a_cancel_set_before_the_run_starts_no_stage(side_by_side):
    cancel, started = threading.Event(), []
    cancel.set()
    with pytest.raises(FlushCancelled):
        run_stages(chain(), {"start": 1}, cancel, side_by_side, on_start=started.append)
    assert started == []


def test_one_after_another_a_cancel_during_a_stage_starts_no_later_one():
    cancel, started = threading.Event(), []

    def cancels(halt, start):
        cancel.set()
        return start

    stages = [Stage(FlushStage.SCORE, ("start",), "a", cancels), *chain()[1:]]
    with pytest.raises(FlushCancelled):
        run_stages(stages, {"start": 1}, cancel, side_by_side=False, on_start=started.append)
    assert started == [FlushStage.SCORE]


def test_one_after_another_a_cancel_during_the_last_stage_is_still_a_cancel():
    cancel = threading.Event()

    def cancels(halt, a, b):
        cancel.set()
        return "done"

    stages = [*chain()[:2], Stage(FlushStage.REFLECT, ("a", "b"), "c", cancels)]
    with pytest.raises(FlushCancelled):
        run_stages(stages, {"start": 1}, cancel, side_by_side=False)


def test_one_after_another_each_stage_is_handed_the_callers_cancel():
    cancel, seen = threading.Event(), []
    run_stages([Stage(FlushStage.SCORE, (), "a", lambda halt: seen.append(halt))], {}, cancel, side_by_side=False)
    assert seen == [cancel]


def test_side_by_side_a_cancel_during_the_last_stage_is_still_a_cancel():
    cancel = threading.Event()

    def cancels(halt):
        cancel.set()
        return "done"

    with pytest.raises(FlushCancelled):
        run_stages([Stage(FlushStage.SCORE, (), "a", cancels)], {}, cancel)


def test_an_empty_graph_hands_back_what_it_was_given():
    assert run_stages([], {"x": 1}, threading.Event()) == {"x": 1}
    assert run_stages([], {"x": 1}, threading.Event(), side_by_side=False) == {"x": 1}


def test_a_value_given_twice_is_refused_naming_it_and_the_stage():
    stages = [Stage(FlushStage.SCORE, (), "a", lambda halt: 1), Stage(FlushStage.JUDGE, (), "a", lambda halt: 2)]
    with pytest.raises(ValueError, match=r"^'a' is given twice \(stage judge\)$"):
        check(stages, set())
    with pytest.raises(ValueError, match="given twice"):
        check([Stage(FlushStage.SCORE, (), "x", lambda halt: 1)], {"x"})


def test_a_need_given_by_no_stage_before_is_refused_naming_both():
    stages = [Stage(FlushStage.JUDGE, ("a",), "b", lambda halt, a: a), Stage(FlushStage.SCORE, (), "a", lambda h: 1)]
    with pytest.raises(ValueError, match=r"^stage judge needs \['a'\], given by no stage before it$"):
        check(stages, set())
    check(list(reversed(stages)), set())  # the same stages in an order that can end
