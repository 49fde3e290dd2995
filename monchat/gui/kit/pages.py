"""Pages that fit a laptop screen: a long page scrolls instead of growing the window past 768 px."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


def scrolled(page: QWidget, parent: QWidget | None = None) -> QScrollArea:
    """``page`` inside a frameless vertical scroll area that follows the page's width.

    The area's minimum height is small, so a dialog of such pages fits 1366×768 and can be resized;
    the page keeps its own minimum width (nothing is squeezed sideways).
    """
    area = QScrollArea(parent)
    area.setObjectName(f"{page.objectName() or 'page'}_scroll")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    area.setMinimumWidth(page.minimumSizeHint().width() + area.verticalScrollBar().sizeHint().width())
    return area


def tab_index(tabs, page: QWidget) -> int:
    """The index of the tab of ``tabs`` that shows ``page`` (directly or inside its scroll area); -1 if none."""
    for index in range(tabs.count()):
        shown = tabs.widget(index)
        if shown is page or shown.isAncestorOf(page):
            return index
    return -1
