"""Colours drawn from the palette and checked for contrast, so text reads on light and dark desktops alike.

``contrast`` is WCAG 2's ratio (1–21); body text needs 4.5. ``readable`` keeps the palette's text colour
when it reads on a fill and otherwise takes black or white, whichever reads better. ``banner_colours``
gives the gate's banners (and any notice) a tinted fill of the window colour, its text and its border.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette

AA_TEXT = 4.5  # WCAG 2 AA for body text
# The tints: red for "stopped", amber for "recommended", blue for "information".
TINTS = {"stop": QColor("#c62828"), "warn": QColor("#e0a000"), "info": QColor("#3d7bd9")}


def mix(a: QColor, b: QColor, share: float) -> QColor:
    """``a`` with ``share`` of ``b`` mixed in."""
    return QColor(*(round(x * (1 - share) + y * share) for x, y in
                    zip((a.red(), a.green(), a.blue()), (b.red(), b.green(), b.blue()))))


def luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def is_dark(palette: QPalette) -> bool:
    return luminance(palette.color(QPalette.ColorRole.Window)) < 0.3


def readable(text: QColor, fill: QColor, needed: float = AA_TEXT) -> QColor:
    """``text`` if it reads on ``fill``; else black or white, whichever reads better."""
    if contrast(text, fill) >= needed:
        return text
    black, white = QColor("black"), QColor("white")
    return black if contrast(black, fill) >= contrast(white, fill) else white


@dataclass(frozen=True)
class NoticeColours:
    """A notice's fill, text and border, as ``#rrggbb``."""

    fill: str
    text: str
    border: str


def notice_colours(palette: QPalette, kind: str) -> NoticeColours:
    """Colours for a notice of ``kind`` ("stop", "warn", "info") on ``palette``: a tint of the window colour."""
    window = palette.color(QPalette.ColorRole.Window)
    tint = TINTS[kind]
    fill = mix(window, tint, 0.28 if is_dark(palette) else 0.14)
    text = readable(palette.color(QPalette.ColorRole.WindowText), fill)
    border = tint if kind == "stop" else mix(fill, tint, 0.6)
    return NoticeColours(fill.name(), text.name(), border.name())


def notice_style(palette: QPalette, kind: str, frame: str, label: str) -> str:
    """A stylesheet for a notice frame named ``frame`` holding labels named ``label``."""
    c = notice_colours(palette, kind)
    width = 2 if kind == "stop" else 1
    return (f"QFrame#{frame} {{ background-color: {c.fill}; border: {width}px solid {c.border}; border-radius: 4px; }}"
            f" QLabel#{label} {{ color: {c.text}; background: transparent; border: none; }}")
