"""Help → A model for this computer…: the first start's offer of a better embedded model, any time later."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction


class ModelHelp:
    """Adds the Help menu's entry to ``window`` and opens the offer (``settings/model_offer.py``) when chosen."""

    def __init__(self, window) -> None:
        self.window = window
        action = QAction(QCoreApplication.translate("ModelHelp", "A model for this computer…"), window)
        action.triggered.connect(self.open_model_offer)
        help_menu = window.menuBar().actions()[-1].menu()  # Help is the last menu (_build_help_menu)
        help_menu.insertAction(window.about_action, action)
        self.action = action

    def open_model_offer(self):
        """The offer for the model this machine runs comfortably, whether or not it is here already."""
        from ...core.models.machine import recommend, this_machine
        from .model_offer import ModelOffer
        machine = this_machine()
        app = self.window.app
        dialog = ModelOffer(app.models, app.paths.data_dir, self.window.runner, recommend(machine), machine, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.window.dialogs.append(dialog)
        dialog.show()
        return dialog
