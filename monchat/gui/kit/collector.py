"""Python's cyclic garbage collector runs on the window's thread only.

A cycle that holds a Qt object (a closed dialog and the slots that refer to it, a window closed earlier) is freed
by whichever thread the collector happens to run on, and any thread that allocates may run it: a flush's threads
and the window's workers would destroy the window's objects off the GUI thread. Qt cannot stop those objects' timers
from another thread ("QObject::~QObject: Timers cannot be stopped from another thread"), so the GUI thread's event
dispatcher keeps timers of deleted objects: afterwards its timers stopped firing (the context meter never counted, a
window's late start never came) or the event loop crashed on one (seen in the GUI suite on two workers, and as
Python's garbage the same happens in a long-running window).

So while a window runs, automatic collection is off and a timer on the GUI thread collects, a generation at a time,
when the collector's own thresholds say it would have (after pyqtgraph's ``GarbageCollector``). Reference counting
still frees everything that is not in a cycle at once, on the thread that lets go of it.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

CHECK_MS = 500  # how often the GUI thread looks at the collector's counts


class GuiThreadCollector(QObject):
    """Collects cyclic garbage on the thread it lives on (the GUI thread), never on another."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = CHECK_MS) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> int:
        """Collect the oldest generation whose count passed its threshold (as the automatic collector would);
        returns the generation collected, or -1."""
        counts, limits = gc.get_count(), gc.get_threshold()
        generation = next((g for g in (2, 1, 0) if limits[g] and counts[g] > limits[g]), -1)
        if generation >= 0:
            gc.collect(generation)
        return generation

    def stop(self) -> None:
        """Collect what is left here, on the GUI thread, and give collection back to the interpreter."""
        self.timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()
