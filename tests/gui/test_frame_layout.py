"""Nothing moves when the window's frame is filled (``gui/window_frame.py``, issue 24).

``open_window`` is run as ``monchat`` runs it: the places of the window's parts are read at the frame's first paint
and at the filled window's first paint, and must be the same within a pixel — the chat, the composer, the gate
bar's row, the toolbar and each of its buttons, the persona box, the status bar and the context meter's words in
it. In English at a first start (no log files) and in Japanese with one file waiting (its glyphs are taller, its
count row has words). The frame's gate row has no words: before the gate is read it cannot know how many files
wait, and a first start has none, so it says nothing of limits or of chat pausing (issue 24's first start). What
the gate says at "warn" or "stop" (a banner) comes with the gate, at the fill.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QToolBar, QWidget

from monchat.gui.main import open_window
from monchat.gui.main_window import MainWindow
from tests.gui.conftest import fill_log_files


def _place(widget: QWidget, window: QMainWindow) -> tuple[int, int, int, int]:
    corner = widget.mapTo(window, widget.rect().topLeft())
    return corner.x(), corner.y(), widget.width(), widget.height()


def _toolbar_places(bar: QToolBar, window: QMainWindow) -> list[tuple[int, int, int, int]]:
    """The persona label and box, then each action's button, in the toolbar's order."""
    return [_place(bar.widgetForAction(action), window) for action in bar.actions() if not action.isSeparator()]


def _frame_places(window: MainWindow) -> dict:
    frame = window.frame
    return {"chat": _place(frame.chat, window), "composer": _place(frame.composer, window),
            "gate row": _place(frame.gate_row, window), "toolbar": _place(frame.toolbar, window),
            "toolbar items": _toolbar_places(frame.toolbar, window), "status bar": _place(window.statusBar(), window),
            "gate words": [label.text() for label in frame.gate_row.findChildren(QLabel)],
            "meter words": frame.meter_words.text() if frame.meter_words.isVisible() else "",
            "meter": _place(frame.meter_words, window),
            "gate buttons": [(b.text(), b.isEnabled()) for b in frame.gate_row.findChildren(QPushButton)]}


def _filled_places(window: MainWindow) -> dict:
    bar = window.findChild(QToolBar, "main_toolbar")
    return {"chat": _place(window.chat_view, window), "composer": _place(window.composer, window),
            "gate row": _place(window.gate_bar, window), "toolbar": _place(bar, window),
            "toolbar items": _toolbar_places(bar, window), "status bar": _place(window.statusBar(), window),
            "gate text": window.gate_bar.count_label.text(), "gate button": window.gate_bar.flush_button.text(),
            "meter words": window.meter.label.text(), "meter": _place(window.meter.label, window)}


class _Places(QObject):
    """Reads the places at the main window's first paint (the frame) and its first paint once filled."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict = {}

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() != QEvent.Type.Paint or not isinstance(watched, MainWindow):
            return False
        if "frame" not in self.seen:
            self.seen["frame"] = _frame_places(watched)
        elif watched.app is not None and "filled" not in self.seen:
            self.seen["filled"] = _filled_places(watched)
            QTimer.singleShot(0, lambda: QCoreApplication.exit(0))
        return False


def _near(a, b) -> bool:
    if isinstance(a, list):
        return len(a) == len(b) and all(_near(x, y) for x, y in zip(a, b))
    return all(abs(x - y) <= 1 for x, y in zip(a, b))


@pytest.mark.parametrize(("language", "files"), [("en", 0), ("ja", 1)])
def test_nothing_moves_when_the_frame_is_filled(app, qapp, language, files):
    app.settings.chat.language = language
    app.save_settings()  # the frame reads the language from settings.toml
    if files:
        fill_log_files(app, files)
    places = _Places()
    qapp.installEventFilter(places)
    try:
        assert open_window(lambda: app) == 0
    finally:
        qapp.removeEventFilter(places)
    frame, filled = places.seen["frame"], places.seen["filled"]
    for part in ("chat", "composer", "gate row", "toolbar", "toolbar items", "status bar", "meter"):
        assert _near(frame[part], filled[part]), (part, frame[part], filled[part])
    # The status bar's height: the meter's first words hold it (a Japanese line is a pixel taller than none).
    assert frame["meter words"] == filled["meter words"] != ""
    assert filled["gate text"]  # the filled row has its words: the frame held their room
    assert frame["gate words"] == [""]  # nothing said before the gate is read (a first start has no limits yet)
    assert frame["gate buttons"] == [(filled["gate button"], False)]  # the gate bar's button, not yet for clicking
