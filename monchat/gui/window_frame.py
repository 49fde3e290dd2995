"""The main window's frame: what the window shows before the app is built, so it paints first.

``monchat`` shows the window's own chrome — its title, its size and place from ``window.ini``, the menu bar, an
empty chat and a disabled composer that says it is opening — from modules that import only PySide6 and the
standard library, paints it, and only then imports and builds the app (settings, store, backends) and fills the
same window (``MainWindow.attach``, ``gui/main.py``'s ``open_window``). Nothing in the frame can be clicked: its
menus are empty and disabled until the window is filled.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import (QComboBox, QFrame, QHBoxLayout, QLabel, QMainWindow, QPlainTextEdit, QPushButton,
                               QToolBar, QVBoxLayout, QWidget)

# The menus the filled window has, in its order (File first, Help last), with the words' translation contexts.
MENU_TITLES = (("FileMenu", "&File"), ("MainWindow", "&Chat"), ("MainWindow", "&Memory"),
               ("MainWindow", "&Personas"), ("MainWindow", "&Settings"), ("MainWindow", "&Help"))


def settings_language(settings_path: Path) -> str:
    """``chat.language`` as settings.toml has it ("" when unset or unreadable): the frame's words.

    The app reads the file again when it is built (and says what it could not use); this only picks the
    language of the first paint.
    """
    try:
        raw = tomllib.loads(settings_path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return ""
    chat = raw.get("chat") if isinstance(raw, dict) else None
    language = chat.get("language") if isinstance(chat, dict) else None
    return language if language in ("en", "ja") else ""


class FirstPaint(QObject):
    """Calls ``then`` in the pass of the event loop after the window's next paint, then stops watching (so later
    paints cost no Python call)."""

    def __init__(self, window: QWidget, then) -> None:
        super().__init__(window)
        self.then = then
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, watched, self.then)
        return False


class Frame:
    """The frame's parts in ``window``; ``remove()`` takes them out when the window is filled."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        for context, title in MENU_TITLES:
            window.menuBar().addMenu(QCoreApplication.translate(context, title)).setEnabled(False)
        self.toolbar = QToolBar(QCoreApplication.translate("MainWindow", "Main"), window)
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(QLabel(QCoreApplication.translate("MainWindow", "Persona:") + " ", self.toolbar))
        box = QComboBox(self.toolbar)
        box.setEnabled(False)
        self.toolbar.addWidget(box)
        window.addToolBar(self.toolbar)
        central = QWidget(window)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        chat = QFrame(central)  # the chat (a scroll area's frame), empty until the messages are read
        chat.setFrameShape(QFrame.Shape.StyledPanel)
        chat.setFrameShadow(QFrame.Shadow.Sunken)
        column.addWidget(chat, 1)
        self.composer = _composer(central)
        column.addWidget(self.composer)
        window.setCentralWidget(central)
        window.statusBar()  # empty until filled (the filled window keeps it): the composer stays where it is

    def remove(self) -> None:
        """Empty the menu bar and take the toolbar out (the filled window's central widget replaces the frame's)."""
        self.window.menuBar().clear()
        self.window.removeToolBar(self.toolbar)
        self.toolbar.deleteLater()


def _composer(parent: QWidget) -> QWidget:
    """The composer's look (``chat/composer.py``: a two-line box, Send beside it), disabled, saying it opens.

    Plain Qt widgets: a Python subclass of a Qt widget costs its first paint tens of milliseconds more.
    """
    composer = QWidget(parent)
    row = QHBoxLayout(composer)
    row.setContentsMargins(8, 4, 8, 8)
    edit = QPlainTextEdit(composer)
    edit.setPlaceholderText(QCoreApplication.translate("MainWindow", "Opening…"))
    margins = edit.contentsMargins().top() + edit.contentsMargins().bottom()
    edit.setFixedHeight(int(2 * edit.fontMetrics().lineSpacing() + 2 * edit.document().documentMargin() + margins + 2))
    row.addWidget(edit, 1)
    send = QPushButton(QCoreApplication.translate("Composer", "Send"), composer)
    column = QVBoxLayout()
    column.addWidget(send)
    column.addStretch(1)
    row.addLayout(column)
    composer.setEnabled(False)
    return composer
