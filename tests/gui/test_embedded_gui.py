"""A new user's first chat: no Ollama, no key — the embedded model answers, in the window, without freezing."""

from __future__ import annotations

import pytest

from monchat.app import build_app
from tests.gui.test_responsiveness import EventLoopProbe
from tests.support.embedded import require_embedded


@pytest.fixture
def embedded_app(home):
    app = build_app(str(home), backend="embedded")
    app.settings.embedded.max_tokens = 48
    require_embedded(app.backends.default())
    yield app
    app.store.close()


@pytest.mark.slow
def test_first_chat_with_the_embedded_model(embedded_app, qtbot, translators):
    from monchat.gui.main_window import MainWindow
    translators.install("ja")
    window = MainWindow(embedded_app)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.meter.meter is not None, timeout=30000)
        assert window.backend_label.text().startswith("embedded:")
        window.composer.edit.setPlainText("こんにちは！自己紹介してください。")
        probe = EventLoopProbe().watch(embedded_app.backends.default())
        with qtbot.waitSignal(window.turn_finished, timeout=180000) as blocker:
            window.composer.submit()
        result = blocker.args[0]
        assert result.reply is not None and result.reply.text.strip()
        assert window.chat_view.bubbles[-1].text() == result.reply.text
        probe.assert_never_blocked()  # every generated piece came off the GUI thread, the loop ran
    finally:
        assert window.shutdown(60000)
