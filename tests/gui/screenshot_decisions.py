"""Screenshots of issue 45's last parts: the Memory window after Approve ("1 approved" with Undo) and after a merge of
duplicates (with Undo), and the review queue on an imported row (its source said once, no empty evidence box) and
on a folded row whose second item was said again.

Usage: python -m tests.gui.screenshot_decisions HOME OUT_FOLDER LANG [dark]   (needs a display, e.g.
``xvfb-run -a -s "-screen 0 1366x768x24"``). Saves ``memory_approved``, ``memory_merged``, ``review_imported`` and
``review_folded`` ``[_dark]_LANG.png``.
"""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from PySide6.QtCore import QTimer

from monchat.app import build_app
from monchat.gui.kit.workers import TaskRunner
from monchat.gui.main import ensure_qapplication
from monchat.gui.memory.browser import MemoryBrowser
from monchat.gui.memory.review_queue import ReviewQueueDialog
from monchat.gui.translation import Translators
from tests.gui import memory_scenes as scenes
from tests.gui.screenshot_main import WINDOW_H, WINDOW_W, use_dark
from tests.gui.test_review_said_again import said_again_for
from tests.support.oracle import Rule

JST = timezone(timedelta(hours=9))
DAY1 = datetime(2026, 11, 23, 8, 0, tzinfo=JST)
NURSE = {"ja": ("看護師として働いている", "看護師の仕事をしている"), "en": ("Works as a nurse", "Is a nurse")}
SAID = {"ja": "看護師の仕事をしていて、今週は夜勤が三回ある", "en": "I'm a nurse, three night shifts this week"}


def main(home: str, out: str, language: str, theme: str = "light") -> int:
    qapp = ensure_qapplication()
    dark = theme == "dark"
    if dark:
        use_dark(qapp)
    translators = Translators()
    translators.install(language)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    clock = scenes.Clock(DAY1)
    oracle = scenes.oracle()
    app = build_app(home, pinned_backend=oracle, clock=clock, tz=JST)
    app.settings.chat.language = language
    # Two wordings of one sentence kept (COEXIST), and a proposal waiting for review.
    scenes.two_cat_wordings(app, oracle, clock, DAY1)
    app.settings.flush.ask_before_layer1 = True
    oracle.rules = [Rule("仙台", scenes.SENDAI, "home/city", "explicit", 0.9)]
    oracle.judgements = {}
    scenes.say(app, DAY1.replace(hour=12) + timedelta(days=2), "それと、仙台に住んでいるよ")
    scenes.flush(app, clock, DAY1.replace(hour=22) + timedelta(days=2))
    app.transfer.import_memory(text=f"- {NURSE[language][0]}\n", source="chatgpt")
    app.transfer.import_memory(text=f"- {NURSE[language][1]}\n", source="claude")
    runner = TaskRunner()

    def save(widget, name):
        path = folder / f"{name}{'_dark' if dark else ''}_{language}.png"
        print("saved" if widget.grab().save(str(path), "PNG") else "not saved", path)

    browser = MemoryBrowser(app.memory, app.settings, app.personas, clock, runner, None)
    browser.resize(WINDOW_W, WINDOW_H)
    browser.show()

    def approve():
        browser.set_view("all")
        texts = [browser.table.topLevelItem(i).text(0) for i in range(browser.table.topLevelItemCount())]
        browser.table.setCurrentItem(browser.table.topLevelItem(texts.index(scenes.SENDAI)))
        browser.memory_changed.connect(lambda: QTimer.singleShot(300, merged_step))
        browser.approve_button.click()

    def merged_step():
        browser.memory_changed.disconnect()
        save(browser, "memory_approved")
        browser.merge_button.merged.connect(lambda: QTimer.singleShot(300, queue_step))
        browser.merge_button.ask(confirmed=True)

    def queue_step():
        browser.set_view("layer1")
        save(browser, "memory_merged")
        browser.close()
        [folded] = [g for g in app.memory.queue_groups() if len(g) > 1]
        said_again_for(app, folded[1].memory_id, SAID[language], "2026-11-26T12:00:00+09:00")
        queue = ReviewQueueDialog(app.memory, app.personas, app.settings, runner, None, archive=app.archive)
        queue.resize(WINDOW_W, WINDOW_H)
        queue.show()
        queue.select(folded[0].id)
        QTimer.singleShot(300, lambda: (save(queue, "review_folded"), queue.close(), finish()))

    def finish():
        runner.drain(10000)
        app.store.close()
        qapp.quit()

    QTimer.singleShot(300, approve)
    qapp.exec()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
