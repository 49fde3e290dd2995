"""The finished flush window counts every proposal (issue 45): one line whose counts add up, each reason named
once, in English and Japanese; and what a persona's limit cut can be sent to the review queue from the window
("Send what was cut to review (N)"), which then says how many went. The window still fits 1366×768.

Measured before: a flush whose run dropped 60 of 72 proposals as over the limit said "Dropped for lack of evidence:
0 · Sent to review: 0", and nothing in the window could bring the cut ones back.
"""

from __future__ import annotations

import pytest

from monchat.core.memory.review_item import ReviewItem
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, user_lines
from tests.gui.test_flush_fits import assert_fits
from tests.gui.test_flush_layout import open_flush
from tests.gui.test_review_next_step import JUNK, SHELVES

COUNTS = {"en": ("8 proposals: 3 kept, 5 over the persona's limit", "Send what was cut to review (5)",
                 "5 proposals the limit cut now wait for your review.", "Sent to review (5)"),
          "ja": ("提案 8 件：採用 3 件、ペルソナの上限超過 5 件", "上限で外れた提案を確認待ちに送る（5）",
                 "上限で外れた提案 5 件があなたの確認を待っています。", "確認待ちに送りました（5）")}


def every_line_an_item(system, turns, schema) -> dict:
    """One filter's answer: each of the eight user lines an item of its own, over the persona's limit of three."""
    lines = user_lines(turns)
    return {"items": [{"reason": "the user said so", "text": line["text"], "slot": f"{SHELVES[n]}/thing",
                       "kind": "explicit", "score": 0.9 - n * 0.01, "evidence": [line["id"]]}
                      for n, line in enumerate(lines)]}


def flushed_with_a_cut(app, make_window, backend, qtbot, language):
    app.settings.flush.ask_before_layer1 = True  # what is kept waits too: the queue's count is plain
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(every_line_an_item)
    dialog = open_flush(make_window(language), qtbot)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000) as blocker:
        dialog.start_button.click()
    qtbot.wait(50)
    return dialog, blocker.args[0]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_result_counts_every_proposal_and_sends_what_the_limit_cut_to_review(app, make_window, backend, qtbot,
                                                                                 language):
    line, button, said, done = COUNTS[language]
    dialog, report = flushed_with_a_cut(app, make_window, backend, qtbot, language)
    accounting = report.accounting
    assert (accounting["proposals"], accounting["kept"], accounting["dropped"]["limit"]) == (8, 3, 5)
    summary = dialog.summary.text().splitlines()
    assert line in summary  # the counts add up: 3 + 5 = 8, each reason once, none that counted nothing
    assert not any("lack of evidence" in s or "根拠不足" in s for s in summary)
    assert dialog.cut_button.isVisible() and dialog.cut_button.text() == button
    assert_fits(dialog)
    summary_box = dialog.summary  # as tall as its lines at its width: no empty lines under them (the first shots)
    assert summary_box.height() <= summary_box.label.heightForWidth(summary_box.viewport().width()) + 8
    waiting = len(app.memory.queue())
    with qtbot.waitSignal(dialog.cut_button.sent, timeout=10000) as sent:
        dialog.cut_button.click()
    assert sent.args == [5]
    queue: list[ReviewItem] = app.memory.queue()
    assert len(queue) == waiting + 5
    assert said in dialog.status.text() and dialog.cut_button.text() == done
    assert not dialog.cut_button.isEnabled()
    assert_fits(dialog)
    dialog.close()


def test_nothing_cut_no_button_and_a_preview_offers_none(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "I water the garden every Sunday")
    dialog = open_flush(make_window("en"), qtbot)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    assert not dialog.cut_button.isVisible()
    dialog.close()


def test_a_preview_that_would_cut_offers_no_sending(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(every_line_an_item)
    dialog = open_flush(make_window("en"), qtbot)
    dialog.dry_run.setChecked(True)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    assert "5 over the persona's limit" in dialog.summary.text()  # counted, but a preview wrote no run to send from
    assert not dialog.cut_button.isVisible()
    dialog.close()
