"""A turn, and the review count that follows the window's start, import no other window's module.

Importing a module runs it on the thread that asks, and the window's thread does nothing else meanwhile:
the Memory menu's first review count imported the flush window's module (and all it imports) only to look
for an open flush window, and the window stood still 182 ms (``benchmarks/bench_gui_stall.py``, a reply
streaming). A window's module is imported when the user opens that window.
"""

from __future__ import annotations

import builtins
import importlib.util
import threading

from tests.gui.test_chat_window import send

# Packages and modules of windows the user opens from a menu (the main window's own parts are in gui/chat/).
OTHER_WINDOWS = ("monchat.gui.flush", "monchat.gui.settings", "monchat.gui.history", "monchat.gui.personas",
                 "monchat.gui.memory.browser", "monchat.gui.memory.review_queue", "monchat.gui.memory.inbox",
                 "monchat.gui.memory.never_dialog")


class ImportWatch:
    """Every import statement the GUI thread runs, by its full module name."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self._import = builtins.__import__

    def __enter__(self):
        def watching(name, globals=None, locals=None, fromlist=(), level=0):
            if threading.current_thread() is threading.main_thread():
                full = importlib.util.resolve_name("." * level + name, (globals or {}).get("__package__")) \
                    if level else name
                self.names.extend([full] + [f"{full}.{item}" for item in fromlist or ()])
            return self._import(name, globals, locals, fromlist, level)
        builtins.__import__ = watching
        return self

    def __exit__(self, *exc) -> None:
        builtins.__import__ = self._import

    def windows(self) -> list[str]:
        return sorted({n for n in self.names if n.startswith(OTHER_WINDOWS)})


def test_a_turn_and_the_review_count_import_no_other_window(window, backend, qtbot):
    backend.enqueue("a reply")
    with ImportWatch() as watch:
        send(window, qtbot, "hello")
        window.memory_menu.refresh_review_count()
        qtbot.waitUntil(lambda: not window.runner._active, timeout=5000)
        window.memory_menu._show_count(3)  # what the count's answer runs, whatever the count
    assert watch.names  # the watch saw the GUI thread's imports (the turn runs some)
    assert watch.windows() == []

