"""The settings dialog's model tools: a model field that lists what a backend has, and ``ollama pull``
with progress and Cancel ("Test connection" is worded in ``doctor_words``). Core does the work (on a
worker thread, through the task runner); these widgets only show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton, QSizePolicy, QWidget

from ...core.privacy.secrets import SecretStore
from ...core.redact import register
from ..failures import explanation, headline
from ..kit.download_row import DownloadRow
from ..translation import arg, ui_is_english
from ..kit.workers import Failure, TaskRunner

if TYPE_CHECKING:  # the ollama client is imported only when a backend is built
    from ...core.backends.ollama import OllamaBackend


class TypedKeys(SecretStore):
    """The keys typed in the dialog (not yet stored), for "Test connection" and "List models"."""

    def __init__(self, gemini: str = "", openai: str = "") -> None:
        self.typed_gemini = gemini
        self.typed_openai = openai
        register(gemini)  # a typed key is a secret read here (core/redact.py)
        register(openai)

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


class PullControl(DownloadRow):
    """``ollama pull`` of the model the Ollama field names (``kit/download_row.py``).

    Signals:
        finished(bool): the pull ended; True when the model is installed (False: cancelled or failed).
    """

    def __init__(self, runner: TaskRunner, model_name: Callable[[], str],
                 backend_for: Callable[[str], OllamaBackend], parent: QWidget | None = None) -> None:
        """Args:
            model_name: the name to pull (the form's Ollama model field).
            backend_for: an Ollama backend built from the form's values, for that name.
        """
        super().__init__(runner, parent)
        self.button.setText(self.tr("Pull this model"))
        self.model_name = model_name
        self.backend_for = backend_for
        self.button.clicked.connect(self.pull)

    def pull(self) -> None:
        name = self.model_name().strip()
        if not name or self.busy():
            return
        backend = self.backend_for(name)

        def work(report, stop):
            try:
                return backend.pull(name, progress=report, cancel=stop)
            finally:
                backend.close()
        self.bar.setRange(0, 0)
        self.run("ollama pull", work, arg(self.tr("Pulling %1…"), name),
                 lambda done, failure: self._ended_text(name, done, failure))

    def show_progress(self, step) -> None:
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

    def _ended_text(self, name: str, done: bool, failure: Failure | None) -> str:
        if failure is not None:
            return f"{headline(failure)}\n{explanation(failure)}"
        if done:
            return arg(self.tr("%1 is installed."), name)
        return arg(self.tr("The download of %1 was cancelled."), name)
