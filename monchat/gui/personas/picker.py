"""The toolbar's persona picker: who you are talking to.

It lists the chat personas by name (each one's description as its tooltip) and keeps settings.toml's chat persona
as the one chosen; the main window saves the settings and shows the greeting when ``picked`` says so.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QComboBox, QWidget


class PersonaPicker(QComboBox):
    """The chat personas, the chosen one the settings' ``chat.persona``.

    Signals:
        picked(str): the user chose another persona; it is set in the chat settings (not saved yet).
    """

    picked = Signal(str)

    def __init__(self, personas, settings, parent: QWidget | None = None) -> None:
        """``personas``: the persona registry (``App.personas``); ``settings``: read and set at ``chat.persona``."""
        super().__init__(parent)
        self.personas, self.settings = personas, settings
        self.setToolTip(QCoreApplication.translate("MainWindow", "Who you are talking to"))
        self.currentIndexChanged.connect(self._chosen)

    def persona_id(self) -> str:
        """The persona shown (the settings' one until the list is filled)."""
        return self.currentData() or self.settings.chat.persona

    def reload(self) -> None:
        """List the chat personas again, keeping the one shown (or the settings' one, when it was deleted);
        ``currentIndexChanged`` is not emitted."""
        current = self.currentData()
        if current not in self.personas.surface:  # none yet, or the one shown was deleted
            current = self.settings.chat.persona
        self.blockSignals(True)
        self.clear()
        for persona in sorted(self.personas.surface.values(), key=lambda p: p.name):
            self.addItem(persona.name, persona.id)
            self.setItemData(self.count() - 1, persona.description, Qt.ItemDataRole.ToolTipRole)
        self.setCurrentIndex(max(self.findData(current), 0))
        self.blockSignals(False)

    def _chosen(self, _index: int) -> None:
        persona_id = self.currentData()
        if not persona_id or persona_id == self.settings.chat.persona:
            return
        self.settings.chat.persona = persona_id
        self.picked.emit(persona_id)
