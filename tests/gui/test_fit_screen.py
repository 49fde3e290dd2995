"""Every dialog fits a 1366×768 laptop screen and can be resized, in both languages.

The walker opens every dialog the main window's ``open_*`` methods open (a new dialog is walked too);
a dialog's smallest size is what its layout allows (``minimumSizeHint``, or a fixed minimum).
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLayout, QMessageBox

from monchat.gui.main import create_main_window
from tests.gui.walker import openers

SCREEN_W, SCREEN_H = 1366, 768
# The desktop's panel and the window's title bar take part of the screen's height.
ROOM_H = SCREEN_H - 80


def smallest(widget):
    """The smallest size the window manager may give ``widget`` (its layout's minimum or a set minimum)."""
    hint = widget.minimumSizeHint()
    own = widget.minimumSize()
    return max(hint.width(), own.width()), max(hint.height(), own.height())


def too_big(widget) -> str:
    width, height = smallest(widget)
    problems = []
    if width > SCREEN_W or height > ROOM_H:
        problems.append(f"needs at least {width}×{height}")
    layout = widget.layout()
    if layout is not None and not isinstance(widget, QMessageBox) and layout.sizeConstraint() in (QLayout.SizeConstraint.SetFixedSize,
                                                          QLayout.SizeConstraint.SetMinimumSize):
        problems.append("not resizable (its layout fixes the size)")
    if not isinstance(widget, QMessageBox) and (widget.maximumWidth() <= width or widget.maximumHeight() <= height):
        problems.append("not resizable (maximum = minimum)")
    return "; ".join(problems)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_dialog_fits_a_laptop_screen_and_is_resizable(qtbot, app, translators, language):
    app.settings.chat.language = language
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.meter.meter is not None, timeout=5000)
    found = {"main window": too_big(window)}
    try:
        for name, open_dialog in sorted(openers(window).items()):
            dialog = open_dialog()
            assert dialog is not None, name
            found[name] = too_big(dialog)
            if name == "open_settings":  # every tab of Settings: a tab's page sets the dialog's height
                for index in range(dialog.tabs.count()):
                    dialog.tabs.setCurrentIndex(index)
                    found[f"{name}/{dialog.tabs.tabText(index)}"] = too_big(dialog)
            dialog.close()
    finally:
        assert window.shutdown(10000), "workers did not finish"
    assert {k: v for k, v in found.items() if v} == {}


def test_the_fit_check_sees_a_dialog_that_is_too_tall(qtbot):
    from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout
    dialog = QDialog()
    qtbot.addWidget(dialog)
    column = QVBoxLayout(dialog)
    for n in range(60):
        column.addWidget(QLabel(f"row {n}", dialog))
    assert "needs at least" in too_big(dialog)
    column.setSizeConstraint(QLayout.SizeConstraint.SetFixedSize)
    assert "not resizable" in too_big(dialog)
