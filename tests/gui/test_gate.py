"""The flush gate in the window: a count always, one banner at 3 and a louder one at 5; nothing dead."""

from __future__ import annotations

from PySide6.QtCore import Qt

from monchat.core.errors import BackendUnreachable
from tests.gui.conftest import fill_log_files, log_message


def flush_buttons(window) -> list:
    """Every Flush button a user sees in the window's body (the toolbar's action aside)."""
    return window.gate_bar.visible_flush_buttons() + [
        b for b in window.composer.findChildren(type(window.gate_bar.flush_button)) if "Flush" in b.text()
        and b.isVisibleTo(window)]


def test_below_warn_only_the_count_and_one_flush_button_show(app, make_window):
    fill_log_files(app, 2)
    window = make_window("en")
    assert "Unflushed log files: 2" in window.gate_bar.count_label.text()
    assert not window.gate_bar.banner.isVisible()
    assert flush_buttons(window) == [window.gate_bar.flush_button]
    assert window.composer.edit.isEnabled() and not window.composer.paused_label.isVisible()


def test_at_three_files_one_banner_with_one_flush_button(app, make_window, backend, qtbot):
    fill_log_files(app, 3)
    window = make_window("en")
    assert window.gate_bar.banner.isVisible()
    assert "3 log files are waiting" in window.gate_bar.banner_label.text()
    assert flush_buttons(window) == [window.gate_bar.banner_button]  # not three: one
    assert window.gate_bar.banner_button.isEnabled()
    assert window.composer.edit.isEnabled()  # a recommendation, not a stop
    backend.enqueue("ok")
    window.composer.edit.setPlainText("still chatting")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()


def test_at_five_files_the_banner_is_louder_and_the_composer_disabled_with_the_reason(
        app, make_window, backend, qtbot):
    fill_log_files(app, 5)
    window = make_window("en")
    bar, composer = window.gate_bar, window.composer
    assert bar.banner.isVisible() and "Chat is paused: 5 log files" in bar.banner_label.text()
    assert bar.banner_label.font().bold() and "2px solid #c62828" in bar.banner.styleSheet()  # louder than "warn"
    assert flush_buttons(window) == [bar.banner_button] and bar.banner_button.isEnabled()
    # The composer stays where it was, disabled, saying why (not replaced by a grey box).
    assert composer.edit.isVisible() and not composer.edit.isEnabled()
    assert not composer.send_button.isEnabled()
    assert composer.paused_label.isVisible() and "Chat is paused until you flush" in composer.paused_label.text()
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

    # The banner's Flush button opens the flush dialog.
    with qtbot.waitSignal(bar.flush_requested, timeout=1000):
        bar.banner_button.click()
    dialog = window.dialogs[-1]
    assert dialog.isVisible() and dialog.windowTitle() == "Flush"
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    assert "5 log files with 5 messages" in dialog.plan_label.text()
    dialog.close()


def test_at_five_files_regenerate_and_edit_are_disabled_with_the_reason(app, make_window, qtbot):
    fill_log_files(app, 5)
    log_message(app, 0.008, "the question", role="user")  # in the newest of the five files
    log_message(app, 0.007, "the answer", role="assistant")
    window = make_window("en")
    assert window.chat_view.bubbles  # there is something they would act on …
    for act in (window.menus.regenerate_action, window.menus.edit_action):
        assert not act.isEnabled() and "paused" in act.toolTip()  # … but chat is paused
    window.turns.begin_edit_last()  # the shortcut's slot, called anyway
    assert not window.composer.edit_row.isVisible()  # never an editing banner without a usable box


def test_an_empty_chat_says_why_regenerate_and_edit_cannot_act(window, backend, qtbot):
    assert not window.menus.regenerate_action.isEnabled() and "send a message first" in window.menus.regenerate_action.toolTip()
    assert not window.menus.edit_action.isEnabled() and "no message of yours" in window.menus.edit_action.toolTip()
    backend.enqueue("hello back")
    window.composer.edit.setPlainText("hello")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert window.menus.regenerate_action.isEnabled() and window.menus.edit_action.isEnabled()
    assert window.menus.regenerate_action.toolTip() == "Ask for the last reply again"


