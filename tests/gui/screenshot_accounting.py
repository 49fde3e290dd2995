"""Screenshots of issue 45's window parts: the finished flush with every proposal counted and what the limit cut sent
to review, and the review queue with a ChatGPT item said again in the user's own line.

Usage: python -m tests.gui.screenshot_accounting HOME OUT_FOLDER LANG [dark]   (needs a display, e.g.
``xvfb-run -a -s "-screen 0 1366x768x24"``). Saves ``flush_cut[_dark]_LANG.png`` (the result with "Send what was cut to review (5)"),
``flush_counts[_dark]_LANG.png`` (once sent) and
``review_said_again[_dark]_LANG.png``.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QTimer

from monchat.app import build_app
from monchat.core.types import Message, format_ts, new_message_id
from monchat.gui.main import create_main_window, ensure_qapplication
from tests.gui.flush_script import NO_ITEMS
from tests.gui.screenshot_main import WINDOW_H, WINDOW_W, fit_to_screen, use_dark
from tests.gui.test_flush_accounting import every_line_an_item
from tests.support.scripted import ScriptedBackend

LINES = {"ja": ["毎週日曜に庭の水やりをしている", "台所に青いやかんがある", "自転車で通勤している", "夜にバイオリンを練習する",
                "パスポートは来年の春に切れる", "大阪で傘をなくした", "祖母にティーポットをもらった",
                "家には猫が二匹いて、ミソときなこという名前"],
         "en": ["I water the garden every Sunday", "My kitchen has a blue kettle", "I ride a bicycle to work",
                "I practise the violin at night", "My passport expires next spring", "I lost an umbrella in Osaka",
                "Grandma gave me a teapot", "I have two cats at home, Miso and Kinako"]}
CATS = {"ja": "猫を二匹飼っている", "en": "Has two cats"}


def main(home: str, out: str, language: str, theme: str = "light") -> int:
    qapp = ensure_qapplication()
    dark = theme == "dark"
    if dark:
        use_dark(qapp)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    backend = ScriptedBackend(default_reply=None)
    backend.default_reply = NO_ITEMS
    backend.enqueue(every_line_an_item)
    app = build_app(home, pinned_backend=backend)
    app.settings.chat.language = language
    app.settings.flush.ask_before_layer1 = True
    start = app.clock() - timedelta(hours=3)
    for n, text in enumerate(LINES[language]):
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(start + timedelta(minutes=n)), role="user",
                                   text=text, persona="hana"))
    window = create_main_window(app)
    window.resize(WINDOW_W, WINDOW_H)
    window.show()

    def save(widget, name):
        path = folder / f"{name}{'_dark' if dark else ''}_{language}.png"
        print("saved" if widget.grab().save(str(path), "PNG") else "not saved", path)

    def flush_step():
        dialog = window.memory_menu.open_flush()

        def begin():
            if not dialog.start_button.isEnabled():
                QTimer.singleShot(100, begin)
                return
            dialog.flush_finished.connect(lambda _r: QTimer.singleShot(300, lambda: (save(dialog, "flush_cut"),
                                                                                     dialog.cut_button.click())))
            dialog.cut_button.sent.connect(lambda _n: QTimer.singleShot(500, lambda: (save(dialog, "flush_counts"),
                                                                                      dialog.close(), queue_step())))
            dialog.start()
        QTimer.singleShot(300, begin)

    def queue_step():
        app.transfer.import_memory(text=f"- {CATS[language]}\n", source="chatgpt")
        item = next(r for r in app.memory.queue() if r.text == CATS[language])
        rows = [r for r in app.store.db.query("SELECT id, day, session FROM messages WHERE text = ?",
                                              [LINES[language][-1]])]
        with app.memory.change() as t:
            t.said_again(app.memory.memories.get(item.memory_id), [{"message_id": r["id"], "day": r["day"],
                                                                   "session": r["session"], "kind": "explicit",
                                                                   "persona": "base"} for r in rows])
        dialog = window.memory_menu.open_review_queue()
        fit_to_screen(dialog)
        dialog.select(item.id)
        QTimer.singleShot(500, lambda: (save(dialog, "review_said_again"), dialog.close(), finish()))

    def finish():
        window.shutdown()
        qapp.quit()

    QTimer.singleShot(500, flush_step)
    qapp.exec()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
