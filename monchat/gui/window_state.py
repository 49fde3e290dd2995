"""What the window remembers between starts (its size and position) and the About box.

The geometry goes to ``window.ini`` in the config folder (Qt's own format, not settings.toml:
it is the window's state, not a setting a user edits).
"""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings

if TYPE_CHECKING:  # the window's frame restores its geometry before any of these is used
    from PySide6.QtWidgets import QMessageBox, QWidget

from .. import __version__
from .translation import arg


def _store(config_dir: Path) -> QSettings:
    return QSettings(str(config_dir / "window.ini"), QSettings.Format.IniFormat)


def restore_geometry(window: QWidget, config_dir: Path) -> bool:
    """Put the window where it was when it last closed; False when there is nothing to restore."""
    saved = _store(config_dir).value("main/geometry")
    if not isinstance(saved, QByteArray) or saved.isEmpty():
        return False
    return bool(window.restoreGeometry(saved))


def save_geometry(window: QWidget, config_dir: Path) -> None:
    store = _store(config_dir)
    store.setValue("main/geometry", window.saveGeometry())
    store.sync()


def about_box(parent: QWidget, data_dir: Path, config_dir: Path) -> QMessageBox:
    """Help → About: the version and where the data lives (opened with ``open()``, never blocking)."""
    from PySide6.QtWidgets import QMessageBox
    box = QMessageBox(QMessageBox.Icon.Information, QCoreApplication.translate("About", "About monchat"),
                      arg(QCoreApplication.translate("About", "monchat %1"), __version__),
                      QMessageBox.StandardButton.Close, parent)
    box.setInformativeText(arg(QCoreApplication.translate(
        "About", "A local-first chat that remembers.\n\nData folder: %1\nSettings folder: %2"),
        str(data_dir), str(config_dir)))
    box.open()
    return box
