"""Help → A model for this computer…: the first start's offer of a better embedded model, any time later."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget


class ModelHelp:
    """Adds the Help menu's entry (before ``before``) and opens the offer (``settings/model_offer.py``) when chosen."""

    def __init__(self, help_menu: QMenu, before: QAction, *, models, data_dir, runner, dialogs,
                 parent: QWidget) -> None:
        """``models``: returns the model catalog's service (``App.models``); ``data_dir``: where models go."""
        self.models, self.data_dir, self.runner, self.dialogs, self.parent = models, data_dir, runner, dialogs, parent
        action = QAction(QCoreApplication.translate("ModelHelp", "A model for this computer…"), parent)
        action.triggered.connect(self.open_model_offer)
        help_menu.insertAction(before, action)
        self.action = action

    def open_model_offer(self):
        """The offer for the model this machine runs comfortably, whether or not it is here already."""
        from ...core.models.machine import recommend, this_machine
        from .model_offer import ModelOffer
        machine = this_machine()
        dialog = ModelOffer(self.models(), self.data_dir, self.runner, recommend(machine), machine, self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialogs.keep(dialog)
        dialog.show()
        return dialog
