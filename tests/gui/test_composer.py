"""The composer: Enter sends, Shift+Enter adds a line, an IME's Enter never sends."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QApplication

from monchat.gui.chat import composer as composer_module
from monchat.gui.chat.composer import Composer


@pytest.fixture
def composer(qtbot):
    widget = Composer()
    qtbot.addWidget(widget)
    widget.show()
    widget.edit.setFocus()
    sent: list[str] = []
    widget.send_requested.connect(sent.append)
    widget.sent = sent
    return widget


def preedit(edit, text: str) -> None:
    """What an input method sends while the user is composing (not yet converted/confirmed)."""
    QApplication.sendEvent(edit, QInputMethodEvent(text, []))


def commit(edit, text: str) -> None:
    """What an input method sends when the conversion is confirmed."""
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(edit, event)


def press_return(edit, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    QApplication.sendEvent(edit, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, modifiers, "\r"))
    QApplication.sendEvent(edit, QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_Return, modifiers, "\r"))


def test_enter_with_ime_preedit_pending_does_not_send(composer, qtbot, monkeypatch):
    edit = composer.edit
    preedit(edit, "にほんご")
    assert edit.preedit_pending()
    press_return(edit)  # the Enter that confirms the conversion
    assert composer.sent == []
    commit(edit, "日本語")
    assert not edit.preedit_pending()
    assert edit.toPlainText() == "日本語"
    assert "\n" not in edit.toPlainText()  # the confirming Enter added no line either

    # An Enter delivered together with the commit (some platforms do) is still the IME's.
    press_return(edit)
    assert composer.sent == []

    # A later, deliberate Enter sends.
    monkeypatch.setattr(composer_module, "COMMIT_ENTER_GRACE_S", 0.0)
    press_return(edit)
    assert composer.sent == ["日本語"]


def test_enter_without_preedit_sends_and_shift_enter_adds_a_line(composer, qtbot):
    qtbot.keyClicks(composer.edit, "hello")
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer.edit, "world")
    assert composer.sent == []
    assert composer.text() == "hello\nworld"
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return)
    assert composer.sent == ["hello\nworld"]
    qtbot.keyClick(composer.edit, Qt.Key.Key_Enter)  # the keypad Enter too
    assert composer.sent == ["hello\nworld", "hello\nworld"]  # the main window clears it, not the composer


def test_ctrl_enter_mode(composer, qtbot):
    composer.set_ctrl_enter_sends(True)
    assert "Ctrl+Enter sends" in composer.edit.placeholderText()
    qtbot.keyClicks(composer.edit, "line one")
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return)
    qtbot.keyClicks(composer.edit, "line two")
    assert composer.sent == [] and composer.text() == "line one\nline two"
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert composer.sent == ["line one\nline two"]


def test_empty_text_streaming_and_closed_gate_never_send(composer, qtbot):
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return)
    qtbot.keyClicks(composer.edit, "   ")
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return)
    assert composer.sent == []
    composer.edit.setPlainText("wait")
    composer.set_streaming(True)
    qtbot.keyClick(composer.edit, Qt.Key.Key_Return)
    assert composer.sent == [] and composer.stop_button.isVisible()
    composer.set_streaming(False)
    composer.set_gate_closed(True)
    composer.submit()
    assert composer.sent == [] and composer.paused_label.isVisible()
    assert composer.edit.isVisible() and not composer.edit.isEnabled()  # disabled, not replaced


def test_window_sends_with_enter_and_ignores_ime_enter(window, backend, qtbot, monkeypatch):
    """The same through the main window: nothing reaches the backend while converting."""
    edit = window.composer.edit
    monkeypatch.setattr(composer_module, "COMMIT_ENTER_GRACE_S", 0.0)
    commit(edit, "今日は")
    preedit(edit, "てんき")
    press_return(edit)
    qtbot.wait(20)
    assert backend.history == [] and window.turns.current is None
    commit(edit, "天気")
    assert edit.toPlainText() == "今日は天気"
    backend.enqueue("やあ")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        press_return(edit)
    assert backend.history[-1][2][-1].content == "今日は天気"


def test_the_send_key_is_the_setting_chat_ctrl_enter_sends(app, make_window, qtbot):
    import tomllib
    app.settings.chat.ctrl_enter_sends = True
    window = make_window("en")
    assert window.composer.edit.ctrl_enter_sends and window.menus.send_key_action.isChecked()

    window.menus.send_key_action.trigger()  # the Chat menu's toggle: saved at once
    assert not app.settings.chat.ctrl_enter_sends and not window.composer.edit.ctrl_enter_sends
    assert "Enter sends" in window.composer.edit.placeholderText()
    saved = tomllib.loads(app.paths.settings_path.read_text(encoding="utf-8"))
    assert saved["chat"]["ctrl_enter_sends"] is False
    window.menus.send_key_action.trigger()
    saved = tomllib.loads(app.paths.settings_path.read_text(encoding="utf-8"))
    assert saved["chat"]["ctrl_enter_sends"] is True and window.composer.edit.ctrl_enter_sends

    qtbot.keyClicks(window.composer.edit, "line one")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)
    assert window.composer.text() == "line one\n" and window.turns.current is None  # Enter only added a line
    dialog = window.open_settings()
    assert dialog.chat_page.ctrl_enter.isChecked()
    dialog.close()
