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


def test_the_estimate_shows_from_start_at_the_last_flushs_pace(app, make_window, backend, qtbot):
    app.flush.memories.add_run({"started_at": "2026-12-01T10:00:00+09:00", "finished_at": "2026-12-01T10:10:00+09:00",
                                "duration_s": 600.0, "messages_archived": 20, "llm_calls": 9})
    for n in range(10):
        log_message(app, 3 - n * 0.01, f"message {n}")
    dialog = open_flush(make_window("en"), qtbot)
    dialog.timing.start(dialog.timing.prior)  # nothing yet: no prior before Start
    assert "left" not in dialog.timing.label.text()
    from monchat.gui.flush.timing import prior_estimate
    dialog.timing.start(prior_estimate(dialog.plan.last_run, dialog.plan.messages))  # as Start does
    assert dialog.timing.remaining() == pytest.approx(300, abs=5)  # 10 messages at 30 s a message
    assert "about 4:5" in dialog.timing.label.text() or "about 5:00" in dialog.timing.label.text()
    assert "pace of the last flush" in dialog.timing.label.text()
    dialog.timing.stop()
    dialog.close()
