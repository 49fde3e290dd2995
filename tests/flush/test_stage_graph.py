"""The flush's LLM stages run as a graph (``flush/stages.py``, ``flush/runner.py``).

A stage starts as soon as what it reads is there: the diary's pages beside the filters, the judge after
them, reflect after the trial. Model calls share ``flush.parallel`` slots; with one slot the stages run
one after another in a fixed order. A cancel or a failing stage stops the graph before the commit:
nothing changes. Overlap is read from when each call started and ended, never from a wall-clock total.
"""

from __future__ import annotations

import threading
import time

import pytest

from monchat.core.asking.slots import CallSlots
from monchat.core.errors import BackendError
from monchat.core.flush import stages
from monchat.core.flush.records import FlushCancelled
from monchat.core.flush.runner import Stage, run_stages
from monchat.core.memory import FlushStage
from tests.flush.conftest import World
from tests.support.oracle import Oracle, Rule

DELAY_S = 0.3  # each structured call takes this long, so calls that run side by side overlap
RULES = [Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9)]
DECLARED = [FlushStage.SCORE, FlushStage.JUDGE, FlushStage.TRIAL, FlushStage.REFLECT, FlushStage.DIGEST,
            FlushStage.DIARY, FlushStage.LINT]


class Timed:
    """An oracle ``on_call`` noting each call's kind, start and end (it takes ``DELAY_S``)."""

    def __init__(self, fail: str | None = None) -> None:
        self.calls: list[tuple[str, float, float]] = []
        self.lock = threading.Lock()
        self.fail = fail

    def __call__(self, n: int, kind: str) -> None:
        if kind == self.fail:
            raise BackendError(f"the {kind} server is down", "Try again later.", transient=False)
        started = time.monotonic()
        time.sleep(DELAY_S)
        with self.lock:
            self.calls.append((kind, started, time.monotonic()))

    def of(self, kind: str) -> list[tuple[float, float]]:
        return [(a, b) for k, a, b in self.calls if k == kind]

    def most_at_once(self) -> int:
        points = sorted([(a, 1) for _, a, _ in self.calls] + [(b, -1) for _, _, b in self.calls])
        now = most = 0
        for _, step in points:
            now += step
            most = max(most, now)
        return most


def three_days(home, parallel: int, fail: str | None = None) -> tuple[World, Timed, list]:
    timed = Timed(fail)
    world = World(home, Oracle(RULES, on_call=timed))
    world.app.settings.flush.parallel = parallel
    started: list[FlushStage] = []
    world.flusher.on_stage = started.append
    for day in (20, 21, 22):
        world.say(f"2026-11-{day}T21:00:00+09:00", f"ギターを練習した（{day}日）")
    return world, timed, started


def test_the_diary_is_asked_beside_the_filters_and_reflect_after_the_judge(home):
    world, timed, started = three_days(home, parallel=8)

    world.flush("2026-11-23T09:00:00+09:00")

    filters, diary, reflect = timed.of("filter"), timed.of("diary"), timed.of("reflect")
    assert len(filters) == 4 and len(diary) == 3 and len(reflect) == 1
    assert min(a for a, _ in diary) < max(b for _, b in filters)  # a page was asked while filters read
    assert min(a for a, _ in reflect) >= max(b for _, b in filters)  # reflect reads what the judge decided
    order = {stage: n for n, stage in enumerate(started)}
    assert order[FlushStage.DIARY] < order[FlushStage.JUDGE] and order[FlushStage.LINT] < order[FlushStage.JUDGE]
    assert order[FlushStage.JUDGE] < order[FlushStage.TRIAL] < order[FlushStage.REFLECT]
    assert sorted(r["day"] for r in world.rows("diary")) == ["2026-11-20", "2026-11-21", "2026-11-22"]


def test_the_setting_bounds_the_calls_of_every_stage_together(home):
    world, timed, _ = three_days(home, parallel=2)
    world.flush("2026-11-23T09:00:00+09:00")
    assert len(timed.calls) == 8 and timed.most_at_once() == 2


def test_the_filters_calls_are_expected_once_sized_and_no_longer_once_they_ended(home, monkeypatch):
    """The score stage tells the flush's slots how many filter calls will ask (so a diary page never takes a
    slot between two of them) once the parts are sized, and that none are left when it ends."""
    told: list[tuple[int, int]] = []  # (calls expected, filter calls made so far)
    world, timed, _ = three_days(home, parallel=2)

    class Told(stages.CallSlots):
        def expect(self, calls: int) -> None:
            told.append((calls, len(timed.of("filter"))))
            super().expect(calls)

    monkeypatch.setattr(stages, "CallSlots", Told)
    world.flush("2026-11-23T09:00:00+09:00")

    assert told == [(4, 0), (0, 4)]  # 4 personas read one part: expected before the first call, none after


