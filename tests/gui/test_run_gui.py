"""``run_gui``: one QApplication, the window shown in the configured language, a clean exit."""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from monchat.gui.kit.collector import GuiThreadCollector
from monchat.gui.main import ensure_qapplication, run_gui
from monchat.gui.main_window import MainWindow


def test_run_gui_shows_the_window_and_returns(app, qapp, qtbot):
    app.settings.chat.language = "ja"
    sys.setswitchinterval(0.005)
    seen = {}

    def look_and_quit():
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        seen["windows"] = len(windows)
        seen["title"] = windows[0].menus.settings_action.text() if windows else ""
        seen["hook"] = sys.excepthook is not sys.__excepthook__
        seen["interval"] = sys.getswitchinterval()
        seen["icon"] = not windows[0].windowIcon().isNull()
        seen["collector"] = sum(c.timer.isActive() for c in qapp.findChildren(GuiThreadCollector))
        QCoreApplication.exit(0)

    QTimer.singleShot(300, look_and_quit)
    assert ensure_qapplication() is qapp  # one QApplication, reused
    assert run_gui(app) == 0
    assert seen == {"windows": 1, "title": "設定…", "hook": True, "interval": 0.001, "icon": True, "collector": 1}
    assert not any(c.timer.isActive() for c in qapp.findChildren(GuiThreadCollector))
    assert sys.excepthook is sys.__excepthook__ and sys.getswitchinterval() == 0.005
    assert QCoreApplication.translate("MainWindow", "Settings…") == "Settings…"  # translators removed
    assert not any(isinstance(w, MainWindow) and w.isVisible() for w in QApplication.topLevelWidgets())


def test_an_exception_in_a_slot_becomes_a_crash_report(app, qapp, qtbot):
    from monchat.gui.main import create_main_window, install_excepthook
    window = create_main_window(app)
    qtbot.addWidget(window)
    install_excepthook(window, app.paths.crash_dir)
    try:
        try:
            raise ValueError("slot exploded")
        except ValueError:
            sys.excepthook(*sys.exc_info())
        qtbot.waitUntil(lambda: bool(window.dialogs), timeout=2000)
        box = window.dialogs[-1]
        assert "internal error" in box.text() and "crash report was saved" in box.informativeText()
        reports = list(app.paths.crash_dir.glob("crash-*.txt"))
        assert len(reports) == 1 and "slot exploded" in reports[0].read_text(encoding="utf-8")
        box.close()
    finally:
        sys.excepthook = sys.__excepthook__
        window.shutdown()
        window.translators.remove()
