"""A reply an OpenAI-compatible server ends with finish_reason "length" is marked cut off in its card.

The real ``openai`` client streams from the loopback fake server (``tests/fakes/fake_openai.py``), so the whole
path is the one a user meets: the server's finish reason, the backend's note, the window's card.
"""

from __future__ import annotations

import pytest

from monchat.app import build_app
from tests.fakes.fake_openai import running_fake_openai


@pytest.fixture
def server():
    with running_fake_openai() as fake:
        yield fake


@pytest.fixture
def server_window(home, server, qtbot, translators, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    app = build_app(str(home), backend="openai", model=server.models[0])
    from monchat.gui.main_window import MainWindow
    translators.install("en")
    window = MainWindow(app)
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown(10000), "workers did not finish"
    app.close()


@pytest.mark.parametrize("finish, cut", [("length", True), ("stop", False)])
def test_a_reply_the_server_cut_at_its_length_limit_says_so_in_its_card(server, server_window, qtbot, finish, cut):
    server.reply_chunks = ["Once upon a time, ", "there was a"]
    server.finish_reason = finish
    window = server_window
    window.composer.edit.setPlainText("tell me a story")
    with qtbot.waitSignal(window.turn_finished, timeout=10000):
        window.composer.submit()
    reply = window.chat_view.bubbles[-1]
    assert reply.role == "assistant" and reply.text() == "Once upon a time, there was a"
    assert reply.cut_label.isVisible() is cut
    if cut:
        assert reply.cut_label.text().startswith("✂ ") and "length limit" in reply.cut_label.text()