def test_while_a_reply_streams_flush_is_disabled_with_the_reason_then_works(app, make_window, backend, qtbot):
    fill_log_files(app, 3)
    window = make_window("en")
    backend.delay = 0.02
    backend.enqueue([f"piece {n} " for n in range(60)])
    window.composer.edit.setPlainText("a long answer please")
    window.composer.submit()
    qtbot.waitUntil(lambda: window.turns.current is not None, timeout=2000)
    button = window.gate_bar.banner_button
    assert not button.isEnabled() and "reply is being written" in button.toolTip()
    assert not window.menus.flush_action.isEnabled() and not window.menus.regenerate_action.isEnabled()
    assert "stop it" in window.menus.regenerate_action.toolTip()
    with qtbot.waitSignal(window.turn_finished, timeout=10000):
        pass
    assert button.isEnabled() and window.menus.flush_action.isEnabled()
    button.click()
    dialog = window.dialogs[-1]
    assert dialog.isVisible() and dialog.windowTitle() == "Flush"
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
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


# ---- errors you can act on ---------------------------------------------------------
def test_a_failed_reply_has_a_retry_that_answers_it_and_clears_the_error(window, app, backend, qtbot):
    backend.enqueue(BackendUnreachable("Ollama is not running.", "Start it."), "here I am")
    window.composer.edit.setPlainText("are you there?")
    with qtbot.waitSignal(window.turn_failed, timeout=5000):
        window.composer.submit()
    (notice,) = window.chat_view.notices()
    retry = notice.findChild(type(window.gate_bar.flush_button), "notice_action")
    assert retry is not None and retry.text() == "Retry"
    qtbot.waitUntil(retry.isVisible, timeout=2000)
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        retry.click()
    assert window.chat_view.notices() == []  # the old error went when the retry worked
    assert [(b.role, b.text()) for b in window.chat_view.bubbles] == [("user", "are you there?"),
                                                                      ("assistant", "here I am")]
    assert [t.content for t in backend.history[-1][2] if t.role == "user"] == ["are you there?"]  # asked once


def test_a_resend_that_works_clears_the_old_error(window, backend, qtbot):
    backend.enqueue(BackendUnreachable("Ollama is not running.", "Start it."), "fine now")
    window.composer.edit.setPlainText("first")
    with qtbot.waitSignal(window.turn_failed, timeout=5000):
        window.composer.submit()
    assert len(window.chat_view.notices()) == 1
    window.composer.edit.setPlainText("second")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    qtbot.waitUntil(lambda: window.chat_view.notices() == [], timeout=2000)


def test_errors_the_user_must_mend_first_have_no_retry(window):
    from monchat.gui.kit.workers import Failure
    assert window.turns._retry_for(None, Failure("gate_closed", "")) is None
    assert window.turns._retry_for(None, Failure("storage_corrupt", "")) is None
    label = window.chat_view.add_notice("a plain note")
    assert label.parent().findChild(type(window.gate_bar.flush_button), "notice_action") is None


def test_a_pause_during_an_edit_leaves_edit_mode_and_keeps_the_words(app, make_window, backend, qtbot):
    fill_log_files(app, 4)
    backend.enqueue("answer")
    window = make_window("en")
    window.composer.edit.setPlainText("first try")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()  # this message opens nothing new: still four files
    window.turns.begin_edit_last()
    assert window.composer.edit_row.isVisible()
    log_message(app, 24.01, "a fifth slot")  # another window logged: the gate closes
    window.refresh_gate()
    assert not window.composer.edit_row.isVisible() and window.composer.text() == "first try"
    assert not window.composer.edit.isEnabled()


def test_at_five_files_off_the_record_sends_and_the_banner_says_so(app, make_window, backend, qtbot):
    fill_log_files(app, 5)
    window = make_window("en")
    assert not window.composer.edit.isEnabled()
    window.controls.off_record_action.setChecked(True)  # Chat → Off the record
    assert window.composer.edit.isEnabled() and window.composer.send_button.isEnabled()
    assert "Off the record you can go on chatting" in window.gate_bar.banner_label.text()
    backend.enqueue("just between us")
    window.composer.edit.setPlainText("off the record at the stop gate")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert len(app.logbook.files()) == 5  # nothing added to the flush's backlog
    window.controls.off_record_action.setChecked(False)  # on the record: paused again
    assert not window.composer.edit.isEnabled()
    assert "Off the record" not in window.gate_bar.banner_label.text()
    window.turns.send("on the record?")
    assert window.turns.current is None and [k for k, *_ in backend.history] == ["chat"]
