"""Start-up figures: a cold ``monchat status --json`` and the first painted window, each against its baseline.

Run: .venv/bin/python benchmarks/bench_start.py

Every run is a new process (the OS file cache and the bytecode are warm, the interpreter
is not). The baselines are measured in the same run, alternating with the measured
process: ``python -c 'import ollama'`` for ``status``, a bare PySide6 ``QMainWindow``
for the window. Nothing answers on the Ollama and OpenAI-compatible addresses and there is no
Gemini key, so the automatic choice ends at the embedded model, as on a fresh machine.
Nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The child prints "painted" at the window's first paint and "meter" when the context meter is filled.
_WATCH = """
import sys
{first}
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
qapp = QApplication(sys.argv[:1])
class Watch(QObject):
    painted = False
    def eventFilter(self, obj, event):
        if not self.painted and event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
            self.painted = True
            print("painted", flush=True)
            meter = getattr(obj, "meter_changed", None)
            if meter is None:
                QTimer.singleShot(0, qapp.quit)
            else:
                meter.connect(lambda _m: (print("meter", flush=True), QTimer.singleShot(0, qapp.quit)))
        return False
watch = Watch()
qapp.installEventFilter(watch)
"""
BARE_WINDOW = _WATCH.format(first="") + """
window = QMainWindow()
window.resize(860, 720)
window.show()
qapp.exec()
"""
# monchat.cli.main is imported first, as ``monchat`` does: PySide6 slows every import after its own.
MONCHAT_WINDOW = _WATCH.format(first="from monchat.cli.main import main") + """
sys.exit(main([]))
"""


def dead_url() -> str:
    """An address on this computer where nothing listens (connections are refused at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def child_env(home: str) -> dict[str, str]:
    # PYTHONDONTWRITEBYTECODE would make every start compile monchat from source; an installed
    # monchat has its bytecode, so the children may write and read theirs (__pycache__).
    env = {k: v for k, v in os.environ.items()
           if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "DISPLAY", "WAYLAND_DISPLAY",
                        "PYTHONDONTWRITEBYTECODE")}
    env.update(MONCHAT_HOME=home, OLLAMA_HOST=dead_url(), OPENAI_BASE_URL=dead_url() + "/v1",
               PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring", QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(ROOT))
    return env


def _timed(argv: list[str], env: dict[str, str], marks: tuple[str, ...] = ()) -> dict[str, float]:
    """Seconds from launch to each printed mark (and to the exit, as "exit")."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: dict[str, float] = {}
    for line in process.stdout:
        word = line.strip()
        if word in marks and word not in seen:
            seen[word] = time.perf_counter() - started
    _, err = process.communicate(timeout=120)
    seen["exit"] = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} exited {process.returncode}: {err[-2000:]}")
    missing = [m for m in marks if m not in seen]
    if missing:
        raise RuntimeError(f"{' '.join(argv[:3])} never printed {missing}: {err[-2000:]}")
    return seen


def measure_status(runs: int = 5, warm_up: bool = True) -> dict:
    """Median seconds of a cold ``monchat status --json`` and of ``python -c 'import ollama'``."""
    with tempfile.TemporaryDirectory() as home:
        env = child_env(home)
        python = sys.executable
        if warm_up:
            _timed([python, "-m", "monchat", "status", "--json"], env)  # creates the data folder once
        status, baseline = [], []
        for _ in range(runs):
            baseline.append(_timed([python, "-c", "import ollama"], env)["exit"])
            status.append(_timed([python, "-m", "monchat", "status", "--json"], env)["exit"])
    status_s, baseline_s = statistics.median(status), statistics.median(baseline)
    return {"status_start_s": round(status_s, 3), "status_baseline_import_ollama_s": round(baseline_s, 3),
            "status_start_ratio": round(status_s / baseline_s, 2)}


def measure_gui(runs: int = 5, warm_up: bool = True, meter: bool = True) -> dict:
    """Median seconds to the first painted main window (and to a filled context meter), vs a bare window.

    With ``meter`` False the window closes at its first paint (the meter is not waited for).
    """
    script = MONCHAT_WINDOW if meter else MONCHAT_WINDOW.replace('meter = getattr(obj, "meter_changed", None)',
                                                                 "meter = None")
    marks_wanted = ("painted", "meter") if meter else ("painted",)
    with tempfile.TemporaryDirectory() as home:
        env = child_env(home)
        python = sys.executable
        if warm_up:
            _timed([python, "-c", script], env, marks_wanted)  # creates the data folder once
        shown, filled, baseline = [], [], []
        for _ in range(runs):
            baseline.append(_timed([python, "-c", BARE_WINDOW], env, ("painted",))["painted"])
            marks = _timed([python, "-c", script], env, marks_wanted)
            shown.append(marks["painted"])
            filled.append(marks.get("meter", 0.0))
    shown_s, baseline_s = statistics.median(shown), statistics.median(baseline)
    result = {"gui_start_s": round(shown_s, 3), "gui_baseline_bare_window_s": round(baseline_s, 3),
              "gui_start_ratio": round(shown_s / baseline_s, 2)}
    if meter:
        result["gui_meter_filled_s"] = round(statistics.median(filled), 3)
    return result


def main() -> None:
    print(json.dumps({**measure_status(), **measure_gui()}, indent=2))


if __name__ == "__main__":
    main()
