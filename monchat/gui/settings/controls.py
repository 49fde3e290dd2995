"""Settings → Memory, "Your controls": off the record's hours and the personas that start off it, and the way to
the never-remember rules (``gui/memory/never_dialog.py``; the rules are kept in the database, changed at once).

``apply(settings)`` writes the form into a candidate the dialog checks and saves, as the other pages do.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QListWidget, QListWidgetItem, QPushButton, QSpinBox, QWidget

from ...core.personas.library import PersonaRegistry
from ...core.settings import Settings


class YourControlsBox(QGroupBox):
    def __init__(self, settings: Settings, personas: PersonaRegistry, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Your controls"), parent)
        self.hours = QSpinBox(self)
        self.hours.setRange(1, 24 * 365)
        self.hours.setSuffix(self.tr(" hours"))
        self.hours.setValue(settings.off_record.hours)
        self.hours.setToolTip(self.tr("Messages said off the record are removed this long after they are said."))
        self.starts_off = QListWidget(self)
        self.starts_off.setMaximumHeight(96)
        self.starts_off.setToolTip(self.tr("Chats with a checked persona start off the record (Chat → Off the "
                                           "record turns it on or off for a conversation)."))
        for persona in sorted(personas.surface.values(), key=lambda p: p.name):
            item = QListWidgetItem(persona.name, self.starts_off)
            item.setData(Qt.ItemDataRole.UserRole, persona.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            checked = persona.id in settings.off_record.personas
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        self.never_button = QPushButton(self.tr("Never remember…"), self)
        self.never_button.setToolTip(self.tr("Topics, words or kinds of memory that are never remembered."))
        self.never_button.clicked.connect(self.open_never_remember)
        form = QFormLayout(self)
        form.addRow(self.tr("Remove off-the-record messages after"), self.hours)
        form.addRow(self.tr("Start off the record with"), self.starts_off)
        form.addRow(self.tr("Never remember"), self.never_button)

    @classmethod
    def added_to(cls, form: QFormLayout, settings: Settings, personas: PersonaRegistry) -> "YourControlsBox":
        """A box as the last row of ``form`` (Settings → Memory)."""
        box = cls(settings, personas, form.parentWidget())
        form.addRow(box)
        return box

    def apply(self, settings: Settings) -> None:
        settings.off_record.hours = self.hours.value()
        items = [self.starts_off.item(n) for n in range(self.starts_off.count())]
        settings.off_record.personas = [item.data(Qt.ItemDataRole.UserRole) for item in items
                                        if item.checkState() == Qt.CheckState.Checked]

    def open_never_remember(self):
        """The rules' dialog, through the main window that owns this settings dialog."""
        window = self.window().parentWidget()
        controls = getattr(window, "controls", None)
        return controls.open_never_remember(self.window()) if controls is not None else None
