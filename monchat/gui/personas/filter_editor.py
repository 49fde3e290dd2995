"""The filter persona pool: base (visible, locked), the shipped pool and the user's own.

Also where the two fixed personas are chosen (``settings.flush.fixed_personas``)
and where the random one of the last flush is shown.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (QComboBox, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPlainTextEdit,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

from ...core.errors import KnownError
from ...core.flush.service import FlushService
from ...core.vocabulary.states import FilterRole
from ...core.personas.library import BASE_FILTER_ID, FilterPersona, FilterTexts, PersonaRegistry, remove_filter_persona
from ...core.settings import Settings, save_settings
from ..failures import explanation, headline
from ..kit.confirm import ask_yes_no
from ..kit.lifetime import alive as _alive
from .editor import PersonaEditor
from ..translation import arg, ui_language
from ..kit.workers import Failure, TaskRunner


class FixedPersonaPicker(QWidget):
    """Two combo boxes choosing the fixed filter personas from the pool."""

    def __init__(self, personas: PersonaRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.personas = personas
        self.boxes = [QComboBox(self), QComboBox(self)]
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for box in self.boxes:
            row.addWidget(box, 1)
        self.reload([])

    def reload(self, selected: list[str]) -> None:
        for position, box in enumerate(self.boxes):
            box.clear()
            box.addItem(self.tr("(none)"), "")
            for persona in self.personas.pool():
                box.addItem(persona.texts(ui_language()).name, persona.id)
            wanted = selected[position] if position < len(selected) else ""
            box.setCurrentIndex(max(box.findData(wanted), 0))

    def value(self) -> list[str]:
        return [box.currentData() for box in self.boxes if box.currentData()]

    def problem(self) -> str:
        """Why the choice cannot be saved ("" when it can)."""
        chosen = self.value()
        if len(chosen) != len(set(chosen)):
            return self.tr("Choose two different personas.")
        return ""


def last_random_persona(flush: FlushService) -> str:
    """The random persona of the last flush run, or "" (none has run, or the plan cannot be read)."""
    try:
        runs = flush.runs(1)  # not plan(): that also asks the backend its model's size
    except KnownError:
        return ""
    last = runs[0] if runs else None
    if not last:
        return ""
    for entry in last.get("personas", []) or []:
        if isinstance(entry, dict) and entry.get("role") == FilterRole.RANDOM:
            return str(entry.get("id", ""))
    return str(last.get("random", "") or "")


class FilterPersonaDialog(PersonaEditor):
    """List, edit, add and remove filter personas; choose the fixed two.

    Signals:
        personas_changed(): a persona was saved or removed, or the fixed two changed.
    """

    def __init__(self, personas: PersonaRegistry, settings: Settings, settings_path: Path, flush: FlushService,
                 runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(personas, parent)
        self.settings = settings
        self.settings_path = settings_path
        self.flush = flush
        self.runner = runner
        self.setWindowTitle(self.tr("Filter personas"))
        self.resize(820, 600)

        self.locked_label = QLabel(self.tr("Base is locked: it reads at every flush and picks only the skeleton "
                                           "of the day. Copy its ideas into a new persona to change them."),
                                   self)
        self.locked_label.setWordWrap(True)
        self.talent_edit = QLineEdit(self)
        self.picks_edit = QPlainTextEdit(self)
        self.ignores_edit = QPlainTextEdit(self)
        for edit in (self.picks_edit, self.ignores_edit):
            edit.setPlaceholderText(self.tr("One per line"))
            edit.setMaximumHeight(110)
        self.max_items = QSpinBox(self)
        self.max_items.setRange(0, 3)
        self.style_box = QComboBox(self)
        self.style_box.addItem(self.tr("timeline (fades with time)"), "timeline")
        self.style_box.addItem(self.tr("reinforced (strengthens with repetition)"), "reinforced")
        self.instructions_edit = QPlainTextEdit(self)
        self.instructions_edit.setMaximumHeight(90)
        form = self.form  # Id and Name come first (personas/editor.py)
        form.addRow(self.tr("Talent"), self.talent_edit)
        form.addRow(self.tr("Picks up"), self.picks_edit)
        form.addRow(self.tr("Ignores"), self.ignores_edit)
        form.addRow(self.tr("At most (items per flush)"), self.max_items)
        form.addRow(self.tr("Style"), self.style_box)
        form.addRow(self.tr("Extra instructions"), self.instructions_edit)

        fixed_group = QGroupBox(self.tr("At each flush: Base always reads, the two you choose here read, and one more "
                                      "is picked for that flush"), self)
        fixed_group.setToolTip(self.tr("The two you choose are the “fixed” personas (flush.fixed_personas); the "
                                       "one picked each time is the “random” one."))
        self.fixed = FixedPersonaPicker(personas, fixed_group)
        self.fixed_save = QPushButton(self.tr("Use these two"), fixed_group)
        self.fixed_save.clicked.connect(self.save_fixed)
        self.last_random = QLabel(fixed_group)
        fixed_col = QVBoxLayout(fixed_group)
        fixed_row = QHBoxLayout()
        fixed_row.addWidget(self.fixed, 1)
        fixed_row.addWidget(self.fixed_save)
        fixed_col.addLayout(fixed_row)
        fixed_col.addWidget(self.last_random)
        self.arrange([], above_form=self.locked_label, below=fixed_group)
        self.reload()
        self._load_last_random()

    # ---- list ------------------------------------------------------------
    def known(self) -> dict:
        return self.personas.filters

    def blank(self) -> FilterPersona:
        return FilterPersona(id="", name="", talent="", picks=[], ignores=[])

    def taken_text(self, persona_id: str) -> str:
        return arg(self.tr("There is already a filter persona with the id %1."), persona_id)

    def store(self, persona: FilterPersona) -> None:
        self.personas.save_filter(persona)  # the registry refuses the base persona even if Save were pressed

    def reload(self, select: str = "") -> None:
        registry = self.personas
        select = select or (self.current_id() if self.list.currentItem() else BASE_FILTER_ID)
        ordered = ([registry.filters[BASE_FILTER_ID]] if BASE_FILTER_ID in registry.filters else []) + registry.pool()
        self.show_list([(persona.texts(ui_language()).name + ("  " + self.tr("(locked)") if persona.locked else ""),
                         persona.id, "") for persona in ordered], select)
        self.fixed.reload(list(self.settings.flush.fixed_personas))

    def _selected(self, *_args) -> None:
        self._new = None
        self._fill(self.personas.filters.get(self.current_id()))

    def _fill(self, persona: FilterPersona | None) -> None:
        locked = bool(persona and persona.locked)
        self.locked_label.setVisible(locked)
        self.set_persona_id(persona.id if persona else "")
        shown = persona.texts(ui_language()) if persona else None
        self.name_edit.setText(shown.name if shown else "")
        self.talent_edit.setText(shown.talent if shown else "")
        self.picks_edit.setPlainText("\n".join(shown.picks) if shown else "")
        self.ignores_edit.setPlainText("\n".join(shown.ignores) if shown else "")
        self.max_items.setValue(persona.max_items if persona else 3)
        self.style_box.setCurrentIndex(max(self.style_box.findData(persona.style if persona else "reinforced"), 0))
        self.instructions_edit.setPlainText(persona.instructions if persona else "")
        for widget in (self.name_edit, self.talent_edit):
            widget.setReadOnly(locked)
        for widget in (self.picks_edit, self.ignores_edit, self.instructions_edit):
            widget.setReadOnly(locked)
        self.max_items.setReadOnly(locked)
        self.style_box.setEnabled(not locked)
        self.save_button.setEnabled(not locked)
        self.save_button.setToolTip(self.tr("Base is locked.") if locked else "")
        own = persona is not None and self.personas.is_users_filter(persona.id)
        self.delete_button.setEnabled(own)
        self.delete_button.setToolTip(self.tr("Delete this filter persona (what it found stays in memory)") if own
                                      else self.tr("Only filter personas you made or changed can be deleted."))
        self.show_start(self.name_edit, self.talent_edit)
        self.message.clear()

    # ---- saving ----------------------------------------------------------
    def persona_from_form(self) -> FilterPersona:
        """The form as a persona. Texts the user changed become the persona's own (what the model reads,
        translations dropped); texts left as shown keep the persona's languages as they were."""
        lines = lambda edit: [s.strip() for s in edit.toPlainText().splitlines() if s.strip()]  # noqa: E731
        texts = FilterTexts(self.name_edit.text().strip(), self.talent_edit.text().strip(),
                            lines(self.picks_edit), lines(self.ignores_edit))
        persona = FilterPersona(id=self.persona_id(), name=texts.name, talent=texts.talent,
                                picks=texts.picks, ignores=texts.ignores, max_items=self.max_items.value(),
                                style=self.style_box.currentData(), instructions=self.instructions_edit.toPlainText())
        old = None if self._new is not None else self.personas.filters.get(persona.id)
        if old is not None and old.texts(ui_language()) == texts:
            persona.name, persona.talent, persona.picks, persona.ignores = old.name, old.talent, old.picks, old.ignores
            persona.translations = old.translations
        return persona

    def delete_selected(self, confirmed: bool = False) -> QMessageBox | None:
        """Delete the user's filter persona after a (non-blocking) question; returns the question box."""
        persona = self.personas.filters.get(self.current_id())
        if persona is None:
            return None
        if not confirmed:
            return ask_yes_no(self, QMessageBox.Icon.Question, self.tr("Delete"),
                              arg(self.tr("Delete the filter persona %1? What it found stays in memory."),
                                  persona.texts(ui_language()).name),
                              lambda: self.delete_selected(confirmed=True))
        self.remove(persona.id)
        return None

    def remove(self, persona_id: str) -> bool:
        """Delete the filter persona now (after the question); False when it is refused, said in words."""
        persona = self.personas.filters.get(persona_id)
        name = persona.texts(ui_language()).name if persona else persona_id
        try:
            fixed_changed = remove_filter_persona(self.personas, self.settings.flush, persona_id)
        except KnownError as exc:
            self._error(f"{headline(Failure.from_known(exc))}\n{explanation(Failure.from_known(exc))}")
            return False
        if fixed_changed and not self._save_settings():
            return False
        self.reload(BASE_FILTER_ID)
        self.message.setText(arg(self.tr("Deleted %1."), name))
        self.personas_changed.emit()
        return True

    def save_fixed(self) -> bool:
        problem = self.fixed.problem()
        if problem:
            self._error(problem)
            return False
        self.settings.flush.fixed_personas = self.fixed.value()
        if not self._save_settings():
            return False
        self.message.setText(self.tr("Your two personas are saved."))
        self.personas_changed.emit()
        return True

    def _save_settings(self) -> bool:
        try:
            save_settings(self.settings, self.settings_path)
        except KnownError as exc:  # a full disk or a read-only folder: said here, not a crash
            self._error(f"{headline(Failure.from_known(exc))}\n{explanation(Failure.from_known(exc))}")
            return False
        return True

    def _error(self, text: str) -> None:
        self.message.setText(text)

    # ---- last run --------------------------------------------------------
    def _load_last_random(self) -> None:
        flush = self.flush
        self.last_random.setText(self.tr("Looking up the last flush…"))
        self.runner.start("last random persona", lambda _report: last_random_persona(flush),
                          on_finished=self._show_last_random, on_failed=self._last_random_failed)

    def _show_last_random(self, persona_id: str) -> None:
        if not _alive(self):
            return
        if not persona_id:
            self.last_random.setText(self.tr("No flush has run yet."))
            return
        persona = self.personas.filters.get(persona_id)
        self.last_random.setText(arg(self.tr("Picked at the last flush: %1"),
                                     persona.texts(ui_language()).name if persona else persona_id))

    def _last_random_failed(self, failure: Failure) -> None:
        if _alive(self):
            self.last_random.setText(headline(failure))
