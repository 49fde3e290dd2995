"""The main window's actions, menus and toolbar: Chat, Memory, Personas, Settings, File, Help.

``build_menus`` makes them once for ``MainWindow`` and sets each action on the window (``window.flush_action``…),
so the rest of the window and the tests reach them by name. The words keep the window's translation context
("MainWindow"). Help is the last menu: ``build_help_menu`` runs after every other part added its menu, and
Help → monchat Help… and A model for this computer… add themselves to it (``user_guide.py``,
``settings/model_help.py``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QToolBar

from .chat.turn_actions import ActionReasons
from .window_frame import size_persona_box


def _action(window, text: str, slot, shortcut: str | QKeySequence | None = None) -> QAction:
    act = QAction(text, window)
    act.triggered.connect(slot)
    if shortcut:
        act.setShortcut(QKeySequence(shortcut))
    return act


def build_menus(window) -> None:
    """The actions (each also an attribute of ``window``), the menus that hold them and the toolbar."""
    w, turns = window, window.turns
    w._reasons = ActionReasons(w)
    w.regenerate_action = _action(w, QCoreApplication.translate("MainWindow", "Regenerate reply"), turns.regenerate,
                                  "Ctrl+R")
    w.edit_action = _action(w, QCoreApplication.translate("MainWindow", "Edit last message"), turns.begin_edit_last,
                            "Ctrl+E")
    w.stop_action = _action(w, QCoreApplication.translate("MainWindow", "Stop"), turns.stop, "Esc")
    w.flush_action = _action(w, QCoreApplication.translate("MainWindow", "Flush…"), w.open_flush)
    w.memory_action = _action(w, QCoreApplication.translate("MainWindow", "Memory…"), w.open_memory)
    w.queue_action = _action(w, QCoreApplication.translate("MainWindow", "Review queue…"), w.open_review_queue)
    w.inbox_action = _action(w, QCoreApplication.translate("MainWindow", "Inbox: insights, diary, interests…"),
                             w.open_inbox)
    w.surface_action = _action(w, QCoreApplication.translate("MainWindow", "Chat personas…"),
                               w.open_surface_personas)
    w.filter_action = _action(w, QCoreApplication.translate("MainWindow", "Filter personas…"),
                              w.open_filter_personas)
    w.settings_action = _action(w, QCoreApplication.translate("MainWindow", "Settings…"), w.open_settings)
    w.settings_action.setShortcuts([QKeySequence("Ctrl+,"), QKeySequence(QKeySequence.StandardKey.Preferences)])
    w.quit_action = _action(w, QCoreApplication.translate("MainWindow", "Quit"), w.close,
                            QKeySequence.StandardKey.Quit)
    w.send_key_action = QAction(QCoreApplication.translate("MainWindow", "Ctrl+Enter sends"), w)
    w.send_key_action.setCheckable(True)
    w.send_key_action.setToolTip(QCoreApplication.translate(
        "MainWindow", "On: Enter adds a line and Ctrl+Enter sends. Off: Enter sends and Shift+Enter adds a line."))
    w.send_key_action.toggled.connect(w.set_ctrl_enter_sends)

    menu = w.menuBar()
    chat_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Chat"))
    for act in (w.regenerate_action, w.edit_action, w.stop_action):
        chat_menu.addAction(act)
    chat_menu.addSeparator()
    chat_menu.addAction(w.send_key_action)
    chat_menu.addSeparator()
    chat_menu.addAction(w.quit_action)
    memory_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Memory"))
    for act in (w.flush_action, w.memory_action, w.queue_action, w.inbox_action):
        memory_menu.addAction(act)
    persona_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Personas"))
    persona_menu.addActions([w.surface_action, w.filter_action])
    settings_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Settings"))
    settings_menu.addAction(w.settings_action)
    from .history.menu import FileMenu
    w.file_menu = FileMenu(w)  # File: search (Ctrl+F), import, export, back up and restore
    from .chat.your_controls import YourControls
    w.controls = YourControls(w)  # off the record, pause memory, never remember (gui/chat/your_controls.py)

    bar = QToolBar(QCoreApplication.translate("MainWindow", "Main"), w)
    bar.setObjectName("main_toolbar")
    bar.setMovable(False)
    bar.addWidget(QLabel(QCoreApplication.translate("MainWindow", "Persona:") + " ", bar))
    size_persona_box(w.persona_box)  # as wide as the frame's (window_frame.py): the buttons stay where they were
    bar.addWidget(w.persona_box)
    bar.addSeparator()
    for act in (w.regenerate_action, w.edit_action, w.flush_action, w.memory_action, w.settings_action):
        bar.addAction(act)
    w.addToolBar(bar)


def build_help_menu(window) -> None:
    """Help, the last menu (after any other part adds its own)."""
    window.about_action = QAction(QCoreApplication.translate("MainWindow", "About monchat"), window)
    window.about_action.triggered.connect(window.open_about)
    window.menuBar().addMenu(QCoreApplication.translate("MainWindow", "&Help")).addAction(window.about_action)
