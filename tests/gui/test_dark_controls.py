"""Check boxes and the Close icon stay visible in a dark palette under Fusion (gui/kit/theme.py).

Fusion draws a check box's frame from the window colour, not from the palette's Mid/Dark/Shadow: with the dark
test palette an unchecked box was #222 on #1e1e1e (1.05:1), and the Close button's ✕ black on #3a3a3a. Measured
on grabbed pixels: the frame against the box's field and the window must reach 3:1 (WCAG non-text contrast).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QApplication, QCheckBox, QListWidget, QListWidgetItem, QStyle, QStyleFactory,
                               QStyleOptionButton, QVBoxLayout, QWidget)

from monchat.gui.kit.colours import contrast
from monchat.gui.kit.theme import ThemeStyle
from tests.gui.screenshot_main import dark_palette


def light_palette() -> QPalette:
    return QApplication.style().standardPalette()


def holder(qtbot, palette: QPalette, *children) -> QWidget:
    """A window with ``children`` in the app's style (over Fusion) and ``palette``, shown."""
    widget = QWidget()
    qtbot.addWidget(widget)
    style = ThemeStyle("Fusion")
    widget._style = style  # kept alive as long as the widget
    layout = QVBoxLayout(widget)
    for child in children:
        layout.addWidget(child)
    for w in (widget, *children):
        w.setStyle(style)
        w.setPalette(palette)
    widget.resize(240, 120)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def frame_and_field(image, left: int, top: int, size: int) -> tuple[QColor, QColor]:
    """The indicator's frame (its left edge, half way down) and its field (its middle)."""
    middle = top + size // 2
    return QColor(image.pixel(left, middle)), QColor(image.pixel(left + size // 2, middle))


def test_an_unchecked_check_box_has_a_frame_that_reads_in_the_dark(qtbot):
    palette = dark_palette()
    box = QCheckBox("Read its conversations at a flush")
    window = holder(qtbot, palette, box)
    option = QStyleOptionButton()
    option.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    frame, field = frame_and_field(box.grab().toImage(), rect.left(), rect.top(), rect.height())
    assert field == palette.color(QPalette.ColorRole.Base)
    assert contrast(frame, field) >= 3, (frame.name(), field.name())
    assert contrast(frame, palette.color(QPalette.ColorRole.Window)) >= 3
    window.close()


def test_in_a_light_palette_the_check_box_is_drawn_as_fusion_draws_it(qtbot):
    pictures = []
    for style in (ThemeStyle("Fusion"), QStyleFactory.create("Fusion")):
        box = QCheckBox("Mira")
        qtbot.addWidget(box)
        box.setStyle(style)
        box.setPalette(light_palette())
        box.resize(120, 24)
        box.show()
        pictures.append(box.grab().toImage())
        box.close()
    assert pictures[0] == pictures[1]


def test_a_check_box_in_a_list_has_a_frame_that_reads_in_the_dark(qtbot):
    """The off-the-record list of Settings → Memory: checkable list items (PE_IndicatorItemViewItemCheck)."""
    palette = dark_palette()
    items = QListWidget()
    item = QListWidgetItem("Mira", items)
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
    item.setCheckState(Qt.CheckState.Unchecked)
    window = holder(qtbot, palette, items)
    image = items.viewport().grab().toImage()
    row = items.visualItemRect(item)
    middle = row.center().y()
    field = palette.color(QPalette.ColorRole.Base)
    best = max(contrast(QColor(image.pixel(x, middle)), field) for x in range(row.left(), row.left() + 24))
    assert best >= 3, best  # the box's frame, left in the row
    window.close()


def test_the_close_icon_reads_on_a_dark_button(qtbot):
    palette = dark_palette()
    widget = holder(qtbot, palette)
    icon = widget.style().standardIcon(QStyle.StandardPixmap.SP_DialogCloseButton, None, widget)
    image = icon.pixmap(16, 16).toImage()
    solid = [QColor(image.pixel(x, y)) for x in range(image.width()) for y in range(image.height())
             if QColor.fromRgba(image.pixel(x, y)).alpha() > 160]
    assert solid
    button = palette.color(QPalette.ColorRole.Button)
    mean = QColor(*(sum(getattr(c, part)() for c in solid) // len(solid) for part in ("red", "green", "blue")))
    assert contrast(mean, button) >= 3, (mean.name(), button.name())


def test_the_app_installs_its_style_at_start_while_the_palette_is_dark(app, translators, qtbot):
    from monchat.gui.main import create_main_window
    qapp = QApplication.instance()
    qapp.setStyle("Fusion")
    before = qapp.palette()
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    assert not isinstance(qapp.style(), ThemeStyle)  # light: Qt's own style, no Python call per style query
    assert window.shutdown(10000)
    qapp.setPalette(dark_palette())
    try:
        window = create_main_window(app, translators)
        qtbot.addWidget(window)
        assert isinstance(qapp.style(), ThemeStyle) and qapp.style().baseStyle().name().lower() == "fusion"
        assert window.shutdown(10000)
    finally:
        qapp.setStyle("Fusion")
        qapp.setPalette(before)


def test_a_desktop_that_turns_dark_and_light_again_while_monchat_runs_gets_the_style_each_time(window, qtbot):
    qapp = QApplication.instance()
    qapp.setStyle("Fusion")
    before = qapp.palette()
    assert not isinstance(qapp.style(), ThemeStyle)
    try:
        qapp.setPalette(dark_palette())  # the desktop turned dark: every window hears ApplicationPaletteChange
        qtbot.waitUntil(lambda: isinstance(qapp.style(), ThemeStyle), timeout=3000)
        assert qapp.style().baseStyle().name().lower() == "fusion"
        qapp.setPalette(before)  # and light again: Qt's own style, no Python call per style query
        qtbot.waitUntil(lambda: not isinstance(qapp.style(), ThemeStyle), timeout=3000)
        assert qapp.style().name().lower() == "fusion"
    finally:
        qapp.setStyle("Fusion")
        qapp.setPalette(before)
