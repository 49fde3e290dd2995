"""The main window's frame: what the window shows before the app is built, so it paints first.

``monchat`` shows the window's own chrome — its title, its size and place from ``window.ini``, the menu bar, an
empty chat and a disabled composer that says it is opening — from modules that import only PySide6 and the
standard library, paints it, and only then imports and builds the app (settings, store, backends) and fills the
same window (``MainWindow.attach``, ``gui/main.py``'s ``open_window``). Nothing in the frame can be clicked: its
menus are empty and disabled until the window is filled.

The frame takes the room the filled window's parts take, so nothing moves when it fills: the gate bar, the
toolbar's buttons (disabled), the persona box's width and the context meter's look in the status bar (its first
words, an empty bar). ``tests/gui/test_frame_layout.py`` compares the places before and after.

The gate bar is the filled window's own, built and worded by the same functions (``chat/gate_look.py``), its buttons
disabled: the frame counts the log files waiting for a flush itself (a listing of the logs folder with the log file
name pattern, ``core/paths.py``), reads the two limits from settings.toml as the app does (``gate_limits``), and
whether a flush runs in another process. At "warn" and "stop" it shows the banner the filled window shows, and at
"stop" the composer's "paused" line too, so neither pushes the chat down when the window fills. A first start has no
files: no banner, and nothing said of pausing.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (QComboBox, QFrame, QHBoxLayout, QLabel, QMainWindow, QPlainTextEdit, QProgressBar,
                               QPushButton, QToolBar, QVBoxLayout, QWidget)

from ..core.vocabulary.states import GateNotice
from ..core.paths import Paths, is_marked, log_files
from .chat.gate_look import build_gate_parts, notice_kind, paused_label, paused_words, show_gate

# The toolbar's actions of the filled window (``window_menus.py``), in its order, disabled in the frame.
TOOLBAR_ACTIONS = ("Regenerate reply", "Edit last message", "Flush…", "Memory…", "Settings…")
# The persona box is as wide as this many characters at least, in the frame and filled, so the toolbar's buttons
# stay where they are when the personas' names come (a longer name widens it).
PERSONA_BOX_CHARS = 10
# ``core/settings.py``'s gate limits: its defaults (``GateSettings``) and the range a value must be in (``CHECKS``).
DEFAULT_GATE_LIMITS, GATE_LIMIT_RANGE = (3, 5), (1, 1000)
# The context meter's bar (``chat/context_meter.py``), at most this wide and high, in the frame and filled.
METER_BAR_WIDTH, METER_BAR_HEIGHT = 140, 12

# The menus the filled window has, in its order (File first, Help last), with the words' translation contexts.
MENU_TITLES = (("FileMenu", "&File"), ("MainWindow", "&Chat"), ("MainWindow", "&Memory"),
               ("MainWindow", "&Personas"), ("MainWindow", "&Settings"), ("MainWindow", "&Help"))


def _settings_table(settings_path: Path, section: str) -> dict:
    """One section of settings.toml as written ({} when missing or unreadable)."""
    try:
        raw = tomllib.loads(settings_path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    table = raw.get(section) if isinstance(raw, dict) else None
    return table if isinstance(table, dict) else {}


def settings_language(settings_path: Path) -> str:
    """``chat.language`` as settings.toml has it ("" when unset or unreadable): the frame's words.

    The app reads the file again when it is built (and says what it could not use); this only picks the
    language of the first paint.
    """
    language = _settings_table(settings_path, "chat").get("language")
    return language if language in ("en", "ja") else ""


def gate_limits(settings_path: Path) -> tuple[int, int]:
    """``gate.warn_files`` and ``gate.stop_files`` as the app will use them: a value that is not a whole number in
    range is its default, and both are the defaults when warn is above stop (``core/settings.py``, which the frame
    may not import; a test compares the two)."""
    gate = _settings_table(settings_path, "gate")
    low, high = GATE_LIMIT_RANGE
    limits = [value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else default
              for value, default in zip((gate.get("warn_files"), gate.get("stop_files")), DEFAULT_GATE_LIMITS)]
    warn_at, stop_at = limits
    return (warn_at, stop_at) if warn_at <= stop_at else DEFAULT_GATE_LIMITS


@dataclass(frozen=True)
class FrameGate:
    """The gate as the frame reads it before the app is built: the numbers ``FlushGate`` is made of."""

    files: int
    warn_at: int
    stop_at: int
    flushing: bool = False

    @property
    def notice(self) -> GateNotice:
        """The banner's kind (``chat/gate_look.py``)."""
        return notice_kind(self.files, self.warn_at, self.stop_at, self.flushing)


