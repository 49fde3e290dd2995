"""Issue 45, the window: after Approve/Reject the queue says what it did ("2 approved") with Undo and keeps its
place; it says when a decision teaches the auto-approve rule (imports never do) and what a bulk approve decides for
judge items; the memory import opens the queue; the Memory window merges memories that say the same thing.
At 1366×768, in English and Japanese."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel

from monchat.core.memory import learning
from monchat.gui.memory.review_queue import ReviewQueueDialog
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS
from tests.gui.test_review_next_step import JUNK, lines_as_items

WORDS = {
    "en": {"two": "2 approved", "undone": "Undone: 2 items wait for review again.", "teach": "teaches the auto-approve",
           "outside": "teach the auto-approve rule nothing", "open": "Open review queue (3)",
           "judges": "how two memories relate"},
    "ja": {"two": "2 件を承認", "undone": "取り消しました: 2 件がまた確認を待っています。",
           "teach": "自動承認の基準", "outside": "自動承認の基準を変えません", "open": "確認待ちを開く（3 件）",
           "judges": "2 つの記憶の関係"},
}


def _eight_waiting(app, backend, window, qtbot):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0), lines_as_items(3), lines_as_items(6))
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    dialog.close()


def _queue(window) -> ReviewQueueDialog:
    window.resize(1366, 768)
    return window.memory_menu.open_review_queue()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_decision_is_counted_undone_and_the_list_keeps_its_place(app, make_window, backend, qtbot, language):
    window = make_window(language)
    _eight_waiting(app, backend, window, qtbot)
    queue = _queue(window)
    assert queue.table.topLevelItemCount() == 8
    words = WORDS[language]
    assert words["teach"] in queue.effect.text()  # a Layer 1 proposal: deciding it teaches the rule
    queue.table.clearSelection()
    for row in (3, 4):
        queue.table.topLevelItem(row).setSelected(True)
    queue.table.setCurrentItem(queue.table.topLevelItem(3), 0, QItemSelectionModel.SelectionFlag.NoUpdate)
    assert len(queue.selected_rows()) == 2
    chosen = {r.id for r in queue.selected_rows()}
    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.approve_button.click()
    assert queue.message.text() == words["two"] and queue.undo_button.isVisible()
    assert queue.table.topLevelItemCount() == 6
    assert queue.table.indexOfTopLevelItem(queue.table.currentItem()) == 3  # the place kept, not the top
    assert sum(e["approved"] for e in learning.summary(app.store, 0.8)) == 2

    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.undo_button.click()
    assert queue.message.text() == words["undone"] and not queue.undo_button.isVisible()
    assert {r.id for r in app.memory.queue()} >= chosen and queue.table.topLevelItemCount() == 8
    assert queue.current().id in chosen
    assert learning.summary(app.store, 0.8) == []  # undone: nothing learned
    queue.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_import_opens_the_queue_and_imported_items_teach_nothing(app, make_window, qtbot, language):
    window = make_window(language)
    window.resize(1366, 768)
    dialog = window.file_menu.open_memory_import()
    assert not dialog.open_queue_button.isVisible()
    with qtbot.waitSignal(dialog.imported, timeout=10000):
        dialog.import_text("- Has a cat named Mochi.\n- Is learning the guitar.\n- Lives in Kanazawa.\n", "chatgpt")
    words = WORDS[language]
    assert dialog.open_queue_button.isVisible() and dialog.open_queue_button.text() == words["open"]
    dialog.open_queue_button.click()
    queue = next(d for d in window.dialogs if isinstance(d, ReviewQueueDialog) and d.isVisible())
    assert queue.table.topLevelItemCount() == 3
    assert words["outside"] in queue.effect.text() and words["teach"] not in queue.effect.text().replace(
        words["outside"], "")
    queue.select_all_button.click()
    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.approve_button.click()
    assert learning.summary(app.store, 0.8) == []
    queue.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_bulk_approve_says_what_it_decides_for_judge_items(make_window, qtbot, home, translators, language):
    from datetime import datetime, timedelta, timezone

    from monchat.app import build_app
    from tests.gui import memory_scenes as scenes
    jst = timezone(timedelta(hours=9))
    day1 = datetime(2026, 11, 23, 8, 0, tzinfo=jst)
    clock = scenes.Clock(day1)
    app = build_app(str(home / "judge"), pinned_backend=scenes.oracle(), clock=clock, tz=jst)
    try:
        scenes.unsure_green_tea(app, clock, day1)
        app.settings.flush.ask_before_layer1 = True
        scenes.say(app, day1 + timedelta(days=3, hours=4), "うちの猫はミケ")
        scenes.flush(app, clock, day1 + timedelta(days=3, hours=14))
        translators.install(language)
        queue = ReviewQueueDialog(app.memory, app.personas, app.settings, _Runner(), None)
        qtbot.addWidget(queue)
        queue.resize(1366, 768)
        queue.show()
        queue.select_all_button.click()
        assert WORDS[language]["judges"] in queue.effect.text()
        assert scenes.GREEN_AGAIN in queue.effect.text()
    finally:
        app.store.close()


class _Runner:
    """Runs at once (this test only reads)."""

    def start(self, name, fn, on_finished=None, on_failed=None):
        on_finished and on_finished(fn(None))
