"""Screenshots of Settings → Sync and the status bar's sync state (issue 41), on a 1366×768 screen.

``python -m tests.gui.screenshot_sync WORKDIR OUTPUT_DIR [ja|en] [light|dark]`` (a real display: DISPLAY + xcb, e.g.
under ``xvfb-run -a -s "-screen 0 1366x768x24"``). This computer ("laptop") and another ("desktop") share a folder;
the desktop wrote a message, the laptop deleted one the desktop has not synced since, and a sync tool left a
conflict copy. Saves ``sync_page[_dark]_<language>.png`` and ``sync_status[_dark]_<language>.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer

from monchat.app import build_app
from monchat.core.types import Message, format_ts, new_message_id
from monchat.gui.kit.pages import tab_index
from monchat.gui.main import create_main_window, ensure_qapplication
from tests.gui.screenshot_main import WINDOW_H, WINDOW_W, use_dark
from tests.support.scripted import ScriptedBackend


def said(app, text: str) -> str:
    message = Message(id=new_message_id(), ts=format_ts(app.clock()), role="user", text=text, persona="hana")
    app.archive.archive([message], app.clock())
    return message.id


def main(work: str, out: str, language: str = "ja", theme: str = "light") -> int:
    qapp = ensure_qapplication()
    if theme == "dark":
        use_dark(qapp)
    root, folder = Path(work), Path(out)
    shared = root / "Sync"
    shared.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    other = build_app(str(root / "desktop"), pinned_backend=ScriptedBackend())
    other.sync.setup(shared, "desktop")
    said(other, "金沢でおでんを食べた" if language == "ja" else "Had oden in Kanazawa")
    other.sync.run()
    app = build_app(str(root / "laptop"), pinned_backend=ScriptedBackend())
    app.settings.chat.language = language
    app.sync.setup(shared, "laptop")
    gone = said(app, "消すメッセージ" if language == "ja" else "a message to delete")
    app.sync.run()
    app.messages.delete(gone)  # its deletion waits on the desktop, which has not synced since
    journal = shared / "monchat" / "devices" / other.sync.device().id / "journal"
    (journal / "2026-12.sync-conflict-20261204-120000-ABCDEFG.jsonl").write_text("{}\n", encoding="utf-8")
    window = create_main_window(app)
    window.resize(WINDOW_W, WINDOW_H)
    window.show()
    suffix = f"{'_dark' if theme == 'dark' else ''}_{language}.png"

    def save(widget, name: str) -> None:
        path = folder / f"{name}{suffix}"
        print("saved" if widget.grab().save(str(path), "PNG") else "not saved", path)

    def page() -> None:
        dialog = window.open_settings()
        dialog.tabs.setCurrentIndex(tab_index(dialog.tabs, dialog.sync_page))
        QTimer.singleShot(1500, lambda: (save(dialog, "sync_page"), dialog.reject(), finish()))

    def finish() -> None:
        window.shutdown()
        window.close()
        qapp.exit(0)

    def status() -> None:
        if window.sync.last_report is None:
            QTimer.singleShot(200, status)
            return
        save(window, "sync_status")
        QTimer.singleShot(200, page)
    QTimer.singleShot(1000, status)
    return qapp.exec()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