def test_with_one_call_at_a_time_the_stages_run_one_after_another_in_their_order(home):
    world, timed, started = three_days(home, parallel=1)

    world.flush("2026-11-23T09:00:00+09:00")

    assert started == DECLARED
    assert timed.most_at_once() == 1
    assert [k for k, _, _ in timed.calls] == ["filter"] * 4 + ["reflect"] + ["diary"] * 3


def test_a_cancel_while_the_diary_and_the_filters_run_changes_nothing(home):
    world, timed, _ = three_days(home, parallel=8)
    cancel = threading.Event()

    def stop_at_the_diary(progress) -> None:
        if progress.stage == FlushStage.DIARY:
            cancel.set()

    with pytest.raises(FlushCancelled):
        world.flush("2026-11-23T09:00:00+09:00", progress=stop_at_the_diary, cancel=cancel)
    assert not timed.of("reflect")  # what waited for the filters never started
    assert world.rows("flush_runs") == [] and world.rows("diary") == [] and world.store.all() == []
    assert len(world.log_files()) == 3


def test_a_failing_stage_stops_the_graph_and_changes_nothing(home):
    world, timed, _ = three_days(home, parallel=8, fail="diary")

    with pytest.raises(BackendError, match="the diary server is down"):
        world.flush("2026-11-23T09:00:00+09:00")

    assert not timed.of("reflect")
    assert world.rows("flush_runs") == [] and world.rows("diary") == [] and world.store.all() == []
    assert len(world.log_files()) == 3


# ---- the runner itself --------------------------------------------------------------------------
def test_a_stage_starts_as_soon_as_its_needs_are_there_not_when_everything_before_it_ended():
    later_started = threading.Event()
    started: list[str] = []

    def slow(halt):
        assert later_started.wait(5), "the stage whose need was ready waited for an unrelated one"
        return "slow"

    def later(halt, quick):
        later_started.set()
        return quick + "+later"

    stages = [Stage(FlushStage.SCORE, (), "slow", slow), Stage(FlushStage.DIARY, (), "quick", lambda halt: "quick"),
              Stage(FlushStage.DIGEST, ("quick",), "later", later),
              Stage(FlushStage.REFLECT, ("slow", "later"), "last", lambda halt, slow, later: f"{slow},{later}")]
    values = run_stages(stages, {}, threading.Event(), on_start=started.append)
    assert values["last"] == "slow,quick+later"
    assert started.index(FlushStage.DIGEST) < started.index(FlushStage.REFLECT)


def test_a_failing_stage_halts_the_running_ones_and_what_needs_it_never_starts():
    started: list[str] = []
    halted = threading.Event()

    def running(halt):
        assert halt.wait(5)
        halted.set()
        raise FlushCancelled()

    def failing(halt):
        raise BackendError("down", "later", transient=False)

    stages = [Stage(FlushStage.SCORE, (), "a", running), Stage(FlushStage.DIARY, (), "b", failing),
              Stage(FlushStage.REFLECT, ("b",), "c", lambda halt, b: b)]
    with pytest.raises(BackendError, match="down"):
        run_stages(stages, {}, threading.Event(), on_start=started.append)
    assert halted.is_set() and FlushStage.REFLECT not in started


def test_a_cancel_reaches_the_running_stages_and_nothing_more_starts():
    cancel = threading.Event()
    started: list[str] = []

    def running(halt):
        cancel.set()
        assert halt.wait(5)  # the runner passes the caller's cancel on
        return "a"

    stages = [Stage(FlushStage.SCORE, (), "a", running), Stage(FlushStage.JUDGE, ("a",), "b", lambda halt, a: a)]
    with pytest.raises(FlushCancelled):
        run_stages(stages, {}, cancel, on_start=started.append)
    assert started == [FlushStage.SCORE]


def test_a_graph_with_a_need_nothing_gives_is_refused_before_anything_runs():
    ran = []
    stages = [Stage(FlushStage.SCORE, (), "a", lambda halt: ran.append("a")),
              Stage(FlushStage.JUDGE, ("nowhere",), "b", lambda halt, nowhere: nowhere)]
    with pytest.raises(ValueError, match="nowhere"):
        run_stages(stages, {}, threading.Event())
    assert ran == []


