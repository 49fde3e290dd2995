"""Settings → Model's embedded catalog: pick a model (its size, memory, languages shown), download it with
progress (speed, time left) and Cancel. Core does the work (``core/models/``) on a worker thread through the
task runner; these widgets only show it. The first start's offer (``gui/settings/model_offer.py``) reuses ``Download``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.models.catalog import CatalogModel, installed_file, load_catalog
from ..failures import explanation, headline
from ..kit.download_row import DownloadRow
from ..translation import arg, ui_language
from ..kit.workers import Failure, TaskRunner


def _gb(count: float) -> str:
    return f"{count / 1e9:.1f} GB" if count >= 1e8 else f"{count / 1e6:.0f} MB"


class Download(DownloadRow):
    """A catalog model's download (``kit/download_row.py``): its speed and time left while it runs."""

    def __init__(self, runner: TaskRunner, models_dir: Path, model: Callable[[], CatalogModel | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(runner, parent)
        self.button.setText(self.tr("Download"))
        self.models_dir, self.model = models_dir, model
        self.button.clicked.connect(self.start)
        self.bar.setRange(0, 1000)

    def start(self) -> None:
        model = self.model()
        if model is None or model.bundled or self.busy():
            return
        from ...core.models.download import pull
        self.bar.setValue(0)
        models_dir = self.models_dir
        self.run("model download", lambda report, stop: pull(model, models_dir, on_progress=report, cancel=stop),
                 arg(self.tr("Downloading %1…"), model.title),
                 lambda _done, failure: self._ended_text(model, failure))

    def show_progress(self, step) -> None:
        if not step.total:
            return
        self.bar.setValue(int(1000 * step.done / step.total))
        if step.verifying:
            self.state.setText(self.tr("Checking the file (SHA-256)…"))
            return
        left = "" if step.seconds_left is None else arg(self.tr(", about %1 s left"), int(step.seconds_left))
        self.state.setText(arg(self.tr("%1 of %2, %3/s%4"), _gb(step.done), _gb(step.total),
                               _gb(step.speed), left))

    def _ended_text(self, model: CatalogModel, failure: Failure | None) -> str:
        if failure is None:
            return arg(self.tr("%1 is downloaded and verified."), model.title)
        if failure.code == "download_cancelled":
            return arg(self.tr("The download of %1 was cancelled; nothing was installed."), model.title)
        return f"{headline(failure)}\n{explanation(failure)}"


class CatalogPicker(QWidget):
    """The catalog in a list, what the chosen model is, and its download. ``chosen`` says a model to use."""

    chosen = Signal(str)  # a catalog name ("smollm2-135m" for the bundled model)

    def __init__(self, runner: TaskRunner, models_dir: Path, current: str, parent: QWidget | None = None,
                 score=None) -> None:
        super().__init__(parent)
        self.models_dir, self.score = models_dir, score  # score: the memory score (issue 42), or None
        self.models = load_catalog()
        self.box = QComboBox(self)
        self.details = QLabel(self)
        self.details.setWordWrap(True)
        self.use_button = QPushButton(self.tr("Use this model"), self)
        self.use_button.clicked.connect(self._use)
        self.download = Download(runner, models_dir, self.current_model, self)
        self.download.finished.connect(self._downloaded)
        row = QHBoxLayout()
        row.addWidget(self.box, 1)
        row.addWidget(self.use_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.details)
        column.addWidget(self.download)
        self._fill(current)
        self.box.currentIndexChanged.connect(lambda _index: self._show())
        self._show()

    def current_model(self) -> CatalogModel | None:
        index = self.box.currentIndex()
        return self.models[index] if 0 <= index < len(self.models) else None

    def installed(self, model: CatalogModel) -> bool:
        return model.bundled or installed_file(self.models_dir, model) is not None

    def _fill(self, current: str) -> None:
        for model in self.models:
            size = self.tr("included") if model.bundled else _gb(model.size_bytes)
            mark = self.tr(" (downloaded)") if self.installed(model) and not model.bundled else ""
            self.box.addItem(arg(self.tr("%1 — %2, needs %3 GB memory%4"), model.title, size,
                                 f"{model.ram_gb:.1f}", mark))
        names = [m.name for m in self.models]
        self.box.setCurrentIndex(names.index(current) if current in names else 0)

    def _show(self) -> None:
        model = self.current_model()
        if model is None:
            return
        japanese = {"good": self.tr("good"), "fair": self.tr("fair"), "limited": self.tr("limited"),
                    "poor": self.tr("poor")}.get(model.japanese, model.japanese)
        purpose = model.purpose_ja if ui_language() == "ja" and model.purpose_ja else model.purpose
        self.details.setText(purpose + "\n" + arg(self.tr(
            "Languages: %1 (Japanese: %2). Context: %3 tokens. Licence: %4."),
            ", ".join(model.languages), japanese, model.context_length, model.licence) + self._score_line(model))
        ready = self.installed(model)
        self.download.button.setEnabled(not ready)
        self.use_button.setEnabled(ready)
        if not ready:
            self.download.state.setText(arg(self.tr("Not downloaded yet (%1)."), _gb(model.size_bytes)))
        elif not model.bundled:
            self.download.state.setText(self.tr("Downloaded and verified."))
        else:
            self.download.state.setText(self.tr("Built in: nothing to download."))

    def _score_line(self, model: CatalogModel) -> str:
        """The model's last memory score on this computer (the bundled set of the window's language), if any."""
        result = self.score.last(ui_language(), model.title) if self.score is not None else None
        if result is None:
            return ""
        return "\n" + arg(self.tr("Memory score here (%1): %2 of %3 kept, %4 of %5 retired, %6 invented"),
                           str(result["started"])[:10], result["present"]["kept"], result["present"]["of"],
                           result["retired"]["retired"], result["retired"]["of"], result["invented"])

    def _use(self) -> None:
        model = self.current_model()
        if model is not None and self.installed(model):
            self.chosen.emit(model.name)

    def _downloaded(self, done: bool) -> None:
        if done:
            self._show()
            self._use()
