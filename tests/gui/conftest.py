"""GUI test fixtures: offscreen Qt, a built app with a scripted backend, Qt warnings fail, workers drained.

After novelWriter's tests: settings reset per test (each test has its own
MONCHAT_HOME), modals never block (dialogs are opened with ``open()``), and
the thread pool is drained at teardown.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from datetime import timedelta
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.types import Message, format_ts, new_message_id
from tests.support.qt_teardown import *  # noqa: F403 - Qt warnings in teardown fail too
from tests.support.scripted import ScriptedBackend

GUI_TESTS = Path(__file__).resolve().parent
# The offscreen platform says this about every top-level window; it is not about our code.
PLATFORM_NOISE = r"This plugin does not support propagateSizeHints"


def pytest_collection_modifyitems(items):
    """Qt warnings fail every GUI test (pytest-qt's ``qt_log_level_fail``), in its teardown too."""
    for item in items:
        if GUI_TESTS in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(PLATFORM_NOISE))


@pytest.fixture(scope="session", autouse=True)
def collect_on_gui_thread(qapp):
    """As ``open_window`` does: cycles holding Qt objects (windows of earlier tests) are freed on the GUI thread,
    never by a worker thread that happens to allocate (``gui/kit/collector.py``)."""
    from monchat.gui.kit.collector import GuiThreadCollector
    collector = GuiThreadCollector()
    yield collector
    collector.stop()


def loops_run() -> bool:
    """False when ``QCoreApplication.exit()`` ran outside the application's own ``exec()`` (a test's nested
    loop, or no loop at all): Qt then returns at once from every later ``QEventLoop.exec()`` — every
    ``qtbot.wait``, ``waitUntil`` and ``waitSignal`` of the tests after it — until ``exec()`` runs again."""
    from PySide6.QtCore import QEventLoop, QTimer
    loop = QEventLoop()
    QTimer.singleShot(0, loop, loop.quit)
    return loop.exec() == 0


@pytest.fixture(autouse=True)
def event_loops_left_running(qapp):
    """Each test starts with event loops that run, whatever the one before left.

    The window's own ``exec()`` runs once per process in the app; here the tests that open the window through
    ``open_window`` run it many times in one worker, and when one of them left ``QCoreApplication`` exiting
    (seen once in ten runs of the GUI suite on two workers, after a start that failed on a damaged database), every
    later test's waits returned at once: their windows' context meters never counted (``waitUntil`` timed out
    after 5 s in CI). ``exec()`` clears Qt's "quit now" at its start and its end, so a short one does it here.
    """
    yield
    if not loops_run():
        from PySide6.QtCore import QCoreApplication, QTimer
        timer = QTimer()  # a timer of its own, stopped after: no exit left queued for a later test's loop
        timer.setSingleShot(True)
        timer.timeout.connect(lambda: QCoreApplication.exit(0))
        timer.start(0)
        qapp.exec()
        timer.stop()
        assert loops_run(), "the application's exec() did not clear Qt's quit-now"


@pytest.fixture(autouse=True)
def gui_interpreter():
    """The interpreter tuned as ``run_gui`` tunes it (the GIL hand-over interval, background work below the window)."""
    from monchat.gui.main import background_below_window, restore_interpreter, tune_interpreter_for_gui
    previous = tune_interpreter_for_gui()
    background_below_window()
    yield
    restore_interpreter(previous)


@pytest.fixture
def backend():
    # A reply logged in the same millisecond as its question may sort before it
    # (ChatService.window() orders by time, then by id; see the report to core).
    return ScriptedBackend(delay=0.002)


@pytest.fixture
def app(home, backend):
    application = build_app(str(home), pinned_backend=backend)
    yield application
    application.store.close()


@pytest.fixture
def translators(qapp):
    from monchat.gui.translation import Translators
    t = Translators()
    yield t
    t.remove()


@pytest.fixture
def make_window(qtbot, app, translators):
    """Build the main window (in a language) and drain its workers at teardown."""
    windows = []

    def make(language: str = "en"):
        from monchat.gui.main_window import MainWindow
        translators.install(language)
        window = MainWindow(app)
        qtbot.addWidget(window)
        windows.append(window)
        window.show()
        qtbot.waitUntil(lambda: window.meter.meter is not None, timeout=5000)
        return window

    yield make
    for window in windows:
        assert window.shutdown(10000), "workers did not finish"


@pytest.fixture
def window(make_window):
    return make_window("en")


def log_message(app, hours_ago: float, text: str, role: str = "user", persona: str = "hana") -> Message:
    """Write one message into the 6-hour log file of its time."""
    when = app.clock() - timedelta(hours=hours_ago)
    message = Message(id=new_message_id(), ts=format_ts(when), role=role, text=text, persona=persona)
    app.logbook.append(message)
    return message


def fill_log_files(app, count: int) -> None:
    """Make ``count`` unflushed log files (one message in each of ``count`` 6-hour slots)."""
    for n in range(count):
        log_message(app, 6 * n + 0.01, f"message {n}")
    assert len(app.logbook.files()) == count
