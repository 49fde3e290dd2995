"""How long a flush has run and about how long it has left, estimated from the parts already read.

The filter personas' reading (the score stage) is most of a flush on a slow model: each persona reads the
log in parts and reports each part. From Start, the estimate is what the last flush took per message times
the messages this one reads (``prior_estimate``: the same data folder, mostly the same model); once a part
is done it is the time per part so far times the parts left. A first flush has no last flush to go by: once
the filters say how many parts they will read (seconds after Start), it is estimated from how long this backend's
chat replies took (``chat_pace``: a part is about one reply's time, so many at once); with neither, the label
says there is no estimate yet. The other stages are short and only add to the elapsed time.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from ...core.backends.turns import chat_pace
from ..translation import arg


def clock_text(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a duration."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def prior_estimate(last_run: dict | None, messages: int) -> float | None:
    """Seconds the flush of ``messages`` should take at the last flush's pace (None: no flush read any before)."""
    if not last_run or not messages:
        return None
    read, took = last_run.get("messages_archived") or 0, last_run.get("duration_s") or 0.0
    return took / read * messages if read > 0 and took > 0 else None


def backend_pace(backend) -> tuple[float, int] | None:
    """``chat_pace`` of the flush's backend (``backend()`` builds or returns it); None when it cannot be had."""
    try:
        return chat_pace(backend())
    except Exception:  # noqa: BLE001 (the flush itself says why its backend cannot be used)
        return None


class FlushTiming(QObject):
    """A label that shows the elapsed time every second and, from the parts read, the time left."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.label = QLabel(parent)
        self.label.setObjectName("flush_timing")
        self.started: float | None = None
        self.reading_started: float | None = None
        self.parts: dict[str, tuple[int, int]] = {}  # persona → (parts read, parts in all)
        self.prior: float | None = None  # seconds the whole flush should take at the last flush's pace
        self.pace: tuple[float, int] | None = None  # (seconds a chat reply took, calls at once): a first flush
        self.timer = QTimer(self, interval=1000, timeout=self.show)
        self.show()

    def start(self, prior: float | None = None, pace: tuple[float, int] | None = None) -> None:
        self.started, self.reading_started, self.parts, self.prior = time.monotonic(), None, {}, prior
        self.pace = pace
        self.timer.start()
        self.show()

    def begin(self, plan, backend) -> None:
        """Start for the flush of ``plan`` (None: not read) on ``backend()``: the last flush's pace, else the
        chat replies'."""
        self.start(prior_estimate(plan.last_run, plan.messages) if plan else None, backend_pace(backend))

    def part(self, persona: str, done: int, total: int) -> None:
        """A filter persona's reading progressed (``done`` of ``total`` parts)."""
        if self.reading_started is None:
            self.reading_started = time.monotonic()
        self.parts[persona] = (done, total)
        self.show()

    def basis(self) -> str:
        """What the time left is estimated from now: "parts", "last" (the last flush), "chat" (the chat
        replies' speed) or "" (nothing yet)."""
        if self.reading_started is not None and sum(d for d, _ in self.parts.values()):
            return "parts"
        if self.prior is not None:
            return "last"
        if self.pace is not None and sum(t for _, t in self.parts.values()):
            return "chat"
        return ""

    def remaining(self) -> float | None:
        """Seconds left for the reading, from the time per part so far; before a part is done, from the last
        flush's pace (``prior``), else from the chat replies' (``pace``); None when none tells."""
        done = sum(d for d, _ in self.parts.values())
        total = sum(t for _, t in self.parts.values())
        basis = self.basis()
        if basis in ("last", "chat"):
            if self.started is None or (total and done >= total):
                return None
            if basis == "last":
                whole = self.prior or 0.0
            else:
                seconds, at_once = self.pace or (0.0, 1)
                whole = math.ceil(total / max(1, at_once)) * seconds
            left = whole - (time.monotonic() - self.started)
            return left if left >= 1 else None  # longer than that: no made-up figure
        if basis != "parts":
            return None
        if done >= total:
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
        basis = self.basis()
        if left is None and not basis and self.pace is None and self.timer.isActive():
            self.label.setText(arg(self.tr("Elapsed: %1 · no estimate yet (no flush or chat reply here to go by)"),
                                   elapsed))
        elif left is None:
            self.label.setText(arg(self.tr("Elapsed: %1"), elapsed))
        elif basis == "chat":
            self.label.setText(arg(self.tr("Elapsed: %1 · roughly %2 left (from how long your chat replies took)"),
                                   elapsed, clock_text(math.ceil(left))))
        elif basis == "last":
            self.label.setText(arg(self.tr("Elapsed: %1 · about %2 left (at the pace of the last flush)"),
                                   elapsed, clock_text(math.ceil(left))))
        else:
            done = sum(d for d, _ in self.parts.values())
            total = sum(t for _, t in self.parts.values())
            self.label.setText(arg(self.tr("Elapsed: %1 · about %2 left (from %3 of %4 parts read)"),
                                   elapsed, clock_text(math.ceil(left)), done, total))  # never "0:00 left"
