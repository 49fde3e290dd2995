"""A wheel over a combo box, spin box or slider that does not have the focus changes nothing: it scrolls the page
(issue 38). Every dialog the window opens is walked, every Settings page, in both languages."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QScrollArea, QScrollBar

from monchat.gui.main import create_main_window
from tests.gui.walker import openers


def value(widget):
    if isinstance(widget, QComboBox):
        return widget.currentIndex()
    if isinstance(widget, QAbstractSpinBox):
        return widget.text()
    return widget.value()


def wheel(widget, notches: int = -1) -> None:
    """A wheel turn over the middle of ``widget`` (one notch down by default)."""
    inside = QPointF(widget.rect().center())
    where = QPointF(widget.mapToGlobal(inside.toPoint()))
    QApplication.sendEvent(widget, QWheelEvent(inside, where, QPoint(), QPoint(0, 120 * notches),
                                               Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                               Qt.ScrollPhase.NoScrollPhase, False))


def inputs(dialog) -> list:
    found = [w for kind in (QComboBox, QAbstractSpinBox, QAbstractSlider) for w in dialog.findChildren(kind)]
    return [w for w in found if not isinstance(w, QScrollBar) and w.isEnabled()]


def changed_by_wheel(dialog, where: str) -> list[str]:
    moved = []
    for widget in inputs(dialog):
        widget.clearFocus()
        before = value(widget)
        wheel(widget, -1)  # down, then up: a value at an end still moves one way
        down = value(widget)
        wheel(widget, 1)
        if before != down or value(widget) != before:
            moved.append(f"{where}: {type(widget).__name__} {widget.objectName() or widget.toolTip()[:40]}")
    return moved


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_wheel_over_any_unfocused_input_of_any_dialog_changes_no_value(qtbot, app, translators, language):
    app.settings.chat.language = language
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.meter.meter is not None, timeout=5000)
    moved, walked = changed_by_wheel(window, "main window"), 0
    try:
        for name, open_dialog in sorted(openers(window).items()):
            dialog = open_dialog()
            if name == "open_settings":
                for index in range(dialog.tabs.count()):
                    dialog.tabs.setCurrentIndex(index)
                    moved += changed_by_wheel(dialog.tabs.currentWidget(), f"{name}/{dialog.tabs.tabText(index)}")
            moved += changed_by_wheel(dialog, name)
            walked += len(inputs(dialog))
            dialog.close()
    finally:
        assert window.shutdown(10000), "workers did not finish"
    assert walked >= 10, "the walk found the settings' inputs"
    assert moved == []


def test_the_page_scrolls_and_a_focused_input_still_takes_the_wheel(qtbot, window):
    dialog = window.open_settings()
    qtbot.waitExposed(dialog)
    dialog.tabs.setCurrentIndex(0)  # Model: the longest page
    page = dialog.tabs.currentWidget()
    area = page if isinstance(page, QScrollArea) else page.findChild(QScrollArea)
    dialog.resize(dialog.width(), 300)  # short enough that the page scrolls
    qtbot.wait(50)
    combos = [w for w in area.widget().findChildren(QComboBox) if w.isVisible() and w.isEnabled() and w.count() > 1]
    assert combos, "a combo box on the Model page"
    combo = combos[-1]
    area.ensureWidgetVisible(combo)
    bar = area.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    scrolled_from, before = bar.value(), combo.currentIndex()
    combo.clearFocus()
    wheel(combo)
    assert combo.currentIndex() == before and bar.value() != scrolled_from  # the page moved, not the value
    combo.setFocus()
    dialog.activateWindow()
    qtbot.waitUntil(combo.hasFocus, timeout=2000)
    combo.setCurrentIndex(0)
    wheel(combo)
    assert combo.currentIndex() == 1  # with the focus the wheel is the user's choice
    dialog.close()
