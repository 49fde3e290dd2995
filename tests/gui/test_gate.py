"""The flush gate in the window: a count always, a banner at 3, chat paused at 5."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.conftest import fill_log_files, log_message


def test_below_warn_only_the_count_shows(app, make_window):
    fill_log_files(app, 2)
    window = make_window("en")
    assert "Unflushed log files: 2" in window.gate_bar.count_label.text()
    assert not window.gate_bar.banner.isVisible()
    assert window.composer.edit.isEnabled()


def test_at_three_files_a_banner_recommends_a_flush(app, make_window, backend, qtbot):
    fill_log_files(app, 3)
    window = make_window("en")
    assert window.gate_bar.banner.isVisible()
    assert "3 log files are waiting" in window.gate_bar.banner_label.text()
    assert window.gate_bar.banner_button.isVisible() and window.gate_bar.banner_button.isEnabled()
    assert window.composer.edit.isEnabled()  # a recommendation, not a stop
    backend.enqueue("ok")
    window.composer.edit.setPlainText("still chatting")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()


def test_at_five_files_chat_pauses_with_a_flush_button_and_no_backend_call(app, make_window, backend, qtbot):
    fill_log_files(app, 5)
    window = make_window("en")
    composer = window.composer
    assert not composer.edit.isEnabled() and not composer.send_button.isEnabled()
    assert composer.paused.isVisible() and composer.paused_flush_button.isVisible()
    assert composer.paused_flush_button.isEnabled()
    assert "Chat is paused: 5 log files" in composer.paused_label.text()
    files_before = {p: p.read_bytes() for p in app.logbook.files()}

    # Every way of sending is refused before any call.
    composer.edit.setPlainText("are you there?")
    composer.submit()
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return)
    window.turns.send("are you there?")
    window.turns.regenerate()
    qtbot.wait(50)
    assert backend.history == [] and backend.calls == 0
    assert window.turns.current is None
    assert {p: p.read_bytes() for p in app.logbook.files()} == files_before  # nothing logged

    # The Flush button right there opens the flush dialog.
    with qtbot.waitSignal(composer.flush_requested, timeout=1000):
        composer.paused_flush_button.click()
    dialog = window.dialogs[-1]
    assert dialog.isVisible() and dialog.windowTitle() == "Flush"
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    assert "5 log files with 5 messages" in dialog.plan_label.text()
    dialog.close()


def test_gate_refreshes_after_each_turn(app, make_window, backend, qtbot):
    log_message(app, 6.01, "earlier slot")
    log_message(app, 12.01, "even earlier slot")
    window = make_window("en")
    assert "Unflushed log files: 2" in window.gate_bar.count_label.text()
    backend.enqueue("reply")
    window.composer.edit.setPlainText("this opens the current slot's file")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert "Unflushed log files: 3" in window.gate_bar.count_label.text()
    assert window.gate_bar.banner.isVisible()
