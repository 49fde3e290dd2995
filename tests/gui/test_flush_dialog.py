"""The flush dialog drives a real FlushService with a scripted backend."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.gui.conftest import fill_log_files, log_message
from tests.gui.flush_script import NO_ITEMS, item_answer


def open_flush(window, qtbot):
    dialog = window.memory_menu.open_flush()
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    return dialog


def _past_block_end(app, hours_ago: float) -> float:
    """Hours to go back further so that a time ``hours_ago`` and 0.1 h later share a 6-hour log file."""
    when = app.clock() - timedelta(hours=hours_ago)
    into_block = (when.hour % 6) + when.minute / 60 + when.second / 3600
    return 0.5 if into_block > 5.8 else 0.0


def test_flush_shows_stages_personas_and_the_changes_with_evidence(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    asked = 30 + _past_block_end(app, 30)  # the reply 6 minutes later stays in the same 6-hour file
    log_message(app, asked, "覚えておいて、私は仙台に住んでいます。")
    log_message(app, asked - 0.1, "そうなんだ！", role="assistant")
    log_message(app, 2, "今日はすき焼きを食べた")
    window = make_window("en")
    backend.enqueue(item_answer("仙台に住んでいる", "home/city"))  # base persona, first call
    dialog = open_flush(window, qtbot)
    assert "2 log files with 3 messages" in dialog.plan_label.text()
    names = [label.text() for label, _ in dialog.persona_rows.values()]
    roles = [label.text() for label in dialog.role_labels.values()]
    assert len(names) == 4 and names[0] == "Base"
    assert roles[0] == "always reads" and roles.count("you chose") == 2 and roles.count("picked this time") == 1
    tips = [label.toolTip() for label in dialog.role_labels.values()]  # the program's name only in the tooltip
    assert "“base”" in tips[0] and "“fixed”" in tips[1] and "“random”" in tips[3]

    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
        dialog.start_button.click()
        assert dialog.cancel_button.isEnabled() and not dialog.close_button.isEnabled()
    report = blocker.args[0]
    progress = [mark.text() for mark in dialog.stage_marks.values()]
    assert progress == ["✓"] * 7 and dialog.overall.value() == dialog.overall.maximum()
    layers = dict(dialog.layers.rows())  # what each background layer changed (tests/gui/test_background_layers.py)
    assert layers["Looking back"] == "Insights: 0, suspected gaps: 0 (Inbox)"
    assert layers["Diary"].startswith("Pages written: ") and layers["Diary"].count(", ") == 1
    assert all(bar.value() == 1 for _, bar in dialog.persona_rows.values())
    # four filters, the reflect call, a diary page for each of the two days with user messages
    assert len(report.background["diary"]) == 2 and report.llm_calls == 4 + 1 + 2 and not report.dry_run

    assert "Lasting memory: +1" in dialog.summary.text()
    top = [dialog.changes.topLevelItem(i) for i in range(dialog.changes.topLevelItemCount())]
    into_layer1 = [item for item in top if "Into lasting memory" in item.text(0).split(" · ")]
    assert len(top) == 1, "one row per memory, however many changes it went through"
    assert into_layer1 and into_layer1[0].text(1) == "仙台に住んでいる"
    evidence = [into_layer1[0].child(i).text(1) for i in range(into_layer1[0].childCount())]
    assert evidence == ["覚えておいて、私は仙台に住んでいます。"]

    # The window follows: files are gone, the gate is open, the prompt carries the memory.
    assert app.logbook.files() == []
    assert "Unflushed log files: 0" in window.gate_bar.count_label.text()
    layer1, _ = app.memory.prompt_items()
    assert [m.text for m in layer1] == ["仙台に住んでいる"]
    dialog.close_button.click()
    assert not dialog.isVisible()


def test_cancel_writes_nothing(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    backend.delay = 0.3
    fill_log_files(app, 3)
    window = make_window("en")
    dialog = open_flush(window, qtbot)
    with qtbot.waitSignal(dialog.flush_failed, timeout=10000) as blocker:
        dialog.start_button.click()
        qtbot.waitUntil(lambda: bool(backend.history), timeout=5000)
        dialog.cancel_button.click()
        assert dialog.cancel_button.text() == "Cancelling…"
    failure = blocker.args[0]
    assert failure.code == "flush_cancelled"
    assert "cancelled; nothing was changed" in dialog.status.text()
    assert len(app.logbook.files()) == 3 and app.archive.count() == 0
    assert app.flush.runs() == []
    assert dialog.start_button.isEnabled() and dialog.close_button.isEnabled()
    assert all(bar.maximum() == 1 for _, bar in dialog.persona_rows.values())  # no bar left spinning
    dialog.close()


def test_a_backend_failure_is_shown_and_writes_nothing(app, make_window, backend, qtbot):
    from monchat.core.errors import BackendUnreachable
    backend.default_reply = NO_ITEMS
    fill_log_files(app, 2)
    window = make_window("en")
    backend.enqueue(BackendUnreachable("Ollama is not running at http://127.0.0.1:11434.", "Start it."))
    dialog = open_flush(window, qtbot)
    with qtbot.waitSignal(dialog.flush_failed, timeout=10000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].code == "backend_unreachable"
    assert "could not be reached" in dialog.status.text() and "127.0.0.1:11434" in dialog.status.text()
    formats = [bar.format() for _, bar in dialog.persona_rows.values()]
    assert formats[0] == "stopped" and all(bar.maximum() == 1 for _, bar in dialog.persona_rows.values())
    assert "✗" in [mark.text() for mark in dialog.stage_marks.values()]
    assert len(app.logbook.files()) == 2 and app.archive.count() == 0
    dialog.close()


def test_closing_while_running_cancels_first(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    backend.delay = 0.3
    fill_log_files(app, 1)
    window = make_window("en")
    dialog = open_flush(window, qtbot)
    with qtbot.waitSignal(dialog.flush_failed, timeout=10000):
        dialog.start_button.click()
        dialog.reject()  # Esc or the window's close box
        assert dialog.isVisible()  # stays until the worker has stopped
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=2000)
    assert len(app.logbook.files()) == 1


def test_dry_run_shows_changes_and_writes_nothing(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 1, "I live in Sendai, remember that")
    window = make_window("en")
    backend.enqueue(item_answer("Lives in Sendai", "home/city"))
    dialog = open_flush(window, qtbot)
    dialog.dry_run.setChecked(True)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].dry_run
    assert "Preview finished" in dialog.status.text()
    assert dialog.changes.topLevelItemCount() >= 1
    assert len(app.logbook.files()) == 1 and app.memory.list(all=True) == []
    dialog.close()


def test_a_persona_that_cannot_read_offers_a_partial_flush(app, make_window, backend, qtbot):
    def lifestyle_cannot_read(system, turns, schema):
        return "not json" if '"Lifestyle"' in turns[-1].content else NO_ITEMS(system, turns, schema)
    backend.default_reply = lifestyle_cannot_read
    log_message(app, 3, "今日は川沿いを散歩した")
    log_message(app, 2, "夜はカレーを作った")
    window = make_window("en")
    dialog = open_flush(window, qtbot)
    assert not dialog.partial_button.isVisible()

    with qtbot.waitSignal(dialog.flush_failed, timeout=10000):
        dialog.start_button.click()
    assert dialog.partial_button.isVisible()
    lifestyle_bar = dialog.persona_rows["lifestyle"][1]
    assert lifestyle_bar.format() == "1 of 1 unread"
    assert "could not read some messages" in dialog.status.text()
    assert app.flush.runs(1) == []

    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as finished:
        dialog.partial_button.click()
    report = finished.args[0]
    assert report.unread and not dialog.partial_button.isVisible()
    assert "A partial flush was accepted: " in dialog.summary.text()  # worded from its code
    assert app.chat.gate().state == "ok"


def test_start_flush_is_disabled_with_the_reason_when_there_are_no_log_files(window, qtbot):
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(lambda: bool(dialog.persona_rows), timeout=5000)
    assert "no log files" in dialog.plan_label.text()
    assert not dialog.start_button.isEnabled() and "chat first" in dialog.start_button.toolTip()
    dialog.close()


def test_after_a_flush_the_window_warms_the_backend_with_the_new_prompt_on_a_worker(app, make_window, backend,
                                                                                     qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 30, "覚えておいて、私は仙台に住んでいます。")
    window = make_window("en")
    backend.enqueue(item_answer("仙台に住んでいる", "home/city"))
    dialog = open_flush(window, qtbot)
    assert backend.warmed == []
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.start_button.click()
    qtbot.waitUntil(lambda: bool(backend.warmed), timeout=5000)
    [system] = backend.warmed
    assert system == app.chat.system_prompt(app.chat.persona()) and "仙台に住んでいる" in system
    dialog.close_button.click()


def assistants_words(system, turns, schema):
    """A filter proposing what only the assistant said (cited to the user's line next to it)."""
    from tests.gui.flush_script import user_lines
    lines = user_lines(turns)
    return {"items": [{"reason": "r", "text": "Omicho market has seafood bowls", "slot": "plan/food", "kind": "fact",
                       "score": 0.9, "evidence": [lines[0]["id"]]}]}


def test_a_dropped_proposal_is_listed_with_why_not_as_no_changes(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 2.1, "Good idea")
    log_message(app, 2, "Omicho market has seafood bowls in the morning", role="assistant")
    backend.enqueue(assistants_words)
    for language, kind, why, nothing in (
            ("en", "Dropped", "The assistant's words, not yours", "No changes"),
            ("ja", "除外", "あなたではなく、アシスタントの言葉", "変更なし")):
        window = make_window(language)
        dialog = open_flush(window, qtbot)
        dialog.dry_run.setChecked(True)
        if language == "ja":
            backend.enqueue(assistants_words)
        with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
            dialog.start_button.click()
        assert [(d["category"], d["rule"]) for d in blocker.args[0].dropped_items] == [("words", "assistants_words")]
        top = dialog.changes.topLevelItem(0)
        assert (top.text(0), top.text(1)) == (kind, "Omicho market has seafood bowls")
        assert top.child(0).text(1) == why
        texts = [dialog.changes.topLevelItem(i).text(0) for i in range(dialog.changes.topLevelItemCount())]
        assert nothing not in texts
        dialog.close()


def tiny_model_items(system, turns, schema):
    """A filter at its worst (issue 22): its persona read back, "1.", a placeholder slot, a claim the user never
    wrote; each citing a real user line."""
    from tests.gui.flush_script import user_lines
    cited = [user_lines(turns)[0]["id"]]
    items = [("Pick the few things worth remembering about the user that fit your talent.", "memory/rules"),
             ("1.", "food/ramen"), ("I had ramen", "role_id_1")]
    return {"items": [{"reason": "r", "text": text, "slot": slot, "kind": "fact", "score": 0.9, "evidence": cited}
                      for text, slot in items]}


GUARD_ROWS = {
    "en": {"Pick the few things worth remembering about the user that fit your talent.":
           "Repeats the filter's own instructions, not your words",
           "1.": "Says nothing: only a number, a list marker, punctuation or one repeated syllable",
           "I had ramen": "The model gave it no real topic, only a placeholder or a word copied from its instructions"},
    "ja": {"Pick the few things worth remembering about the user that fit your talent.":
           "あなたの言葉ではなく、フィルターへの指示をなぞっている",
           "1.": "中身がない: 数字や箇条書きの記号、句読点、同じ音の繰り返しだけ",
           "I had ramen": "モデルがきちんとした話題を付けなかった（仮の名前か、指示から写した言葉だけ）"},
}


@pytest.mark.parametrize("language", sorted(GUARD_ROWS))
def test_each_proposal_the_guard_drops_is_listed_with_its_rule(app, make_window, backend, qtbot, language):
    backend.default_reply = NO_ITEMS
    log_message(app, 2, "I had ramen")
    backend.enqueue(tiny_model_items)
    dialog = open_flush(make_window(language), qtbot)
    dialog.dry_run.setChecked(True)  # a dry run lists them too
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
        dialog.start_button.click()
    assert {d["rule"] for d in blocker.args[0].dropped_items} == {"echoes_instructions", "no_statement", "bad_slot"}
    rows = {dialog.changes.topLevelItem(i).text(1): dialog.changes.topLevelItem(i).child(0).text(1)
            for i in range(dialog.changes.topLevelItemCount())}
    assert rows == GUARD_ROWS[language]
    dialog.close()
