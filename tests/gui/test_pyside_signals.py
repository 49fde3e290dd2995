"""Every emit leaves True's reference count as it was, and a PySide6 where it does not is refused in words.

PySide6 6.12.0 took one reference from True at every ``emit``; on Python 3.11 the interpreter aborts when the
count reaches zero ("Fatal Python error: bool_dealloc"), a few thousand emits after the start: a worker that
reported 20,000 times through ``TaskRunner`` aborted the process. ``pyproject.toml`` leaves that version out;
``gui/kit/pyside_check.py`` names it where it was installed some other way.
"""

from __future__ import annotations

import ctypes
import sys

import pytest
from PySide6.QtCore import QObject, Signal

from monchat.core.errors import KnownError
from monchat.gui.kit import pyside_check
from monchat.gui.kit.workers import TaskRunner

EMITS = 300  # far fewer than True's references: a leak shows as a count, not as an abort of the test run


class _Source(QObject):
    piece = Signal(object)


class _Sink(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.got = 0

    def take(self, _piece) -> None:
        self.got += 1


def test_an_emit_takes_no_reference_from_true():
    source, sink = _Source(), _Sink()
    source.piece.connect(sink.take)
    before = sys.getrefcount(True)
    for n in range(EMITS):
        source.piece.emit(n)
    assert sink.got == EMITS
    assert abs(sys.getrefcount(True) - before) < EMITS // 10  # 6.12.0: one fewer per emit, -300


def test_a_worker_reporting_many_times_takes_no_reference_from_true(qtbot):
    runner = TaskRunner()
    got = []
    before = sys.getrefcount(True)
    with qtbot.waitSignal(runner.busy_changed, timeout=10000, check_params_cb=lambda busy: not busy):
        runner.start("reports", lambda report: [report(n) for n in range(EMITS)] and None, on_progress=got.append)
    assert len(got) == EMITS
    assert abs(sys.getrefcount(True) - before) < EMITS // 10  # other threads may hold a True for a moment


def _leaking_emit() -> None:
    """What a 6.12.0 emit does to True: one reference fewer."""
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(True))


def test_the_check_finds_a_leaking_emit_and_passes_a_sound_one():
    assert not pyside_check.emit_drops_true()  # this PySide6 (pyproject.toml leaves 6.12.0 out)
    leaked = pyside_check.PROBE_EMITS
    try:
        assert pyside_check.emit_drops_true(_leaking_emit)
    finally:
        for _ in range(leaked):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))  # the references the fake leak took, given back


def test_the_window_refuses_a_leaking_pyside_in_words_where_true_can_die():
    try:
        with pytest.raises(KnownError) as raised:
            pyside_check.check_signals(_leaking_emit, python=(3, 11))
        pyside_check.check_signals(_leaking_emit, python=(3, 12))  # True is immortal there: nothing to refuse
    finally:
        for _ in range(2 * pyside_check.PROBE_EMITS):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))
    assert "PySide6" in raised.value.message and "!=6.12.0" in raised.value.hint
