"""Settings: the Model page (``model_page.py``), Chat, Memory (gate, approval, fixed filter personas, other apps,
what reviews taught, your own controls) and Growing memory (``growing.py``).

Values are validated by the same rules as ``settings.toml`` (``settings_from_dict``) and each page's ``problems``
before anything is saved; API keys go to the OS keyring, never a file. Save writes settings.toml first, then
changes the running settings in place (every service shares the object).
"""

from __future__ import annotations

import copy
import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QTabWidget,
                               QVBoxLayout, QWidget)

from ...core.backends.registry import BackendRegistry
from ...core.errors import KnownError
from ...core.memory.learning import ReviewLearning
from ...core.paths import Paths
from ...core.personas.library import PersonaRegistry
from ...core.privacy.secrets import SecretStore
from ...core.settings import Settings, save_settings, settings_from_dict
from ..failures import explanation, headline
from ..kit.pages import scrolled
from ..kit.workers import Failure, TaskRunner
from ..memory.review_learning import ReviewLearningView
from ..personas.filter_editor import FixedPersonaPicker
from ..kit.tab_style import keep_tails
from .chat import ChatPage
from .controls import YourControlsBox
from .growing import GrowingMemoryPage, McpSwitch
from .model_page import ModelPage
from .sync_page import SyncPage

RESTART_SECTIONS = ("backend", "ollama", "openai", "gemini", "embedded")


