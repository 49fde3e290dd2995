"""How long a flush has run and about how long it has left, estimated from the parts already read.

The filter personas' reading (the score stage) is most of a flush on a slow model: each persona reads the
log in parts and reports each part. The estimate is the time per part so far times the parts left, shown
once a part is done; the other stages are short and only add to the elapsed time.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from ..translation import arg


def clock_text(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a duration."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class FlushTiming(QObject):
    """A label that shows the elapsed time every second and, from the parts read, the time left."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.label = QLabel(parent)
        self.label.setObjectName("flush_timing")
        self.started: float | None = None
        self.reading_started: float | None = None
        self.parts: dict[str, tuple[int, int]] = {}  # persona → (parts read, parts in all)
        self.timer = QTimer(self, interval=1000, timeout=self.show)
        self.show()

    def start(self) -> None:
        self.started, self.reading_started, self.parts = time.monotonic(), None, {}
        self.timer.start()
        self.show()

    def part(self, persona: str, done: int, total: int) -> None:
        """A filter persona's reading progressed (``done`` of ``total`` parts)."""
        if self.reading_started is None:
            self.reading_started = time.monotonic()
        self.parts[persona] = (done, total)
        self.show()

    def remaining(self) -> float | None:
        """Seconds left for the reading, from the time per part so far; None before a part is done."""
        done = sum(d for d, _ in self.parts.values())
        total = sum(t for _, t in self.parts.values())
        if self.reading_started is None or not done or done >= total:
            return None
        return (time.monotonic() - self.reading_started) / done * (total - done)

    def stop(self) -> None:
        self.timer.stop()
        self.show()

    def show(self) -> None:
        self.label.setVisible(self.started is not None)  # no empty row before a flush starts
        if self.started is None:
            self.label.clear()
            return
        elapsed = clock_text(time.monotonic() - self.started)
        left = self.remaining() if self.timer.isActive() else None
        if left is None:
            self.label.setText(arg(self.tr("Elapsed: %1"), elapsed))
        else:
            done = sum(d for d, _ in self.parts.values())
            total = sum(t for _, t in self.parts.values())
            self.label.setText(arg(self.tr("Elapsed: %1 · about %2 left (from %3 of %4 parts read)"),
                                   elapsed, clock_text(math.ceil(left)), done, total))  # never "0:00 left"
