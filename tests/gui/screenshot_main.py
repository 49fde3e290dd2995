"""Render the main window with a conversation, then each dialog, and save PNGs.

Run by test_screenshot.py and ``scripts/screenshots``. Usage:
``python -m tests.gui.screenshot_main HOME OUTPUT.png [ja|en] [first] [dark]`` (needs a real display: DISPLAY +
xcb). The window is laptop-sized (1366×768 less a panel); ``dark`` shoots everything in a dark palette,
the files named ``…_dark_<language>.png``. The dialogs go next to OUTPUT as ``<name>_<language>.png``: every dialog an ``open_*`` method of the
main window opens (so new dialogs are shot too), then particular states (a flush that ran, the verdict
menu, a superseded memory, the gate at "stop", dark). ``first`` shoots an empty first start instead.
Memory has a past (``memory_scenes``: flushes five and three days ago), so the memory
browser shows Layer 1, a superseded memory with its history chain and evidence, and the
review queue an unsure judgement.
"""

from __future__ import annotations

import sys
import threading
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QFontDatabase, QPalette

from monchat.app import build_app
from monchat.core.types import Message, format_ts, local_now, new_message_id
from monchat.gui.main import create_main_window, ensure_qapplication
from tests.gui import memory_scenes as scenes
from monchat.gui.kit.pages import tab_index
from tests.gui.walker import dialog_classes, openers
from tests.support.oracle import Rule

CONVERSATION_EN = [
    ("user", "Back home. I took the train from Sendai to Kanazawa today, a bit tired."),
    ("assistant", "Welcome back! That is a long trip.\n\n- Was it your **first** time in Kanazawa?\n"
                  "- Have you had dinner yet?\n\nHere is a tiny packing list:\n\n```\numbrella\ncharger\n```"),
    ("user", "I had oden at the station. The kurumabu was great."),
    ("assistant", "Kanazawa oden is lovely, and kurumabu soaks up the broth. Tomorrow you could try "
                  "Omicho market for a seafood bowl in the morning."),
    ("user", "Good idea, if I manage to get up early."),
]

CONVERSATION = [
    ("user", "ただいま。今日は仙台から金沢まで移動して、ちょっと疲れた。"),
    ("assistant", "おかえり！長旅おつかれさま。\n\n- 金沢は**初めて**？\n- 晩ごはんはもう食べた？\n\n"
                  "ゆっくり休んでね。"),
    ("user", "晩ごはんは駅でおでんを食べたよ。車麩がおいしかった。"),
    ("assistant", "金沢おでん、いいね！車麩は出汁をたっぷり吸っていて最高だよね。"
                  "明日は近江町市場に寄ってみるのはどう？朝から海鮮丼が食べられるよ。"),
    ("user", "それいいね。朝早く起きられたら行ってみる。"),
]


def dark_palette() -> QPalette:
    """A dark system theme, as a desktop in dark mode would give it (the app itself sets no colours)."""
    palette = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#2b2b2b"), (QPalette.ColorRole.WindowText, "#e6e6e6"),
                         (QPalette.ColorRole.Base, "#1e1e1e"), (QPalette.ColorRole.AlternateBase, "#333333"),
                         (QPalette.ColorRole.Text, "#e6e6e6"), (QPalette.ColorRole.Button, "#3a3a3a"),
                         (QPalette.ColorRole.ButtonText, "#e6e6e6"), (QPalette.ColorRole.ToolTipBase, "#4a4026"),
                         (QPalette.ColorRole.ToolTipText, "#f0e6c8"), (QPalette.ColorRole.PlaceholderText, "#9a9a9a"),
                         (QPalette.ColorRole.Highlight, "#3d6fb4"), (QPalette.ColorRole.BrightText, "#ffffff"),
                         (QPalette.ColorRole.Dark, "#5a2a2a")):
        palette.setColor(role, QColor(colour))
    # Disabled controls are drawn dimmer, as a real dark theme draws them (Qt's Fusion dark palette, Breeze Dark):
    # grey text on the window's colour, no highlight colour.
    disabled = QPalette.ColorGroup.Disabled
    for role, colour in ((QPalette.ColorRole.WindowText, "#808080"), (QPalette.ColorRole.Text, "#808080"),
                         (QPalette.ColorRole.ButtonText, "#808080"), (QPalette.ColorRole.Base, "#2b2b2b"),
                         (QPalette.ColorRole.Button, "#333333"), (QPalette.ColorRole.Highlight, "#4a4a4a"),
                         (QPalette.ColorRole.HighlightedText, "#a0a0a0"), (QPalette.ColorRole.PlaceholderText, "#6a6a6a"),
                         (QPalette.ColorRole.Light, "#3a3a3a"), (QPalette.ColorRole.BrightText, "#a0a0a0")):
        palette.setColor(disabled, role, QColor(colour))
    return palette


