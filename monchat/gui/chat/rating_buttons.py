"""👍 / 👎 on a reply or a memory (issue 14's feedback loop): two toggles, one rating at a time.

They are drawn as thumb icons (``assets/rate_up.svg``, ``rate_down.svg``), the same on every system; only where
the icons cannot be read do they fall back to 👍/👎 or ▲/▼ text.

Clicking the checked one again clears the rating. The widget only says what was asked (``rated``);
the caller applies it through the core (``Feedback``) and shows the result with ``set_rating``.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QFontDatabase, QIcon
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from ...core.paths import resource_dir


@cache
def labels() -> tuple[str, str]:
    """👍 / 👎 where the system has an emoji font; ▲ / ▼ (in every common font) where it has none."""
    if any("emoji" in family.lower() for family in QFontDatabase.families()):
        return "👍", "👎"
    return "▲", "▼"


@cache
def icons() -> tuple[QIcon, QIcon] | None:
    """The thumb icons; None where they are missing or cannot be drawn."""
    found = tuple(QIcon(str(resource_dir("assets") / f"rate_{name}.svg")) for name in ("up", "down"))
    return found if all(not icon.pixmap(16, 16).isNull() for icon in found) else None


class RatingButtons(QWidget):
    """Signals:
        rated(str): "up", "down" or "none" (the checked one was clicked again).
    """

    rated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        up_label, down_label = labels()
        self.up = QToolButton(self)
        self.up.setText(up_label)  # shown only where the icons cannot be drawn
        self.up.setObjectName("rate_up")
        self.up.setToolTip(self.tr("Good: what it relied on lasts longer (click again to clear)"))
        self.down = QToolButton(self)
        self.down.setText(down_label)
        self.down.setObjectName("rate_down")
        self.down.setToolTip(self.tr("Not right: lowers the confidence of what it relied on (click again to clear)"))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        drawn = icons()
        for n, (button, rating) in enumerate(((self.up, "up"), (self.down, "down"))):
            if drawn is not None:
                button.setIcon(drawn[n])
                button.setIconSize(QSize(16, 16))
            button.setCheckable(True)
            button.setAutoRaise(True)
            button.clicked.connect(lambda checked, rating=rating: self._clicked(rating, checked))
            row.addWidget(button)
        self._rating = ""

    def rating(self) -> str:
        return self._rating

    def set_rating(self, rating: str) -> None:
        """Show a rating ("up", "down", or "" / "none" for none) without emitting ``rated``."""
        self._rating = "" if rating == "none" else rating
        self.up.setChecked(self._rating == "up")
        self.down.setChecked(self._rating == "down")

    def _clicked(self, rating: str, checked: bool) -> None:
        wanted = rating if checked else "none"
        self.set_rating(wanted)
        self.rated.emit(wanted)
