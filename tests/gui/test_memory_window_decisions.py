"""Issue 45, finished: the Memory window's Approve/Reject say what they did ("1 approved") with the review queue's
Undo; a merge of duplicates is undone from the same line; a folded review row shows what the user said again for
each of its items; an imported row says once where it came from and shows no empty evidence box. At 1366×768, in
English and Japanese.

Measured before: the Memory window said only "Done." after Approve, a merge could not be undone, the said-again line
of a folded row's second item was missing, and a ChatGPT item's "Why" read "Imported from another assistant's memory
or a monchat export. … Imported from ChatGPT." above an empty box."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from PySide6.QtWidgets import QMessageBox

from monchat.app import build_app
from tests.gui import memory_scenes as scenes
from tests.gui.test_memory_views import queued  # noqa: F401 (fixture)
from tests.gui.test_review_said_again import said_again_for

JST = timezone(timedelta(hours=9))
DAY1 = datetime(2026, 11, 23, 8, 0, tzinfo=JST)
WORDS = {
    "en": {"approved": "1 approved", "rejected": "1 rejected", "undone": "Undone: 1 item waits for review again.",
           "merged": "1 memory merged into the one that says the same; their evidence is together now.",
           "unmerged": "Undone: 1 merged memory is back as it was.", "why": "Why: Imported from ChatGPT.",
           "imported": "Imported", "talked": "Talked about"},
    "ja": {"approved": "1 件を承認", "rejected": "1 件を却下", "undone": "取り消しました: 1 件がまた確認を待っています。",
           "merged": "1 件の記憶を、同じことを言う記憶にまとめました。根拠も一つになりました。",
           "unmerged": "取り消しました: まとめた 1 件の記憶が元に戻りました。",
           "why": "理由: ChatGPT から取り込みました。", "imported": "取り込", "talked": "話題にした時期"},
}


def _texts(tree) -> list[str]:
    return [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_memory_window_counts_a_decision_and_undoes_it(queued, make_window, qtbot, language):  # noqa: F811
    words = WORDS[language]
    window = make_window(language)
    window.resize(1366, 768)
    browser = window.memory_menu.open_memory()
    browser.set_view("all")
    browser.table.setCurrentItem(browser.table.topLevelItem(_texts(browser.table).index("朝はブラックコーヒー")))
    assert browser.table.currentItem().text(6) == "" and words["talked"] not in browser.facts.text()  # not memory yet
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.approve_button.click()
    assert browser.message.text() == words["approved"] and browser.undo_button.isVisible()
    assert browser.current().text == "朝はブラックコーヒー"  # the list keeps its place
    assert browser.table.currentItem().text(6) and words["talked"] in browser.facts.text()  # memory now
    assert len(queued.queue()) == 1

    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.undo_button.click()  # the review queue's undo: the item waits again
    assert browser.message.text() == words["undone"] and not browser.undo_button.isVisible()
    assert len(queued.queue()) == 2 and queued.prompt_items()[0] == []

    browser.table.setCurrentItem(browser.table.topLevelItem(_texts(browser.table).index("仙台に住んでいる")))
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.reject_button.click()
    assert browser.message.text() == words["rejected"] and browser.undo_button.isVisible()
    queue = window.memory_menu.open_review_queue()  # one record of the last decision, whichever window made it
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.undo_button.click()
    assert len(queued.queue()) == 2
    queue.refresh()
    assert queue.table.topLevelItemCount() == 2
    queue.close()
    browser.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_merge_from_the_memory_window_is_undone_from_its_line(home, translators, qtbot, language):
    from monchat.gui.kit.workers import TaskRunner
    from monchat.gui.memory.browser import MemoryBrowser
    clock = scenes.Clock(DAY1)
    oracle = scenes.oracle()
    app = build_app(str(home / language), pinned_backend=oracle, clock=clock, tz=JST)
    runner = TaskRunner()
    try:
        scenes.two_cat_wordings(app, oracle, clock, DAY1)
        before = sorted(m.text for m in app.memory.list() if "二匹" in m.text)
        assert len(before) == 2, "the setup stores one sentence in two wordings (COEXIST)"
        translators.install(language)
        browser = MemoryBrowser(app.memory, app.settings, app.personas, clock, runner, None)
        qtbot.addWidget(browser)
        browser.resize(1366, 768)
        browser.show()
        box = browser.merge_button.ask()
        assert isinstance(box, QMessageBox)
        with qtbot.waitSignal(browser.merge_button.merged, timeout=10000):
            box.button(QMessageBox.StandardButton.Yes).click()
        assert browser.message.text() == WORDS[language]["merged"] and browser.undo_button.isVisible()
        assert len([m for m in app.memory.list() if "二匹" in m.text]) == 1
        with qtbot.waitSignal(browser.memory_changed, timeout=10000):
            browser.undo_button.click()
        assert browser.message.text() == WORDS[language]["unmerged"] and not browser.undo_button.isVisible()
        assert sorted(m.text for m in app.memory.list() if "二匹" in m.text) == before
        browser.close()
    finally:
        assert runner.drain(10000)
        app.store.close()


def test_a_folded_row_shows_what_was_said_again_for_each_of_its_items(app, make_window):
    app.transfer.import_memory(text="- Has two cats\n", source="chatgpt")
    app.transfer.import_memory(text="- Has 2 cats\n", source="claude")
    [group] = app.memory.queue_groups()
    assert len(group) == 2, "the setup folds two imports that say the same"
    said_again_for(app, group[1].memory_id, "My 2 cats, Miso and Kinako, woke me up", "2026-11-23T12:00:00+09:00")
    dialog = make_window("en").memory_menu.open_review_queue()
    assert dialog.table.topLevelItemCount() == 1
    assert dialog.reason.text().startswith("Why: Imported from ChatGPT, Claude.\n")  # each alike item's source
    assert _texts(dialog.evidence) == ["Said again on 2026-11-23: “My 2 cats, Miso and Kinako, woke me up”"]
    dialog.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_imported_row_says_once_where_it_came_from_and_shows_no_empty_box(app, make_window, language):
    app.transfer.import_memory(text="- Works as a nurse\n", source="chatgpt")
    dialog = make_window(language).memory_menu.open_review_queue()
    dialog.resize(1366, 768)
    why = dialog.reason.text()
    assert why.splitlines()[0] == WORDS[language]["why"]
    assert why.count(WORDS[language]["imported"]) == 1, why
    assert dialog.evidence_label.isVisible() and not dialog.evidence.isVisible()  # the heading says there is none
    dialog.close()