class SettingsDialog(QDialog):
    """Signals:
        saved(bool): settings were written (and the key stored, if one was typed); True when
            some of them take effect only at the next start.
        tested(list): "Test connection" finished with (ok, line) pairs.
        models_listed(list): "List models" finished with the model names ([] on failure).
        pull_finished(bool): an Ollama pull ended (True: installed; False: cancelled or failed).
    """

    saved, tested, models_listed, pull_finished = Signal(bool), Signal(list), Signal(list), Signal(bool)

    def __init__(self, settings: Settings, paths: Paths, personas: PersonaRegistry, secrets: SecretStore,
                 backends: BackendRegistry, learning: ReviewLearning, runner: TaskRunner,
                 parent: QWidget | None = None, sync=None) -> None:
        """Args:
            settings: the running settings, changed in place on Save (every service shares the object).
            paths: where settings.toml is saved, embedded models go and the MCP access log is read.
            backends: told to forget built backends when a backend setting changed; builds the form's trials.
            learning: what review decisions taught (the Memory page).
        """
        super().__init__(parent)
        self.settings = settings
        self.paths = paths
        self.settings_path = paths.settings_path
        self.personas = personas
        self.secrets = secrets
        self.backends = backends
        self.review_learning = learning
        self.runner = runner
        s = settings
        self.setWindowTitle(self.tr("Settings"))
        self.resize(640, 620)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        tabs = QTabWidget(self)
        from ...app import memory_score  # the memory score measures in scratch folders the root builds (issue 42)
        self.model = ModelPage(s, secrets, backends, paths.models_dir, runner, self.candidate, self.message, self,
                               score=memory_score(paths))
        for signal in ("tested", "models_listed", "pull_finished"):  # said by the dialog, as before the page
            getattr(self.model, signal).connect(getattr(self, signal))
        tabs.addTab(scrolled(self.model), self.tr("Model"))  # long pages scroll: the dialog fits 768 px
        self.chat_page = ChatPage(s, self)  # language, send key, your name (gui/settings/chat.py)
        tabs.addTab(scrolled(self.chat_page), self.tr("Chat"))
        tabs.addTab(scrolled(self._memory_tab(s)), self.tr("Memory"))
        self.growing = GrowingMemoryPage(s, self)  # background, preferences, tiers, graph (gui/settings/growing.py)
        tabs.addTab(scrolled(self.growing), self.tr("Growing memory"))
        self.sync_page = SyncPage.add_to(tabs, sync, self)  # Settings → Sync: the window's BackgroundSync (issue 41)
        self.tabs = tabs
        keep_tails(tabs.tabBar())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)

    # ---- tabs ------------------------------------------------------------
    def _memory_tab(self, s: Settings) -> QWidget:
        page = QWidget(self)
        self.warn_files, self.stop_files = QSpinBox(page), QSpinBox(page)
        for box, value in ((self.warn_files, s.gate.warn_files), (self.stop_files, s.gate.stop_files)):
            box.setRange(1, 100)
            box.setValue(value)
        self.ask_layer1 = QCheckBox(self.tr("Ask me before any change to lasting memory"), page)
        self.ask_layer1.setChecked(s.flush.ask_before_layer1)
        self.fixed = FixedPersonaPicker(self.personas, page)
        self.fixed.reload(list(s.flush.fixed_personas))
        form = QFormLayout(page)
        form.addRow(self.tr("Recommend a flush at (log files)"), self.warn_files)
        form.addRow(self.tr("Pause chat at (log files)"), self.stop_files)
        form.addRow(self.tr("Approval"), self.ask_layer1)
        form.addRow(self.tr("Filter personas you chose"), self.fixed)
        self.fixed.setToolTip(self.tr("They read at every flush, besides Base, which always reads, and one more "
                                      "picked each time (the “fixed” personas: flush.fixed_personas)."))
        self.mcp_switch = McpSwitch.add_to(form, s, page, self.paths.data_dir)  # its access log
        self.learning = ReviewLearningView(self.review_learning, self.runner, page)  # core/memory/learning.py
        form.addRow(self.tr("Learned from your reviews"), self.learning)
        self.controls = YourControlsBox.added_to(form, s, self.personas)  # off the record, never remember
        return page

    # ---- values ----------------------------------------------------------
    def candidate(self) -> tuple[Settings, list[str]]:
        """The settings the form describes, checked by the same rules as settings.toml."""
        s = copy.deepcopy(self.settings)
        s.gate = dataclasses.replace(s.gate, warn_files=self.warn_files.value(), stop_files=self.stop_files.value())
        s.flush = dataclasses.replace(s.flush, ask_before_layer1=self.ask_layer1.isChecked(),
                                      fixed_personas=self.fixed.value())
        for part in (self.model, self.chat_page, self.growing, self.mcp_switch, self.controls):  # pages that write their own
            part.apply(s)
        checked, warnings = settings_from_dict(s.to_dict())
        problems = list(warnings) + self.model.problems(s) + self.growing.problems(s)
        if self.fixed.problem():
            problems.append(self.fixed.problem())
        if s.gate.warn_files > s.gate.stop_files:
            problems.append(self.tr("The flush recommendation must come before chat pauses "
                                    "(warn at most at the pause count)."))
        return checked, problems

    def save(self) -> bool:
        """Validate, save settings.toml, store the key in the keyring. Closes only on success."""
        settings, problems = self.candidate()
        if problems:
            self.message.setText(self.tr("Not saved:") + "\n" + "\n".join(problems))
            return False
        if not self._store_keys(gemini_required=settings.backend.name == "gemini"):
            return False
        old = self.settings
        backend_changed = any(getattr(old, name) != getattr(settings, name) for name in RESTART_SECTIONS)
        restart = settings.chat.language != old.chat.language
        try:  # on disk first: a full disk leaves both the file and the running settings as they were
            save_settings(settings, self.settings_path)
        except KnownError as exc:
            failure = Failure.from_known(exc)
            self.message.setText(self.tr("Not saved:") + "\n" + f"{headline(failure)}\n{explanation(failure)}")
            return False
        for f in dataclasses.fields(Settings):
            setattr(self.settings, f.name, getattr(settings, f.name))  # in place: services share the object
        if backend_changed:
            self.backends.reset()  # built backends keep their old host/model; forgetting them applies the change now
        if self._key_problem:
            self.message.setText(self.tr("The settings were saved, but the key was not:") + "\n"
                                 + self._key_problem)
            self.saved.emit(restart)
            return False
        self.saved.emit(restart)
        self.accept()
        return True

    def _store_keys(self, gemini_required: bool) -> bool:
        """Put typed keys in the OS keyring, before any setting is saved.

        A key the keyring cannot keep stops the save when Gemini would be the backend (else it
        would be saved without a usable key); otherwise the settings are saved and this says why
        the key was not.
        """
        self._key_problem = ""
        for field, store in ((self.model.gemini_key, self.secrets.set_gemini_key),
                             (self.model.openai_key, self.secrets.set_openai_key)):
            key = field.text().strip()
            if not key:
                continue
            try:
                store(key)
            except KnownError as exc:
                failure = Failure.from_known(exc)
                if gemini_required and field is self.model.gemini_key:
                    self.message.setText(self.tr("Not saved:") + "\n" + explanation(failure))
                    return False
                self._key_problem = explanation(failure)
                continue
            field.clear()
        return True
