"""Settings → Model: the backend, its host or URL, model and key, the embedded catalog, ``ollama pull``,
Test connection and List models.

Model lists, ``ollama pull`` and embedded downloads (``gui/settings/model_catalog.py``) are core calls run on a
worker thread; this page only shows them. Gemini is never saved as the backend without a usable key
(``problems``), and where the OS has no keyring the page says so and explains GEMINI_API_KEY. The keys typed
here are stored by the dialog (``SettingsDialog._store_keys``), never written to a file.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QPlainTextEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from ...core.backends.addresses import ollama_host
from ...core.backends.llama_support import default_threads
from ...core.backends.registry import AUTO_ORDER, BACKEND_NAMES, BackendRegistry
from ...core.errors import KnownError
from ...core.privacy.secrets import SecretStore
from ...core.settings import Settings, empty_model_names
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..kit.workers import Failure, TaskRunner
from ..translation import arg
from .doctor_words import automatic_lines, doctor_lines, doctor_results
from .model_catalog import CatalogPicker
from .model_tools import ModelField, PullControl, TypedKeys
from .openai_fields import AnswerFormatBox, at_once_box, context_box


class ModelPage(QWidget):
    """Signals:
        tested(list): "Test connection" finished with (ok, line) pairs.
        models_listed(list): "List models" finished with the model names ([] on failure).
        pull_finished(bool): an Ollama pull ended (True: installed; False: cancelled or failed).
    """

    tested, models_listed, pull_finished = Signal(list), Signal(list), Signal(bool)

    def __init__(self, settings: Settings, secrets: SecretStore, backends: BackendRegistry, models_dir: Path,
                 runner: TaskRunner, candidate: Callable[[], tuple[Settings, list[str]]], message: QLabel,
                 parent: QWidget | None = None, score=None) -> None:
        """Args:
            backends: builds the form's trials (Test connection, List models, pull).
            models_dir: where the embedded catalog's downloads go.
            candidate: the whole dialog's settings as the form says, with its problems.
            message: the dialog's message line (what List models found, a key that could not be removed).
            score: the memory score (``core/evaluation/service.py``), shown under Test connection when given.
        """
        super().__init__(parent)
        self.secrets, self.backends, self.models_dir, self.runner = secrets, backends, models_dir, runner
        self.candidate, self.message, self.score = candidate, message, score
        self._build(settings)
        self._update_groups()

    def _build(self, s: Settings) -> None:
        page = self
        self.backend_box = QComboBox(page)
        labels = {"auto": self.tr("Automatic (the first local one that works; never a cloud)"),
                  "ollama": self.tr("Ollama"),
                  "openai": self.tr("OpenAI-compatible server (LM Studio, llama-server, vLLM, …)"),
                  "gemini": self.tr("Gemini (Google, a cloud service)"),
                  "embedded": self.tr("Embedded (small model on this computer)")}
        for name in ("auto", *BACKEND_NAMES):
            self.backend_box.addItem(labels[name], name)
        self.backend_box.setCurrentIndex(max(self.backend_box.findData(s.backend.name), 0))
        self.backend_box.currentIndexChanged.connect(self._update_groups)

        self.ollama_group = QGroupBox(self.tr("Ollama"), page)
        self.ollama_host = QLineEdit(s.ollama.host, self.ollama_group)
        self.ollama_host.setPlaceholderText(shown_host())  # empty: OLLAMA_HOST when set, as the backend reads it
        self.ollama_host.setToolTip(arg(self.tr("Empty: the address in OLLAMA_HOST (%1)"), shown_host())
                                    if os.environ.get("OLLAMA_HOST") else self.tr("Empty: Ollama on this computer"))
        self.ollama_model = ModelField(s.ollama.model, self.tr("List installed"), self.ollama_group)
        self.ollama_model.list_requested.connect(lambda: self.list_models("ollama"))
        self.pull = PullControl(self.runner, self.ollama_model.text, self._ollama_for_pull, self.ollama_group)
        self.pull.finished.connect(self.pull_finished)
        self.ollama_ctx = QSpinBox(self.ollama_group)
        self.ollama_ctx.setRange(512, 1_048_576)
        self.ollama_ctx.setSingleStep(1024)
        self.ollama_ctx.setValue(s.ollama.num_ctx)
        self.ollama_keep = QLineEdit(s.ollama.keep_alive, self.ollama_group)
        self.ollama_keep.setToolTip(self.tr("How long Ollama keeps the model loaded, e.g. 30m or 24h"))
        self.ollama_at_once = at_once_box(s.ollama.parallel, 1, self.ollama_group)
        form = QFormLayout(self.ollama_group)
        form.addRow(self.tr("Host"), self.ollama_host)
        form.addRow(self.tr("Model"), self.ollama_model)
        form.addRow(self.tr("Context length (tokens)"), self.ollama_ctx)
        form.addRow(self.tr("Keep loaded for"), self.ollama_keep)
        form.addRow(self.tr("Requests at once"), self.ollama_at_once)
        form.addRow("", self.pull)

        self.openai_group = QGroupBox(self.tr("OpenAI-compatible server"), page)
        self.openai_url = QLineEdit(s.openai.base_url, self.openai_group)
        self.openai_url.setPlaceholderText(self.tr("(OPENAI_BASE_URL, else LM Studio at http://127.0.0.1:1234/v1)"))
        self.openai_model = ModelField(s.openai.model, self.tr("List models"), self.openai_group)
        self.openai_model.edit.setPlaceholderText(self.tr("(the server's first model)"))
        self.openai_model.list_requested.connect(lambda: self.list_models("openai"))
        self.openai_ctx = context_box(s.openai.context_length, self.openai_group)
        self.openai_format = AnswerFormatBox(s.openai.json_mode, self.openai_group)
        self.openai_at_once = at_once_box(s.openai.parallel, 0, self.openai_group)
        self.openai_key = QLineEdit(self.openai_group)
        self.openai_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.openai_key.setPlaceholderText(self.tr("(a local server needs none)"))
        form = QFormLayout(self.openai_group)
        form.addRow(self.tr("Base URL"), self.openai_url)
        form.addRow(self.tr("Model"), self.openai_model)
        form.addRow(self.tr("Context length (tokens)"), self.openai_ctx)
        form.addRow(self.tr("Answer format"), self.openai_format)
        form.addRow(self.tr("Requests at once"), self.openai_at_once)
        form.addRow(self.tr("API key"), self.openai_key)

        self.gemini_group = QGroupBox(self.tr("Gemini"), page)
        self.gemini_model = QLineEdit(s.gemini.model, self.gemini_group)
        self.gemini_key = QLineEdit(self.gemini_group)
        self.gemini_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.gemini_key_state = QLabel(self.gemini_group)
        self.gemini_key_state.setWordWrap(True)
        self.remove_key_button = QPushButton(self.tr("Remove stored key"), self.gemini_group)
        self.remove_key_button.clicked.connect(self.remove_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.gemini_key, 1)
        key_row.addWidget(self.remove_key_button)
        form = QFormLayout(self.gemini_group)
        form.addRow(self.tr("Model"), self.gemini_model)
        form.addRow(self.tr("API key"), key_row)
        form.addRow("", self.gemini_key_state)
        self._show_key_state()

        self.embedded_group = QGroupBox(self.tr("Embedded"), page)
        self.embedded_path = QLineEdit(s.embedded.model_path, self.embedded_group)
        self.embedded_path.setPlaceholderText(self.tr("(the bundled SmolLM2-135M-Instruct)"))
        self.catalog = CatalogPicker(self.runner, self.models_dir, s.embedded.model_path or "smollm2-135m", self,
                                     score=self.score)
        self.catalog.chosen.connect(lambda name: self.embedded_path.setText("" if name == "smollm2-135m" else name))
        browse = QPushButton(self.tr("Choose…"), self.embedded_group)
        browse.clicked.connect(self._choose_model_file)
        path_row = QHBoxLayout()
        path_row.addWidget(self.embedded_path, 1)
        path_row.addWidget(browse)
        self.embedded_ctx = QSpinBox(self.embedded_group)
        self.embedded_ctx.setRange(256, 131_072)
        self.embedded_ctx.setSingleStep(512)
        self.embedded_ctx.setValue(s.embedded.n_ctx)
        self.embedded_threads = QSpinBox(self.embedded_group)
        self.embedded_threads.setRange(0, 256)
        self.embedded_threads.setSpecialValueText(arg(self.tr("automatic (%1, the physical cores)"),
                                                      default_threads()))
        self.embedded_threads.setValue(s.embedded.threads)
        self.embedded_max = QSpinBox(self.embedded_group)
        self.embedded_max.setRange(1, 32_768)
        self.embedded_max.setValue(s.embedded.max_tokens)
        form = QFormLayout(self.embedded_group)
        form.addRow(self.tr("Catalog model"), self.catalog)
        form.addRow(self.tr("Model (catalog name or GGUF file)"), path_row)
        form.addRow(self.tr("Context length (tokens)"), self.embedded_ctx)
        form.addRow(self.tr("Threads"), self.embedded_threads)
        form.addRow(self.tr("Longest reply (tokens)"), self.embedded_max)

        self.test_button = QPushButton(self.tr("Test connection"), page)
        self.test_button.clicked.connect(self.test_connection)
        self.test_output = QPlainTextEdit(page)
        self.test_output.setReadOnly(True)
        self.test_output.setMaximumHeight(120)
        self.test_output.setPlaceholderText(self.tr("Checks the chosen backend with the values above."))

        layout = QVBoxLayout(page)
        top = QFormLayout()
        top.addRow(self.tr("Backend"), self.backend_box)
        layout.addLayout(top)
        layout.addWidget(self.ollama_group)
        layout.addWidget(self.openai_group)
        layout.addWidget(self.gemini_group)
        layout.addWidget(self.embedded_group)
        layout.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.test_output)
        if self.score is not None:  # the memory score (issue 42): the last one, and measuring it again
            from .model_score import ScoreRow
            self.score_row = ScoreRow(self.score, self.runner, page)
            layout.addWidget(self.score_row)
        layout.addStretch(1)

    def _update_groups(self) -> None:
        name = self.backend_box.currentData()
        for group, backend in ((self.ollama_group, "ollama"), (self.openai_group, "openai"),
                               (self.gemini_group, "gemini"), (self.embedded_group, "embedded")):
            group.setEnabled(name in ("auto", backend))

    def _show_key_state(self) -> None:
        source = self.secrets.gemini_key_source()
        keyring_ok = self.secrets.keyring_usable()
        self.gemini_key.setEnabled(keyring_ok)
        self.openai_key.setEnabled(keyring_ok)
        if not keyring_ok and not source:
            self.gemini_key_state.setText(self.tr(
                "This computer has no OS keyring, so monchat cannot store a key (it never writes keys to its "
                "files). Set the environment variable GEMINI_API_KEY to your key where monchat starts (for "
                "example a line `export GEMINI_API_KEY=…` in ~/.profile), then start monchat again."))
            self.remove_key_button.setEnabled(False)
            return
        if source == "keyring":
            text = self.tr("A key is stored in the OS keyring. Type a new one to replace it.")
        elif source:
            text = arg(self.tr("The key comes from the environment variable %1."), source)
        else:
            text = self.tr("No key yet. It will be stored in the OS keyring, never in a file.")
        self.gemini_key_state.setText(text)
        self.remove_key_button.setEnabled(source == "keyring")

    def _choose_model_file(self) -> None:
        dialog = QFileDialog(self, self.tr("Choose a GGUF model file"))
        dialog.setNameFilters([self.tr("GGUF models (*.gguf)"), self.tr("All files (*)")])
        dialog.fileSelected.connect(self.embedded_path.setText)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    # ---- values ----------------------------------------------------------
    def apply(self, s: Settings) -> None:
        """Write the form's backend values into ``s`` (the dialog's copy, checked before it is saved)."""
        s.backend.name = self.backend_box.currentData()
        s.ollama = dataclasses.replace(s.ollama, host=self.ollama_host.text().strip(),
                                       model=self.ollama_model.text().strip(), num_ctx=self.ollama_ctx.value(),
                                       keep_alive=self.ollama_keep.text().strip(), parallel=self.ollama_at_once.value())
        s.gemini = dataclasses.replace(s.gemini, model=self.gemini_model.text().strip())
        s.openai = dataclasses.replace(s.openai, base_url=self.openai_url.text().strip(),
                                       model=self.openai_model.text().strip(), context_length=self.openai_ctx.value(),
                                       json_mode=self.openai_format.value(), parallel=self.openai_at_once.value())
        s.embedded = dataclasses.replace(s.embedded, model_path=self.embedded_path.text().strip(),
                                         n_ctx=self.embedded_ctx.value(), threads=self.embedded_threads.value(),
                                         max_tokens=self.embedded_max.value())

    def problems(self, s: Settings) -> list[str]:
        """What keeps ``s`` from being saved on this page: an empty model name, Gemini without a key."""
        problems = []
        empty = empty_model_names(s)
        if "ollama" in empty:
            problems.append(self.tr("The Ollama model name is empty."))
        if "gemini" in empty:
            problems.append(self.tr("The Gemini model name is empty."))
        if s.backend.name == "gemini" and not (self.gemini_key.text().strip() or self.secrets.gemini_key()):
            problems.append(self.tr("Gemini needs an API key: type one above, or set GEMINI_API_KEY where monchat "
                                    "starts. Gemini is not saved as the backend without one."))
        return problems

    def remove_key(self) -> None:
        try:
            self.secrets.set_gemini_key(None)
        except KnownError as exc:
            self.message.setText(explanation(Failure.from_known(exc)))
        self._show_key_state()

    # ---- test connection ---------------------------------------------------
    def test_connection(self) -> None:
        settings, problems = self.candidate()
        if problems:
            self.test_output.setPlainText("\n".join(problems))
            return
        name = settings.backend.name
        names = list(AUTO_ORDER) if name == "auto" else [name]  # Automatic never asks a cloud: it is not tested
        registry = self._registry(settings)
        self.test_button.setEnabled(False)
        self.test_output.setPlainText(self.tr("Testing…"))
        self.runner.start("test connection", lambda _report: doctor_results(registry, names),
                          on_finished=self._tested, on_failed=self._test_failed)

    def _registry(self, settings: Settings) -> BackendRegistry:
        """Backends built from the form's values and typed keys (nothing is stored)."""
        return self.backends.trial(settings, TypedKeys(self.gemini_key.text().strip(), self.openai_key.text().strip()))

    # ---- models: list and pull (core does the work, on a worker thread) ------------
    def _ollama_for_pull(self, name: str):
        """An Ollama backend for ``name`` built from the form's values (for ``PullControl``)."""
        settings, _problems = self.candidate()
        return self._registry(settings).build("ollama", name)

    def list_models(self, name: str) -> None:
        settings, _problems = self.candidate()
        registry = self._registry(settings)
        field = self.ollama_model if name == "ollama" else self.openai_model
        field.set_busy(True)
        self.runner.start(f"list {name} models", lambda _report: registry.build(name).list_models(),
                          on_finished=lambda models: self._models_listed(field, models),
                          on_failed=lambda failure: self._models_failed(field, failure))

    def _models_listed(self, field: "ModelField", models: list) -> None:
        if not alive(self):
            return
        field.set_models(models)
        self.message.setText(self.tr("%n model(s) found.", "", len(models)) if models else
                             self.tr("The server lists no models."))
        self.models_listed.emit(models)

    def _models_failed(self, field: "ModelField", failure: Failure) -> None:
        if not alive(self):
            return
        field.set_busy(False)
        self.message.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.models_listed.emit([])

    def _tested(self, results: list) -> None:
        if not alive(self):
            return
        automatic = [name for name, _ in results] == list(AUTO_ORDER) and len(results) > 1
        lines, verdict = automatic_lines(results) if automatic else (doctor_lines(results), "")
        self.test_button.setEnabled(True)
        verdict = verdict or (self.tr("Works.") if all(ok for ok, _ in lines) else self.tr("Something needs fixing:"))
        self.test_output.setPlainText(verdict + "\n" + "\n".join(text for _, text in lines))
        self.tested.emit(lines)

    def _test_failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.test_button.setEnabled(True)
        self.test_output.setPlainText(f"{headline(failure)}\n{explanation(failure)}")
        self.tested.emit([(False, failure.message)])


def shown_host() -> str:
    """The address an empty Host field means: ``OLLAMA_HOST`` when set (as the backend reads it), else this computer."""
    try:
        return ollama_host("")
    except KnownError:  # not an address: shown as written (the doctor and the backend say what is wrong)
        return os.environ.get("OLLAMA_HOST", "")
