"""Small things users of other chat apps expect: Copied, Ctrl+, for settings, About, the window's place,
the true thread count."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication, QKeySequence

from monchat.core.backends.embedded import default_threads
from monchat.gui.main_window import MainWindow


def test_copy_says_copied_then_goes_back(window, backend, qtbot):
    backend.enqueue("copy me")
    window.composer.edit.setPlainText("hi")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    bubble = window.chat_view.bubbles[-1]
    bubble.copy_button.click()
    assert QGuiApplication.clipboard().text() == "copy me" and bubble.copy_button.text() == "Copied"
    qtbot.waitUntil(lambda: bubble.copy_button.text() == "Copy", timeout=3000)


def test_ctrl_comma_opens_the_settings(window):
    assert QKeySequence("Ctrl+,") in window.menus.settings_action.shortcuts()


def test_help_about_shows_the_version_and_the_data_folder(window, app):
    from monchat import __version__
    box = window.open_about()
    assert box.isVisible() and __version__ in box.text() and str(app.paths.data_dir) in box.informativeText()
    assert window.menus.about_action in window.menuBar().actions()[-1].menu().actions()  # Help is the last menu
    box.close()


def test_the_window_comes_back_where_it_was(app, make_window, qtbot):
    window = make_window("en")
    window.setGeometry(QRect(120, 90, 700, 540))
    window.close()
    again = MainWindow(app)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (700, 540)
    assert again.shutdown(10000)


def test_the_automatic_thread_count_says_how_many(window):
    dialog = window.open_settings()
    dialog.model.embedded_threads.setValue(0)
    assert dialog.model.embedded_threads.specialValueText() == f"automatic ({default_threads()}, the physical cores)"
    dialog.close()


def markers(window) -> list[str]:
    return [m.text() for m in window.chat_view.markers]


def test_a_change_of_persona_is_marked_in_the_conversation(window, backend, qtbot):
    backend.enqueue("hana here", "mira here")
    window.composer.edit.setPlainText("hello")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert markers(window) == []
    window.persona_box.setCurrentIndex(window.persona_box.findData("mira"))
    assert markers(window) == ["— now talking with Mira —"]  # at once, before anything is said
    window.composer.edit.setPlainText("and you?")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    window.reload_conversation()
    assert markers(window) == ["— now talking with Mira —"]
    column = window.chat_view.column
    marker = window.chat_view.markers[0]
    assert column.indexOf(marker) == column.indexOf(window.chat_view.bubbles[2]) - 1  # before "and you?"
