"""A notice in the flow of a window (a failed reply, a stop): a tinted frame, readable text, an icon.

Colours come from ``colours.notice_style`` and are taken again when the desktop switches light/dark.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QFrame, QLabel, QStyle

from .colours import notice_style
from .lifetime import alive

ICONS = {"stop": QStyle.StandardPixmap.SP_MessageBoxCritical, "warn": QStyle.StandardPixmap.SP_MessageBoxWarning,
         "info": QStyle.StandardPixmap.SP_MessageBoxInformation}


class _Recolour(QObject):
    """Applies the notice's stylesheet again on a palette change. Watched on the box's parent as well: a widget
    with a stylesheet of its own is not told when the desktop switches light/dark, its parent is."""

    def __init__(self, box: QFrame, kind: str) -> None:
        super().__init__(box)
        self.box, self.kind, self.owner = box, kind, box.parentWidget()
        self.apply()

    def apply(self) -> None:
        style = notice_style(self.box.parentWidget().palette() if self.box.parentWidget() else self.box.palette(),
                             self.kind, self.box.objectName(), "notice")
        if style != self.box.styleSheet():  # setting it changes the palette again: only when it differs
            self.box.setStyleSheet(style)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and (
                watched is self.box or watched is self.owner) and alive(self.box):
            self.apply()
        return False


def colour_notice(box: QFrame, kind: str = "warn", icon_px: int = 20) -> QLabel:
    """Colour ``box`` (whose text labels are named "notice") as a notice of ``kind`` and put an icon first in
    its row layout; returns the icon label."""
    box.setAutoFillBackground(False)
    recolour = _Recolour(box, kind)
    box.installEventFilter(recolour)
    if recolour.owner is not None:
        recolour.owner.installEventFilter(recolour)
    icon = QLabel(box)
    icon.setObjectName("notice_icon")
    icon.setPixmap(box.style().standardIcon(ICONS[kind]).pixmap(icon_px, icon_px))
    icon.setAlignment(Qt.AlignmentFlag.AlignTop)
    box.layout().insertWidget(0, icon)
    return icon
