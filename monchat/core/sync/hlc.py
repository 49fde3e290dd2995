"""A hybrid logical clock: the order every device replays the decisions journals in (issue 41, ``docs/sync.md``).

A stamp is the wall clock in milliseconds, a counter and the device id, written as one string that sorts as it
orders: ``"0001764900000000-0000-<device id>"``. ``tick`` gives this device's next stamp: never lower than one it
gave or saw before (a wall clock set back, two decisions in one millisecond), so a decision made after seeing
another's is ordered after it on every device; the device id breaks ties, so the order is total. The last stamp
is kept in ``monchat.db`` (``kv``), so the clock never goes back across restarts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

KEY = "sync.hlc"
WALL_DIGITS, COUNTER_DIGITS = 16, 4
MAX_COUNTER = 10 ** COUNTER_DIGITS - 1


@dataclass(frozen=True, order=True)
class Stamp:
    wall_ms: int
    counter: int
    device: str

    def __str__(self) -> str:
        return f"{self.wall_ms:0{WALL_DIGITS}d}-{self.counter:0{COUNTER_DIGITS}d}-{self.device}"

    @classmethod
    def parse(cls, text: str) -> "Stamp":
        """Raises ValueError for anything but a stamp ``__str__`` wrote."""
        wall, counter, device = text.split("-", 2)
        if len(wall) != WALL_DIGITS or len(counter) != COUNTER_DIGITS or not device or not (
                wall.isdigit() and counter.isdigit()):
            raise ValueError(f"not a clock stamp: {text!r}")
        return cls(int(wall), int(counter), device)


class HybridClock:
    """This device's clock. ``load``/``save``: the last stamp's text, kept where it survives a restart."""

    def __init__(self, device: str, wall_ms: Callable[[], int], load: Callable[[], str | None],
                 save: Callable[[str], None]) -> None:
        self.device = device
        self.wall_ms = wall_ms
        self.load = load
        self.save = save

    def _last(self) -> Stamp | None:
        text = self.load()
        try:
            return Stamp.parse(text) if text else None
        except ValueError:
            return None

    def tick(self) -> Stamp:
        """The next stamp of this device: later than every stamp it gave or observed."""
        return self.ticks(1)[0]

    def ticks(self, count: int) -> list[Stamp]:
        """The next ``count`` stamps, in order, kept once (the last) before any is handed out."""
        now = self.wall_ms()
        last = self._last()
        stamps: list[Stamp] = []
        for _ in range(count):
            if last is None or now > last.wall_ms:
                last = Stamp(now, 0, self.device)
            elif last.counter < MAX_COUNTER:
                last = Stamp(last.wall_ms, last.counter + 1, self.device)
            else:  # ten thousand stamps in one millisecond: borrow the next millisecond
                last = Stamp(last.wall_ms + 1, 0, self.device)
            stamps.append(last)
        if stamps:
            self.save(str(stamps[-1]))
        return stamps

    def observe(self, seen: str) -> None:
        """A stamp read from another device: this device's next stamp comes after it."""
        try:
            other = Stamp.parse(seen)
        except ValueError:
            return
        last = self._last()
        if last is None or (other.wall_ms, other.counter) > (last.wall_ms, last.counter):
            self.save(str(Stamp(other.wall_ms, other.counter, self.device)))
