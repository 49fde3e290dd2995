"""Settings → Chat: the window's language, the send key and the name imported cards call the user."""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from ...core.settings import Settings


class ChatPage(QWidget):
    """The Chat tab; ``apply`` writes its values into a settings copy."""

    def __init__(self, s: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language_box = QComboBox(self)
        self.language_box.addItem(self.tr("Follow the system"), "")
        self.language_box.addItem("日本語", "ja")
        self.language_box.addItem("English", "en")
        self.language_box.setCurrentIndex(max(self.language_box.findData(s.chat.language), 0))
        self.user_name = QLineEdit(s.chat.user_name, self)
        self.user_name.setPlaceholderText(self.tr("What characters from imported cards call you"))
        self.ctrl_enter = QCheckBox(self.tr("Ctrl+Enter sends (Enter adds a line)"), self)
        self.ctrl_enter.setChecked(s.chat.ctrl_enter_sends)
        note = QLabel(self.tr("A language change applies the next time monchat starts."), self)
        note.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow(self.tr("Language"), self.language_box)
        form.addRow("", note)
        form.addRow(self.tr("Sending"), self.ctrl_enter)
        form.addRow(self.tr("Your name"), self.user_name)

    def apply(self, s: Settings) -> None:
        s.chat = dataclasses.replace(s.chat, language=self.language_box.currentData(),
                                     ctrl_enter_sends=self.ctrl_enter.isChecked(), user_name=self.user_name.text().strip())
