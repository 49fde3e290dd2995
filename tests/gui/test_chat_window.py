"""The main window's chat: send, stream, log, stop, regenerate, edit, errors, older messages."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication

from monchat.core.errors import BackendUnreachable
from tests.gui.conftest import log_message


def logged(app) -> list[dict]:
    """Every line of every 6-hour log file, as written on disk."""
    lines = []
    for path in app.logbook.files():
        lines += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines


def fragments(document):
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            yield iterator.fragment()
            iterator += 1
        block = block.next()


def send(window, qtbot, text: str, timeout: int = 5000):
    window.composer.edit.setPlainText(text)
    with qtbot.waitSignal(window.turn_finished, timeout=timeout) as blocker:
        window.composer.submit()
    return blocker.args[0]


def test_send_streams_the_reply_and_logs_both_messages(window, backend, app, qtbot):
    backend.enqueue(["こんにちは", "。今日は", "**いい天気**ですね。"])
    window.composer.edit.setPlainText("やあ、ハナ")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
        assert window.chat_view.bubbles[-1].status == "streaming"
    user, reply = window.chat_view.bubbles[-2:]
    assert user.role == "user" and user.text() == "やあ、ハナ" and user.message_id
    assert reply.role == "assistant" and reply.text() == "こんにちは。今日は**いい天気**ですね。"
    assert reply.status == "ok" and "ハナ" in reply.header.text()
    # Replies render as Markdown (Qt's own); the user's own words stay as typed.
    assert reply.body.toPlainText() == "こんにちは。今日はいい天気ですね。"
    assert any(fragment.charFormat().fontWeight() >= QFont.Weight.Bold
               for fragment in fragments(reply.body.document()))
    assert user.body.toPlainText() == "やあ、ハナ"
    lines = logged(app)
    assert [(m["role"], m["text"]) for m in lines] == [("user", "やあ、ハナ"),
                                                       ("assistant", "こんにちは。今日は**いい天気**ですね。")]
    assert lines[0]["id"] == user.message_id and lines[1]["id"] == reply.message_id
    assert window.composer.text() == ""  # sent text left the composer
    assert backend.history[-1][2][-1].content == "やあ、ハナ"


def test_stop_mid_stream_marks_the_reply_stopped(window, backend, app, qtbot):
    backend.delay = 0.05
    backend.enqueue([f"part{n} " for n in range(60)])
    window.composer.edit.setPlainText("長い話をして")
    with qtbot.waitSignal(window.turn_finished, timeout=10000) as blocker:
        window.composer.submit()
        assert window.composer.stop_button.isVisible() and not window.composer.send_button.isVisible()
        qtbot.waitUntil(lambda: "part2" in window.chat_view.bubbles[-1].text(), timeout=5000)
        qtbot.mouseClick(window.composer.stop_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert result.stopped
    reply = window.chat_view.bubbles[-1]
    assert reply.status == "stopped" and "(stopped)" in reply.header.text()
    assert "part59" not in reply.text()
    assert logged(app)[-1]["status"] == "stopped"
    assert window.composer.send_button.isVisible()


def test_regenerate_replaces_the_last_reply(window, backend, app, qtbot):
    backend.enqueue("first answer", "second answer")
    send(window, qtbot, "質問です")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.menus.regenerate_action.trigger()
    texts = [(b.role, b.text()) for b in window.chat_view.bubbles]
    assert texts == [("user", "質問です"), ("assistant", "second answer")]
    window.reload_conversation()  # what is on disk agrees
    assert [b.text() for b in window.chat_view.bubbles] == ["質問です", "second answer"]


def test_edit_last_message_replaces_it_and_its_reply(window, backend, app, qtbot):
    backend.enqueue("answer one", "answer two")
    send(window, qtbot, "typo mesage")
    window.menus.edit_action.trigger()
    assert window.composer.edit_row.isVisible() and window.composer.text() == "typo mesage"
    send(window, qtbot, "typo message, fixed")
    assert [b.text() for b in window.chat_view.bubbles] == ["typo message, fixed", "answer two"]
    assert not window.composer.edit_row.isVisible()
    window.reload_conversation()
    assert [b.text() for b in window.chat_view.bubbles] == ["typo message, fixed", "answer two"]


def test_a_backend_error_is_shown_in_words_and_the_message_stays_logged(window, backend, app, qtbot):
    backend.enqueue(BackendUnreachable("Ollama is not running at http://127.0.0.1:11434.",
                                       "Start it with `ollama serve`."))
    window.composer.edit.setPlainText("届くかな")
    with qtbot.waitSignal(window.turn_failed, timeout=5000) as blocker:
        window.composer.submit()
    failure = blocker.args[0]
    assert failure.known and failure.code == "backend_unreachable"
    notices = window.chat_view.container.findChildren(type(window.chat_view.greeting), "notice")
    assert notices and "could not be reached" in notices[-1].text() and "ollama serve" in notices[-1].text()
    assert [m["text"] for m in logged(app)] == ["届くかな"]  # the user's words are safe on disk
    assert [b.text() for b in window.chat_view.bubbles] == ["届くかな"]


def test_a_bug_in_a_worker_becomes_a_crash_report(window, backend, app, qtbot):
    backend.enqueue(RuntimeError("unexpected"))
    window.composer.edit.setPlainText("hello")
    with qtbot.waitSignal(window.turn_failed, timeout=5000) as blocker:
        window.composer.submit()
    failure = blocker.args[0]
    assert not failure.known and "RuntimeError" in failure.details
    assert failure.crash_report and Path(failure.crash_report).read_text(encoding="utf-8").count("unexpected")
    box = window.dialogs[-1]
    assert box.isVisible() and "internal error" in box.text()
    box.close()


def test_copy_button_copies_the_raw_text(window, backend, qtbot):
    backend.enqueue("コピーして **ね**")
    send(window, qtbot, "hi")
    window.chat_view.bubbles[-1].copy_button.click()
    assert QGuiApplication.clipboard().text() == "コピーして **ね**"


def test_conversation_shows_the_window_and_loads_older_messages(app, make_window, qtbot):
    old = [log_message(app, 40 + n, f"old message {n}") for n in range(3)]  # outside the 12-hour window
    app.archive.archive(old)
    recent = log_message(app, 1, "recent message")
    window = make_window("en")
    assert [b.text() for b in window.chat_view.bubbles] == [recent.text]
    assert "You" in window.chat_view.bubbles[0].header.text()
    window.chat_view.request_older()
    assert [b.text() for b in window.chat_view.bubbles] == ["old message 2", "old message 1", "old message 0",
                                                           "recent message"]
    window.chat_view.request_older()
    assert window.chat_view.no_more_older and not window.chat_view.older_button.isEnabled()


def test_greeting_and_persona_switch(window, app, qtbot):
    assert window.chat_view.greeting.isVisible()
    assert window.chat_view.greeting.text() == app.personas.surface["hana"].greeting
    other = window.persona_box.findData("ren")
    assert other >= 0
    with qtbot.waitSignal(window.meter_changed, timeout=5000):
        window.persona_box.setCurrentIndex(other)
    assert app.settings.chat.persona == "ren"
    assert 'persona = "ren"' in app.paths.settings_path.read_text(encoding="utf-8")
    assert window.chat_view.greeting.text() == app.personas.surface["ren"].greeting


def test_context_meter_counts_system_and_window(window, backend, app, qtbot):
    before = window.meter.meter.total
    assert window.meter.meter.system_tokens > 0 and window.meter.meter.context_length == 8192
    backend.enqueue("a fairly long reply " * 20)
    with qtbot.waitSignal(window.meter_changed, timeout=5000):
        send(window, qtbot, "tell me something long")
    assert window.meter.meter.total > before
    assert f"{window.meter.meter.total:,}" in window.meter.label.text()


def test_a_failed_regeneration_keeps_the_old_reply(window, backend, app, qtbot):
    backend.enqueue("the only answer", BackendUnreachable("Ollama is not running.", "Start it."))
    send(window, qtbot, "question")
    with qtbot.waitSignal(window.turn_failed, timeout=5000):
        window.turns.regenerate()
    replies = [b for b in window.chat_view.bubbles if b.role == "assistant"]
    assert [b.text() for b in replies] == ["the only answer"] and replies[0].isVisible()


def test_closing_the_window_stops_the_reply_and_waits(app, make_window, backend, qtbot):
    window = make_window("en")
    backend.delay = 0.05
    backend.enqueue([f"piece {n} " for n in range(200)])
    window.composer.edit.setPlainText("talk for a long time")
    window.composer.submit()
    qtbot.waitUntil(lambda: "piece 1" in window.chat_view.bubbles[-1].text(), timeout=5000)
    window.close()
    assert not window.runner.busy()  # close waited for the worker …
    assert logged(app)[-1]["status"] == "stopped"  # … which stopped, rather than streaming to the end
    assert "piece 199" not in logged(app)[-1]["text"]


def test_scrolling_to_the_top_loads_older_messages_and_keeps_the_view(app, make_window, qtbot):
    old = [log_message(app, 48 + n / 10, f"archived {n}") for n in range(20)]
    app.archive.archive(old)
    for n in range(15):
        log_message(app, 2 - n / 10, f"recent {n}")
    window = make_window("en")
    window.resize(600, 400)
    view = window.chat_view
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=2000)
    first_recent = view.bubbles[0]
    assert first_recent.text() == "recent 0" and len(view.bubbles) == 15
    with qtbot.waitSignal(view.older_requested, timeout=1000):
        bar.setValue(0)
    assert len(view.bubbles) == 35 and view.bubbles[0].text() == "archived 19"
    qtbot.waitUntil(lambda: bar.value() > 0, timeout=2000)  # the message that was on top stays in view
    top = first_recent.mapTo(view.container, first_recent.rect().topLeft()).y()
    assert bar.value() - 5 <= top <= bar.value() + view.viewport().height()
