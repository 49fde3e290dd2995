"""How long the window's event loop goes unanswered while a reply streams and while a flush runs.

Run: .venv/bin/python benchmarks/bench_gui_stall.py [--quick|--smoke] [--server-here] [--dark]   (prints one JSON object)

The real window (offscreen) talks through the real Ollama adapter to a loopback fake
Ollama (TCP_NODELAY) that streams a long reply chunk by chunk and takes a fixed time per
flush call. The fake runs in a process of its own, as Ollama does: in the window's process
its threads (counting each prompt, writing each answer) would take the GIL from the window
too, which a real server never does (``--server-here`` measures it that way). ``--dark`` gives the
application a dark palette first, as a desktop in dark mode does: the window then draws through
``ThemeStyle``, a Python style (``gui/kit/theme.py``). A 2 ms timer notes the longest gap between its ticks; the baseline is the
same timer with the window idle, in the same run. The flush runs from the Flush dialog
as a user starts it. Nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
from PySide6.QtGui import QColor, QPalette

from bench_core import write_history
from bench_flush_server import answer
from monchat.app import build_app
from monchat.core.transfer.importers import import_jsonl
from monchat.gui.main import (create_main_window, ensure_qapplication, restore_interpreter,
                              tune_interpreter_for_gui)
from tests.fakes import fake_ollama

MODEL = "llama3.2"
TICK_MS = 2
GUARD_MS = 120_000  # a benchmark that never ends stops here


class StallMeter:
    """The longest gap between ticks of a short timer, beyond its interval, in ms."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.clock = QElapsedTimer()
        self.worst = 0.0
        self.last = 0

    def _tick(self) -> None:
        now = self.clock.nsecsElapsed()
        self.worst = max(self.worst, (now - self.last) / 1e6 - TICK_MS)
        self.last = now

    def during(self, start, done_signal=None, seconds: float = 0.0) -> float:
        """Run ``start()`` with the meter on until ``done_signal`` fires (or for ``seconds``)."""
        loop = QEventLoop()
        if done_signal is not None:
            done_signal.connect(lambda *_: loop.quit())
        else:
            QTimer.singleShot(int(seconds * 1000), loop.quit)
        QTimer.singleShot(GUARD_MS, loop.quit)
        self.worst, self.last = 0.0, 0
        self.clock.start()
        self.timer.start()
        start()
        loop.exec()
        self.timer.stop()
        return round(max(self.worst, 0.0), 1)


def fake_server(chunks: int):
    server = fake_ollama.start()
    server.mode = "slow"  # the reply streams one chunk every chunk_delay_s
    server.chunk_delay_s = 0.01
    server.reply_chunks = ["今日は"] * chunks
    server.latency_s = 0.05
    server.structured_reply = answer
    server.count_prompts = True
    return server


def serve(chunks: int) -> None:
    """The child process: the fake server until standard input closes (the benchmark ended)."""
    server = fake_server(chunks)
    print(server.url, flush=True)
    sys.stdin.read()
    server.shutdown()
    server.server_close()


class ServerElsewhere:
    """The fake server in a process of its own; ``shutdown`` ends it."""

    def __init__(self, chunks: int) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(chunks)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url:
            raise RuntimeError(f"the fake server did not start (exit {self.process.wait()})")

    def shutdown(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.process.stdout.close()

    def server_close(self) -> None:
        pass


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in (("Window", "#2b2b2b"), ("WindowText", "#e6e6e6"), ("Base", "#1e1e1e"),
                         ("AlternateBase", "#333333"), ("Text", "#e6e6e6"), ("Button", "#3a3a3a"),
                         ("ButtonText", "#e6e6e6"), ("Highlight", "#3d6fb4"), ("BrightText", "#ffffff")):
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(colour))
    return palette


def measure(size: str = "full", server_here: bool = False, dark: bool = False) -> dict:
    chunks, days = {"smoke": (20, 1), "quick": (60, 2), "full": (300, 5)}[size]
    server = fake_server(chunks) if server_here else ServerElsewhere(chunks)
    os.environ["OLLAMA_HOST"] = server.url
    qapp = ensure_qapplication()
    if dark:
        qapp.setPalette(dark_palette())
    previous = tune_interpreter_for_gui()  # as run_gui does
    try:
        with tempfile.TemporaryDirectory() as home:
            path = Path(home) / "history.jsonl"
            write_history(path, days, 40)
            app = build_app(home, backend="ollama", model=MODEL)
            app.settings.gate.warn_files = app.settings.gate.stop_files = 100_000
            import_jsonl(path, app.logbook, app.archive, default_persona="hana")
            window = create_main_window(app)
            window.show()
            meter = StallMeter()
            meter.during(lambda: None, window.meter_changed)  # the first meter: the start, not measured
            idle = meter.during(lambda: None, seconds=1.0)
            started = time.perf_counter()
            reply = meter.during(lambda: window.turns.send("長い返事をください"), window.turn_finished)
            reply_s = time.perf_counter() - started
            dialog = window.memory_menu.open_flush()
            if not dialog.start_button.isEnabled():
                meter.during(lambda: None, dialog.plan_loaded)
            started = time.perf_counter()
            flush = meter.during(dialog.start, dialog.flush_finished)
            flush_s = time.perf_counter() - started
            report = dialog.report
            dialog.close()
            window.shutdown()
            window.close()
            window.translators.remove()
            app.close()
    finally:
        restore_interpreter(previous)
        server.shutdown()
        server.server_close()
    del qapp
    return {"gui_max_stall_ms": {"reply_streaming": reply, "flush_running": flush},
            "gui_max_stall_baseline_idle_ms": idle, "gui_reply_s": round(reply_s, 2),
            "gui_reply_chunks": chunks, "gui_flush_s": round(flush_s, 2),
            "gui_flush_archived": report.messages_archived if report else 0,
            "gui_fake_server": "this process" if server_here else "own process",
            "gui_palette": "dark" if dark else "light"}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]))
    else:
        sizes = [a.lstrip("-") for a in sys.argv[1:] if a in ("--smoke", "--quick", "--full")]
        print(json.dumps(measure(sizes[0] if sizes else "full", server_here="--server-here" in sys.argv,
                                 dark="--dark" in sys.argv)))
