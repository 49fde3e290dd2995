"""The gate's banners are readable on light and dark desktops: text/background contrast ≥ 4.5:1 (WCAG AA).

The banner is rendered (``grab``) and measured: its background is the most common colour of the picture,
its text the pixel of the label farthest from it — what a user sees, whatever the stylesheet or palette did.
"""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QRect, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from monchat.gui.kit.colours import contrast, is_dark, luminance
from monchat.gui.main import open_window
from monchat.gui.main_window import MainWindow
from tests.gui.conftest import fill_log_files
from tests.gui.screenshot_main import dark_palette


def qapp_palette() -> QPalette:
    return QApplication.instance().palette()


def light_palette() -> QPalette:
    return QApplication.style().standardPalette()


@pytest.fixture
def themed(qapp):
    """Set the application's palette for a test (as a desktop switching theme does), restored after."""
    before = qapp.palette()
    yield qapp.setPalette
    qapp.setPalette(before)


def picture(banner):
    """``banner`` as its window draws it (a widget grabbed alone may paint otherwise than in its window)."""
    top = banner.window()
    return top.grab(QRect(banner.mapTo(top, QPoint(0, 0)), banner.size())).toImage()


def background(image) -> QColor:
    """The most common colour of the picture."""
    colours = Counter(image.pixel(x, y) for x in range(0, image.width(), 2) for y in range(0, image.height(), 2))
    return QColor.fromRgb(colours.most_common(1)[0][0])


def measured_contrast(banner, label) -> float:
    """Measured on the window's picture: the label's pixel farthest from the background."""
    image = picture(banner)
    ratio = image.devicePixelRatio()
    background_colour = background(image)
    area = label.geometry()
    text = [QColor.fromRgb(image.pixel(int(x * ratio), int(y * ratio)))
            for x in range(area.left(), area.right()) for y in range(area.top(), area.bottom())]
    return max(contrast(colour, background_colour) for colour in text)


