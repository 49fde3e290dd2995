"""The memory browser: opens on what the last flush proposed; edit, forget with undo, delete for real."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.gui.test_memory_views import queued  # noqa: F401 (fixture)


def rows(browser) -> list[str]:
    return [browser.table.topLevelItem(i).text(0) for i in range(browser.table.topLevelItemCount())]


def select(browser, text: str) -> None:
    browser.table.setCurrentItem(browser.table.topLevelItem(rows(browser).index(text)))


def test_the_browser_opens_on_what_the_last_flush_proposed(queued, window):  # noqa: F811
    browser = window.memory_menu.open_memory()
    assert browser.view().value == "new" and browser.tabs.tabText(browser.tabs.currentIndex()) == \
        "New from the last flush"
    assert sorted(rows(browser)) == ["仙台に住んでいる", "朝はブラックコーヒー"]  # not only under "All"
    browser.close()


def test_an_empty_memory_opens_on_lasting_memory(window):
    browser = window.memory_menu.open_memory()
    assert browser.view().value == "layer1"
    browser.close()


def test_an_edit_is_kept_as_written(queued, window, qtbot):  # noqa: F811
    browser = window.memory_menu.open_memory()
    select(browser, "朝はブラックコーヒー")
    browser.text_edit.setPlainText("朝は必ずブラックコーヒー")
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.save_text_button.click()
    layer1, _ = queued.prompt_items()
    assert [m.text for m in layer1] == ["朝は必ずブラックコーヒー"]  # approved, in the prompt, as written
    assert len(queued.queue()) == 1  # the other proposal still waits
    browser.close()


def test_forget_asks_and_can_be_undone(queued, window, qtbot):  # noqa: F811
    queued.approve(str(queued.queue()[0].id))
    browser = window.memory_menu.open_memory()
    browser.set_view("layer1")
    [text] = rows(browser)
    box = browser.forget_selected()
    assert isinstance(box, QMessageBox) and "undo" in box.text()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        box.button(QMessageBox.StandardButton.Yes).click()
    assert rows(browser) == [] and browser.undo_button.isVisible() and "Undo" in browser.message.text()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.undo_button.click()
    assert rows(browser) == [text] and [m.text for m in queued.prompt_items()[0]] == [text]
    assert not browser.undo_button.isVisible()
    browser.close()


def test_a_forgotten_memory_can_be_restored_from_history(queued, window, qtbot):  # noqa: F811
    memory_id = queued.queue()[0].memory_id
    queued.approve(memory_id)
    queued.forget(memory_id)
    browser = window.memory_menu.open_memory()
    browser.set_view("history")
    browser.refresh(memory_id)
    assert browser.forget_button.text() == "Restore" and browser.forget_button.isEnabled()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.forget_button.click()
    assert queued.get(memory_id).state == "active"
    browser.close()


def test_delete_asks_then_removes_the_memory_for_good(queued, app, window, qtbot):  # noqa: F811
    browser = window.memory_menu.open_memory()
    select(browser, "仙台に住んでいる")
    box = browser.delete_selected()
    assert isinstance(box, QMessageBox) and "cannot be undone" in box.text()
    box.button(QMessageBox.StandardButton.No).click()
    assert "仙台に住んでいる" in [m.text for m in queued.list(all=True)]  # No keeps it
    select(browser, "仙台に住んでいる")
    box = browser.delete_selected()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        box.button(QMessageBox.StandardButton.Yes).click()
    assert "仙台に住んでいる" not in [m.text for m in queued.list(all=True)]
    assert "仙台に住んでいる" not in rows(browser)
    assert any("仙台に住んでいる" in r["text"] for r in app.store.db.query("SELECT text FROM messages"))
    browser.close()
