"""The review queue and the memory browser change the store through MemoryService."""

from __future__ import annotations

import pytest

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer


@pytest.fixture
def queued(app, backend):
    """A flush (run directly) that leaves two Layer 1 proposals waiting for review."""
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "覚えておいて：朝はブラックコーヒーを飲む")
    log_message(app, 2.9, "了解！", role="assistant")
    log_message(app, 2.8, "それと、仙台に住んでいるよ")
    backend.enqueue(item_answer("朝はブラックコーヒー", "drink/morning"),
                    item_answer("仙台に住んでいる", "home/city"))
    report = app.flush.run()
    assert report.queued == 2
    return app.memory


def test_review_queue_approve_and_reject_change_the_store(queued, window, qtbot):
    memory = queued
    dialog = window.memory_menu.open_review_queue()
    assert dialog.table.topLevelItemCount() == 2
    texts = {dialog.table.topLevelItem(i).text(0): i for i in range(2)}
    assert set(texts) == {"朝はブラックコーヒー", "仙台に住んでいる"}
    assert dialog.table.topLevelItem(0).text(2) == "Add to lasting memory"

    dialog.table.setCurrentItem(dialog.table.topLevelItem(texts["朝はブラックコーヒー"]))
    assert "覚えておいて：朝はブラックコーヒーを飲む" in [line[-20:].strip() for line in dialog.evidence.texts()]
    assert dialog.reason.text() == ("Why: Enough evidence has come together, so this becomes lasting memory "
                                    "(confidence 0.90).\nProposed by Base.")  # the persona by its name
    assert not dialog.other_verdict_button.isVisible()  # only a judgement has other verdicts
    with qtbot.waitSignal(dialog.memory_changed, timeout=5000):
        dialog.approve_button.click()
    assert dialog.table.topLevelItemCount() == 1
    states = {m.text: m.state for m in memory.list(all=True)}
    assert states["朝はブラックコーヒー"] == "active"
    layer1, _ = memory.prompt_items()
    assert [m.text for m in layer1] == ["朝はブラックコーヒー"]

    dialog.table.setCurrentItem(dialog.table.topLevelItem(0))
    with qtbot.waitSignal(dialog.memory_changed, timeout=5000):
        dialog.reject_button.click()
    assert dialog.table.topLevelItemCount() == 0 and memory.queue() == []
    assert {m.text: m.state for m in memory.list(all=True)}["仙台に住んでいる"] == "rejected"
    assert "Nothing is waiting" in dialog.reason.text()
    dialog.close()


def test_memory_browser_views_history_evidence_and_actions(queued, window, qtbot):
    memory = queued
    browser = window.memory_menu.open_memory()
    browser.set_view("waiting")
    assert browser.table.topLevelItemCount() == 2
    assert browser.table.topLevelItem(0).text(2) == "waiting for review"
    browser.set_view("layer2")  # waiting means waiting (issue 45): not recent memory while they wait
    assert browser.table.topLevelItemCount() == 0
    browser.set_view("layer1")
    assert browser.table.topLevelItemCount() == 0 and "No memory here yet" in browser.facts.text()

    browser.set_view("all")
    rows = {browser.table.topLevelItem(i).text(0): browser.table.topLevelItem(i)
            for i in range(browser.table.topLevelItemCount())}
    browser.table.setCurrentItem(rows["朝はブラックコーヒー"])
    assert browser.approve_button.isEnabled() and browser.reject_button.isEnabled()
    assert browser.evidence.count() == 1 and "ブラックコーヒーを飲む" in browser.evidence.texts()[0]
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.approve_button.click()
    browser.set_view("layer1")
    assert [browser.table.topLevelItem(i).text(0) for i in range(browser.table.topLevelItemCount())] \
        == ["朝はブラックコーヒー"]

    # Edit: a new version supersedes the old one; the history chain shows both.
    browser.table.setCurrentItem(browser.table.topLevelItem(0))
    browser.text_edit.setPlainText("朝はブラックコーヒー（砂糖なし）")
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.save_text_button.click()
    assert browser.current().text == "朝はブラックコーヒー（砂糖なし）"
    history = [browser.history.topLevelItem(i) for i in range(browser.history.topLevelItemCount())]
    assert len(history) == 2 and history[0].text(1) == "replaced" and history[0].text(3)  # with its end
    assert history[1].text(0) == "▶ 朝はブラックコーヒー（砂糖なし）" and not history[1].text(3)
    browser.set_view("history")
    assert [browser.table.topLevelItem(i).text(0) for i in range(browser.table.topLevelItemCount())] \
        == ["朝はブラックコーヒー"]
    assert not browser.save_text_button.isEnabled()  # history is read-only

    # Pin, then forget (after the confirmation).
    browser.set_view("layer1")
    browser.table.setCurrentItem(browser.table.topLevelItem(0))
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.pin_button.click()
    assert browser.current().pinned and browser.pin_button.text() == "Unpin"
    question = browser.forget_selected()
    assert question is not None and question.isVisible()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        question.button(question.StandardButton.Yes).click()
    assert memory.prompt_items()[0] == []
    assert browser.table.topLevelItemCount() == 0
    browser.close()
