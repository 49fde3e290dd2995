"""Nothing moves when the window's frame is filled (``gui/window_frame.py``, issue 24).

``open_window`` is run as ``monchat`` runs it: the places of the window's parts are read at the frame's first paint
and at the filled window's first paint, and must be the same within a pixel — the chat, the composer, the gate
bar's row, the toolbar and each of its buttons, the persona box, the status bar and the context meter's words in
it. In English at a first start (no log files), in Japanese with one file waiting (its glyphs are taller, its
count row has words), and in both at the "warn" (3 files) and the "stop" limit (5): the frame reads the gate itself
and shows the banner (and at "stop" the composer's paused line) the filled window shows, in the same words — built
by the same functions (``chat/gate_look.py``). A first start says nothing of limits or of chat pausing.

The frame may not import the app's core (``tests/test_first_paint.py``): it reads the two limits from settings.toml
itself, as ``core/settings.py`` does (compared below on good and bad files), and says the gate's "warn" or "stop"
from its numbers as ``FlushGate.state`` does (compared below).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QLabel, QMainWindow, QToolBar, QWidget

from monchat.core.logs.files import FlushGate
from monchat.core.vocabulary.states import GateState
from monchat.core.paths import running_mark
from monchat.core.settings import Settings, load_settings
from monchat.gui.chat.gate_look import notice_kind
from monchat.gui.main import open_window
from monchat.gui.main_window import MainWindow
from monchat.gui.window_frame import FrameGate, gate_limits
from tests.gui.conftest import fill_log_files


def _place(widget: QWidget, window: QMainWindow) -> tuple[int, int, int, int]:
    corner = widget.mapTo(window, widget.rect().topLeft())
    return corner.x(), corner.y(), widget.width(), widget.height()


def _toolbar_places(bar: QToolBar, window: QMainWindow) -> list[tuple[int, int, int, int]]:
    """The persona label and box, then each action's button, in the toolbar's order."""
    return [_place(bar.widgetForAction(action), window) for action in bar.actions() if not action.isSeparator()]


def _gate_places(gate, window: QMainWindow, paused: QLabel) -> dict:
    """The gate bar's words and places, its banner's and the composer's paused line's (``chat/gate_look.py``)."""
    shown = [b for b in (gate.flush_button, gate.banner_button) if b.isVisible()]
    return {"gate text": gate.count_label.text(), "banner text": gate.banner_label.text() if gate.banner.isVisible()
            else "", "banner": _place(gate.banner, window) if gate.banner.isVisible() else None,
            "banner style": gate.banner.styleSheet() if gate.banner.isVisible() else "",
            "bold": gate.banner_label.font().bold(), "gate buttons": [(b.text(), _place(b, window)) for b in shown],
            "enabled": [b.isEnabled() for b in shown],
            "paused": (paused.text(), _place(paused, window)) if paused.isVisible() else None}


def _frame_places(window: MainWindow) -> dict:
    frame = window.frame
    return {"chat": _place(frame.chat, window), "composer": _place(frame.composer, window),
            "gate row": _place(frame.gate_row, window), "toolbar": _place(frame.toolbar, window),
            "toolbar items": _toolbar_places(frame.toolbar, window), "status bar": _place(window.statusBar(), window),
            "meter words": frame.meter_words.text() if frame.meter_words.isVisible() else "",
            "meter": _place(frame.meter_words, window), **_gate_places(frame.gate, window, frame.paused),
            "all words": [label.text() for label in window.findChildren(QLabel) if label.isVisible()]}


def _filled_places(window: MainWindow) -> dict:
    bar = window.findChild(QToolBar, "main_toolbar")
    return {"chat": _place(window.chat_view, window), "composer": _place(window.composer, window),
            "gate row": _place(window.gate_bar, window), "toolbar": _place(bar, window),
            "toolbar items": _toolbar_places(bar, window), "status bar": _place(window.statusBar(), window),
            "meter words": window.meter.label.text(), "meter": _place(window.meter.label, window),
            "edit box": _place(window.composer.edit, window), "state": str(window.gate_bar.state),
            **_gate_places(window.gate_bar.parts, window, window.composer.paused_label)}


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


@pytest.mark.parametrize(("language", "files", "state"), [("en", 0, "ok"), ("ja", 1, "ok"), ("en", 3, "warn"),
                                                      ("ja", 3, "warn"), ("en", 5, "stop"), ("ja", 5, "stop")])
def test_nothing_moves_when_the_frame_is_filled(app, qapp, language, files, state):
    app.settings.chat.language = language
    app.save_settings()  # the frame reads the language and the gate's limits from settings.toml
    if files:
        fill_log_files(app, files)
    places = _Places()
    qapp.installEventFilter(places)
    try:
        assert open_window(lambda: app) == 0
    finally:
        qapp.removeEventFilter(places)
    frame, filled = places.seen["frame"], places.seen["filled"]
    assert filled["state"] == state
    for part in ("chat", "composer", "gate row", "toolbar", "toolbar items", "status bar", "meter"):
        assert _near(frame[part], filled[part]), (part, frame[part], filled[part])
    # The status bar's height: the meter's first words hold it (a Japanese line is a pixel taller than none).
    assert frame["meter words"] == filled["meter words"] != ""
    # The gate bar says in the frame what it says filled, in the same places: its count, the banner at "warn" and
    # "stop" (its words, colours, bold at "stop"), which Flush button shows; the composer's paused line at "stop".
    assert filled["gate text"] and frame["gate text"] == filled["gate text"]
    assert (frame["banner text"], frame["banner style"], frame["bold"]) == (
        filled["banner text"], filled["banner style"], filled["bold"])
    assert bool(filled["banner text"]) == (state != "ok") and filled["bold"] == (state == "stop")
    assert (frame["banner"] is None) == (filled["banner"] is None)
    if filled["banner"]:
        assert _near(frame["banner"], filled["banner"]), (frame["banner"], filled["banner"])
    assert [text for text, _ in frame["gate buttons"]] == [text for text, _ in filled["gate buttons"]]
    assert _near([p for _, p in frame["gate buttons"]], [p for _, p in filled["gate buttons"]])
    assert frame["enabled"] == [False]  # not for clicking before the fill
    assert (frame["paused"] is None) == (filled["paused"] is None) == (state != "stop")
    if filled["paused"]:
        assert frame["paused"][0] == filled["paused"][0]
        assert _near(frame["paused"][1], filled["paused"][1]), (frame["paused"], filled["paused"])
    if not files:  # a first start: nothing said of limits or of chat pausing
        words = " ".join(frame["all words"]).lower()
        assert "pause" not in words and "flush recommended" not in words


def test_the_frame_reads_the_gate_limits_as_the_app_does(tmp_path):
    """``window_frame.gate_limits`` (before the core is imported) and ``core/settings.py`` on good and bad files."""
    cases = ["", "[gate]\nwarn_files = 2\nstop_files = 4\n", "[gate]\nwarn_files = 7\n",
             "[gate]\nstop_files = 2\n", "[gate]\nwarn_files = 0\nstop_files = 1001\n",
             "[gate]\nwarn_files = true\nstop_files = 4.0\n", "[gate]\nwarn_files = \"3\"\n",
             "[gate]\nwarn_files = 1000\nstop_files = 1000\n", "[gate]\nwarn_files = 5\nstop_files = 4\n",
             "gate = 3\n", "[gate\nbroken", "[chat]\nlanguage = \"ja\"\n[gate]\nwarn_files = 1\nstop_files = 1\n"]
    path = tmp_path / "settings.toml"
    assert gate_limits(path) == (Settings().gate.warn_files, Settings().gate.stop_files)  # no file
    for text in cases:
        path.write_text(text, encoding="utf-8")
        settings, _warnings = load_settings(path)
        assert gate_limits(path) == (settings.gate.warn_files, settings.gate.stop_files), text


def test_the_frames_banner_kind_is_the_gates_state():
    """``gate_look.notice_kind`` (the frame's) says "warn" and "stop" exactly where ``FlushGate.state`` does."""
    for warn_at, stop_at in ((3, 5), (1, 1), (2, 9)):
        for files in range(0, 11):
            for flushing in (False, True):
                gate = FlushGate(files, warn_at, stop_at, flushing)
                expected = str(gate.state) if gate.state in (GateState.WARN, GateState.STOP) else ""
                assert notice_kind(files, warn_at, stop_at, flushing) == expected, gate
                assert FrameGate(files, warn_at, stop_at, flushing).notice == expected


def test_a_running_flush_is_shown_in_the_frame_as_filled(app, qapp):
    """Five files while another process flushes: chat is open, the banner says a flush runs, in both paints."""
    fill_log_files(app, 5)
    places = _Places()
    qapp.installEventFilter(places)
    try:
        with running_mark(app.paths.flush_running):
            assert open_window(lambda: app) == 0
    finally:
        qapp.removeEventFilter(places)
    frame, filled = places.seen["frame"], places.seen["filled"]
    assert filled["state"] == "warn" and "A flush is running" in filled["banner text"]
    assert frame["banner text"] == filled["banner text"] and frame["paused"] is None is filled["paused"]
    assert frame["gate buttons"] == filled["gate buttons"] == []  # the running flush's window shows how far
    assert _near(frame["chat"], filled["chat"])
