"""The window's frame paints before the app is built, and the same window is filled (``gui/window_frame.py``).

``open_window`` is run in this process with a ``build`` that looks at the window when it is called: by then the
frame has been painted, nothing in it can be clicked, and after ``build`` the very same window holds the chat.
A database that cannot be opened closes the frame and is said as before (``on_startup_error``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from monchat.cli import gui
from monchat.cli.main import main
from monchat.gui.main import open_window
from monchat.gui.main_window import MainWindow


def _main_windows() -> list:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and not w.isHidden()]


class _Paints(QObject):
    """Counts the paints of main windows (the whole application's events)."""

    count = 0

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Paint and isinstance(watched, MainWindow):
            self.count += 1
        return False


def test_the_frame_is_painted_before_build_and_the_same_window_is_filled(app, qapp):
    seen: dict = {}
    paints = _Paints()
    qapp.installEventFilter(paints)

    def build():
        windows = _main_windows()
        frame = windows[0]
        seen["frame"] = {"windows": len(windows), "app": frame.app, "title": frame.windowTitle(),
                         "menus": [a.isEnabled() for a in frame.menuBar().actions()],
                         "menu_items": sum(len(a.menu().actions()) for a in frame.menuBar().actions()),
                         "composer": frame.frame.composer.isEnabled(),
                         "painted": paints.count > 0}
        seen["window"] = frame
        QTimer.singleShot(0, look_and_quit)
        return app

    def look_and_quit():
        windows = _main_windows()
        seen["filled"] = {"same": windows == [seen["window"]], "app": windows[0].app is app,
                          "composer": windows[0].composer.edit.isEnabled(),
                          "menus": [a.text() for a in windows[0].menuBar().actions()]}
        QCoreApplication.exit(0)

    try:
        assert open_window(build) == 0
    finally:
        qapp.removeEventFilter(paints)
    frame, filled = seen["frame"], seen["filled"]
    assert frame["windows"] == 1 and frame["app"] is None and frame["painted"]
    assert frame["title"] == "monchat" and frame["composer"] is False
    assert len(frame["menus"]) == 6 and not any(frame["menus"]) and frame["menu_items"] == 0
    assert filled["same"] and filled["app"] and filled["composer"]
    assert len(filled["menus"]) == len(frame["menus"])


def test_a_database_that_cannot_be_opened_closes_the_frame_and_is_said_as_before(home, qapp, monkeypatch, capsys):
    home.mkdir(parents=True, exist_ok=True)
    (home / "monchat.db").write_bytes(b"this is not a database" * 100)
    said: list = []
    monkeypatch.setitem(gui.DEFAULTS, "on_startup_error", said.append)  # offscreen: no message box to block on
    code = main([])
    assert code != 0 and len(said) == 1
    assert "damaged" in said[0].message or "database" in said[0].message
    assert said[0].message in capsys.readouterr().err
    assert _main_windows() == []
