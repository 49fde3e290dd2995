"""The event loop keeps running while a slow reply streams or a flush runs; no clock is read.

``EventLoopProbe`` watches a backend: at every chunk and every structured call
it notes the thread it runs on and asks the GUI thread to answer a ping. Work
on the GUI thread is a failure by itself; work off it that waits on a GUI
thread which never answers (because the work blocks it) is a failure too.
How fast things are is for ``benchmarks/``, not for these tests.
"""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QObject, Signal, Slot

from tests.gui.conftest import fill_log_files, log_message
from tests.gui.flush_script import NO_ITEMS, item_answer

# Only a guard against a deadlocked test; no assertion reads how long anything took.
PING_GUARD_S = 20


class _Pinger(QObject):
    ping = Signal(object)

    def __init__(self):
        super().__init__()  # lives in the GUI thread: a ping from a worker is queued to its event loop
        self.ping.connect(self._pong)

    @Slot(object)
    def _pong(self, answered: threading.Event):
        answered.set()


class EventLoopProbe:
    """Counts backend work done on the GUI thread, and pings the GUI thread don't answer."""

    def __init__(self):
        self._pinger = _Pinger()
        self.calls = 0
        self.on_gui_thread = 0
        self.unanswered = 0
        self._lock = threading.Lock()

    def check(self) -> None:
        with self._lock:
            self.calls += 1
        if threading.current_thread() is threading.main_thread():
            with self._lock:
                self.on_gui_thread += 1
            return
        if self.unanswered:  # the GUI thread is already known to be blocked: do not wait again
            return
        answered = threading.Event()
        self._pinger.ping.emit(answered)
        if not answered.wait(PING_GUARD_S):
            with self._lock:
                self.unanswered += 1

    def watch(self, backend) -> "EventLoopProbe":
        """Spy on this backend object's streamed chunks and structured calls."""
        stream, complete = backend._stream, backend._complete_json

        def _stream(system, turns, temperature, reply):
            for piece in stream(system, turns, temperature, reply):
                self.check()
                yield piece

        def _complete_json(system, turns, schema, temperature):
            self.check()
            return complete(system, turns, schema, temperature)

        backend._stream, backend._complete_json = _stream, _complete_json
        return self

    def assert_never_blocked(self, at_least: int = 1) -> None:
        assert self.calls >= at_least, f"the backend was called {self.calls} time(s)"
        assert self.on_gui_thread == 0, f"{self.on_gui_thread} backend step(s) ran on the GUI thread"
        assert self.unanswered == 0, f"the GUI thread did not answer {self.unanswered} ping(s) during the work"


@pytest.mark.slow
def test_gui_stays_responsive_during_a_slow_streamed_reply(window, backend, qtbot):
    probe = EventLoopProbe().watch(backend)
    backend.enqueue([f"**{n}** 番目の文です。改行も\n\n- 箇条書き {n}\n" for n in range(60)])
    window.composer.edit.setPlainText("ゆっくり長く話して")
    with qtbot.waitSignal(window.turn_finished, timeout=30000):
        window.composer.submit()
    probe.assert_never_blocked(at_least=60)
    assert "59 番目" in window.chat_view.bubbles[-1].text().replace("**", "")


@pytest.mark.slow
def test_gui_stays_responsive_during_a_flush_with_a_slow_backend(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    fill_log_files(app, 4)
    for n in range(30):
        log_message(app, 1 + n / 60, f"今日の出来事 {n}: 散歩して、コーヒーを飲んで、少し本を読んだ。")
    window = make_window("en")
    backend.enqueue(item_answer("散歩が日課", "habit/walk", kind="habit", score=0.7))
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    probe = EventLoopProbe().watch(backend)
    with qtbot.waitSignal(dialog.flush_finished, timeout=30000):
        dialog.start_button.click()
    probe.assert_never_blocked(at_least=4)
    assert dialog.report.llm_calls == 4 + 1 + len(dialog.report.background["diary"])  # filters, reflect, diary
    dialog.close()
