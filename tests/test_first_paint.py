"""The window paints before the app is built, and its filled paint waits for nothing it does not show
(``benchmarks/run``'s ``gui_start_ratio``).

A structural check, not a timing one: ``monchat`` (the window) runs in a new interpreter, as a user starts it.
At the main window's first paint — its frame (``gui/window_frame.py``) — the app's core is not imported yet:
no settings, no store (sqlite-utils), no backends, no ``build_app``. At the first paint of the filled window
the context meter (which may load a tokenizer on a worker and slow the paint), sqlite-utils' scan of every
installed package's plugins (``importlib.metadata``), the background's graph and the notices' icons come
after it.
"""

from __future__ import annotations

from tests.test_fast_start import run_python

NOT_BEFORE_FRAME = ("monchat.app", "monchat.core.settings", "monchat.core.store", "sqlite_utils",
                    "monchat.core.backends.registry", "monchat.core.chat.service", "monchat.gui.chat.view")
NOT_BEFORE_FIRST_PAINT = ("importlib.metadata", "monchat.core.background.graph", "monchat.core.background.gaps",
                          "monchat.gui.kit.notice", "pygments", "monchat.core.flush.service")


def test_the_frame_paints_before_the_app_is_built_and_the_filled_window_before_the_meter(home):
    code = f"""
import json, os, sys
from monchat.cli.main import main
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
qapp = QApplication(sys.argv[:1])
seen = {{}}

class Watch(QObject):
    def eventFilter(self, obj, event):
        if event.type() != QEvent.Type.Paint or not isinstance(obj, QMainWindow):
            return False
        if "frame" not in seen:
            seen["frame"] = {{"loaded": [m for m in {NOT_BEFORE_FRAME!r} if m in sys.modules],
                             "app": obj.app is not None, "menus_enabled": [a.isEnabled() for a in obj.menuBar().actions()],
                             "composer_enabled": obj.frame.composer.isEnabled(), "title": obj.windowTitle()}}
        elif obj.app is not None and "filled" not in seen:
            seen["filled"] = {{"loaded": [m for m in {NOT_BEFORE_FIRST_PAINT!r} if m in sys.modules],
                              "meter_started": obj.meter_counter.generation > 0,  # each count started adds one
                              "meter_shown": obj.meter.meter is not None,
                              "menus": [a.text() for a in obj.menuBar().actions()]}}
            obj.meter_changed.connect(lambda _m: QTimer.singleShot(0, qapp.quit))
        return False

watch = Watch()
qapp.installEventFilter(watch)
QTimer.singleShot(60_000, qapp.quit)  # a guard against a test that never ends, not a time measured
code = main([])
print(json.dumps({{"code": code, **seen}}))
"""
    result = run_python(code, home)
    assert result["code"] == 0
    frame, filled = result["frame"], result["filled"]
    assert frame["loaded"] == [] and frame["app"] is False
    assert frame["title"] == "monchat" and frame["composer_enabled"] is False
    assert len(frame["menus_enabled"]) == len(filled["menus"]) and not any(frame["menus_enabled"])
    assert filled["loaded"] == []
    assert filled["meter_started"] is False and filled["meter_shown"] is False


def test_the_parsers_words_for_marking_an_inbox_entry_are_the_inboxs():
    from monchat.cli.inbox import MARK_WORDS
    from monchat.core.background.inbox import MARKS
    assert MARK_WORDS == tuple(sorted(MARKS))
