"""The one persona editor both persona windows are built on: a list of personas beside a form.

Under the list: New, the editor's own buttons and Delete… (one word in both windows; it asks first); the form
starts with Name and, under it, a small note of a new persona's id (made from the name, ``kit/ids.py``: never a
field to type in; an existing persona's id never changes and is not shown); under the form Save persona and a
message line; Close at the bottom. ``save_current`` is the one save: the form as a persona, an id already
taken refused for a new one, the registry's refusal said in words, then the list again with the saved persona
chosen. A subclass adds its own rows and says what its
personas are (``known``), how an empty one looks (``blank``), how the form is filled and read, and
how one is stored.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QSplitter, QVBoxLayout, QWidget)

from ...core.errors import KnownError
from .words import persona_error_text
from ..kit.ids import follow_name, id_from_name
from ..translation import arg


class PersonaEditor(QDialog):
    """The list, the form's Id and Name rows and the save; ``form`` takes the subclass's rows.

    Signals:
        personas_changed(): a persona was saved, imported or removed.
    """

    personas_changed = Signal()

    def __init__(self, personas, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.personas = personas
        self._new = None  # the persona being made, not saved yet (None: the list's choice is edited)
        self.list = QListWidget(self)
        self.list.currentItemChanged.connect(self._selected)
        self.new_button = QPushButton(self.tr("New"), self)
        self.new_button.clicked.connect(self.new_persona)
        self.delete_button = QPushButton(self.tr("Delete…"), self)  # one word in both persona windows; it asks first
        self.delete_button.clicked.connect(lambda: self.delete_selected())
        self._id = ""  # the persona's id: made from the name for a new one, never typed
        self.name_edit = QLineEdit(self)
        self.id_note = QLabel(self)  # a new persona's id, as a small note under the name (it names its file)
        self.id_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.id_note.setToolTip(self.tr("Made from the name when the persona is new; it names the persona's file "
                                        "and never changes."))
        font = self.id_note.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.id_note.setFont(font)
        follow_name(self.name_edit, self.set_persona_id, self.known, lambda: self._new is not None)
        self.form = QFormLayout()
        self.form.addRow(self.tr("Name"), self.name_edit)
        self.form.addRow("", self.id_note)
        self.save_button = QPushButton(self.tr("Save persona"), self)
        self.save_button.clicked.connect(self.save_current)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def arrange(self, buttons: list[QPushButton], above_form: QWidget | None = None,
                below: QWidget | None = None) -> None:
        """Lay the dialog out once the subclass's rows are in ``form``.

        Args:
            buttons: under the list, between New and Delete….
            above_form: a note over the form (the form then keeps its height and the column ends in space);
                without one the form takes the height.
            below: a widget between the list and form and the Close button.
        """
        left = QWidget(self)
        left_col = QVBoxLayout(left)
        left_col.setContentsMargins(0, 0, 0, 0)
        left_col.addWidget(self.list, 1)
        row = QHBoxLayout()
        for button in (self.new_button, *buttons, self.delete_button):
            row.addWidget(button)
        left_col.addLayout(row)
        right = QWidget(self)
        right_col = QVBoxLayout(right)
        right_col.setContentsMargins(0, 0, 0, 0)
        if above_form is not None:
            right_col.addWidget(above_form)
        right_col.addLayout(self.form, 0 if above_form is not None else 1)
        right_col.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignRight)
        right_col.addWidget(self.message)
        if above_form is not None:
            right_col.addStretch(1)
        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        if below is not None:
            layout.addWidget(below)
        layout.addWidget(close)

    # ---- the id ------------------------------------------------------------------
    def set_persona_id(self, persona_id: str) -> None:
        self._id = persona_id
        new = self._new is not None  # an existing persona's id is its file's name, nothing a user needs to see
        self.id_note.setText(arg(self.tr("Saved as: %1"), persona_id) if persona_id and new else "")
        self.id_note.setVisible(new)

    def persona_id(self) -> str:
        """The persona's id; a new persona without a name yet gets one too, so only the name is asked for."""
        if self._new is not None and not self._id:
            return id_from_name(self.name_edit.text(), set(self.known()))
        return self._id

    @staticmethod
    def show_start(*edits: QLineEdit) -> None:
        """Filled one-line fields show their beginning (``setText`` leaves the cursor, and the view, at the end)."""
        for edit in edits:
            edit.setCursorPosition(0)

    # ---- what a subclass says -----------------------------------------------
    def known(self) -> dict:
        """The personas of this editor by id."""
        raise NotImplementedError

    def blank(self):
        """A new persona with nothing filled in yet."""
        raise NotImplementedError

    def _fill(self, persona) -> None:
        raise NotImplementedError

    def persona_from_form(self):
        raise NotImplementedError

    def store(self, persona) -> None:
        """Save ``persona`` through the registry (raises ``KnownError`` when it refuses)."""
        raise NotImplementedError

    def delete_selected(self, confirmed: bool = False):
        """Delete the chosen persona of the user's after a (non-blocking) question; returns the question box."""
        raise NotImplementedError

    def taken_text(self, persona_id: str) -> str:
        """The words for a new persona whose id is taken."""
        raise NotImplementedError

    # ---- the list --------------------------------------------------------------
    def show_list(self, rows: list[tuple[str, str, str]], select: str) -> None:
        """The list anew from ``(label, id, tooltip)`` rows, ``select`` chosen (else the first row)."""
        self.list.blockSignals(True)
        self.list.clear()
        for label, persona_id, tooltip in rows:
            item = QListWidgetItem(label, self.list)
            item.setData(Qt.ItemDataRole.UserRole, persona_id)
            if tooltip:
                item.setToolTip(tooltip)
        self.list.blockSignals(False)
        ids = [persona_id for _label, persona_id, _tip in rows]
        self.list.setCurrentRow(ids.index(select) if select in ids else 0)
        self._selected()

    def current_id(self) -> str:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else ""

    def _selected(self, *_args) -> None:
        if self.list.currentItem() is None:
            return
        self._new = None
        self._fill(self.known().get(self.current_id()))

    def reload(self, select: str = "") -> None:
        raise NotImplementedError

    def new_persona(self) -> None:
        self._new = self.blank()
        self.list.clearSelection()
        self._fill(self._new)
        self.name_edit.setFocus()  # the id follows the name (kit/ids.py)

    # ---- saving ----------------------------------------------------------------
    def save_current(self) -> bool:
        """Save the form; what the registry refuses is said under the form, and nothing changes."""
        persona = self.persona_from_form()
        if self._new is not None and persona.id in self.known():
            self.message.setText(self.taken_text(persona.id))
            return False
        try:
            self.store(persona)
        except KnownError as exc:
            self.message.setText(persona_error_text(exc))
            return False
        self._new = None
        self.reload(persona.id)
        self.message.setText(self.tr("Saved."))
        self.personas_changed.emit()
        return True