def test_a_more_urgent_call_gets_the_next_free_slot():
    slots = CallSlots(1)
    order: list[str] = []
    release = threading.Event()

    def take(name: str, urgency: int) -> None:
        with slots.hold(urgency):
            order.append(name)

    with slots.hold():
        waiting = [threading.Thread(target=take, args=("later", 1)), threading.Thread(target=take, args=("urgent", 0))]
        for thread in waiting:
            thread.start()
            time.sleep(0.1)  # both wait, "later" first
        release.set()
    for thread in waiting:
        thread.join(5)
    assert order == ["urgent", "later"] and slots.most_in_use == 1


def test_a_call_that_can_wait_leaves_the_kept_slot_to_the_commits_path_until_it_is_released():
    slots = CallSlots(2, reserved=1)
    got: list[str] = []

    def take(name: str, urgency: int) -> None:
        with slots.hold(urgency):
            got.append(name)
            time.sleep(0.3)

    with slots.hold(1):  # a diary call holds one slot; one is free, kept for the commit's path
        later = threading.Thread(target=take, args=("later", 1))
        later.start()
        time.sleep(0.2)
        assert got == []  # it waits although a slot is free
        urgent = threading.Thread(target=take, args=("urgent", 0))
        urgent.start()
        time.sleep(0.2)
        assert got == ["urgent"]  # the kept slot is the commit's path's
        slots.unreserve()
        time.sleep(0.2)
        assert got == ["urgent", "later"]  # released: anyone's
    later.join(5)
    urgent.join(5)


def test_a_call_that_can_wait_leaves_the_slots_expected_filter_calls_will_ask_for():
    """The filters' calls run back to back: a slot given back between two of them is not a diary page's."""
    slots = CallSlots(2)
    got: list[str] = []

    def take(name: str, urgency: int) -> None:
        with slots.hold(urgency):
            got.append(name)

    slots.expect(3)  # the filters sized their requests: three calls will ask
    with slots.hold(0):  # the first runs; one slot is free
        later = threading.Thread(target=take, args=("diary", 1))
        later.start()
        time.sleep(0.2)
        assert got == []  # the free slot is the next filter call's, though it has not asked yet
        second = threading.Thread(target=take, args=("filter 2", 0))
        second.start()
        second.join(5)
        time.sleep(0.2)
        assert got == ["filter 2"]  # its slot is free again, and the third filter call has not asked yet
        slots.expect(0)  # the stage ended (an answer kept from an earlier run asks for no slot)
        later.join(5)
        assert got == ["filter 2", "diary"]


def test_after_a_failed_call_no_call_starts_but_a_malformed_answer_stops_nothing():
    from monchat.core.errors import MalformedReply
    slots = CallSlots(2)
    with pytest.raises(MalformedReply):
        with slots.hold():
            raise MalformedReply("not JSON", "ask again")
    with slots.hold():
        pass  # a malformed answer is its stage's to handle: calls go on
    with pytest.raises(BackendError, match="server busy"):
        with slots.hold():
            raise BackendError("server busy (tried 3 times)", "later")
    with pytest.raises(BackendError, match="server busy"):
        with slots.hold(1):
            pytest.fail("a call started after one failed")


def test_a_smaller_context_learned_by_one_call_stops_every_waiting_call_with_the_same_error():
    """A server's context learned mid-flush (``ContextShrank``, whose constructor takes more than words) reaches
    the calls still waiting for a slot as that error — the flush then plans again — never as a crash."""
    from monchat.core.errors import ContextShrank
    slots = CallSlots(1)
    raised: list[BaseException] = []

    def wait_for_a_slot() -> None:
        try:
            with slots.hold(1):
                pass
        except BaseException as exc:  # noqa: BLE001 (what reaches the waiting call is the point)
            raised.append(exc)

    with pytest.raises(ContextShrank):
        with slots.hold():
            waiting = threading.Thread(target=wait_for_a_slot)
            waiting.start()
            time.sleep(0.1)
            raise ContextShrank("The server has a context of 2048 tokens.", "Run the flush again.", context=2048)
    waiting.join(5)
    assert len(raised) == 1 and type(raised[0]) is ContextShrank
    assert raised[0].context == 2048 and raised[0].hint == "Run the flush again."
