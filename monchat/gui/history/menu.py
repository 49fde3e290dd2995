"""The File menu: search (Ctrl+F), import, export, memory in and out, back up and restore — history you can find
and bring along.

The main window hands ``FileMenu`` the File menu (``window_menus.py`` makes it first, as in every desktop app),
the services its dialogs use and its ``OpenDialogs``; the dialogs live in ``history/search_dialog.py``,
``history/transfer_dialogs.py`` and ``history/memory_transfer.py``.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget


class FileMenu(QObject):
    """The File menu's actions and the dialogs they open (``window.file_menu``).

    Signals:
        history_imported: a history import finished: the chat, the gate and the meter are read again.
        memory_imported: memories were imported: the context meter is counted again.
        review_queue_requested: the memory import's "Open review queue (N)" was clicked.
    """

    history_imported = Signal()
    memory_imported = Signal()
    review_queue_requested = Signal()

    def __init__(self, menu: QMenu, *, logbook, archive, transfer, gate: Callable, paths, runner, dialogs,
                 persona_name: Callable[[str], str], parent: QWidget) -> None:
        """``transfer``: a function that returns the transfer service (built when a dialog opens); ``gate``: reads
        the flush gate (``ChatService.gate``)."""
        super().__init__(parent)
        self.menu, self.parent_widget = menu, parent
        self.logbook, self.archive, self.transfer, self.gate, self.paths = logbook, archive, transfer, gate, paths
        self.runner, self.dialogs, self.persona_name = runner, dialogs, persona_name
        self.search_action = self._action(QCoreApplication.translate("FileMenu", "Search…"), self.open_search,
                                          QKeySequence.StandardKey.Find)
        self.menu.addSeparator()
        self.import_action = self._action(QCoreApplication.translate("FileMenu", "Import…"), self.open_import)
        self.export_action = self._action(QCoreApplication.translate("FileMenu", "Export…"), self.open_export)
        self.menu.addSeparator()
        self.memory_import_action = self._action(QCoreApplication.translate("FileMenu", "Import memory…"),
                                                 self.open_memory_import)
        self.memory_export_action = self._action(QCoreApplication.translate("FileMenu", "Export memory…"),
                                                 self.open_memory_export)
        self.menu.addSeparator()
        self.backup_action = self._action(QCoreApplication.translate("FileMenu", "Back up and restore…"),
                                          self.open_backup)

    def _action(self, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self.parent_widget)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        self.menu.addAction(action)
        return action

    def open_search(self):
        from ...core.logs.search import SearchService
        from .search_dialog import SearchDialog
        return self.dialogs.open(SearchDialog(SearchService(self.logbook, self.archive), self.persona_name,
                                              self.runner, self.parent_widget),
                                 modal=False)  # beside the chat, as Memory is

    def open_import(self):
        from .transfer_dialogs import ImportDialog
        dialog = ImportDialog(self.transfer(), self.gate, self.runner, self.parent_widget)
        dialog.imported.connect(lambda _report: self.history_imported.emit())
        return self.dialogs.open(dialog)

    def open_export(self):
        from .transfer_dialogs import ExportDialog
        return self.dialogs.open(ExportDialog(self.transfer(), self.runner, self.parent_widget))

    def open_memory_import(self):
        from .memory_transfer import MemoryImportDialog
        dialog = MemoryImportDialog(self.transfer(), self.runner, self.parent_widget)
        dialog.imported.connect(lambda _report: self.memory_imported.emit())  # as the review queue does after a change
        dialog.review_requested.connect(self.review_queue_requested)
        return self.dialogs.open(dialog)

    def open_memory_export(self):
        from .memory_transfer import MemoryExportDialog
        return self.dialogs.open(MemoryExportDialog(self.transfer(), self.runner, self.parent_widget))

    def open_backup(self):
        from .transfer_dialogs import BackupDialog
        return self.dialogs.open(BackupDialog(self.paths, self.runner, self.parent_widget))
