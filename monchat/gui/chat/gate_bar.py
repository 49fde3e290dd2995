"""The flush gate, always visible: the count of unflushed files, and one banner at "warn" and "stop".

Below "warn" the count row carries a small Flush button. At "warn" and "stop" that button goes and
the banner carries the only Flush button of the bar; at "stop" the banner is louder (a red frame,
bold words) and says why chat is paused. While a reply streams, the Flush button is disabled and
its tooltip says why.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.logs.files import FlushGate
from ..translation import arg

# A red frame reads as "stopped" on light and dark themes alike; the fill stays the palette's.
STOP_STYLE = "QFrame#gate_banner { border: 2px solid #c62828; border-radius: 4px; }"


class GateBar(QWidget):
    """Shows ``app.chat.gate()``.

    Signals:
        flush_requested(): the user pressed the Flush button here.
    """

    flush_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = "ok"
        self._blocked_reason = ""
        self.count_label = QLabel(self)
        self.count_label.setObjectName("gate_count")
        self.flush_button = QPushButton(self.tr("Flush…"), self)
        self.flush_button.clicked.connect(self.flush_requested)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.count_label, 1)
        row.addWidget(self.flush_button)

        self.banner = QFrame(self)
        self.banner.setObjectName("gate_banner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setAutoFillBackground(True)
        self.banner.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.banner.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.banner_label = QLabel(self.banner)
        self.banner_label.setObjectName("gate_banner_text")
        self.banner_label.setWordWrap(True)
        self.banner_label.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.banner_button = QPushButton(self.tr("Flush now…"), self.banner)
        self.banner_button.clicked.connect(self.flush_requested)
        banner_row = QHBoxLayout(self.banner)
        banner_row.setContentsMargins(8, 4, 8, 4)
        banner_row.addWidget(self.banner_label, 1)
        banner_row.addWidget(self.banner_button)
        self.banner.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 0)
        layout.setSpacing(4)
        layout.addLayout(row)
        layout.addWidget(self.banner)

    def set_gate(self, gate: FlushGate) -> None:
        self.state = gate.state
        self.count_label.setText(arg(
            self.tr("Unflushed log files: %1 (flush recommended at %2, chat pauses at %3)"),
            gate.unflushed_files, gate.warn_at, gate.stop_at))
        if gate.state == "warn":
            self.banner_label.setText(arg(
                self.tr("%1 log files are waiting. A flush now turns them into memory; "
                        "at %2 files chat pauses until you flush."), gate.unflushed_files, gate.stop_at))
        elif gate.state == "stop":
            self.banner_label.setText(self.stop_explanation(gate))
        stopped = gate.state == "stop"
        self.banner.setStyleSheet(STOP_STYLE if stopped else "")
        font = self.banner_label.font()
        font.setBold(stopped)
        self.banner_label.setFont(font)
        self.banner.setVisible(gate.state in ("warn", "stop"))
        self.flush_button.setVisible(gate.state not in ("warn", "stop"))  # the banner's button is the one
        self._show_blocked()

    def set_flush_blocked(self, reason: str) -> None:
        """Disable the Flush button with ``reason`` as its tooltip, or ("") enable it again."""
        self._blocked_reason = reason
        self._show_blocked()

    def _show_blocked(self) -> None:
        for button, tip in ((self.flush_button, self.tr("Turn the waiting log files into memory")),
                            (self.banner_button, self.tr("Turn the waiting log files into memory"))):
            button.setEnabled(not self._blocked_reason)
            button.setToolTip(self._blocked_reason or tip)

    def visible_flush_buttons(self) -> list[QPushButton]:
        return [b for b in (self.flush_button, self.banner_button) if b.isVisibleTo(self)]

    def stop_explanation(self, gate: FlushGate) -> str:
        """Why chat is paused, said in the banner at "stop"."""
        return arg(self.tr(
            "Chat is paused: %1 log files are waiting for a flush (the limit is %2). "
            "Your messages are safe on disk. Flush to turn them into memory, and chat reopens."),
            gate.unflushed_files, gate.stop_at)
