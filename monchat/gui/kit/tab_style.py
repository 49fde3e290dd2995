"""Tabs whose words keep their tails: no inactive tab clips the bottom of "g", "p" or "y".

The Fusion style draws an inactive tab 2 px lower than the active one and cuts its label to the tab, so the
descenders of its words were lost ("gaps" read "qaps"). ``TabStyle`` wraps the application's style and gives a
tab bar the same label position for every tab and a little more height. ``keep_tails`` puts it on one tab bar
(the Settings, Inbox and Memory windows call it for theirs): a Python style on the whole application makes every
style query of every widget a Python call, and the window stalled 50-80 ms while a flush's progress laid out its
rows (docs/benchmarks.md). ``install`` puts the dark-theme style (``kit/theme.py``) on the application only while
its palette is dark, where it has something to do, and ``follow_palette`` (the main window's palette change) puts
it on or takes it off when a desktop turns dark or light while monchat runs.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QTabBar

from .colours import is_dark
from .theme import ThemeStyle

EXTRA_TAB_HEIGHT = 4  # px above the style's own room for a tab's words
_SHIFT_VERTICAL = QStyle.PixelMetric.PM_TabBarTabShiftVertical  # read once: asked at every layout of a bar
_TAB_V_SPACE = QStyle.PixelMetric.PM_TabBarTabVSpace


class TabStyle(QProxyStyle):
    def pixelMetric(self, metric, option=None, widget=None) -> int:  # noqa: N802 - Qt's name
        if metric is _SHIFT_VERTICAL:
            return 0  # an inactive tab's words sit where the active tab's do
        value = super().pixelMetric(metric, option, widget)
        return value + EXTRA_TAB_HEIGHT if metric is _TAB_V_SPACE else value


def keep_tails(bar: QTabBar) -> None:
    """Give ``bar`` the tab style (one per bar, over the application's style, kept alive by the bar)."""
    style = TabStyle(QApplication.style().name())
    style.setParent(bar)
    bar.setStyle(style)


def install(qapp: QApplication) -> None:
    """The dark-theme style on the application while its palette is dark; Qt's own style while it is light."""
    dark, themed = is_dark(qapp.palette()), isinstance(qapp.style(), ThemeStyle)
    if dark and not themed:
        qapp.setStyle(ThemeStyle(qapp.style().name()))
    elif themed and not dark:
        qapp.setStyle(qapp.style().baseStyle().name())


def follow_palette() -> None:
    """The application's palette changed (a desktop turned dark or light): its style follows."""
    qapp = QApplication.instance()
    if isinstance(qapp, QApplication):
        install(qapp)
