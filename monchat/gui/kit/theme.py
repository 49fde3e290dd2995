"""Controls that stay visible in a dark palette: the frames of check boxes and radio buttons, and dark icons.

Qt's Fusion style draws a check box's frame in the window colour made darker (``window.darker(140)``), whatever
the palette's Mid, Dark or Shadow say: on a dark desktop an unchecked box (in Settings, in the off-the-record
list) was a frame of #222 on a field of #1e1e1e, nearly invisible. Its dialog icons (the Close button's ✕) are
black drawings, invisible on a dark button. ``ThemeStyle`` draws those indicators with a window colour whose
darker shade reads on the field at least 3:1 (WCAG's non-text contrast), and gives a dark monochrome icon the
button's text colour. With a light palette, or another style than Fusion, it changes nothing, so
``kit/tab_style.py`` ``install`` (called from ``gui/main.py``) puts it on the application only while its palette
is dark.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle

from .colours import contrast, is_dark, mix

NON_TEXT = 3.0  # WCAG 2.1 non-text contrast: a control's boundary against what is next to it
# Fusion draws the frame in window.darker(140).lighter(110): a window colour this much lighter gives the frame.
FUSION_OUTLINE = 140 / 110
INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton,
              QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck)
DARK_ICONS = (QStyle.StandardPixmap.SP_DialogCloseButton, QStyle.StandardPixmap.SP_DialogCancelButton,
              QStyle.StandardPixmap.SP_DialogNoButton, QStyle.StandardPixmap.SP_DialogDiscardButton,
              QStyle.StandardPixmap.SP_DialogResetButton, QStyle.StandardPixmap.SP_TitleBarCloseButton,
              QStyle.StandardPixmap.SP_LineEditClearButton)


def frame_colour(palette: QPalette) -> QColor:
    """A frame that reads on both the field (Base) and the window: the text colour mixed into the field."""
    base, window, text = (palette.color(role) for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window,
                                                          QPalette.ColorRole.Text))
    for share in (0.45, 0.55, 0.65, 0.8, 1.0):
        frame = mix(base, text, share)
        if contrast(frame, base) >= NON_TEXT + 0.2 and contrast(frame, window) >= NON_TEXT:
            return frame
    return text


def indicator_palette(palette: QPalette) -> QPalette:
    """``palette`` with the window colour Fusion makes the indicator's frame from, lifted so the frame reads."""
    lifted = QPalette(palette)
    frame = frame_colour(palette)
    lifted.setColor(QPalette.ColorRole.Window, QColor.fromHsvF(frame.hsvHueF() if frame.hsvHueF() >= 0 else 0,
                                                              frame.hsvSaturationF(),
                                                              min(1.0, frame.valueF() * FUSION_OUTLINE)))
    return lifted


def readable_icon(icon: QIcon, palette: QPalette) -> QIcon:
    """``icon`` drawn in the button text colour when it is a dark drawing that would not read on the button."""
    button, ink = palette.color(QPalette.ColorRole.Button), palette.color(QPalette.ColorRole.ButtonText)
    sizes = icon.availableSizes() or [QSize(16, 16), QSize(32, 32)]
    recoloured = QIcon()
    changed = False
    for size in sizes:
        pixmap = icon.pixmap(size)
        if pixmap.isNull():
            continue
        if _reads(pixmap, button):
            recoloured.addPixmap(pixmap)
            continue
        tinted = QPixmap(pixmap.size())
        tinted.setDevicePixelRatio(pixmap.devicePixelRatio())
        tinted.fill(QColor(0, 0, 0, 0))
        painter = QPainter(tinted)
        painter.drawPixmap(0, 0, pixmap)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
        painter.fillRect(tinted.rect(), ink)
        painter.end()
        recoloured.addPixmap(tinted)
        changed = True
    return recoloured if changed else icon


def _reads(pixmap: QPixmap, fill: QColor) -> bool:
    """Whether the pixmap's solid pixels, on average, read on ``fill`` (3:1), or it is coloured (left as it is)."""
    image = pixmap.toImage()
    total, red, green, blue = 0, 0, 0, 0
    for y in range(image.height()):
        for x in range(image.width()):
            colour = image.pixelColor(x, y)
            if colour.alpha() > 160:
                total += 1
                red, green, blue = red + colour.red(), green + colour.green(), blue + colour.blue()
    if not total:
        return True
    mean = QColor(red // total, green // total, blue // total)
    return mean.hsvSaturationF() > 0.35 or contrast(mean, fill) >= NON_TEXT


def _fusion(style: QStyle) -> bool:
    base = style.baseStyle() if hasattr(style, "baseStyle") else style
    return base.name().lower() == "fusion"


class ThemeStyle(QProxyStyle):
    """A proxy of the application's style whose indicators and dark icons read in a dark palette."""

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt's name
        if element in INDICATORS and option is not None and is_dark(option.palette) and _fusion(self):
            option = type(option)(option)  # a copy: the caller's option stays as it was
            option.palette = indicator_palette(option.palette)
        super().drawPrimitive(element, option, painter, widget)

    def standardIcon(self, pixmap, option=None, widget=None) -> QIcon:  # noqa: N802 - Qt's name
        icon = super().standardIcon(pixmap, option, widget)
        if pixmap not in DARK_ICONS:
            return icon
        palette = option.palette if option is not None else widget.palette() if widget is not None \
            else QApplication.palette()
        return readable_icon(icon, palette) if is_dark(palette) else icon
