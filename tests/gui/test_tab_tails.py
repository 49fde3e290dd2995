"""Every tab keeps the tails of its words: an inactive tab's "gaps" is not cut to "qaps" (gui/kit/tab_style.py)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QTabBar

from monchat.gui.kit.tab_style import TabStyle
from monchat.gui.main import create_main_window


def ink_rows(bar: QTabBar, index: int) -> tuple[int, int]:
    """The first and last pixel row of a tab where its words are drawn (dark ink on the light tab)."""
    image = bar.grab().toImage()
    rect = bar.tabRect(index)
    rows = [y for y in range(rect.top(), rect.bottom() + 1)
            if any(QColor(image.pixel(x, y)).lightness() < 90 for x in range(rect.left() + 6, rect.right() - 6))]
    return rows[0], rows[-1]


@pytest.mark.parametrize("words", ["gaps", "ギャップ"])
def test_an_inactive_tab_draws_its_words_whole(qtbot, words):
    bar = QTabBar()
    qtbot.addWidget(bar)
    bar.setStyle(TabStyle("Fusion"))
    bar.addTab(words)
    bar.addTab(words)
    bar.setCurrentIndex(0)
    bar.show()
    active_top, active_bottom = ink_rows(bar, 0)
    inactive_top, inactive_bottom = ink_rows(bar, 1)
    assert inactive_bottom - inactive_top == active_bottom - active_top  # the same words, as tall: nothing cut
    assert inactive_bottom < bar.tabRect(1).bottom() - 1  # the tails stay above the tab's edge


def test_the_windows_with_tabs_put_the_tab_style_on_their_bars_not_on_the_app(app, translators, qtbot):
    """Settings, Inbox and Memory keep their tabs' tails; the application's style stays Qt's own (a Python style
    on every widget stalled the window while a flush ran)."""
    qapp = QApplication.instance()
    qapp.setStyle("Fusion")
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    assert not isinstance(qapp.style(), TabStyle)
    bars = [window.open_settings().tabs.tabBar(), window.memory_menu.open_inbox().tabs.tabBar(), window.memory_menu.open_memory().tabs]
    assert all(isinstance(bar.style(), TabStyle) for bar in bars)
    for bar in bars:
        bar.window().close()
    assert window.shutdown(10000)
