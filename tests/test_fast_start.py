"""A start imports only what it uses: no SDK of a backend it does not pick, no flush machinery.

A structural check, not a timing one (the figures are ``benchmarks/run``'s
``status_start_ratio`` and ``gui_start_ratio``): each case runs in a new
interpreter, with no Gemini key and nothing listening where Ollama and an
OpenAI-compatible server would be, so the automatic choice ends at the embedded
model, and reads ``sys.modules`` afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fakes.fake_ollama import dead_url

ROOT = Path(__file__).resolve().parent.parent

# Each of these costs a tenth of a second or more to import, and none is needed to say the status.
NOT_FOR_STATUS = ("google.genai", "llama_cpp", "ollama", "openai", "numpy", "keyring", "tiktoken", "jinja2",
                  "monchat.core.flush.service", "snowballstemmer", "janome")
# The window shows and counts its context meter through the embedded model's own tokenizer; it never
# needs a cloud SDK or a server client it did not pick.
NOT_FOR_WINDOW = ("google.genai", "ollama", "openai", "monchat.core.flush.service", "snowballstemmer", "janome")


def run_python(code: str, home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY")}
    env.update(MONCHAT_HOME=str(home), OLLAMA_HOST=dead_url(), OPENAI_BASE_URL=dead_url() + "/v1",
               PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring", QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_status_imports_no_sdk_and_no_flush(home):
    code = f"""
import contextlib, io, json, sys
from monchat.cli.main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["status", "--json"])
status = json.loads(out.getvalue())
print(json.dumps({{"code": code, "backend": status["backend"],
                  "loaded": [m for m in {NOT_FOR_STATUS!r} if m in sys.modules]}}))
"""
    result = run_python(code, home)
    assert result["code"] == 0
    assert result["backend"] == "embedded"  # nothing answered: the automatic choice's last resort
    assert result["loaded"] == []


def test_window_and_its_meter_import_no_unused_sdk(home):
    code = f"""
import json, sys
from monchat.app import build_app
from monchat.gui.main import create_main_window, ensure_qapplication
from PySide6.QtCore import QTimer
app = build_app()
qapp = ensure_qapplication()
window = create_main_window(app)
shown = [m for m in {NOT_FOR_WINDOW!r} if m in sys.modules]
meters = []
window.meter_changed.connect(lambda meter: (meters.append(meter), qapp.quit()))
window.show()
QTimer.singleShot(60_000, qapp.quit)  # a guard against a test that never ends, not a time measured
qapp.exec()
loaded = [m for m in {NOT_FOR_WINDOW!r} if m in sys.modules]
window.shutdown()
window.close()
window.translators.remove()
app.close()
print(json.dumps({{"meters": len(meters), "backend": window.backend_label.text(),
                  "at_show": shown, "after_meter": loaded}}))
"""
    result = run_python(code, home)
    assert result["meters"] == 1  # the meter was counted (off the GUI thread) and shown
    assert result["backend"].startswith("embedded:")
    assert result["at_show"] == []
    assert result["after_meter"] == []
