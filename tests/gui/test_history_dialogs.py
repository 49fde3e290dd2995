"""File menu: search (Ctrl+F) before and after a flush, import with progress, export, back up and restore."""

from __future__ import annotations

import json
from datetime import timedelta

from PySide6.QtGui import QKeySequence

from monchat.core.paths import Paths
from monchat.core.types import Message, format_ts, new_message_id
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS
from tests.test_importers import chatgpt_export, write


def search_for(dialog, qtbot, words: str) -> list[list[str]]:
    dialog.query.setText(words)
    with qtbot.waitSignal(dialog.results_shown, timeout=5000):
        dialog.search_button.click()
    return [[dialog.results.topLevelItem(i).text(c) for c in range(4)]
            for i in range(dialog.results.topLevelItemCount())]


def test_ctrl_f_finds_a_message_before_and_after_a_flush_and_opens_it_in_its_conversation(app, make_window, backend,
                                                                                          qtbot):
    log_message(app, 3, "昨日の夜は札幌で味噌ラーメン")
    log_message(app, 2.9, "いいですね！", role="assistant")
    log_message(app, 1, "今日は雪")
    window = make_window("en")
    assert window.menuBar().actions()[0].text() == "&File"
    assert window.file_menu.search_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Find)
    window.file_menu.search_action.trigger()
    dialog = window.dialogs[-1]
    assert dialog.isVisible() and dialog.windowTitle() == "Search the conversation"

    assert app.archive.count() == 0  # before: only in the log files
    rows = search_for(dialog, qtbot, "ラーメン")
    assert [(r[1], r[2], r[3]) for r in rows] == [(window.persona_name("hana"), "You", "昨日の夜は札幌で味噌ラーメン")]
    assert "1 message found, newest first." in dialog.status.text()  # Qt's plural forms, not "(s)"
    with qtbot.waitSignal(dialog.conversation_shown, timeout=5000):
        dialog.results.setCurrentItem(dialog.results.topLevelItem(0))
    shown = dialog.conversation.toPlainText()
    assert "昨日の夜は札幌で味噌ラーメン" in shown and "いいですね！" in shown and "今日は雪" in shown

    backend.default_reply = NO_ITEMS
    app.flush.run()
    assert app.logbook.files() == [] and app.archive.count() == 3  # after: only in the archive
    assert search_for(dialog, qtbot, "ラーメン") == rows
    assert [r[3] for r in search_for(dialog, qtbot, "雪")] == ["今日は雪"]  # one character: the plain scan


def test_browse_by_day(app, make_window, qtbot):
    log_message(app, 0.1, "きょうの話")
    window = make_window("en")
    dialog = window.file_menu.open_search()
    qtbot.waitUntil(lambda: dialog.days.count() == 1, timeout=5000)
    assert dialog.days.item(0).text().endswith("(1)")
    with qtbot.waitSignal(dialog.results_shown, timeout=5000):
        dialog.days.itemClicked.emit(dialog.days.item(0))
    assert dialog.results.topLevelItem(0).text(3) == "きょうの話"


def test_import_a_chatgpt_export_with_a_progress_bar(app, make_window, qtbot, tmp_path):
    source = write(tmp_path / "conversations.json", chatgpt_export())
    window = make_window("en")
    dialog = window.file_menu.open_import()
    seen = []
    dialog.progress.valueChanged.connect(seen.append)
    with qtbot.waitSignal(dialog.imported, timeout=10000) as blocker:
        dialog.start(source)
    report = blocker.args[0]
    assert (report.format, report.imported) == ("chatgpt", 4)
    assert dialog.progress.value() == dialog.progress.maximum() and seen
    assert "Imported 4 of 4 messages." in dialog.status.text()
    assert "Skipped 5 system, tool or empty messages." in dialog.status.text()
    assert dialog.choose_button.isEnabled()
    label = dialog.status  # the result is shown whole: the label has the height its lines need
    assert label.height() >= label.heightForWidth(label.width())


def test_a_malformed_export_says_so_in_the_window(app, make_window, qtbot, tmp_path):
    bad = tmp_path / "conversations.json"
    bad.write_text('[{"chat_messages": 5}]', encoding="utf-8")
    dialog = make_window("en").file_menu.open_import()
    with qtbot.waitSignal(dialog.failed, timeout=5000) as blocker:
        dialog.start(bad)
    assert blocker.args[0].code == "input" and blocker.args[0].known
    assert "That cannot be used." in dialog.status.text()
    assert app.logbook.files() == []


