"""The flush window's room (issue 24, item 8) and its next steps: no empty rows before it starts, the change list
long enough to read when it is done, the time elapsed and left while it runs, "Open review queue (N)" only when
items really wait."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from monchat.core.asking.records import FlushProgress
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS
from tests.gui.test_review_next_step import JUNK, lines_as_items


def open_flush(window, qtbot):
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    qtbot.wait(50)  # the plan's rows are laid out
    return dialog


def content_bottom(dialog) -> int:
    """The lowest visible widget above the button row."""
    above = [dialog.plan_label, dialog.small_model, dialog.progress_area, dialog.overall, dialog.status,
             dialog.timing.label, dialog.summary, dialog.layers, dialog.changes]
    return max(w.geometry().bottom() for w in above if w.isVisible())


def test_before_it_starts_the_window_has_no_empty_rows(app, make_window, qtbot):
    log_message(app, 2, "I water the garden every Sunday")
    dialog = open_flush(make_window("en"), qtbot)
    empty = [w.objectName() or type(w).__name__ for w in dialog.findChildren(QLabel)
             if w.isVisible() and not w.text() and w.pixmap().isNull()]
    assert empty == [], "an empty label still takes a row"
    gap = dialog.start_button.geometry().top() - content_bottom(dialog)
    assert gap <= 2 * dialog.layout().spacing() + 12, f"{gap} px of nothing above the buttons"
    dialog.close()


def test_a_finished_flush_gives_the_change_list_the_room(app, make_window, backend, qtbot):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0), lines_as_items(3), lines_as_items(6))
    dialog = open_flush(make_window("en"), qtbot)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    qtbot.wait(50)
    tree = dialog.changes
    assert tree.topLevelItemCount() == 8
    rows = tree.viewport().height() // tree.sizeHintForRow(0)
    assert rows >= 14, f"the change list shows {rows} rows"
    assert dialog.height() <= dialog.screen().availableGeometry().height()
    dialog.close()


def test_a_preview_that_would_queue_items_offers_no_review_queue(app, make_window, backend, qtbot):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK[:3]):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0))
    dialog = open_flush(make_window("en"), qtbot)
    dialog.dry_run.setChecked(True)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].dry_run and blocker.args[0].queued == 3  # it would queue three …
    assert not dialog.review_button.isVisible() and app.memory.queue() == []  # … but none waits
    dialog.close()


def test_the_window_shows_the_time_elapsed_and_left_from_the_parts_read(app, make_window, qtbot):
    log_message(app, 2, "I water the garden every Sunday")
    dialog = open_flush(make_window("en"), qtbot)
    dialog.timing.start()  # as start() does; the reports below are what a running flush sends
    dialog.show_progress(FlushProgress("score", "base", 0, 4))
    dialog.timing.reading_started -= 60  # the first part took a minute
    dialog.show_progress(FlushProgress("score", "base", 1, 4))
    label = dialog.timing.label
    assert label.text().startswith("Elapsed: 0:0") and "about 3:0" in label.text()
    assert "left (from 1 of 4 parts read)" in label.text()
    assert label.isVisible() and label.geometry().top() > dialog.overall.geometry().bottom()  # in the layout
    dialog.timing.stop()
    assert "left" not in label.text()
    dialog.close()


def test_a_short_time_left_is_never_shown_as_none_left(qtbot):
    from PySide6.QtWidgets import QWidget

    from monchat.gui.flush.timing import FlushTiming
    host = QWidget()
    qtbot.addWidget(host)
    timing = FlushTiming(host)
    assert not timing.label.isVisibleTo(host)  # before a flush: no empty "Elapsed" row
    timing.start()
    timing.part("base", 0, 4)
    timing.part("base", 1, 4)  # a part read in a moment: a fraction of a second left, still some time
    assert timing.label.isVisibleTo(host) and "about 0:01 left" in timing.label.text()
    timing.stop()
