"""Once a flush runs, chat is open again (even at the stop count); what is sent meanwhile is kept for the next flush.

The flush read its files when it started and archives only what it read; a file that got a message meanwhile
is kept (``LogBook.remove_flushed``), so the next flush archives that message. The chat and the flush share
the one scripted backend (calls queue, none fails).
"""

from __future__ import annotations

import threading

import pytest

from tests.gui.conftest import fill_log_files
from tests.gui.flush_script import NO_ITEMS


def held_answer(release: threading.Event, entered: threading.Event):
    """The first filter call's answer: it waits until the test lets it go (the flush is then mid-way)."""
    def answer(system, turns, schema):
        entered.set()
        assert release.wait(20), "the test never released the flush"
        return NO_ITEMS(system, turns, schema)
    return answer


def test_chat_is_open_while_a_flush_runs_and_its_message_waits_for_the_next_flush(app, make_window, backend, qtbot):
    fill_log_files(app, 5)  # the gate is at "stop"
    window = make_window("en")
    assert not window.composer.edit.isEnabled()
    backend.default_reply = NO_ITEMS
    release, entered = threading.Event(), threading.Event()
    backend.enqueue(held_answer(release, entered))
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    assert not dialog.isModal()
    try:
        with qtbot.waitSignal(dialog.flush_started, timeout=5000):
            dialog.start_button.click()
        qtbot.waitUntil(entered.is_set, timeout=5000)
        # The flush is running: chat is open, the banner says why, no second Flush button.
        assert window.composer.edit.isEnabled() and window.composer.send_button.isEnabled()
        assert "A flush is running" in window.gate_bar.banner_label.text()
        assert window.gate_bar.visible_flush_buttons() == []
        assert dialog.timing.label.text().startswith("Elapsed: 0:0")
        backend.enqueue("Still here.")
        window.composer.edit.setPlainText("sent while the flush runs")
        window.composer.submit()
        # The one-call-at-a-time model finishes the flush's running call first: the reply says it waits.
        reply = window.turns.current.reply
        qtbot.waitUntil(reply.wait_label.isVisible, timeout=5000)
        assert reply.wait_label.text().startswith("Answering after the flush's current step")
        with qtbot.waitSignal(window.turn_finished, timeout=5000):
            release.set()
        assert not reply.wait_label.isVisible()
        # The chat turn went before the flush's next call.
        kinds = [kind for kind, *_ in backend.history]
        assert kinds[:2] == ["json", "chat"], kinds
    finally:
        release.set()
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000) as blocker:
        pass
    report = blocker.args[0]
    during = [m for m in app.logbook.read_all().messages if m.text in ("sent while the flush runs", "Still here.")]
    assert len(during) == 2, "the messages sent during the flush are still in the logs"
    archived = app.archive.ids()
    assert not {m.id for m in during} & archived and report.messages_archived == 5
    # The gate is read again: one file waits; the next flush archives the message.
    qtbot.waitUntil(lambda: "Unflushed log files: 1" in window.gate_bar.count_label.text(), timeout=2000)
    second = app.flush.run()
    assert {m.id for m in during} <= app.archive.ids() and second.messages_archived == 2
    assert app.logbook.files() == []
    dialog.close()


def test_the_gate_pauses_chat_again_when_no_flush_runs(app):
    fill_log_files(app, 5)
    assert app.chat.gate().state == "stop" and not app.chat.gate().flushing


def test_the_flush_window_estimates_the_time_left_from_the_parts_read(qtbot):
    from PySide6.QtWidgets import QWidget

    from monchat.gui.flush.timing import FlushTiming, clock_text
    host = QWidget()
    qtbot.addWidget(host)
    timing = FlushTiming(host)
    timing.start()
    assert timing.remaining() is None and timing.label.text().startswith("Elapsed: 0:00 · no estimate yet")  # no guess
    timing.part("base", 0, 4)
    timing.reading_started -= 30  # the first part took 30 s
    timing.part("base", 1, 4)
    timing.part("lifestyle", 0, 4)
    assert timing.remaining() is not None and 200 < timing.remaining() < 220  # 7 parts left at 30 s a part
    assert "about 3:" in timing.label.text() and "1 of 8 parts read" in timing.label.text()
    timing.stop()
    assert "left" not in timing.label.text()
    assert (clock_text(59), clock_text(61), clock_text(3725)) == ("0:59", "1:01", "1:02:05")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_looking_back_notes_are_worded_in_the_windows_language(make_window, language):
    from monchat.core.types import Coded
    from tests.gui.walker import other_script
    dialog = make_window(language).memory_menu.open_flush()
    note = Coded("reflect: 2 entr(ies) left out: not of the schema's shape or resting on no slot it was shown.",
                 "reflect_unshown", 2)
    worded = dialog.report_words(note)
    assert "schema" not in worded and "slot" not in worded and "2" in worded
    assert other_script([worded], language) == []
    if language == "en":
        assert worded.startswith("Looking back: 2 findings left out")
    dialog.close()


def test_a_flush_in_another_process_opens_chat_here_and_what_is_sent_waits_for_the_next_flush(
        app, home, make_window, backend, qtbot):
    """``monchat flush`` in a terminal (or a second window) runs: this window's chat opens by itself."""
    from tests.support.other_flush import flush_in_another_process
    fill_log_files(app, 5)
    window = make_window("en")
    assert not window.composer.edit.isEnabled()
    with flush_in_another_process(home) as other:
        qtbot.waitUntil(window.composer.edit.isEnabled, timeout=10000)  # the window reads the gate by itself
        assert "A flush is running" in window.gate_bar.banner_label.text()
        assert window.gate_bar.visible_flush_buttons() == [] and not window.menus.flush_action.isEnabled()
        backend.enqueue("Still here.")
        window.composer.edit.setPlainText("sent while the other flush runs")
        with qtbot.waitSignal(window.turn_finished, timeout=5000):
            window.composer.submit()
        report = other.finish()
    assert report["archived"] == 5
    during = [m for m in app.logbook.read_all().messages if m.text in ("sent while the other flush runs", "Still here.")]
    assert len(during) == 2 and not {m.id for m in during} & app.archive.ids()
    assert len(app.logbook.files()) == 1, "the file with the new message is kept for the next flush"
    qtbot.waitUntil(lambda: "Unflushed log files: 1" in window.gate_bar.count_label.text(), timeout=10000)
    assert window.menus.flush_action.isEnabled() and not window.gate_bar.banner.isVisibleTo(window.gate_bar)
    backend.default_reply = NO_ITEMS
    assert app.flush.run().messages_archived == 2 and app.logbook.files() == []
