"""The inbox's Lint tab: Check now runs knowledge lint on a worker as ``monchat lint`` does, then lists it."""

from __future__ import annotations

from monchat.app import build_app
from monchat.core.paths import held_lock
from monchat.core.privacy.cloud import CloudConsent, destination
from monchat.gui.main_window import MainWindow
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer, user_lines
from tests.support.scripted import ScriptedBackend


def memory_with_a_malformed_slot(app, backend):
    """A flush that keeps "green tea", with lint off at the flush; then its slot is damaged into the one-part
    ``tea`` (the guard drops such a slot from a filter, so only damage or an older version leaves one)."""
    app.settings.background.lint = False
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "My tea is green tea")
    backend.enqueue(item_answer("green tea", "drink/tea"))
    app.flush.run()
    with app.store.atomic():
        app.store.db.execute("UPDATE memories SET slot = 'tea' WHERE text = 'green tea'")


def test_check_now_runs_lint_and_shows_the_finding(app, backend, make_window, qtbot):
    memory_with_a_malformed_slot(app, backend)
    dialog = make_window("en").memory_menu.open_inbox()
    tab = dialog.lint_tab
    dialog.tabs.setCurrentWidget(tab)
    assert tab.check_button.isVisible() and tab.findings.topLevelItemCount() == 0 and tab.empty.isVisible()
    with qtbot.waitSignal(tab.checked, timeout=10000) as blocker:
        tab.check_button.click()
        assert not tab.check_button.isEnabled()
    assert blocker.args == [True] and tab.check_button.isEnabled()
    row = [tab.findings.topLevelItem(0).text(c) for c in range(4)]
    assert row == ["Malformed: empty text, filed under no topic and detail, or a value out of range", "green tea",
                   "structure", "marked: checked again at the next flush"]
    assert not tab.empty.isVisible()
    assert tab.outcome.text() == "Checked: 1 new, 0 rechecked, 0 queued for review, 0 resolved."
    with qtbot.waitSignal(tab.checked, timeout=10000):
        tab.check_button.click()
    assert tab.findings.topLevelItem(0).text(3) == "still holds"  # the second run rechecked it
    dialog.close()


def test_check_now_while_a_flush_holds_the_lock_says_so_and_changes_nothing(app, backend, make_window, qtbot):
    memory_with_a_malformed_slot(app, backend)
    dialog = make_window("ja").memory_menu.open_inbox()
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


class CloudScripted(ScriptedBackend):
    """The scripted backend, as a cloud would describe itself (the cloud question's subject)."""

    name = "cloudy"

    def where(self) -> str:
        return "cloud.example"

    def is_local(self) -> bool:
        return False


def two_homes(system, turns, schema):
    """Two kept memories of one slot family: the pair lint's LLM step would ask about."""
    if "items" not in schema.get("properties", {}):
        return NO_ITEMS(system, turns, schema)
    cited = user_lines(turns)[0]["id"]
    return {"items": [{"reason": "said", "text": text, "slot": slot, "kind": "explicit", "score": 0.95,
                       "evidence": [cited]} for text, slot in (("Lives in Sendai", "home/city"),
                                                               ("Lives in Kanazawa", "home/town"))]}


def lint_calls(backend) -> int:
    return sum(1 for call in backend.history if "contradictions" in ((call[3] or {}).get("properties") or {}))


def test_check_now_leaves_the_model_check_out_for_a_cloud_not_agreed_to(home, qtbot):
    backend = CloudScripted(default_reply=two_homes)
    app = build_app(str(home), pinned_backend=backend)
    try:
        app.settings.background.lint = False
        log_message(app, 3, "I moved from Sendai to Kanazawa")
        app.flush.run()
        assert lint_calls(backend) == 0
        window = MainWindow(app)
        qtbot.addWidget(window)
        tab = window.memory_menu.open_inbox().lint_tab
        with qtbot.waitSignal(tab.checked, timeout=10000):
            tab.check_button.click()
        assert lint_calls(backend) == 0
        assert "cloudy" in tab.outcome.text() and "not agreed to send to yet" in tab.outcome.text()
        CloudConsent(app.store).grant(destination(backend))
        with qtbot.waitSignal(tab.checked, timeout=10000):
            tab.check_button.click()
        assert lint_calls(backend) == 1 and "not agreed" not in tab.outcome.text()  # the same pair, now asked
        assert window.shutdown(10000)
    finally:
        app.close()