@pytest.mark.parametrize("files", [3, 5], ids=["warn", "stop"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_gate_banner_reads_on_light_and_dark(app, make_window, themed, qtbot, files, theme):
    fill_log_files(app, files)
    window = make_window("en")
    themed(light_palette() if theme == "light" else dark_palette())
    qtbot.wait(50)
    bar = window.gate_bar
    assert bar.banner.isVisible() and bar.state == ("warn" if files == 3 else "stop")
    assert measured_contrast(bar.banner, bar.banner_label) >= 4.5


def line_contrast(label: QLabel) -> float:
    """A line of text on the window: its pixel farthest from the most common one (the window behind it)."""
    image = picture(label)
    behind = background(image)
    return max(contrast(QColor.fromRgb(image.pixel(x, y)), behind)
               for x in range(image.width()) for y in range(image.height()))


class _BothPaints(QObject):
    """At the frame's first paint and at the filled window's: ``measure(window, frame)`` after the paint's pass."""

    def __init__(self, measure) -> None:
        super().__init__()
        self.measure, self.seen = measure, {}

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() != QEvent.Type.Paint or not isinstance(watched, MainWindow):
            return False
        if "frame" not in self.seen:
            self.seen["frame"] = None  # measured before the fill, which waits for this pass (FirstPaint)
            QTimer.singleShot(0, lambda: self.seen.update(frame=self.measure(watched, True)))
        elif watched.app is not None and "filled" not in self.seen:
            self.seen["filled"] = None
            QTimer.singleShot(0, lambda: (self.seen.update(filled=self.measure(watched, False)),
                                          QCoreApplication.exit(0)))
        return False


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_frames_stop_banner_and_paused_line_read_as_the_filled_windows(app, qapp, themed, theme):
    """The window's frame shows the gate's banner and the composer's paused line before the app is built
    (``gui/window_frame.py``): the banner reads (≥ 4.5:1) there too, and the paused line is drawn as filled (the
    frame's composer is disabled; its line is not drawn dimmer for that)."""
    fill_log_files(app, 5)
    themed(light_palette() if theme == "light" else dark_palette())

    def measure(window, frame):
        gate, paused = ((window.frame.gate, window.frame.paused) if frame
                        else (window.gate_bar.parts, window.composer.paused_label))
        return measured_contrast(gate.banner, gate.banner_label), line_contrast(paused)

    paints = _BothPaints(measure)
    qapp.installEventFilter(paints)
    try:
        assert open_window(lambda: app) == 0
    finally:
        qapp.removeEventFilter(paints)
    (frame_banner, frame_paused), (filled_banner, filled_paused) = paints.seen["frame"], paints.seen["filled"]
    assert frame_banner >= 4.5 and filled_banner >= 4.5
    assert frame_paused == pytest.approx(filled_paused, abs=0.2)


def test_contrast_is_the_wcag_ratio():
    assert contrast(QColor("black"), QColor("white")) == pytest.approx(21.0)
    assert contrast(QColor("#777777"), QColor("white")) == pytest.approx(4.48, abs=0.01)
    assert contrast(QColor("#2b2b2b"), QColor("#2b2b2b")) == pytest.approx(1.0)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_failed_reply_notice_reads_and_has_an_icon(app, make_window, backend, themed, qtbot, theme):
    from monchat.core.errors import BackendUnreachable
    window = make_window("en")
    backend.enqueue(BackendUnreachable("Ollama is not running at http://127.0.0.1:11434.", "Start it."))
    window.composer.edit.setPlainText("hello")
    with qtbot.waitSignal(window.turn_failed, timeout=5000):
        window.composer.submit()
    themed(light_palette() if theme == "light" else dark_palette())
    qtbot.waitUntil(lambda: bool(window.chat_view.notices()) and window.chat_view.notices()[0].isVisible(),
                    timeout=2000)
    box = window.chat_view.notices()[0]
    window.chat_view.ensureWidgetVisible(box)
    qtbot.wait(50)
    icon, text = box.findChild(QLabel, "notice_icon"), box.findChild(QLabel, "notice")
    assert not icon.pixmap().isNull() and icon.isVisible() and icon.geometry().right() < text.geometry().left()
    assert measured_contrast(box, text) >= 4.5
    # The notice follows the desktop's theme (made in the light one, it is recoloured for the dark one).
    assert is_dark(qapp_palette()) == (theme == "dark") and (luminance(background(picture(box))) < 0.3) == is_dark(
        qapp_palette())


def measured_button(button) -> float:
    """A button's text against its fill, inside its frame (the frame's outline is not its text)."""
    image = picture(button)
    fill = background(image)
    return max(contrast(QColor.fromRgb(image.pixel(x, y)), fill)
               for x in range(5, image.width() - 5) for y in range(5, image.height() - 5))


DISABLED_VISIBLE = 1.5  # WCAG asks nothing of inactive controls; Qt's own light Fusion palette draws them at ~1.7


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_disabled_buttons_are_dimmed_yet_visible_and_the_flush_notes_read(app, make_window, themed, qtbot, theme):
    """A disabled button (Cancel before a flush) is drawn dimmer than an enabled one yet not invisible; the
    persona's role beside its name is information, not a disabled control: it reads at 4.5:1."""
    fill_log_files(app, 1)
    window = make_window("en")
    themed(light_palette() if theme == "light" else dark_palette())
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    qtbot.wait(50)
    assert not dialog.cancel_button.isEnabled() and dialog.close_button.isEnabled()
    disabled, enabled = measured_button(dialog.cancel_button), measured_button(dialog.close_button)
    assert DISABLED_VISIBLE <= disabled and disabled < 0.8 * enabled, (disabled, enabled)
    for role in dialog.role_labels.values():
        assert role.text() and measured_contrast(role.parentWidget(), role) >= 4.5, role.text()
    dialog.close()
