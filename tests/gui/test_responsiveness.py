"""The event loop is never blocked for more than 50 ms while a slow reply streams or a flush runs."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer

from tests.gui.conftest import fill_log_files, log_message
from tests.gui.flush_script import NO_ITEMS, item_answer

MAX_GAP_S = 0.050


class GapMeter:
    """A 10 ms timer; the longest time between two ticks is how long the GUI thread was busy."""

    def __init__(self):
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.last = None
        self.max_gap = 0.0
        self.ticks = 0

    def _tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.max_gap = max(self.max_gap, now - self.last)
        self.last = now
        self.ticks += 1

    def __enter__(self):
        self.last = time.perf_counter()
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.stop()


@pytest.mark.slow
def test_gui_stays_responsive_during_a_slow_streamed_reply(window, backend, qtbot):
    backend.delay = 0.02
    backend.enqueue([f"**{n}** 番目の文です。改行も\n\n- 箇条書き {n}\n" for n in range(60)])
    window.composer.edit.setPlainText("ゆっくり長く話して")
    with GapMeter() as meter:
        with qtbot.waitSignal(window.turn_finished, timeout=15000):
            window.composer.submit()
        qtbot.wait(50)
    assert meter.ticks > 50, "the timer hardly ran"
    assert meter.max_gap < MAX_GAP_S, f"the event loop was blocked for {meter.max_gap * 1000:.0f} ms"
    assert "59 番目" in window.chat_view.bubbles[-1].text().replace("**", "")


@pytest.mark.slow
def test_gui_stays_responsive_during_a_flush_with_a_slow_backend(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    backend.delay = 0.25
    fill_log_files(app, 4)
    for n in range(30):
        log_message(app, 1 + n / 60, f"今日の出来事 {n}: 散歩して、コーヒーを飲んで、少し本を読んだ。")
    window = make_window("en")
    backend.enqueue(item_answer("散歩が日課", "habit/walk", kind="habit", score=0.7))
    dialog = window.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with GapMeter() as meter:
        with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
            dialog.start_button.click()
        qtbot.wait(50)
    assert meter.ticks > 50
    assert meter.max_gap < MAX_GAP_S, f"the event loop was blocked for {meter.max_gap * 1000:.0f} ms"
    assert dialog.report.llm_calls == 4
    dialog.close()
