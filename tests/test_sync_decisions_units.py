"""The pieces under the decisions replay (issue 41): the hybrid logical clock at its edges, and a memory's digest."""

from __future__ import annotations

import pytest

from monchat.core.sync.decisions import digest, state_of
from monchat.core.sync.hlc import MAX_COUNTER, HybridClock, Stamp

A, B = "a" * 32, "b" * 32


class Kept:
    """Where a clock keeps its last stamp (``kv`` in monchat.db), and a wall clock the test moves."""

    def __init__(self, wall: int = 1_000) -> None:
        self.text: str | None = None
        self.wall = wall

    def clock(self, device: str) -> HybridClock:
        return HybridClock(device, lambda: self.wall, lambda: self.text, self.save)

    def save(self, text: str) -> None:
        self.text = text


def test_stamps_sort_as_text_in_the_clocks_order():
    stamps = [Stamp(5, 0, B), Stamp(10, 0, A), Stamp(5, 1, A), Stamp(5, 0, A), Stamp(123456789012, 9, A)]
    assert sorted(str(s) for s in stamps) == [str(s) for s in sorted(stamps)]
    assert Stamp.parse(str(Stamp(42, 7, A))) == Stamp(42, 7, A)
    for bad in ("", "12-0001-" + A, "0000000000000042-1-" + A, "000000000000004x-0001-" + A, "0000000000000042-0001-"):
        with pytest.raises(ValueError):
            Stamp.parse(bad)


def test_the_clock_never_goes_back_when_the_wall_clock_does_nor_across_a_restart():
    kept = Kept(wall=1_000)
    first = kept.clock(A).tick()
    kept.wall = 500  # the wall clock set back
    second = kept.clock(A).tick()  # a new clock object: what a restart reads back from monchat.db
    assert second > first and second.wall_ms == 1_000 and second.counter == 1
    kept.wall = 2_000
    assert kept.clock(A).tick() == Stamp(2_000, 0, A)


def test_two_stamps_in_one_millisecond_and_a_full_counter():
    kept = Kept(wall=7)
    kept.text = str(Stamp(7, MAX_COUNTER, A))
    assert kept.clock(A).tick() == Stamp(8, 0, A)  # borrows the next millisecond, still later


def test_a_stamp_seen_from_another_device_orders_this_devices_next_after_it():
    kept = Kept(wall=1_000)
    clock = kept.clock(A)
    clock.tick()
    clock.observe(str(Stamp(9_000, 3, B)))  # the other device's clock runs ahead
    after = clock.tick()
    assert str(after) > str(Stamp(9_000, 3, B)) and after.device == A
    clock.observe("not a stamp")  # ignored
    clock.observe(str(Stamp(10, 0, B)))  # behind: changes nothing
    assert clock.tick() > after


def test_a_lost_or_damaged_kept_stamp_starts_from_the_wall_clock():
    kept = Kept(wall=50)
    kept.text = "damaged"
    assert kept.clock(A).tick() == Stamp(50, 0, A)


def _state(**row) -> dict:
    base = {"id": "mem-1", "text": "cooks sukiyaki", "state": "active", "pinned": 0, "superseded_at": None,
            "invalid_at": None, "boost": 1.0, "boost_epoch": None, "created_run": 3, "updated_at": "t1"}
    review = {"action": "layer1", "created_at": "c", "reason": "r", "status": "rejected", "resolved_at": "x"}
    return state_of({**base, **row}, [{"message_id": "m1", "day": "d", "session": "s", "kind": "explicit",
                                      "contradicts": 0, "persona": "base"}], [review])


def test_what_each_device_writes_with_its_own_clock_or_keeps_for_itself_is_not_compared():
    same = digest(_state())
    assert digest(_state(superseded_at="2026-11-23", invalid_at="2026-11-23")) == same  # each device's own time
    assert digest(_state(boost=3.0, boost_epoch=9.0, created_run=7, updated_at="t2")) == same  # this device's own
    resolved = _state()
    resolved["reviews"][0]["resolved_at"] = "y"
    assert digest(resolved) == same
    assert digest(_state(state="forgotten")) != same and digest(_state(pinned=1)) != same
    assert digest(None) is None


def test_many_stamps_at_once_are_in_order_and_the_last_is_kept():
    kept = Kept(wall=5)
    stamps = kept.clock(A).ticks(3)
    assert stamps == [Stamp(5, 0, A), Stamp(5, 1, A), Stamp(5, 2, A)] and kept.text == str(stamps[-1])
    assert kept.clock(A).ticks(0) == [] and kept.clock(A).tick() == Stamp(5, 3, A)
