"""A reply that is not whole says so in its own card: cut at the length limit, or ended by an error."""

from __future__ import annotations

import pytest

from monchat.core.errors import BackendUnreachable
from monchat.core.types import Coded
from tests.support.scripted import ScriptedBackend


class CuttingBackend(ScriptedBackend):
    """Replies as queued, and notes that the last one was cut at the length limit (as llama.cpp's do)."""

    def _stream(self, system, turns, temperature, reply):
        yield from super()._stream(system, turns, temperature, reply)
        reply.usage.warnings.append(Coded("The reply reached the limit and was cut off.", "cut_at_length"))


@pytest.fixture
def backend():
    return CuttingBackend(delay=0.002)


def test_a_reply_cut_at_the_length_limit_is_marked_in_its_card(window, backend, qtbot):
    backend.enqueue("Here is the first half of a long")
    window.composer.edit.setPlainText("tell me a story")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    reply = window.chat_view.bubbles[-1]
    assert reply.cut_label.isVisible() and "length limit" in reply.cut_label.text()


def test_a_reply_ended_by_an_error_is_marked_cut_off_in_its_card(window, backend, qtbot):
    backend.enqueue(["Once upon a time", BackendUnreachable("The server went away.", "Start it again.")])
    window.composer.edit.setPlainText("tell me a story")
    with qtbot.waitSignal(window.turn_failed, timeout=5000):
        window.composer.submit()
    reply = window.chat_view.bubbles[-1]
    assert reply.role == "assistant" and reply.status == "partial"
    qtbot.waitUntil(reply.cut_label.isVisible, timeout=2000)  # the window shows what the logs hold now
    assert reply.cut_label.text().startswith("✂ Cut off")
    assert "(cut off)" in reply.header.text()
