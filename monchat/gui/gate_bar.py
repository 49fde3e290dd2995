"""The flush gate, always visible: unflushed files, a banner at "warn", a notice at "stop"."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..core.logs import FlushGate
from .translation import arg


class GateBar(QWidget):
    """Shows ``app.chat.gate()``.

    Signals:
        flush_requested(): the user pressed a Flush button here.
    """

    flush_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = "ok"
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
        self.banner.setVisible(gate.state == "warn")

    def stop_explanation(self, gate: FlushGate) -> str:
        """What the composer says while chat is paused."""
        return arg(self.tr(
            "Chat is paused: %1 log files are waiting for a flush (the limit is %2). "
            "Your messages are safe on disk. Flush to turn them into memory, and chat reopens."),
            gate.unflushed_files, gate.stop_at)
