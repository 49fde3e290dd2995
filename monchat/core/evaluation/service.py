"""The memory score where a model is chosen (Settings → Model): the last score on the bundled set of the window's
language, and measuring it on this computer in the background (``MemoryScore``, built by ``app.py``)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from .results import last_score, save, saved
from .runner import MakeApp, run_set
from .sets import load_set


def bundled_set(language: str) -> str:
    return "ja-week" if language == "ja" else "en-week"


class MemoryScore:
    """Args:
        data_dir: the user's data folder (results are saved beside it, never in it).
        make_app: builds a monchat in a scratch folder with the user's settings (``app.py`` ``scratch_factory``).
    """

    def __init__(self, data_dir: Path, make_app: MakeApp) -> None:
        self.data_dir, self.make_app = data_dir, make_app

    def last(self, language: str, model: str | None = None) -> dict | None:
        """The newest saved run on the bundled set of ``language`` (of ``model``, when named)."""
        name = bundled_set(language)
        if model:
            return last_score(self.data_dir, name, model)
        runs = [r for r in saved(self.data_dir) if r.get("set") == name]
        return runs[-1] if runs else None

    def measure(self, language: str, progress: Callable[[int, int], None], cancel: threading.Event) -> dict:
        """Run the bundled set now, reporting (step, steps); the saved result. Raises EvalCancelled."""
        eval_set = load_set(bundled_set(language))
        steps = len(eval_set.sessions) + len(eval_set.questions)
        done = [0]

        def step(_line: str) -> None:
            done[0] += 1
            progress(done[0], steps)

        progress(0, steps)
        result = run_set(eval_set, self.make_app, progress=step, cancel=cancel)
        result["saved"] = str(save(result, self.data_dir))
        return result
