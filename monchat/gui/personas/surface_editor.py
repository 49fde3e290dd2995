"""Surface personas: list, edit, create, and import SillyTavern character cards."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QLabel, QLineEdit, QMessageBox,
                               QPlainTextEdit, QPushButton, QWidget)

from ...core.personas.cards import import_card, save_card
from ...core.errors import KnownError
from ...core.personas.library import PersonaRegistry, SurfacePersona, remove_surface_persona
from ...core.settings import ChatSettings
from ..kit.confirm import ask_yes_no
from ..failures import explanation, headline
from .editor import PersonaEditor
from .words import persona_error_text
from ..translation import arg
from ..kit.workers import Failure


class SurfacePersonaDialog(PersonaEditor):
    """Edit the personas the user talks to.

    Signals:
        personas_changed(): a persona was saved, imported or deleted.
        chat_persona_changed(): the persona chat talked with was deleted; chat went back to the default
            one (the settings need saving).
    """

    chat_persona_changed = Signal()

    def __init__(self, personas: PersonaRegistry, current_persona: str, parent: QWidget | None = None, *,
                 chat: ChatSettings | None = None) -> None:
        """Args:
            chat: the chat settings, so deleting the persona chat talks with falls back to the default.
        """
        super().__init__(personas, parent)  # self._new: an imported or new persona not saved yet
        self.chat = chat if chat is not None else ChatSettings(persona=current_persona)
        self.setWindowTitle(self.tr("Chat personas"))
        self.resize(820, 620)
        self.import_button = QPushButton(self.tr("Import card…"), self)
        self.import_button.setToolTip(self.tr("A SillyTavern character card (V2/V3) as JSON or PNG"))
        self.import_button.clicked.connect(self.choose_card)

        self.description_edit = QLineEdit(self)
        self.system_edit = QPlainTextEdit(self)
        self.system_edit.setPlaceholderText(self.tr("Who the persona is and how it talks"))
        self.template_note = QLabel(self)
        self.template_note.setWordWrap(True)
        self.greeting_edit = QPlainTextEdit(self)
        self.greeting_edit.setMaximumHeight(70)
        self.temperature = QDoubleSpinBox(self)
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        self.language_box = QComboBox(self)
        self.language_box.addItem("日本語", "ja")
        self.language_box.addItem("English", "en")
        self.read_at_flush = QCheckBox(self.tr("Read its conversations at a flush (off for role-play: "
                                               "nothing said here becomes a memory)"), self)
        self.receives_memory = QCheckBox(self.tr("Send it your memory (what monchat remembers about you)"), self)
        self.notes = QLabel(self)
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = self.form  # Id and Name come first (personas/editor.py)
        form.addRow(self.tr("Description"), self.description_edit)
        form.addRow(self.tr("System text"), self.system_edit)
        form.addRow("", self.template_note)
        form.addRow(self.tr("Greeting"), self.greeting_edit)
        form.addRow(self.tr("Temperature"), self.temperature)
        form.addRow(self.tr("Language"), self.language_box)
        form.addRow(self.tr("Memory"), self.read_at_flush)
        form.addRow("", self.receives_memory)
        form.addRow(self.tr("Creator's notes"), self.notes)
        self.arrange([self.import_button])
        self.reload(current_persona)

    # ---- list ------------------------------------------------------------
    def known(self) -> dict:
        return self.personas.surface

    def blank(self) -> SurfacePersona:
        return SurfacePersona(id="", name="", system="")

    def taken_text(self, persona_id: str) -> str:
        return arg(self.tr("There is already a persona with the id %1."), persona_id)

    def store(self, persona: SurfacePersona) -> None:
        self.personas.save_surface(persona)

    def reload(self, select: str = "") -> None:
        self.show_list([(persona.name, persona.id, persona.description)
                        for persona in sorted(self.personas.surface.values(), key=lambda p: p.name)], select)

    def _fill(self, persona: SurfacePersona | None) -> None:
        self.set_persona_id(persona.id if persona else "")
        self.name_edit.setText(persona.name if persona else "")
        self.description_edit.setText(persona.description if persona else "")
        self.system_edit.setPlainText(persona.system if persona else "")
        uses_template = bool(persona and persona.template and not persona.system)
        self.template_note.setVisible(uses_template)
        self.template_note.setText(arg(
            self.tr("This persona's text comes from the template %1; text written here replaces it."),
            persona.template) if uses_template else "")
        self.greeting_edit.setPlainText(persona.greeting if persona else "")
        self.temperature.setValue(persona.temperature if persona else 0.7)
        self.language_box.setCurrentIndex(max(self.language_box.findData(persona.language if persona else "ja"), 0))
        self.read_at_flush.setChecked(persona.read_at_flush if persona else True)
        self.receives_memory.setChecked(persona.receives_memory if persona else True)
        self.notes.setText(persona.creator_notes if persona and persona.creator_notes else self.tr("(none)"))
        own = persona is not None and self._new is None and self.personas.is_users_surface(persona.id)
        self.delete_button.setEnabled(own)
        self.delete_button.setToolTip(self.tr("Delete this persona (its conversations stay)") if own else
                                      self.tr("Only personas you made or imported can be deleted."))
        self.show_start(self.name_edit, self.description_edit)
        self.message.clear()

    # ---- cards -----------------------------------------------------------
    def choose_card(self) -> None:
        """Ask for a card file (a non-blocking file dialog), then import it."""
        dialog = QFileDialog(self, self.tr("Import a character card"))
        dialog.setNameFilters([self.tr("Character cards (*.png *.json)"), self.tr("All files (*)")])
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda path: self.import_card_file(Path(path)))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def import_card_file(self, path: Path) -> SurfacePersona | None:
        """Read a card and save it as a new surface persona; the form then shows it for editing."""
        try:
            persona = import_card(path, set(self.personas.surface), self.chat.user_name,
                                  self.personas.user_surface_dir)
            save_card(self.personas, persona, path)
        except KnownError as exc:
            failure = Failure.from_known(exc)
            self.message.setText(f"{headline(failure)}\n{explanation(failure)}")
            return None
        self.reload(persona.id)
        self.message.setText(arg(self.tr("Imported %1 from %2."), persona.name, path.name))
        self.personas_changed.emit()
        return persona

    # ---- deleting --------------------------------------------------------
    def delete_selected(self, confirmed: bool = False) -> QMessageBox | None:
        """Delete the user's persona after a (non-blocking) confirmation; returns the question box."""
        persona = self.personas.surface.get(self.current_id())
        if persona is None:
            return None
        if not confirmed:
            return ask_yes_no(self, QMessageBox.Icon.Question, self.tr("Delete"),
                              arg(self.tr("Delete the persona %1? What you said to it stays in the logs and "
                                          "in memory."), persona.name),
                              lambda: self.delete_selected(confirmed=True))
        try:
            chat_changed = remove_surface_persona(self.personas, self.chat, persona.id)
        except KnownError as exc:
            self.message.setText(persona_error_text(exc))
            return None
        self.reload()
        self.message.setText(arg(self.tr("Deleted %1."), persona.name))
        self.personas_changed.emit()
        if chat_changed:
            self.chat_persona_changed.emit()
        return None

    # ---- saving ----------------------------------------------------------
    def persona_from_form(self) -> SurfacePersona:
        base = self._new or self.personas.surface.get(self.current_id()) or SurfacePersona(id="", name="")
        persona = copy.deepcopy(base)
        system = self.system_edit.toPlainText()
        return dataclasses.replace(
            persona, id=self.persona_id(), name=self.name_edit.text().strip(),
            description=self.description_edit.text().strip(), system=system,
            template=persona.template if not system.strip() else "",
            greeting=self.greeting_edit.toPlainText().strip(), temperature=round(self.temperature.value(), 2),
            language=self.language_box.currentData(), read_at_flush=self.read_at_flush.isChecked(),
            receives_memory=self.receives_memory.isChecked())
