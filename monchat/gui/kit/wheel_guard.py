"""No stray wheel changes a setting: a wheel over a combo box, spin box or slider that does not have the focus
scrolls the page around it instead (issue 38: scrolling Settings → Model changed 「答えの形式」 under the pointer).

One filter on the application sees every widget: as each is polished, such an input stops taking the focus from
the wheel (``Qt.StrongFocus``: a click or Tab gives it); a wheel over it while it has no focus goes to the
nearest scrolling area around it. With the focus (clicked, or reached by Tab) the wheel changes its value as usual.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (QAbstractScrollArea, QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox,
                               QScrollBar, QWidget)

GUARDED = (QComboBox, QAbstractSpinBox, QAbstractSlider)


def _guarded(obj: QObject) -> QWidget | None:
    """The input ``obj`` is or belongs to (a spin box's line edit, a combo box's), when it is one the wheel may
    not change unfocused; a scroll bar is the page's own and scrolls as ever."""
    for widget in (obj, obj.parent() if isinstance(obj, QWidget) else None):
        if isinstance(widget, GUARDED) and not isinstance(widget, QScrollBar):
            return widget
    return None


class WheelGuard(QObject):
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        kind = event.type()
        if kind == QEvent.Type.Polish and isinstance(obj, GUARDED) \
                and obj.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            obj.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and isinstance(event, QWheelEvent):
            widget = _guarded(obj)
            if widget is not None and not widget.hasFocus():
                scroll_page(widget, event)
                return True
        return False


def scroll_page(widget: QWidget, event: QWheelEvent) -> None:
    """Give the wheel to the nearest scrolling area around ``widget`` (none: the wheel does nothing)."""
    event.accept()
    area = widget.parentWidget()
    while area is not None and not isinstance(area, QAbstractScrollArea):
        area = area.parentWidget()
    if area is None:
        return
    viewport = area.viewport()
    where = QPointF(viewport.mapFromGlobal(event.globalPosition().toPoint()))
    QApplication.sendEvent(viewport, QWheelEvent(where, event.globalPosition(), event.pixelDelta(),
                                                 event.angleDelta(), event.buttons(), event.modifiers(),
                                                 event.phase(), event.inverted()))


def install_wheel_guard() -> None:
    """Install the one guard on the application (again: nothing more)."""
    qapp = QApplication.instance()
    if qapp is not None and qapp.findChild(WheelGuard) is None:
        qapp.installEventFilter(WheelGuard(qapp))
