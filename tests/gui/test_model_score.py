"""Settings → Model's memory score (issue 42): the last score on the bundled set of the window's language, and
"Measure on this computer" running in the background with progress and Cancel; a real measure through the
scripted oracle saves a run the row then shows."""

from __future__ import annotations

import threading

from monchat.app import scratch_factory
from monchat.core.evaluation.runner import EvalCancelled
from monchat.core.evaluation.service import MemoryScore
from monchat.core.evaluation.sets import load_set
from monchat.core.paths import Paths
from monchat.gui.kit.workers import TaskRunner
from monchat.gui.settings.model_score import ScoreRow
from tests.test_eval import en_oracle


class SlowScore:
    """A MemoryScore stand-in whose measure reports a step and waits for Cancel."""

    def __init__(self) -> None:
        self.started = threading.Event()

    def last(self, language, model=None):
        return None

    def measure(self, language, progress, cancel):
        progress(1, 11)
        self.started.set()
        if cancel.wait(10):
            raise EvalCancelled()
        return {}


def test_measure_shows_progress_and_cancel_stops_it(qtbot):
    runner, score = TaskRunner(), SlowScore()
    row = ScoreRow(score, runner)
    qtbot.addWidget(row)
    row.show()
    assert "not measured" in row.last.text()
    row.row.button.click()
    assert score.started.wait(5)
    qtbot.waitUntil(lambda: "1" in row.row.state.text() and "11" in row.row.state.text(), timeout=5000)
    assert row.row.cancel_button.isEnabled() and not row.row.button.isEnabled()
    with qtbot.waitSignal(row.row.finished, timeout=5000) as finished:
        row.row.cancel_button.click()
    assert finished.args == [False] and row.row.button.isEnabled()
    assert runner.drain(5000)


def test_a_measure_through_the_oracle_is_saved_and_shown(qtbot, tmp_path):
    user = Paths.from_env(str(tmp_path / "user"))
    score = MemoryScore(user.data_dir, scratch_factory(user, pinned_backend=en_oracle(load_set("en-week"))))
    runner = TaskRunner()
    row = ScoreRow(score, runner, language="en")
    qtbot.addWidget(row)
    with qtbot.waitSignal(row.row.finished, timeout=120_000) as finished:
        row.row.button.click()
    assert finished.args == [True], row.row.state.text()
    assert "6 of 6 kept" in row.last.text() and "4 of 4 retired" in row.last.text() and "0 invented" in row.last.text()
    assert not user.data_dir.exists()  # measured beside it, never in it
    assert runner.drain(5000)


def test_the_catalog_shows_a_models_last_score(qtbot, tmp_path):
    from monchat.core.evaluation.results import save
    from monchat.gui.settings.model_catalog import CatalogPicker
    user = Paths.from_env(str(tmp_path / "user"))
    score = MemoryScore(user.data_dir, scratch_factory(user))
    picker = CatalogPicker(TaskRunner(), user.models_dir, "smollm2-135m", score=score)
    qtbot.addWidget(picker)
    title = picker.current_model().title
    assert "score" not in picker.details.text().lower()
    for language in ("en", "ja"):
        save({"set": f"{language}-week", "backend": "embedded", "model": title, "started": "2026-12-04T20:00:00+00:00",
              "present": {"kept": 5, "of": 6}, "retired": {"retired": 4, "of": 4}, "invented": 0}, user.data_dir)
    picker._show()
    assert "5" in picker.details.text() and "2026-12-04" in picker.details.text()
