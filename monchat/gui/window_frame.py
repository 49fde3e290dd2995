"""The main window's frame: what the window shows before the app is built, so it paints first.

``monchat`` shows the window's own chrome — its title, its size and place from ``window.ini``, the menu bar, an
empty chat and a disabled composer that says it is opening — from modules that import only PySide6 and the
standard library, paints it, and only then imports and builds the app (settings, store, backends) and fills the
same window (``MainWindow.attach``, ``gui/main.py``'s ``open_window``). Nothing in the frame can be clicked: its
menus are empty and disabled until the window is filled.

The frame takes the room the filled window's parts take, so nothing moves when it fills: the gate bar's row (a
disabled Flush button and no words: how many files wait is not read yet, and a first start has none), the
toolbar's buttons (disabled), the persona box's width and the context meter's look in the status bar (its first
words, an empty bar). ``tests/gui/test_frame_layout.py`` compares the places before and after.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import (QComboBox, QFrame, QHBoxLayout, QLabel, QMainWindow, QPlainTextEdit, QProgressBar,
                               QPushButton, QToolBar, QVBoxLayout, QWidget)

# The toolbar's actions of the filled window (``window_menus.py``), in its order, disabled in the frame.
TOOLBAR_ACTIONS = ("Regenerate reply", "Edit last message", "Flush…", "Memory…", "Settings…")
# The persona box is as wide as this many characters at least, in the frame and filled, so the toolbar's buttons
# stay where they are when the personas' names come (a longer name widens it).
PERSONA_BOX_CHARS = 10
# The gate bar's margins and spacing (``chat/gate_bar.py``): its row is held in the frame by one of the same height.
GATE_MARGINS, GATE_SPACING = (8, 4, 8, 0), 4
# The context meter's bar (``chat/context_meter.py``), at most this wide and high, in the frame and filled.
METER_BAR_WIDTH, METER_BAR_HEIGHT = 140, 12

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
        self.toolbar = _toolbar(window)
        window.addToolBar(self.toolbar)
        central = QWidget(window)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.gate_row = _gate_row(central)
        column.addWidget(self.gate_row)
        self.chat = chat = QFrame(central)  # the chat (a scroll area's frame), empty until the messages are read
        chat.setFrameShape(QFrame.Shape.StyledPanel)
        chat.setFrameShadow(QFrame.Shadow.Sunken)
        column.addWidget(chat, 1)
        self.composer = _composer(central)
        column.addWidget(self.composer)
        window.setCentralWidget(central)
        # The status bar (the filled window keeps it) holds the places of its parts meanwhile: the backend's name
        # (empty until the meter is counted), the context meter, "Memory paused" (empty unless it is).
        meter, self.meter_words = _meter(window)
        self.status_parts = (QLabel(window), meter, QLabel(window))
        for part in self.status_parts:
            window.statusBar().addPermanentWidget(part)

    def remove(self) -> None:
        """Empty the menu bar and take the toolbar and the status bar's parts out (the filled window's central
        widget replaces the frame's)."""
        self.window.menuBar().clear()
        self.window.removeToolBar(self.toolbar)
        self.toolbar.deleteLater()
        for part in self.status_parts:
            self.window.statusBar().removeWidget(part)
            part.deleteLater()


def size_persona_box(box: QComboBox) -> None:
    """The persona box's least width (the frame's, empty, and the filled window's): ``PERSONA_BOX_CHARS``."""
    box.setMinimumContentsLength(PERSONA_BOX_CHARS)


def _toolbar(window: QMainWindow) -> QToolBar:
    """The toolbar of the filled window (``window_menus.py``): the persona box empty, its buttons disabled."""
    bar = QToolBar(QCoreApplication.translate("MainWindow", "Main"), window)
    bar.setMovable(False)
    bar.addWidget(QLabel(QCoreApplication.translate("MainWindow", "Persona:") + " ", bar))
    box = QComboBox(bar)
    size_persona_box(box)
    box.setEnabled(False)
    bar.addWidget(box)
    bar.addSeparator()
    for text in TOOLBAR_ACTIONS:
        bar.addAction(QCoreApplication.translate("MainWindow", text)).setEnabled(False)
    return bar


def _meter(parent: QWidget) -> tuple[QWidget, QLabel]:
    """The context meter's look (``chat/context_meter.py``: its first words, an empty bar beside them)."""
    meter = QWidget(parent)
    words = QLabel(QCoreApplication.translate("ContextMeterWidget", "Context: counting…"), meter)
    bar = QProgressBar(meter)
    bar.setTextVisible(False)
    bar.setMaximumWidth(METER_BAR_WIDTH)
    bar.setMaximumHeight(METER_BAR_HEIGHT)
    row = QHBoxLayout(meter)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(words)
    row.addWidget(bar)
    return meter, words


def _gate_row(parent: QWidget) -> QWidget:
    """The gate bar's row (``chat/gate_bar.py``) before the gate is read: its Flush button, disabled, and no words.

    How many log files wait is not known yet, and a first start has none: nothing here speaks of limits or pauses.
    The banner that the gate may show at "warn" or "stop" comes with the gate, when the window is filled.
    """
    row = QWidget(parent)
    column = QVBoxLayout(row)
    column.setContentsMargins(*GATE_MARGINS)
    column.setSpacing(GATE_SPACING)
    line = QHBoxLayout()
    line.setContentsMargins(0, 0, 0, 0)
    line.addWidget(QLabel(row), 1)
    button = QPushButton(QCoreApplication.translate("GateBar", "Flush…"), row)
    button.setEnabled(False)
    line.addWidget(button)
    column.addLayout(line)
    return row


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
