"""The window's frame and the same window filled, as ``monchat`` opens it: two PNGs a start, to lay side by side.

``python -m tests.gui.screenshot_frame HOME OUTPUT_DIR [ja|en] [dark]`` (needs a real display: DISPLAY + xcb; run by
``scripts/screenshots``). Three starts: a first start (no log files), a start with a conversation and three log
files (the gate at "warn": ``conversation``) and one with five (the gate at "stop": ``stop``). Each saves
``frame_<start>[_dark]_<language>.png`` (the frame as painted before the app is built) and
``filled_<start>[_dark]_<language>.png`` (the filled window at its first paint). Only the filled parts (messages,
personas, enabled buttons) may differ between the two: the gate's words and banner and the composer's paused line
are in the frame already (``test_frame_layout.py`` measures it).
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QMainWindow

from monchat.app import build_app
from monchat.core.types import Message, format_ts, new_message_id
from monchat.gui.main import ensure_qapplication, open_window
from monchat.gui.main_window import MainWindow
from monchat.gui.window_state import save_geometry
from tests.gui import memory_scenes as scenes
from tests.gui.screenshot_main import CONVERSATION, CONVERSATION_EN, WINDOW_H, WINDOW_W, use_dark


class _Shots(QObject):
    """Saves the main window at its first paint (the frame) and at its first paint once filled, then quits."""

    def __init__(self, folder: Path, name: str) -> None:
        super().__init__()
        self.folder, self.name = folder, name
        self.frame_done = False
        self.filled_done = False

    def save(self, window: QMainWindow, part: str) -> None:
        path = str(self.folder / f"{part}_{self.name}.png")
        print("saved" if window.grab().save(path, "PNG") else "not saved", path)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() != QEvent.Type.Paint or not isinstance(watched, MainWindow):
            return False
        if not self.frame_done:
            self.frame_done = True
            QTimer.singleShot(0, lambda: self.save(watched, "frame"))  # before the fill (it waits for this pass)
        elif watched.app is not None and not self.filled_done:
            self.filled_done = True
            QTimer.singleShot(0, lambda: (self.save(watched, "filled"), QCoreApplication.exit(0)))
        return False


def _conversation(app, language: str, older_hours: tuple[int, ...] = (7, 13)) -> None:
    """The screenshot conversation and older messages: three log files (the gate at "warn"), or five with
    ``older_hours`` (7, 13, 19, 25) (at "stop")."""
    start = app.clock() - timedelta(minutes=30)
    persona = app.settings.chat.persona
    for n, (role, text) in enumerate(CONVERSATION if language == "ja" else CONVERSATION_EN):
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(start + timedelta(minutes=3 * n)), role=role,
                                   text=text, persona=persona))
    for hours in older_hours:
        when = app.clock() - timedelta(hours=hours)
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(when), role="user",
                                   text="おはよう" if language == "ja" else "morning", persona=persona))


def shoot(home: Path, output: Path, language: str, dark: bool, start: str) -> int:
    """One start of ``monchat`` in ``home`` (``first``, ``conversation`` or ``stop``), its frame and filled window
    saved."""
    qapp = ensure_qapplication()
    os.environ["MONCHAT_HOME"] = str(home)
    app = build_app(str(home), pinned_backend=scenes.oracle())  # made before: the frame reads its settings.toml
    app.settings.chat.language = language
    app.settings.chat.persona = "hana" if language == "ja" else "mira"
    if start == "conversation":
        _conversation(app, language)
    elif start == "stop":
        _conversation(app, language, (7, 13, 19, 25))
    app.save_settings()
    sized = QMainWindow()  # the window's saved place: a laptop screen less a panel
    sized.setGeometry(0, 0, WINDOW_W, WINDOW_H)
    save_geometry(sized, app.paths.config_dir)
    shots = _Shots(output, f"{start}{'_dark' if dark else ''}_{language}")
    qapp.installEventFilter(shots)
    try:
        return open_window(lambda: app)
    finally:
        qapp.removeEventFilter(shots)
        app.store.close()


def main(home: str, output: str, language: str = "ja", dark: bool = False) -> int:
    qapp = ensure_qapplication()
    if dark:
        use_dark(qapp)
    folder = Path(output)
    folder.mkdir(parents=True, exist_ok=True)
    code = 0
    for start in ("first", "conversation", "stop"):
        code = code or shoot(Path(home) / start, folder, language, dark, start)
    return code


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(args[0], args[1], args[2] if len(args) > 2 else "ja", "dark" in args[3:]))
