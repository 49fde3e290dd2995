"""The user's own controls in the window: Off the record (Chat menu), Pause memory and Never remember… (Memory
menu), and Settings → Memory's "Your controls" — in English and Japanese."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from monchat.core.memory.pause import is_paused, pause
from monchat.core.logs.search import SearchService
from monchat.core.types import local_now

BANNER = {"en": "Off the record.", "ja": "オフレコです。"}
PAUSED = {"en": "Memory paused", "ja": "記憶を一時停止中"}
TITLE = {"en": "off the record", "ja": "オフレコ"}


def kept_memory(app) -> str:
    """A memory made by a real flush (the oracle as the model): 仙台に住んでいる."""
    from monchat.app import build_app
    from tests.gui.memory_scenes import SEED, SENDAI, oracle, say
    other = build_app(str(app.paths.data_dir), pinned_backend=oracle())
    say(other, local_now() - timedelta(hours=1), "仙台に住んでいます")
    other.flush.run(seed=SEED)
    other.close()
    return next(m.id for m in app.memory.list(all=True) if m.text == SENDAI)


def click_yes(box: QMessageBox) -> None:
    box.button(QMessageBox.StandardButton.Yes).click()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_off_the_record_is_shown_plainly_and_logged_apart(app, make_window, backend, qtbot, language):
    window = make_window(language)
    controls = window.controls
    assert not controls.banner.isVisible() and TITLE[language] not in window.windowTitle()
    controls.off_record_action.trigger()
    assert app.chat.off_record(window.persona_id())
    assert controls.banner.isVisible() and BANNER[language] in controls.banner.label.text()
    assert "24" in controls.banner.label.text() and TITLE[language] in window.windowTitle()
    backend.enqueue("noted")
    window.composer.edit.setPlainText("my secret plan")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert app.logbook.files() == []  # nothing where a flush reads
    assert [h.off_record for h in SearchService(app.logbook, app.archive).search("secret")] == [True]
    controls.off_record_action.trigger()  # back on the record
    assert not controls.banner.isVisible() and TITLE[language] not in window.windowTitle()


def test_a_persona_that_starts_off_the_record_shows_it_when_picked(app, make_window):
    app.settings.off_record.personas = ["mira"]
    window = make_window("en")
    window.persona_box.setCurrentIndex(window.persona_box.findData("hana"))
    assert not window.controls.off_record_action.isChecked()
    window.persona_box.setCurrentIndex(window.persona_box.findData("mira"))
    assert window.controls.off_record_action.isChecked() and window.controls.banner.isVisible()


def test_clear_removes_the_off_record_messages_after_asking(app, make_window, backend, qtbot):
    window = make_window("en")
    window.controls.off_record_action.trigger()
    backend.enqueue("noted")
    window.composer.edit.setPlainText("my secret plan")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    box = window.controls.ask_clear()
    assert list(app.paths.off_record_dir.glob("*.jsonl"))
    click_yes(box)
    assert list(app.paths.off_record_dir.glob("*.jsonl")) == []
    assert SearchService(app.logbook, app.archive).search("secret") == []
    assert "2 off-the-record messages removed" in window.statusBar().currentMessage()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_pause_memory_is_one_switch_and_the_status_bar_says_so(app, make_window, language):
    window = make_window(language)
    controls = window.controls
    assert controls.paused_label.text() == ""
    controls.pause_action.trigger()
    assert is_paused(app.store) and controls.paused_label.text() == PAUSED[language]
    controls.pause_action.trigger()
    assert not is_paused(app.store) and controls.paused_label.text() == ""
    pause(app.store, app.clock())  # paused from the terminal: the window shows it at its next look
    window.refresh_gate()
    assert controls.pause_action.isChecked() and controls.paused_label.text() == PAUSED[language]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_never_remember_adds_rules_and_offers_to_forget_what_matches(app, make_window, qtbot, language):
    memory_id = kept_memory(app)
    window = make_window(language)
    dialog = window.controls.open_never_remember()
    dialog.rule_edit.setText("仙台")
    dialog.add_rule()
    assert app.never.texts() == ["仙台"] and dialog.rules.count() == 1
    assert dialog.matches.count() == 1 and dialog.forget_button.isEnabled()
    [box] = [d for d in dialog.dialogs if isinstance(d, QMessageBox)]  # offered at once
    with qtbot.waitSignal(dialog.changed, timeout=10000):  # forgotten on a worker
        click_yes(box)
    assert str(app.memory.get(memory_id).state) == "forgotten" and dialog.matches.count() == 0
    dialog.rules.setCurrentRow(0)
    dialog.remove_rule()
    assert app.never.texts() == []
    dialog.rule_edit.setText("   ")
    dialog.add_rule()
    assert dialog.message.text() and app.never.texts() == []  # an empty rule is refused, in words


def test_settings_memory_your_controls_are_saved(app, make_window, qtbot):
    window = make_window("en")
    dialog = window.open_settings()
    box = dialog.controls
    box.hours.setValue(6)
    for n in range(box.starts_off.count()):
        item = box.starts_off.item(n)
        if item.data(Qt.ItemDataRole.UserRole) == "mira":
            item.setCheckState(Qt.CheckState.Checked)
    assert dialog.save()
    assert app.settings.off_record.hours == 6 and app.settings.off_record.personas == ["mira"]
    assert "hours = 6" in app.paths.settings_path.read_text()
    never = box.open_never_remember()
    assert never is not None and never.isVisible()


def health_item(system, turns, schema):
    """A filter that insists on a health memory, citing the user's line."""
    from tests.gui.flush_script import user_lines
    cited = [user_lines(turns)[0]["id"]]
    return {"items": [{"reason": "r", "text": "worried about my health", "slot": "body/worry", "kind": "fact",
                       "score": 0.9, "evidence": cited}]}


NEVER_ROW = {"en": "Matches one of your “never remember” rules",
             "ja": "あなたの「記憶しないこと」のルールに当てはまる"}
PAUSED_NOTE = {"en": "Memory is paused: 1 message was kept",  # its plural form (Qt's %n)
               "ja": "記憶を一時停止中です：1件のメッセージを保存し"}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_flush_dialog_lists_a_never_rule_drop_and_a_paused_flush(app, make_window, backend, qtbot, language):
    from tests.gui.conftest import log_message
    from tests.gui.flush_script import NO_ITEMS
    from tests.gui.test_flush_dialog import open_flush
    backend.default_reply = NO_ITEMS
    app.never.add("health")
    log_message(app, 2, "My health worries me")
    backend.enqueue(health_item)
    dialog = open_flush(make_window(language), qtbot)
    dialog.dry_run.setChecked(True)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
        dialog.start_button.click()
    assert [d["rule"] for d in blocker.args[0].dropped_items] == ["never_remember"]
    top = dialog.changes.topLevelItem(0)
    assert (top.text(1), top.child(0).text(1)) == ("worried about my health", NEVER_ROW[language])
    pause(app.store, app.clock())
    asked = len(backend.history)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.start_button.click()
    assert PAUSED_NOTE[language] in dialog.summary.text()
    assert len(backend.history) == asked  # no model asked
    dialog.close()
