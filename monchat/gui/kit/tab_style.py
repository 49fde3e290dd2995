"""Tabs whose words keep their tails: no inactive tab clips the bottom of "g", "p" or "y".

The Fusion style draws an inactive tab 2 px lower than the active one and cuts its label to the tab, so the
descenders of its words were lost ("gaps" read "qaps"). ``TabStyle`` wraps the application's style and gives
every tab bar the same label position for every tab and a little more height; ``install`` puts it on the
application once (``gui/main.py``), so every tab bar of every window has it. It is a ``kit/theme.py``
``ThemeStyle`` too: check boxes and dark icons stay visible in a dark palette.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QStyle

from .theme import ThemeStyle

EXTRA_TAB_HEIGHT = 4  # px above the style's own room for a tab's words


class TabStyle(ThemeStyle):
    def pixelMetric(self, metric, option=None, widget=None) -> int:  # noqa: N802 - Qt's name
        if metric == QStyle.PixelMetric.PM_TabBarTabShiftVertical:
            return 0  # an inactive tab's words sit where the active tab's do
        value = super().pixelMetric(metric, option, widget)
        if metric == QStyle.PixelMetric.PM_TabBarTabVSpace:
            return value + EXTRA_TAB_HEIGHT
        return value


def install(qapp: QApplication) -> None:
    """Wrap the application's style in ``TabStyle`` (once; a style set later is wrapped again by calling it)."""
    if not isinstance(qapp.style(), TabStyle):
        qapp.setStyle(TabStyle(qapp.style().name()))
