"""A yes/no question that never blocks: the box is opened, and ``on_yes`` runs when Yes is clicked."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


def ask_yes_no(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str,
               on_yes: Callable[[], object]) -> QMessageBox:
    """Open a Yes/No question (window-modal, deleted on close); returns the box (tests click it)."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    yes = box.button(QMessageBox.StandardButton.Yes)
    box.buttonClicked.connect(lambda button: button is yes and on_yes())
    box.open()
    return box
