"""The flush window fits a 1366×768 screen at every stage, results included (the lists and the summary scroll
inside, Close stays on the screen); an estimate shows from Start at the last flush's pace; a problem is said
once, in the window's language (issue 38)."""

from __future__ import annotations

import pytest

from monchat.core.flush.records import FlushReport
from monchat.core.records.memory import Change
from monchat.core.types import Coded
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS
from tests.gui.test_flush_layout import open_flush
from tests.gui.test_review_next_step import JUNK, lines_as_items

SCREEN_H = 768


def assert_fits(dialog) -> None:
    area = dialog.screen().availableGeometry()
    room = min(area.height(), SCREEN_H - 80)  # a laptop's panel and the title bar take the rest
    assert dialog.minimumSizeHint().height() <= room, dialog.minimumSizeHint()
    frame = dialog.frameGeometry()
    assert area.top() <= frame.top() and frame.bottom() <= area.bottom(), (frame, area)
    close = dialog.close_button
    assert close.isVisible() and dialog.rect().contains(close.geometry()), close.geometry()


def a_big_report() -> FlushReport:
    report = FlushReport(run_id=3, messages_archived=120, duration_s=300.0)
    report.changes = [Change(kind="new", memory_id=f"m{n}", text=f"a thing said on day {n} that is long enough "
                             f"to wrap in a narrow column of the change list ({n})", evidence=[])
                      for n in range(60)]
    report.notes = [Coded(f"persona {n} could not read part {n} at once", "read_in_halves", "base", n)
                    for n in range(25)]
    report.errors = ["a problem the program wrote in English"] * 2 + [Coded("x", "judge_unreadable")] * 3
    return report


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_finished_flush_with_many_changes_fits_and_close_is_on_the_screen(app, make_window, backend, qtbot,
                                                                           language):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0), lines_as_items(3), lines_as_items(6))
    dialog = open_flush(make_window(language), qtbot)
    assert_fits(dialog)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    qtbot.wait(50)
    assert_fits(dialog)
    dialog.move(dialog.x(), 173)  # where the user's window manager had put it
    dialog._finished(a_big_report())  # a flush of 120 messages: 60 changes, 25 notes, 5 problems
    qtbot.wait(50)
    assert_fits(dialog)
    summary = dialog.summary.text()
    problems = [line for line in summary.splitlines() if line.startswith(("Problem:", "問題:"))]
    assert len(problems) == 2, problems  # each problem once
    assert "monchat.log" not in summary  # the log is not where these are
    dialog.close()


@pytest.mark.parametrize("language, words", [("en", "pace of the last flush"), ("ja", "前回の整理の速さから")])
def test_the_estimate_shows_within_seconds_of_start_at_the_last_flushs_pace(app, make_window, backend, qtbot,
                                                                           language, words):
    import threading

    from tests.gui.test_chat_during_flush import held_answer
    app.flush.memories.add_run({"started_at": "2026-12-01T10:00:00+09:00", "duration_s": 600.0,
                                "messages_archived": 20, "llm_calls": 9})  # 30 s a message, last time
    for n in range(10):
        log_message(app, 3 - n * 0.01, f"message {n}")
    backend.default_reply = NO_ITEMS
    release, entered = threading.Event(), threading.Event()
    backend.enqueue(held_answer(release, entered))  # the first filter call takes its time
    dialog = open_flush(make_window(language), qtbot)
    try:
        dialog.start_button.click()
        qtbot.waitUntil(lambda: words in dialog.timing.label.text(), timeout=3000)  # before any part is read
        assert 280 <= dialog.timing.remaining() <= 300  # 10 messages at 30 s a message
    finally:
        release.set()
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        pass
    assert words not in dialog.timing.label.text()
    dialog.close()
