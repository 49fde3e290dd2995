"""The File menu: search (Ctrl+F), import, export, memory in and out, back up and restore — history you can find
and bring along.

The main window calls ``add_file_menu(window)`` once; the dialogs live in ``history/search_dialog.py`` and
``history/transfer_dialogs.py`` and are opened through the window's ``_open`` (non-modal, kept alive).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence


class FileMenu:
    """The File menu's actions and the dialogs they open (``window.file_menu``)."""

    def __init__(self, window) -> None:
        self.window = window
        menu_bar = window.menuBar()
        self.menu = menu_bar.addMenu(QCoreApplication.translate("FileMenu", "&File"))
        first = menu_bar.actions()[0] if menu_bar.actions() else None
        if first is not None and first is not self.menu.menuAction():
            menu_bar.insertMenu(first, self.menu)  # File comes first, as in every desktop app
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
        action = QAction(text, self.window)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        self.menu.addAction(action)
        return action

    def open_search(self):
        from ...core.logs.search import SearchService
        from .search_dialog import SearchDialog
        w = self.window
        return w._open(SearchDialog(SearchService(w.app.logbook, w.app.archive), w.persona_name, w.runner, w),
                       modal=False)  # beside the chat, as Memory is

    def open_import(self):
        from .transfer_dialogs import ImportDialog
        w = self.window
        dialog = ImportDialog(w.app.transfer, w.app.chat.gate, w.runner, w)
        dialog.imported.connect(lambda _report: (w.reload_conversation(), w.refresh_gate(), w.refresh_meter()))
        return w._open(dialog)

    def open_export(self):
        from .transfer_dialogs import ExportDialog
        w = self.window
        return w._open(ExportDialog(w.app.transfer, w.runner, w))

    def open_memory_import(self):
        from .memory_transfer import MemoryImportDialog
        w = self.window
        dialog = MemoryImportDialog(w.app.transfer, w.runner, w)
        dialog.imported.connect(lambda _report: w.refresh_meter())  # as the review queue does after a change
        return w._open(dialog)

    def open_memory_export(self):
        from .memory_transfer import MemoryExportDialog
        w = self.window
        return w._open(MemoryExportDialog(w.app.transfer, w.runner, w))

    def open_backup(self):
        from .transfer_dialogs import BackupDialog
        w = self.window
        return w._open(BackupDialog(w.app.paths, w.runner, w))
