"""A test that leaves ``QCoreApplication`` exiting does not stop the next test's event loops
(``tests/gui/conftest.py``'s ``event_loops_left_running``): in CI, every window after such a test waited 5 s for
a context meter whose count never ran."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTimer

from tests.gui.conftest import loops_run


def test_exiting_outside_the_applications_exec_stops_every_later_loop(qapp):
    QCoreApplication.exit(0)  # what a test's nested loop or code after exec() may do
    assert not loops_run() and not loops_run()  # Qt's "quit now" stays until exec() runs again


def test_the_next_test_starts_with_loops_that_run(qapp, qtbot):
    fired: list[int] = []
    QTimer.singleShot(10, lambda: fired.append(1))
    qtbot.waitUntil(lambda: bool(fired), timeout=2000)
    assert loops_run()
