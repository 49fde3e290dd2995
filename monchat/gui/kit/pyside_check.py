"""A PySide6 whose signals take a reference from True at every emit: the window refuses to open on it.

PySide6 6.12.0's ``SignalInstance.emit`` hands back True without a reference of its own, so every emit takes
one reference away from True. On Python 3.11 True is an ordinary object: when its count reaches zero the
interpreter aborts ("Fatal Python error: bool_dealloc") and takes the window with it, the reply being written
and the words being typed included, with no crash report. A streamed reply emits once a piece and a flush once
a step, so a few thousand emits after the start — a few long replies — the app was gone (the counts are
measured in ``tests/gui/test_pyside_signals.py``). ``pyproject.toml`` leaves 6.12.0 out; this check says so in
words where a PySide6 was installed some other way, after the frame's first paint and before the app is built
(``gui/main.py`` ``open_window``: the error closes the frame and is shown as any start-up error). Python 3.12 made True immortal: there no emit can end it.
"""

from __future__ import annotations

import sys
from typing import Callable

from PySide6.QtCore import QObject, Signal

from ...core.errors import KnownError

PROBE_EMITS = 8


class _Probe(QObject):
    fired = Signal()


def emit_drops_true(emit: Callable[[], object] | None = None) -> bool:
    """Whether an emit takes a reference from True (``emit``: what to call instead of a probe signal's)."""
    probe = _Probe()
    emit = emit or probe.fired.emit
    before = sys.getrefcount(True)
    for _ in range(PROBE_EMITS):
        emit()
    return sys.getrefcount(True) <= before - PROBE_EMITS // 2


def check_signals(emit: Callable[[], object] | None = None, python: tuple = sys.version_info[:2]) -> None:
    """Raises KnownError where this PySide6 would abort the app after some thousand emits."""
    if python < (3, 12) and emit_drops_true(emit):
        import PySide6
        raise KnownError(
            f"This PySide6 ({PySide6.__version__}) has a bug that would stop monchat without warning after a "
            f"few replies.",
            "Install another version: .venv/bin/pip install 'PySide6-Essentials>=6.8,<7,!=6.12.0' "
            "(bash scripts/setup does it).")
