"""File → Export memory… / Import memory… and Settings → Memory's MCP switch, from the main window."""

from __future__ import annotations

import json

from monchat.core.vocabulary.states import State
from monchat.core.settings import load_settings
from tests.support.memory_seed import seed


def test_export_then_import_a_pasted_list_from_the_file_menu(app, make_window, qtbot, tmp_path):
    seed(app)
    window = make_window("en")
    export = window.file_menu.open_memory_export()
    with qtbot.waitSignal(export.exported, timeout=5000):
        export.export_to(tmp_path / "memory.json", export.form())
    data = json.loads((tmp_path / "memory.json").read_text(encoding="utf-8"))
    assert {m["id"] for m in data["memories"]} == {"mem-sendai", "mem-kanazawa", "mem-tea"}
    assert "Saved" in export.status.text()

    dialog = window.file_menu.open_memory_import()
    dialog.pasted.setPlainText("- Has a cat named Mochi.\n- Prefers short answers.\n")
    dialog.source.setCurrentIndex(dialog.source.findData("chatgpt"))
    with qtbot.waitSignal(dialog.imported, timeout=5000) as blocker:
        dialog.import_button.click()
    assert blocker.args[0].queued == 2
    assert "2 of 2 memories now wait for your review" in dialog.status.text()
    waiting = [m for m in app.memory.memories.all() if m.slot == "imported/chatgpt"]
    assert {m.state for m in waiting} == {State.QUEUED} and len(waiting) == 2
    from monchat.gui.memory import review_words
    row = next(r for r in app.memory.queue() if r.text == "Has a cat named Mochi.")
    assert review_words.reason(row) == "Imported from ChatGPT."  # its source, named once (issue 45)
    assert review_words.held(row) == "It becomes memory only if you approve it."


def test_the_file_menu_names_the_memory_dialogs_in_japanese(app, make_window):
    window = make_window("ja")
    assert window.file_menu.memory_import_action.text() == "記憶をインポート…"
    assert window.file_menu.open_memory_export().windowTitle() == "記憶をエクスポート"


def test_settings_memory_lets_other_apps_propose_only_when_checked(window, app, qtbot, home):
    dialog = window.open_settings()
    assert not dialog.mcp_switch.isChecked()
    dialog.mcp_switch.setChecked(True)
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        assert dialog.save()
    assert app.settings.mcp.allow_propose is True
    assert load_settings(app.paths.settings_path)[0].mcp.allow_propose is True  # what `monchat mcp` reads


def test_settings_memory_names_the_apps_that_connected_lately(make_window, app):
    from monchat.core.transfer.mcp_server import access_log
    assert make_window("en").open_settings().mcp_switch.recent.text() == "No app has connected yet."
    log = access_log(app.paths)
    log.write("Claude Desktop 0.9", "connected")
    log.write("LM Studio 0.3.17", "connected")
    text = make_window("en").open_settings().mcp_switch.recent.text()
    assert text.startswith("Connected lately: ") and "Claude Desktop 0.9" in text and "LM Studio 0.3.17" in text
