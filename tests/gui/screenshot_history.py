"""Screenshots of the File menu's dialogs (search with a conversation open, import, export, backup).

Usage: python -m tests.gui.screenshot_history HOME OUT_FOLDER LANG [dark]   (LANG: ja or en; needs a display,
e.g. ``xvfb-run -a``). Saves ``search_results_LANG.png`` (a search with its results and a conversation open),
``import_result_LANG.png`` (a finished import) and ``file_menu_LANG.png``;
with ``dark``, in the dark test palette as ``…_dark_LANG.png``. ``scripts/screenshots`` runs it.
"""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QTimer

from monchat.app import build_app
from monchat.core.types import Message, format_ts, local_now, new_message_id
from monchat.gui.main import create_main_window, ensure_qapplication
from tests.gui.screenshot_main import WINDOW_H, WINDOW_W, fit_to_screen, use_dark
from tests.support.scripted import ScriptedBackend

LINES = [("user", "昨日は札幌で味噌ラーメンを食べた。バターが乗っていて最高だった。"),
         ("assistant", "札幌の味噌ラーメン、いいですね！どのお店でしたか？"),
         ("user", "駅の近くの小さな店。また行きたいな。"),
         ("user", "今日は雪がすごくて、ラーメンのことばかり考えてる。")]


def main(home: str, out: str, language: str, theme: str = "light") -> int:
    qapp = ensure_qapplication()
    dark = theme == "dark"
    if dark:
        use_dark(qapp)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    app = build_app(home, pinned_backend=ScriptedBackend(default_reply="はい"))
    app.settings.chat.language = language
    start = local_now() - timedelta(days=1, hours=2)
    for n, (role, text) in enumerate(LINES):
        when = start + timedelta(hours=20 * (n // 3), minutes=n)
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(when), role=role, text=text, persona="hana"))
    export = Path(home) / "conversations.json"  # what is imported; not a screenshot
    export.write_text(json.dumps([{"title": "t", "current_node": "u", "mapping": {"u": {
        "id": "u", "parent": None, "children": [], "message": {"author": {"role": "user"}, "create_time": 1795000000,
                                                               "content": {"parts": ["ChatGPT から"]}}}}}]))
    window = create_main_window(app)
    window.resize(WINDOW_W, WINDOW_H)
    window.show()
    steps = []

    def save(widget, name):
        path = folder / f"{name}{'_dark' if dark else ''}_{language}.png"
        print("saved" if widget.grab().save(str(path), "PNG") else "not saved", path)

    def next_step():
        if steps:
            QTimer.singleShot(500, steps.pop(0))
        else:
            window.shutdown()
            qapp.quit()

    def search_step():
        dialog = window.file_menu.open_search()
        fit_to_screen(dialog)
        dialog.query.setText("ラーメン")
        dialog.results_shown.connect(lambda _n: dialog.results.setCurrentItem(dialog.results.topLevelItem(1)))
        dialog.conversation_shown.connect(lambda _id: QTimer.singleShot(300, lambda: (save(dialog, "search_results"),
                                                                                      dialog.close(), next_step())))
        QTimer.singleShot(300, dialog.run_search)

    def import_step():
        dialog = window.file_menu.open_import()
        fit_to_screen(dialog)
        dialog.imported.connect(lambda _r: QTimer.singleShot(300, lambda: (save(dialog, "import_result"), dialog.close(),
                                                                           next_step())))
        dialog.start(export)

    def menu_step():
        menu = window.file_menu.menu
        menu.popup(window.mapToGlobal(window.menuBar().geometry().bottomLeft()))

        def grab():
            frame = menu.frameGeometry()
            shot = qapp.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
            path = folder / f"file_menu{'_dark' if dark else ''}_{language}.png"
            print("saved" if shot.save(str(path), "PNG") else "not saved", path)
            menu.close()
            next_step()
        QTimer.singleShot(400, grab)

    steps += [menu_step, search_step, import_step]  # export and backup: screenshot_main shoots every dialog
    next_step()
    qapp.exec()
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4], "dark" if "dark" in sys.argv[4:] else "light"))
