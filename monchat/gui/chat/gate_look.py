"""The flush gate's parts and words, built by the same functions for the gate bar (``gate_bar.py``), the composer
(``composer.py``) and the window's frame (``gui/window_frame.py``), so the frame's first paint says what the filled
window will say, in the same place, and the chat does not move when the window fills.

The frame shows the gate before the app's core is imported, so this module imports only PySide6 and the GUI's light
helpers (no ``FlushGate``): the gate comes as its numbers. Its notice kind (``notice_kind``) is ``FlushGate.state``'s
"warn" or "stop" said again from the same numbers; ``tests/gui/test_frame_layout.py`` holds the two together.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.vocabulary.states import GateNotice
from ..kit.colours import notice_style
from ..translation import arg

# The gate bar's margins and spacing: the frame's row is the gate bar's own parts in the same layout.
GATE_MARGINS, GATE_SPACING = (8, 4, 8, 0), 4
BANNER_MARGINS = (8, 4, 8, 4)


@dataclass
class GateParts:
    """The gate bar's widgets: the count row (words, a small Flush button) and the banner below it."""

    count_label: QLabel
    flush_button: QPushButton
    banner: QFrame
    banner_label: QLabel
    banner_button: QPushButton


def build_gate_parts(bar: QWidget) -> GateParts:
    """The gate bar's parts laid out in ``bar`` (the banner hidden until ``show_gate`` says otherwise)."""
    count_label = QLabel(bar)
    count_label.setObjectName("gate_count")
    flush_button = QPushButton(QCoreApplication.translate("GateBar", "Flush…"), bar)
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(count_label, 1)
    row.addWidget(flush_button)
    banner = QFrame(bar)
    banner.setObjectName("gate_banner")
    banner_label = QLabel(banner)
    banner_label.setObjectName("gate_banner_text")
    banner_label.setWordWrap(True)
    banner_button = QPushButton(QCoreApplication.translate("GateBar", "Flush now…"), banner)
    banner_row = QHBoxLayout(banner)
    banner_row.setContentsMargins(*BANNER_MARGINS)
    banner_row.addWidget(banner_label, 1)
    banner_row.addWidget(banner_button)
    banner.hide()
    layout = QVBoxLayout(bar)
    layout.setContentsMargins(*GATE_MARGINS)
    layout.setSpacing(GATE_SPACING)
    layout.addLayout(row)
    layout.addWidget(banner)
    return GateParts(count_label, flush_button, banner, banner_label, banner_button)


def notice_kind(files: int, warn_at: int, stop_at: int, flushing: bool) -> GateNotice:
    """The banner's kind for these numbers (``GateNotice.NONE``: no banner); ``FlushGate.state`` from its numbers."""
    if files >= stop_at and not flushing:
        return GateNotice.STOP
    return GateNotice.WARN if files >= warn_at else GateNotice.NONE


def count_words(files: int, warn_at: int, stop_at: int) -> str:
    """The count row's words (a first start, or just flushed: no limits to warn about yet)."""
    if files:
        return arg(QCoreApplication.translate(
            "GateBar", "Unflushed log files: %1 (flush recommended at %2, chat pauses at %3)"), files, warn_at, stop_at)
    return QCoreApplication.translate("GateBar", "Unflushed log files: 0")


def limits_words(warn_at: int, stop_at: int) -> str:
    """The count row's tooltip."""
    return arg(QCoreApplication.translate("GateBar", "A flush is recommended at %1 files; chat pauses at %2."),
               warn_at, stop_at)


def banner_words(files: int, warn_at: int, stop_at: int, flushing: bool) -> str:
    """What the banner says ("" when there is no banner)."""
    notice = notice_kind(files, warn_at, stop_at, flushing)
    if flushing and files >= warn_at:  # chat is open while a flush runs
        return QCoreApplication.translate("GateBar", "A flush is running. You can keep chatting: what you send now is "
                                                     "kept for the next flush.")
    if notice == GateNotice.STOP:
        return stop_words(files, stop_at)
    if notice == GateNotice.WARN:
        return arg(QCoreApplication.translate(
            "GateBar", "%1 log files are waiting. A flush now turns them into memory; "
                       "at %2 files chat pauses until you flush."), files, stop_at)
    return ""


def stop_words(files: int, stop_at: int) -> str:
    """Why chat is paused, said in the banner at "stop"."""
    return arg(QCoreApplication.translate(
        "GateBar", "Chat is paused: %1 log files are waiting for a flush (the limit is %2). "
                   "Your messages are safe on disk. Flush to turn them into memory, and chat reopens."), files, stop_at)


def show_gate(parts: GateParts, palette: QPalette, files: int, warn_at: int, stop_at: int, flushing: bool,
              notice: GateNotice) -> None:
    """The gate's words, banner and buttons for these numbers; ``notice`` is the banner's kind."""
    parts.count_label.setText(count_words(files, warn_at, stop_at))
    parts.count_label.setToolTip(limits_words(warn_at, stop_at))
    if notice:
        parts.banner_label.setText(banner_words(files, warn_at, stop_at, flushing))
        colour_banner(parts, palette, notice)
    font = parts.banner_label.font()
    font.setBold(notice == GateNotice.STOP)
    parts.banner_label.setFont(font)
    parts.banner.setVisible(bool(notice))
    parts.flush_button.setVisible(not notice)  # the banner's button is the one
    parts.banner_button.setVisible(not flushing)  # a flush runs already (its window shows how far)


def colour_banner(parts: GateParts, palette: QPalette, notice: GateNotice) -> None:
    """Fill, text and frame from the palette, the text checked for contrast (a red frame at "stop")."""
    style = notice_style(palette, notice, "gate_banner", "gate_banner_text")
    if style != parts.banner.styleSheet():
        parts.banner.setStyleSheet(style)


def paused_words() -> str:
    """The composer's line above its disabled box while chat is paused (the banner above has the Flush button)."""
    return QCoreApplication.translate("Composer", "Chat is paused until you flush: use the Flush button in the "
                                                  "banner above. What you type here is kept.")


def paused_label(parent: QWidget) -> QLabel:
    """The composer's paused line, hidden (``paused_words`` when chat is paused)."""
    label = QLabel(parent)
    label.setObjectName("composer_paused")
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    label.hide()
    return label
