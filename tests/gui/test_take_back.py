"""Taking words back in the window: Edit, then a flush; and Delete on a message, asked first.

The window's backend is the real ``ollama`` client talking to the loopback fake Ollama, which records every
request: the taken-back words must be in none that a flush sends.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QMessageBox

from monchat.core.backends.ollama import OllamaBackend
from tests.fakes.fake_ollama import running_fake_ollama

SECRET = "My secret diary password is hunter2, remember it"


@pytest.fixture
def server():
    with running_fake_ollama() as fake:
        fake.reply_chunks = ["Noted."]
        fake.structured_content = json.dumps({"items": []})
        yield fake


@pytest.fixture
def backend(server):
    model = OllamaBackend("llama3.2", host=server.url, num_ctx=8192, timeout_s=10)
    yield model
    model.close()


@pytest.fixture
def quiet_background(app):
    app.settings.background.reflect = app.settings.background.diary = app.settings.background.lint_llm = False
    return app


def send(window, qtbot, text: str) -> None:
    window.composer.edit.setPlainText(text)
    with qtbot.waitSignal(window.turn_finished, timeout=10000):
        window.composer.submit()


def filter_bodies(server, since: int = 0) -> list[str]:
    return [json.dumps(r["body"], ensure_ascii=False) for r in server.requests[since:]
            if r["path"] == "/api/chat" and r["body"].get("format")]


def test_edit_in_the_window_then_a_flush_sends_the_old_words_to_no_filter(window, app, server, qtbot,
                                                                          quiet_background):
    send(window, qtbot, SECRET)
    window.menus.edit_action.trigger()
    send(window, qtbot, "I like green tea")
    assert [b.text() for b in window.chat_view.bubbles] == ["I like green tea", "Noted."]
    since = len(server.requests)
    app.flush.run(seed=1)
    sent = filter_bodies(server, since)
    assert len(sent) >= 4 and all("hunter2" not in body for body in sent) and all("green tea" in body for body in sent)


def delete_from_window(window, qtbot, bubble) -> object:
    """Click the bubble's Delete, answer Yes; return the ``Deleted`` record."""
    deletions = window.deletions
    with qtbot.waitSignal(deletions.asked, timeout=5000) as asked:
        bubble.delete_button.click()
    box = asked.args[0]
    text = box.text()
    with qtbot.waitSignal(deletions.deleted, timeout=5000) as done:
        box.button(QMessageBox.StandardButton.Yes).click()
    return text, done.args[0]


def test_delete_in_the_window_asks_then_removes_an_unflushed_message(window, app, server, qtbot, quiet_background):
    send(window, qtbot, SECRET)
    send(window, qtbot, "I like green tea")
    bubble = window.chat_view.bubbles[0]
    assert bubble.delete_button.isVisible()
    question, done = delete_from_window(window, qtbot, bubble)
    assert "for good" in question and "no flush will read it" in question
    assert (done.log_lines, done.archived) == (1, 0)
    assert [b.text() for b in window.chat_view.bubbles] == ["Noted.", "I like green tea", "Noted."]
    assert "hunter2" not in "".join(p.read_text(encoding="utf-8") for p in app.logbook.files())
    since = len(server.requests)
    app.flush.run(seed=1)
    sent = filter_bodies(server, since)
    assert sent and all("hunter2" not in body for body in sent)


def test_delete_in_the_window_of_a_flushed_message_retracts_its_memory(window, app, server, qtbot,
                                                                       quiet_background):
    send(window, qtbot, SECRET)

    def remember(body: dict) -> str:  # the base filter notices the password, citing the user's line
        if "hunter2" not in json.dumps(body, ensure_ascii=False) or "items" not in json.dumps(body["format"]):
            return json.dumps({"items": []})
        user_id = json.loads(next(line for line in body["messages"][-1]["content"].splitlines()
                                  if line.startswith("{") and '"user"' in line))["id"]
        return json.dumps({"items": [{"reason": "said so", "text": "the diary password is hunter2",
                                      "slot": "secret/password", "kind": "explicit", "score": 0.9,
                                      "evidence": [user_id]}]})
    server.structured_reply = remember
    app.flush.run(seed=1)
    [memory] = [m for m in app.memory.memories.all() if m.text == "the diary password is hunter2"]
    assert memory.live
    window.reload_conversation()
    bubble = next(b for b in window.chat_view.bubbles if b.text() == SECRET)
    question, done = delete_from_window(window, qtbot, bubble)
    assert "1 memory that rests only on it will be taken back" in question
    assert "Backups you made before now still hold these words." in question  # issue 36
    assert (done.log_lines, done.archived, done.memory.retracted) == (0, 1, [memory.id])
    assert app.memory.memories.get(memory.id) is None  # deleted with its history: it held the words
    assert "hunter2" not in app.chat.system_prompt(app.chat.persona())
    assert SECRET not in [b.text() for b in window.chat_view.bubbles]
    assert window.statusBar().currentMessage().startswith("Deleted. Memories taken back: 1")


def test_deleting_a_reply_says_no_memory_changes(window, app, qtbot):
    send(window, qtbot, "hello")
    reply = window.chat_view.bubbles[-1]
    assert reply.role == "assistant"
    question, done = delete_from_window(window, qtbot, reply)
    assert "Memory is never built on replies" in question and done.role == "assistant"
    assert [b.text() for b in window.chat_view.bubbles] == ["hello"]


def test_file_search_finds_no_edited_away_message(window, app, server, qtbot, quiet_background):
    """Issue 36: an edit takes the old words out of every file (``core/memory/scrub.py``), search included."""
    send(window, qtbot, SECRET)
    window.menus.edit_action.trigger()
    send(window, qtbot, "I like green tea, password or not")
    app.flush.run(seed=1)
    dialog = window.file_menu.open_search()
    dialog.query.setText("password")
    with qtbot.waitSignal(dialog.results_shown, timeout=5000):
        dialog.search_button.click()
    texts = [dialog.results.topLevelItem(i).text(3) for i in range(dialog.results.topLevelItemCount())]
    assert texts == ["I like green tea, password or not"]


def test_delete_waits_while_a_reply_is_being_written(window, app, server, qtbot):
    send(window, qtbot, "first words")
    first = window.chat_view.bubbles[0]
    server.mode, server.chunk_delay_s, server.reply_chunks = "slow", 0.2, ["one ", "two ", "three"]
    window.composer.edit.setPlainText("second words")
    with qtbot.waitSignal(window.turn_finished, timeout=10000):
        window.composer.submit()
        qtbot.waitUntil(lambda: window.turns.current is not None, timeout=5000)
        with qtbot.assertNotEmitted(window.deletions.asked, wait=300):
            first.delete_button.click()
        assert window.statusBar().currentMessage() == "A reply is being written: wait for it or stop it first."
    assert [m.text for m in app.logbook.read_all().messages][:1] == ["first words"]


def test_the_flush_dialog_says_edited_away_messages_were_archived_unread(make_window, qtbot):
    from monchat.core.types import Coded
    note = Coded("2 message(s) you edited away (or replies asked for again) were archived unread.",
                 "taken_back_unread", 2)
    window = make_window("ja")
    dialog = window.memory_menu.open_flush()
    assert dialog.report_words(note) == ("書き直して取り消したメッセージと、作り直して置き換えた返信 2 件は、"
                                         "読まずにアーカイブしました。")
