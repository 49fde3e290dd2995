"""The inbox's Lint tab: Check now runs knowledge lint on a worker as ``monchat lint`` does, then lists it."""

from __future__ import annotations

from monchat.core.paths import held_lock
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer


def memory_with_a_malformed_slot(app, backend):
    """A flush that keeps "green tea" in the one-part slot ``tea``, with lint off at the flush."""
    app.settings.background.lint = False
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "My tea is green tea")
    backend.enqueue(item_answer("green tea", "tea"))
    app.flush.run()


def test_check_now_runs_lint_and_shows_the_finding(app, backend, make_window, qtbot):
    memory_with_a_malformed_slot(app, backend)
    dialog = make_window("en").open_inbox()
    tab = dialog.lint_tab
    dialog.tabs.setCurrentWidget(tab)
    assert tab.check_button.isVisible() and tab.findings.topLevelItemCount() == 0 and tab.empty.isVisible()
    with qtbot.waitSignal(tab.checked, timeout=10000) as blocker:
        tab.check_button.click()
        assert not tab.check_button.isEnabled()
    assert blocker.args == [True] and tab.check_button.isEnabled()
    row = [tab.findings.topLevelItem(0).text(c) for c in range(4)]
    assert row == ["Malformed: empty text, a slot not shaped subject/attribute, or a value out of range", "green tea",
                   "structure", "marked: checked again at the next flush"]
    assert not tab.empty.isVisible()
    assert tab.outcome.text() == "Checked: 1 new, 0 rechecked, 0 queued for review, 0 resolved."
    with qtbot.waitSignal(tab.checked, timeout=10000):
        tab.check_button.click()
    assert tab.findings.topLevelItem(0).text(3) == "still holds"  # the second run rechecked it
    dialog.close()


def test_check_now_while_a_flush_holds_the_lock_says_so_and_changes_nothing(app, backend, make_window, qtbot):
    memory_with_a_malformed_slot(app, backend)
    dialog = make_window("ja").open_inbox()
    tab = dialog.lint_tab
    assert tab.check_button.text() == "今すぐ点検"
    with held_lock(app.paths.flush_lock) as held:
        assert held
        with qtbot.waitSignal(tab.checked, timeout=10000) as blocker:
            tab.check_button.click()
    assert blocker.args == [False] and tab.check_button.isEnabled()
    assert tab.findings.topLevelItemCount() == 0
    assert tab.outcome.text().startswith("整理はすでに実行中です。")  # as other workers' failures are worded
    dialog.close()
