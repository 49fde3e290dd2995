"""The settings dialog's model tools: a model field that lists what a backend has, and ``ollama pull``
with progress and Cancel ("Test connection" is worded in ``doctor_words``). Core does the work (on a
worker thread, through the task runner); these widgets only show it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QVBoxLayout,
                               QWidget)

from ...core.privacy.secrets import SecretStore
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..translation import arg, ui_is_english
from ..kit.workers import Failure, TaskRunner

if TYPE_CHECKING:  # the ollama client is imported only when a backend is built
    from ...core.backends.ollama import OllamaBackend


class TypedKeys(SecretStore):
    """The keys typed in the dialog (not yet stored), for "Test connection" and "List models"."""

    def __init__(self, gemini: str = "", openai: str = "") -> None:
        self.typed_gemini = gemini
        self.typed_openai = openai

    def gemini_key(self) -> str | None:
        return self.typed_gemini or super().gemini_key()

    def openai_key(self) -> str | None:
        return self.typed_openai or super().openai_key()


class ModelField(QWidget):
    """A model name: typed, or picked from what the backend lists.

    Signals:
        list_requested(): the user asked for the backend's model list.
    """

    list_requested = Signal()

    def __init__(self, text: str, button_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QComboBox(self)
        self.edit.setEditable(True)
        self.edit.setEditText(text)
        self.edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.button = QPushButton(button_text, self)
        self.button.clicked.connect(self.list_requested)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.button)

    def text(self) -> str:
        return self.edit.currentText()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt naming, as QLineEdit)
        self.edit.setEditText(text)

    def set_busy(self, busy: bool) -> None:
        self.button.setEnabled(not busy)

    def set_models(self, models: list[str]) -> None:
        typed = self.text()
        self.edit.clear()
        self.edit.addItems(models)
        self.edit.setEditText(typed or (models[0] if models else ""))
        self.set_busy(False)


class PullControl(QWidget):
    """``ollama pull`` of the model the Ollama field names, with a progress bar and Cancel.

    Signals:
        finished(bool): the pull ended; True when the model is installed (False: cancelled or failed).
    """

    finished = Signal(bool)

    def __init__(self, runner: TaskRunner, model_name: Callable[[], str],
                 backend_for: Callable[[str], OllamaBackend], parent: QWidget | None = None) -> None:
        """Args:
            model_name: the name to pull (the form's Ollama model field).
            backend_for: an Ollama backend built from the form's values, for that name.
        """
        super().__init__(parent)
        self.runner = runner
        self.model_name = model_name
        self.backend_for = backend_for
        self.button = QPushButton(self.tr("Pull this model"), self)
        self.button.clicked.connect(self.pull)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.bar = QProgressBar(self)
        self.bar.setVisible(False)
        self.state = QLabel(self)
        self.state.setWordWrap(True)
        self._stop: threading.Event | None = None
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.bar, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.state)

    def pull(self) -> None:
        name = self.model_name().strip()
        if not name or self._stop is not None:
            return
        backend = self.backend_for(name)
        stop = threading.Event()
        self._stop = stop
        self.button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.bar.setVisible(True)
        self.bar.setRange(0, 0)
        self.state.setText(arg(self.tr("Pulling %1…"), name))

        def work(report):
            try:
                return backend.pull(name, progress=report, cancel=stop)
            finally:
                backend.close()

        self.runner.start("ollama pull", work, on_progress=self._progress,
                          on_finished=lambda done: self._ended(name, done, None),
                          on_failed=lambda failure: self._ended(name, False, failure))

    def cancel(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self.cancel_button.setEnabled(False)

    def _progress(self, step) -> None:
        if not alive(self):
            return
        if step.fraction is None:
            self.bar.setRange(0, 0)
        else:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(step.fraction * 1000))
        if ui_is_english():  # Ollama's own words ("pulling manifest", "verifying sha256 digest") are English
            self.state.setText(step.status)
        elif step.fraction is None:
            self.state.setText(self.tr("Preparing the download…"))
        else:
            self.state.setText(arg(self.tr("Downloading: %1%"), int(step.fraction * 100)))

    def _ended(self, name: str, done: bool, failure: Failure | None) -> None:
        if not alive(self):
            return
        self._stop = None
        self.button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.bar.setVisible(False)
        if failure is not None:
            self.state.setText(f"{headline(failure)}\n{explanation(failure)}")
        elif done:
            self.state.setText(arg(self.tr("%1 is installed."), name))
        else:
            self.state.setText(arg(self.tr("The download of %1 was cancelled."), name))
        self.finished.emit(done)