SCREEN_W, SCREEN_H = 1366, 768
WINDOW_W, WINDOW_H = 1366, 740  # the laptop screen less a desktop panel


def fit_to_screen(widget) -> None:
    """As large as it asks to be, but never beyond the laptop screen (a window manager would clip it)."""
    wanted = widget.size().expandedTo(widget.sizeHint())
    widget.resize(min(wanted.width(), SCREEN_W), min(wanted.height(), WINDOW_H))


def use_dark(qapp) -> None:
    qapp.setStyle("Fusion")
    qapp.setPalette(dark_palette())


def first_start(home: str, output: str, language: str, dark: bool = False) -> int:
    """An empty first start: the welcome, the persona of the language, no "Show older messages"."""
    qapp = ensure_qapplication()
    if dark:
        use_dark(qapp)
    app = build_app(home, pinned_backend=scenes.oracle())
    app.settings.chat.language = language
    window = create_main_window(app)
    window.resize(WINDOW_W, WINDOW_H)
    window.show()

    def grab():
        path = Path(output).parent / f"first_start{'_dark' if dark else ''}_{language}.png"
        print("saved" if window.grab().save(str(path), "PNG") else "not saved", path)
        window.shutdown()
        window.close()
        qapp.exit(0)
    QTimer.singleShot(1500, grab)
    return qapp.exec()


