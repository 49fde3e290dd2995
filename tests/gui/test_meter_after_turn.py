"""The context meter after a turn: what the turn counted from the window it read, not a second read of the logs."""

from __future__ import annotations

from monchat.core.errors import BackendUnreachable
from monchat.core.logs.index import IndexStats
from tests.gui.conftest import log_message
from tests.gui.test_chat_window import send


def test_a_turn_reads_the_window_once_and_the_meter_shows_what_it_counted(window, backend, app, qtbot):
    log_message(app, 30, "yesterday, outside the window")
    log_message(app, 1, "an hour ago")
    app.logbook.index.stats = stats = IndexStats()
    backend.enqueue("a fairly long reply " * 20)
    with qtbot.waitSignal(window.meter_changed, timeout=5000) as shown:
        send(window, qtbot, "tell me something long")
    assert stats.queries == 1  # the turn's own window; the meter did not read the logs again
    assert shown.args[0] is window.meter.meter
    assert window.meter.meter == app.chat.context_meter()  # and it is what a fresh count says
    assert window.meter.meter.window_tokens > 0 and f"{window.meter.meter.total:,}" in window.meter.label.text()


def test_after_a_failed_turn_the_meter_is_counted_again(window, backend, app, qtbot):
    backend.enqueue(BackendUnreachable("Ollama is not running.", "Start it."))
    window.composer.edit.setPlainText("question")
    with qtbot.waitSignal(window.meter_changed, timeout=5000):
        window.composer.submit()
    assert window.meter.meter == app.chat.context_meter()
