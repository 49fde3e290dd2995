"""The window's first paint waits for nothing it does not show (``benchmarks/run``'s ``gui_start_ratio``).

A structural check, not a timing one: ``monchat`` (the window) runs in a new interpreter, as a user starts it,
and at the main window's first paint reads ``sys.modules`` and whether the context meter was started. The
meter (which may load a tokenizer on a worker and slow the paint), sqlite-utils' scan of every installed
package's plugins (``importlib.metadata``), the background's graph and the notices' icons come after it.
"""

from __future__ import annotations

from tests.test_fast_start import run_python

NOT_BEFORE_FIRST_PAINT = ("importlib.metadata", "monchat.core.background.graph", "monchat.core.background.gaps",
                          "monchat.gui.kit.notice", "pygments", "monchat.core.flush.service")


def test_the_first_paint_comes_before_the_meter_and_imports_nothing_it_does_not_show(home):
    code = f"""
import json, os, sys
from monchat.cli.main import main
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
qapp = QApplication(sys.argv[:1])
seen = {{}}

class Watch(QObject):
    def eventFilter(self, obj, event):
        if not seen and event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
            seen["loaded"] = [m for m in {NOT_BEFORE_FIRST_PAINT!r} if m in sys.modules]
            seen["meter_started"] = obj.meter_counter.generation > 0  # each count started adds one
            seen["meter_shown"] = obj.meter.meter is not None
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
    assert result["loaded"] == []
    assert result["meter_started"] is False and result["meter_shown"] is False
