"""The main window's menus, their actions and the toolbar: File, Chat, Memory, Personas, Settings, Help.

``MainMenu`` owns every action it makes and says what the user asked for with an intent signal
(``…_requested``); it calls nothing of the window's. The main window connects those signals in its one wiring
block (novelWriter's ``GuiMainMenu``). Parts that add entries of their own are handed the menu they go in:
the File menu's entries (``history/menu.py``), your controls in Chat and Memory (``chat/your_controls.py``),
Help → monchat Help… and A model for this computer… (``user_guide.py``, ``settings/model_help.py``). The
words keep their translation contexts ("MainWindow", "FileMenu").
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QMenu, QToolBar, QWidget

from .chat.turn_actions import ActionReasons, ChatState
from .window_frame import size_persona_box


class MainMenu(QObject):
    """The menu bar's menus and actions of ``parent`` (the main window), and its toolbar.

    Signals (each an action the user chose; the window decides what it does):
        regenerate_requested, edit_requested, stop_requested, quit_requested: the Chat menu's.
        flush_requested, memory_requested, review_queue_requested, inbox_requested: the Memory menu's.
        chat_personas_requested, filter_personas_requested: the Personas menu's.
        settings_requested, about_requested: Settings…, About monchat.
        ctrl_enter_sends_toggled(bool): Chat → Ctrl+Enter sends, switched by the user.
    """

    regenerate_requested = Signal()
    edit_requested = Signal()
    stop_requested = Signal()
    quit_requested = Signal()
    flush_requested = Signal()
    memory_requested = Signal()
    review_queue_requested = Signal()
    inbox_requested = Signal()
    chat_personas_requested = Signal()
    filter_personas_requested = Signal()
    settings_requested = Signal()
    about_requested = Signal()
    ctrl_enter_sends_toggled = Signal(bool)

    def __init__(self, parent: QMainWindow) -> None:
        super().__init__(parent)
        self._reasons = ActionReasons(self)
        self.regenerate_action = self._action(QCoreApplication.translate("MainWindow", "Regenerate reply"),
                                              self.regenerate_requested, "Ctrl+R")
        self.edit_action = self._action(QCoreApplication.translate("MainWindow", "Edit last message"),
                                        self.edit_requested, "Ctrl+E")
        self.stop_action = self._action(QCoreApplication.translate("MainWindow", "Stop"), self.stop_requested, "Esc")
        self.flush_action = self._action(QCoreApplication.translate("MainWindow", "Flush…"), self.flush_requested)
        self.memory_action = self._action(QCoreApplication.translate("MainWindow", "Memory…"), self.memory_requested)
        self.queue_action = self._action(QCoreApplication.translate("MainWindow", "Review queue…"),
                                         self.review_queue_requested)
        self.inbox_action = self._action(
            QCoreApplication.translate("MainWindow", "Inbox: insights, diary, interests…"), self.inbox_requested)
        self.surface_action = self._action(QCoreApplication.translate("MainWindow", "Chat personas…"),
                                           self.chat_personas_requested)
        self.filter_action = self._action(QCoreApplication.translate("MainWindow", "Filter personas…"),
                                          self.filter_personas_requested)
        self.settings_action = self._action(QCoreApplication.translate("MainWindow", "Settings…"),
                                            self.settings_requested)
        self.settings_action.setShortcuts([QKeySequence("Ctrl+,"), QKeySequence(QKeySequence.StandardKey.Preferences)])
        self.quit_action = self._action(QCoreApplication.translate("MainWindow", "Quit"), self.quit_requested,
                                        QKeySequence.StandardKey.Quit)
        self.about_action = self._action(QCoreApplication.translate("MainWindow", "About monchat"),
                                         self.about_requested)
        self.send_key_action = QAction(QCoreApplication.translate("MainWindow", "Ctrl+Enter sends"), parent)
        self.send_key_action.setCheckable(True)
        self.send_key_action.setToolTip(QCoreApplication.translate(
            "MainWindow", "On: Enter adds a line and Ctrl+Enter sends. Off: Enter sends and Shift+Enter adds a line."))
        self.send_key_action.toggled.connect(self.ctrl_enter_sends_toggled)

        bar = parent.menuBar()
        self.file_menu = bar.addMenu(QCoreApplication.translate("FileMenu", "&File"))  # its entries: history/menu.py
        self.chat_menu = self._menu(bar, QCoreApplication.translate("MainWindow", "&Chat"), self.regenerate_action,
                                    self.edit_action, self.stop_action, None, self.send_key_action, None,
                                    self.quit_action)
        self.memory_menu = self._menu(bar, QCoreApplication.translate("MainWindow", "&Memory"), self.flush_action,
                                      self.memory_action, self.queue_action, self.inbox_action)
        self._menu(bar, QCoreApplication.translate("MainWindow", "&Personas"), self.surface_action, self.filter_action)
        self._menu(bar, QCoreApplication.translate("MainWindow", "&Settings"), self.settings_action)
        self.help_menu = self._menu(bar, QCoreApplication.translate("MainWindow", "&Help"), self.about_action)  # last

    def _action(self, text: str, intent: Signal, shortcut: str | QKeySequence | None = None) -> QAction:
        action = QAction(text, self.parent())  # the window's: its shortcuts work wherever the focus is in it
        action.triggered.connect(lambda _checked=False: intent.emit())
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        return action

    @staticmethod
    def _menu(bar, title: str, *actions: QAction | None) -> QMenu:
        menu = bar.addMenu(title)
        for action in actions:
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        return menu

    def toolbar(self, persona_box: QComboBox, parent: QWidget) -> QToolBar:
        """The toolbar: the persona picker, then Regenerate, Edit, Flush, Memory and Settings."""
        bar = QToolBar(QCoreApplication.translate("MainWindow", "Main"), parent)
        bar.setObjectName("main_toolbar")
        bar.setMovable(False)
        bar.addWidget(QLabel(QCoreApplication.translate("MainWindow", "Persona:") + " ", bar))
        size_persona_box(persona_box)  # as wide as the frame's (window_frame.py): the buttons stay where they were
        bar.addWidget(persona_box)
        bar.addSeparator()
        for action in (self.regenerate_action, self.edit_action, self.flush_action, self.memory_action,
                       self.settings_action):
            bar.addAction(action)
        return bar

    # ---- what the actions show -------------------------------------------------------------------
    def show_state(self, state: ChatState, gate_bar) -> None:
        """Enable what can act now; what cannot is disabled and its tooltip says why (``chat/turn_actions.py``)."""
        self._reasons.apply(state, self.regenerate_action, self.edit_action, self.flush_action, gate_bar)

    def show_ctrl_enter_sends(self, value: bool) -> None:
        """Check Ctrl+Enter sends as the setting is (no ``ctrl_enter_sends_toggled``: the user did not switch it)."""
        self.send_key_action.blockSignals(True)
        self.send_key_action.setChecked(value)
        self.send_key_action.blockSignals(False)