def read_gate(paths: Paths) -> FrameGate | None:
    """The log files waiting, the limits and whether a flush runs (another process's mark); None when the logs
    folder cannot be listed (the filled window reads it again and says what is wrong; the frame says nothing)."""
    try:
        files = len(log_files(paths.logs_dir))
    except OSError:
        return None
    warn_at, stop_at = gate_limits(paths.settings_path)
    return FrameGate(files, warn_at, stop_at, bool(files) and is_marked(paths.flush_running))


class FirstPaint(QObject):
    """Calls ``then`` in the pass of the event loop after the window's next paint, then stops watching (so later
    paints cost no Python call)."""

    def __init__(self, widget: QWidget, then) -> None:
        super().__init__(widget)
        self.then = then
        widget.installEventFilter(self)

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
        self.gate_row = QWidget(central)  # the gate bar's parts, their words once ``show_gate`` is called
        self.gate = build_gate_parts(self.gate_row)
        for button in (self.gate.flush_button, self.gate.banner_button):
            button.setEnabled(False)
        column.addWidget(self.gate_row)
        self.chat = chat = QFrame(central)  # the chat (a scroll area's frame), empty until the messages are read
        chat.setFrameShape(QFrame.Shape.StyledPanel)
        chat.setFrameShadow(QFrame.Shadow.Sunken)
        column.addWidget(chat, 1)
        self.composer, self.paused = _composer(central)
        column.addWidget(self.composer)
        window.setCentralWidget(central)
        # The status bar (the filled window keeps it) holds the places of its parts meanwhile: the backend's name
        # (empty until the meter is counted), the context meter, "Memory paused" (empty unless it is).
        meter, self.meter_words = _meter(window)
        self.status_parts = (QLabel(window), meter, QLabel(window))
        for part in self.status_parts:
            window.statusBar().addPermanentWidget(part)

    def show_gate(self, gate: FrameGate | None) -> None:
        """What the gate bar will say for ``gate`` (nothing when it is not known), and at "stop" the composer's
        paused line: the filled window's words in its places."""
        if gate is None:
            return
        show_gate(self.gate, self.gate_row.palette(), gate.files, gate.warn_at, gate.stop_at, gate.flushing,
                  gate.notice)
        stopped = gate.notice == GateNotice.STOP
        self.paused.setText(paused_words() if stopped else "")
        self.paused.setVisible(stopped)

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


def _composer(parent: QWidget) -> tuple[QWidget, QLabel]:
    """The composer's look (``chat/composer.py``: its paused line, hidden unless chat is paused, above a two-line box,
    Send beside it), disabled, saying it opens; returns it and its paused line.

    Plain Qt widgets: a Python subclass of a Qt widget costs its first paint tens of milliseconds more.
    """
    composer = QWidget(parent)
    layout = QVBoxLayout(composer)
    layout.setContentsMargins(8, 4, 8, 8)
    paused = paused_label(composer)
    palette = paused.palette()  # drawn as in the filled window, whose line is not disabled (read in a dark palette)
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.PlaceholderText,
                     palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText))
    paused.setPalette(palette)
    layout.addWidget(paused)
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    layout.addLayout(row)
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
    return composer, paused
