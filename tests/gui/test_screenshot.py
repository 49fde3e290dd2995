"""A screenshot of the main window with Japanese text, rendered by a real X server (Xvfb) with CJK fonts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "artifacts" / "screenshots" / "main_ja.png"


def free_display() -> int:
    for number in range(90, 400):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number")


@pytest.fixture
def xvfb():
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    number = free_display()
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Xvfb did not start: {server.stderr.read().decode(errors='replace')}")
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.slow
def test_main_window_screenshot_in_japanese(xvfb, tmp_path):
    env = {**os.environ, "DISPLAY": xvfb, "QT_QPA_PLATFORM": "xcb", "LANG": "ja_JP.UTF-8",
           "MONCHAT_HOME": str(tmp_path / "home"), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    for old in OUTPUT.parent.glob("*_ja.png"):
        old.unlink()
    result = subprocess.run([sys.executable, "-m", "tests.gui.screenshot_main", str(tmp_path / "home"), str(OUTPUT)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "japanese fonts: " in result.stdout and "Noto" in result.stdout, result.stdout
    image = QImage(str(OUTPUT))
    assert not image.isNull() and image.width() >= 800 and image.height() >= 600
    assert OUTPUT.stat().st_size > 30_000
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 20, "the screenshot is (nearly) one colour"
    for name in ("settings", "surface_personas", "filter_personas", "flush", "review_queue", "memory",
                 "memory_superseded", "review_queue_menu", "main_dark", "memory_preference", "inbox_insights",
                 "inbox_diary", "inbox_interests", "inbox_graph", "inbox_lint", "settings_memory", "settings_growing"):
        shot = QImage(str(OUTPUT.parent / f"{name}_ja.png"))
        assert not shot.isNull() and shot.width() >= 400, name
