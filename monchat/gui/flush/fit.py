"""The finished flush window fits the screen: its summary scrolls inside, and the window is moved up and made no
taller than the screen's free height, so Close is always on the screen (issue 38: a 1366×768 laptop)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QWidget

SUMMARY_MAX_PX = 170  # taller summaries (many notes) scroll: the change list keeps the room
TITLE_BAR_PX = 32  # the window manager's title bar, when the frame does not say yet


class ScrollingLabel(QScrollArea):
    """A word-wrapped label that grows with its text up to ``SUMMARY_MAX_PX``, then scrolls."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:  # noqa: N802 (QLabel's name: the dialog treats it as one)
        self.label.setText(text)
        self.updateGeometry()

    def clear(self) -> None:
        self.setText("")

    def setWordWrap(self, on: bool) -> None:  # noqa: N802 (QLabel's name)
        self.label.setWordWrap(on)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        """A new width wraps the text anew: its height is asked again (else the height wrapped at the width it had
        when the text was set stays, empty lines under a short summary)."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        width = max(200, self.viewport().width())
        return QSize(width, min(SUMMARY_MAX_PX, self.label.heightForWidth(width) + 4))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(100, min(self.sizeHint().height(), 3 * self.fontMetrics().lineSpacing()))


def fit_on_screen(window: QWidget, tallest: int = 640) -> None:
    """Make ``window`` as tall as ``tallest`` where the screen has the room, never taller than the screen's free
    height, and move it up until its bottom (the buttons) is on the screen."""
    area = window.screen().availableGeometry()
    title = window.frameGeometry().height() - window.geometry().height() or TITLE_BAR_PX
    room = area.height() - title
    height = min(room, max(window.height(), min(tallest, room), window.minimumSizeHint().height()))
    window.resize(window.width(), height)
    frame = window.frameGeometry()
    if frame.bottom() > area.bottom() or frame.top() < area.top():
        window.move(frame.x(), max(area.top(), area.bottom() - frame.height() - title))