def test_export_and_backup_from_the_window_use_the_cli_code(app, make_window, qtbot, tmp_path):
    log_message(app, 1, "書き出すメッセージ")
    window = make_window("en")
    export = window.file_menu.open_export()
    with qtbot.waitSignal(export.exported, timeout=5000):
        export.export_to(tmp_path / "out.jsonl", "jsonl")
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [line["text"] for line in lines] == ["書き出すメッセージ"]
    export.memory_choice.setChecked(True)
    assert export.kind() == "markdown"
    with qtbot.waitSignal(export.exported, timeout=5000):
        export.export_to(tmp_path / "memory.md", "markdown")
    assert (tmp_path / "memory.md").read_text(encoding="utf-8") == app.memory.markdown()

    backup = window.file_menu.open_backup()
    with qtbot.waitSignal(backup.backed_up, timeout=10000):
        backup.back_up_to(tmp_path / "b.zip")
    assert "Saved" in backup.status.text() and ": 2 files, 0 archived messages, 0 memories." in backup.status.text()
    with qtbot.waitSignal(backup.restored, timeout=10000) as blocker:
        backup.restore_from(tmp_path / "b.zip", tmp_path / "restored")
    assert backup.status.text().startswith("Restored 0 archived messages and 0 memories into ")  # plural forms
    assert blocker.args[0].data_dir == Paths.from_env(tmp_path / "restored").data_dir
    assert [p.name for p in (tmp_path / "restored" / "logs").iterdir()] == [p.name for p in app.logbook.files()]
    with qtbot.waitSignal(backup.failed, timeout=10000):  # not empty any more
        backup.restore_from(tmp_path / "b.zip", tmp_path / "restored")


def test_the_file_menu_speaks_japanese(app, make_window, qtbot):
    window = make_window("ja")
    assert window.menuBar().actions()[0].text() == "ファイル(&F)"
    titles = [window.file_menu.open_search().windowTitle(), window.file_menu.open_import().windowTitle(),
              window.file_menu.open_export().windowTitle(), window.file_menu.open_backup().windowTitle()]
    assert titles == ["会話を検索", "履歴をインポート", "エクスポート", "バックアップと復元"]


def test_search_shows_plain_text_near_the_match_highlights_it_and_sets_stopped_replies_apart(
        app, make_window, qtbot):
    long_start = "x " * 80
    log_message(app, 3, long_start + "where is the ramen shop?")
    log_message(app, 2.9, "The **ramen** shop is near the station.\n\n```\nmap\n```", role="assistant")
    stopped = Message(id=new_message_id(), ts=format_ts(app.clock() - timedelta(hours=2.8)), role="assistant",
                      text="Ramen is a noodle", persona="hana", status="stopped")
    app.logbook.append(stopped)
    window = make_window("en")
    dialog = window.file_menu.open_search()
    rows = {r[3] for r in search_for(dialog, qtbot, "ramen")}
    assert "The ramen shop is near the station. map" in rows  # no ** and no fence
    assert "[stopped] Ramen is a noodle" in rows
    assert any(r.startswith("…") and "ramen shop" in r for r in rows)  # starts near the match, not 80 x's before
    assert "3 messages found, newest first." in dialog.status.text()
    item = next(dialog.results.topLevelItem(i) for i in range(3)
                if dialog.results.topLevelItem(i).text(3).startswith("The ramen"))
    with qtbot.waitSignal(dialog.conversation_shown, timeout=5000):
        dialog.results.setCurrentItem(item)
    assert dialog.conversation.toHtml().count("font-weight:700") >= 2  # "ramen" in the other messages, marked
    dialog.close()


def test_an_import_of_one_message_says_message_in_english_and_counts_in_japanese(app, make_window, qtbot, tmp_path):
    """Qt's plural forms: "1 message", "2 messages" in English, one form in Japanese; never "message(s)"."""
    from monchat.core.transfer.messages import ImportReport
    for language, one, already in (
            ("en", "Imported 1 of 1 message.", "1 of them was already here."),
            ("ja", "1 件中 1 件のメッセージを取り込みました。", "うち 1 件はすでにありました。")):
        window = make_window(language)
        dialog = window.file_menu.open_import()
        dialog._done(ImportReport(read=1, imported=1, already_known=1))  # what the worker hands the dialog
        assert dialog.status.text().splitlines()[:2] == [one, already]
        dialog.close()