def main(home: str, output: str, language: str = "ja", dark: bool = False) -> int:
    qapp = ensure_qapplication()
    if dark:
        use_dark(qapp)
        output = str(Path(output).with_name(Path(output).name.replace(f"_{language}.png", f"_dark_{language}.png")))
    theme = "_dark" if dark else ""
    backend = scenes.oracle()
    clock = scenes.Clock()
    app = build_app(home, pinned_backend=backend, clock=clock)
    app.settings.chat.language = language
    app.settings.chat.persona = "hana" if language == "ja" else "mira"
    day1 = (local_now() - timedelta(days=5)).replace(hour=8, minute=0, second=0, microsecond=0)
    made = scenes.memory_with_history(app, clock, day1)
    made.update(scenes.growing(app, clock, day1 + timedelta(days=3)))
    clock.now = None  # the real time from here on
    app.settings.flush.ask_before_layer1 = True
    backend.rules += [Rule("車麩", "金沢おでんの車麩が好き", "food/oden", "fact", 0.8),
                      Rule("朝早く起きられたら", "近江町市場の海鮮丼を食べてみたい", "plan/food", "explicit", 0.9),
                      Rule("kurumabu", "Had oden at the station; the kurumabu was great", "food/oden", "fact", 0.8),
                      Rule("get up early", "Wants to manage to get up early", "plan/food", "explicit",
                           0.9)]
    start = app.clock() - timedelta(minutes=30)
    persona = app.settings.chat.persona
    for n, (role, text) in enumerate(CONVERSATION if language == "ja" else CONVERSATION_EN):
        when = start + timedelta(minutes=3 * n)
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(when), role=role, text=text, persona=persona))
    for hours in (7, 13):  # two older slots: three files in all, so the flush banner shows
        when = app.clock() - timedelta(hours=hours)
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(when), role="user",
                                   text="おはよう" if language == "ja" else "morning", persona=persona))
    window = create_main_window(app)
    window.resize(WINDOW_W, WINDOW_H)
    window.show()
    window.composer.edit.setPlainText("明日の天気はどうかな？" if language == "ja" else "What about the weather?")
    families = QFontDatabase.families(QFontDatabase.WritingSystem.Japanese)
    print("japanese fonts:", ", ".join(families[:5]))

    folder = Path(output).parent
    folder.mkdir(parents=True, exist_ok=True)
    steps = []
    shot: set[type] = set()  # the dialog classes shot so far

    def save(widget, path) -> None:
        ok = widget.grab().save(str(path), "PNG")
        print("saved" if ok else "not saved", path)

    def next_step() -> None:
        if steps:
            QTimer.singleShot(400, steps.pop(0))
        else:
            window.shutdown()
            window.close()
            qapp.exit(0)

    def capture_main() -> None:
        save(window, output)
        next_step()

    def dialog_step(name, open_dialog, prepare=None):
        def step():
            dialog = open_dialog()
            shot.add(type(dialog))
            fit_to_screen(dialog)
            if prepare is not None:
                prepare(dialog)

            def grab():
                save(dialog, folder / f"{name}{theme}_{language}.png")
                dialog.close()
                next_step()
            QTimer.singleShot(400, grab)
        return step

    def flush_step():
        """The flush while it runs (one filter's first answer held back: the time left is estimated from the
        others' parts), then when it is done."""
        dialog = window.memory_menu.open_flush()
        release, held = threading.Event(), threading.Event()

        def hold(_n, kind):  # the first filter call of this flush (the scenes' flushes made calls before)
            if kind == "filter" and not held.is_set():
                held.set()
                release.wait(30)

        def start():
            if not dialog.start_button.isEnabled():
                QTimer.singleShot(100, start)
                return
            dialog.flush_finished.connect(lambda _report: QTimer.singleShot(300, finish))
            backend.on_call = hold
            dialog.start()
            QTimer.singleShot(2500, running)

        def running():
            save(dialog, folder / f"flush_running{theme}_{language}.png")
            backend.on_call = None
            release.set()

        def finish():
            save(dialog, folder / f"flush_run{theme}_{language}.png")
            dialog.close()
            next_step()
        QTimer.singleShot(300, start)

    def verdict_menu_step():
        """The judge row with its "approve as…" menu open (a popup: grabbed from the screen)."""
        dialog = window.memory_menu.open_review_queue()
        dialog.select(made["judge"].id)
        button = dialog.other_verdict_button

        def pop():
            dialog.verdict_menu.popup(button.mapToGlobal(button.rect().bottomLeft()))
            QTimer.singleShot(400, grab)

        def grab():
            frame = dialog.frameGeometry()
            shot = qapp.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
            path = folder / f"review_queue_menu{theme}_{language}.png"
            print("saved" if shot.save(str(path), "PNG") else "not saved", path)
            dialog.verdict_menu.close()
            dialog.close()
            next_step()
        QTimer.singleShot(400, pop)

    def show_superseded(browser):
        browser.set_view("history")
        browser.refresh(made["sendai"])

    def show_preference(browser):
        browser.set_view("all")
        browser.refresh(made["preference"])

    def dark_step():
        qapp.setStyle("Fusion")
        qapp.setPalette(dark_palette())

        def grab():
            save(window, folder / f"main_dark_{language}.png")
            next_step()
        QTimer.singleShot(300, grab)

    def unshot_step():
        """Every dialog class of monchat.gui must have been opened (and so shot) by now: say which was not."""
        for cls in sorted(dialog_classes() - shot, key=lambda c: c.__name__):
            print("NOT SHOT: no open_* method opens", cls.__name__)
        next_step()

    def stop_step():
        """Five unflushed files (the flush above emptied the logs): chat pauses, loudly, the composer disabled."""
        for hours in (0.05, 6.05, 12.05, 18.05, 24.05):
            when = app.clock() - timedelta(hours=hours)
            app.logbook.append(Message(id=new_message_id(), ts=format_ts(when), role="user", text="…",
                                       persona=persona))
        window.refresh_gate()

        def grab():
            save(window, folder / f"main_stop{theme}_{language}.png")
            next_step()
        QTimer.singleShot(300, grab)

    steps += [dialog_step(name.removeprefix("open_"), opener) for name, opener in sorted(openers(window).items())]
    steps += [unshot_step]
    steps += [flush_step,
              dialog_step("review_queue", window.memory_menu.open_review_queue, lambda d: d.select(made["judge"].id)),
              verdict_menu_step,
              dialog_step("memory", window.memory_menu.open_memory, lambda d: d.refresh(made["kanazawa"])),
              dialog_step("memory_superseded", window.memory_menu.open_memory, show_superseded),
              dialog_step("memory_preference", window.memory_menu.open_memory, show_preference),
              dialog_step("settings_chat", window.open_settings, lambda d: d.tabs.setCurrentIndex(1)),
              dialog_step("settings_memory", window.open_settings, lambda d: d.tabs.setCurrentIndex(2)),
              dialog_step("settings_growing", window.open_settings, lambda d: d.tabs.setCurrentIndex(tab_index(d.tabs, d.growing)))]
    steps += [dialog_step(f"inbox_{tab}", window.memory_menu.open_inbox, lambda d, n=n: d.tabs.setCurrentIndex(n))
              for n, tab in enumerate(("insights", "diary", "interests", "graph", "lint"))]
    steps += [stop_step] + ([] if dark else [dark_step])
    QTimer.singleShot(1500, capture_main)  # the context meter and the layout settle first
    return qapp.exec()


if __name__ == "__main__":
    args = sys.argv[1:]
    lang = args[2] if len(args) > 2 else "ja"
    dark_mode = "dark" in args[3:]
    sys.exit(first_start(args[0], args[1], lang, dark_mode) if "first" in args[3:]
             else main(args[0], args[1], lang, dark_mode))
