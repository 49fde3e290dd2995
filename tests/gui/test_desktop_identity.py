"""The window names its launcher: a dock matches it to packaging/<id>.desktop (Wayland: the desktop file name;
X11: WM_CLASS, which Qt takes from the application name) and shows monchat's icon."""

from __future__ import annotations

from pathlib import Path

from monchat.gui.main import ensure_qapplication

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def _desktop_file() -> Path:
    (found,) = PACKAGING.glob("*.desktop")
    return found


def test_the_application_names_the_launcher_it_is_started_from(qapp):
    launcher = _desktop_file()
    entries = dict(line.split("=", 1) for line in launcher.read_text().splitlines() if "=" in line)
    built = ensure_qapplication()
    assert built.desktopFileName() == launcher.stem
    assert built.applicationName() == entries["StartupWMClass"]
    assert entries["Icon"] == launcher.stem  # the icons install.sh and the .deb put are named by the same id
