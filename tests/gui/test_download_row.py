"""The one download row (gui/kit/download_row.py) under the catalog download and ``ollama pull``: one job at a
time, Cancel reaches the job, the row is free again once it ends, and it says how it ended."""

from __future__ import annotations

import threading

from monchat.gui.kit.download_row import DownloadRow
from monchat.gui.kit.workers import TaskRunner


def test_one_job_at_a_time_cancel_reaches_it_and_the_row_is_free_again(qtbot):
    runner = TaskRunner()
    row = DownloadRow(runner)
    qtbot.addWidget(row)
    row.show()
    shown, started, runs = [], threading.Event(), []
    row.show_progress = shown.append

    def work(report, stop):
        runs.append(1)
        report("half")
        started.set()
        return not stop.wait(10)  # False: cancelled

    def ended(done, failure):
        return f"ended done={done} failure={failure}"

    assert row.run("job", work, "starting", ended)
    assert row.state.text() == "starting" and row.busy()
    assert not row.button.isEnabled() and row.cancel_button.isEnabled() and row.bar.isVisible()
    assert not row.run("job", work, "again", ended)  # a second press while one runs starts nothing
    assert started.wait(5)
    with qtbot.waitSignal(row.finished, timeout=5000) as finished:
        row.cancel()
    assert finished.args == [False] and runs == [1]
    assert row.state.text() == "ended done=False failure=None"
    assert row.button.isEnabled() and not row.cancel_button.isEnabled() and not row.bar.isVisible()
    assert shown == ["half"] and not row.busy()
    with qtbot.waitSignal(row.finished, timeout=5000) as finished:  # free again: a new job runs to its end
        assert row.run("job", lambda report, stop: "a path", "starting", ended)
    assert finished.args == [True] and row.state.text() == "ended done=True failure=None"
    assert runner.drain(5000)
