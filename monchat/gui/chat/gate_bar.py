"""The flush gate, always visible: the count of unflushed files, and one banner at "warn" and "stop".

Below "warn" the count row carries a small Flush button. At "warn" and "stop" that button goes and
the banner carries the only Flush button of the bar; at "stop" the banner is louder (a red frame,
bold words) and says why chat is paused. Its colours are a tint of the palette's window colour with
text checked for contrast (``kit/colours.py``), taken again when the desktop switches light/dark. While a reply streams, the Flush button is disabled and
its tooltip says why.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.logs.files import FlushGate
from ...core.memory.states import GateState
from ..kit.colours import notice_style
from ..translation import arg
from ..window_frame import GATE_MARGINS, GATE_SPACING



class GateBar(QWidget):
    """Shows ``app.chat.gate()``.

    Signals:
        flush_requested(): the user pressed the Flush button here.
    """

    flush_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = GateState.OK
        self.files = -1  # unflushed log files (-1: not read yet)
        self.flushing = False  # a flush runs now (here or in another process): chat is open at any count
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
        self.banner_label = QLabel(self.banner)
        self.banner_label.setObjectName("gate_banner_text")
        self.banner_label.setWordWrap(True)
        self.banner_button = QPushButton(self.tr("Flush now…"), self.banner)
        self.banner_button.clicked.connect(self.flush_requested)
        banner_row = QHBoxLayout(self.banner)
        banner_row.setContentsMargins(8, 4, 8, 4)
        banner_row.addWidget(self.banner_label, 1)
        banner_row.addWidget(self.banner_button)
        self.banner.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(*GATE_MARGINS)  # the window's frame holds this row's room (window_frame.py)
        layout.setSpacing(GATE_SPACING)
        layout.addLayout(row)
        layout.addWidget(self.banner)

    def set_gate(self, gate: FlushGate) -> None:
        self.state = gate.state
        self.files = gate.unflushed_files
        self.flushing = gate.flushing
        limits = arg(self.tr("A flush is recommended at %1 files; chat pauses at %2."), gate.warn_at, gate.stop_at)
        if gate.unflushed_files:
            self.count_label.setText(arg(
                self.tr("Unflushed log files: %1 (flush recommended at %2, chat pauses at %3)"),
                gate.unflushed_files, gate.warn_at, gate.stop_at))
        else:  # a first start, or just flushed: no limits to warn about yet
            self.count_label.setText(self.tr("Unflushed log files: 0"))
        self.count_label.setToolTip(limits)
        if gate.state == GateState.WARN:
            self.banner_label.setText(arg(
                self.tr("%1 log files are waiting. A flush now turns them into memory; "
                        "at %2 files chat pauses until you flush."), gate.unflushed_files, gate.stop_at))
        elif gate.state == GateState.STOP:
            self.banner_label.setText(self.stop_explanation(gate))
        if gate.flushing and gate.unflushed_files >= gate.warn_at:  # chat is open while a flush runs
            self.banner_label.setText(self.tr("A flush is running. You can keep chatting: what you send now is "
                                              "kept for the next flush."))
        stopped = gate.state == GateState.STOP
        self._colour_banner()
        font = self.banner_label.font()
        font.setBold(stopped)
        self.banner_label.setFont(font)
        self.banner.setVisible(gate.state in (GateState.WARN, GateState.STOP))
        self.flush_button.setVisible(gate.state not in (GateState.WARN, GateState.STOP))  # the banner's button is the one
        self.banner_button.setVisible(not gate.flushing)  # a flush runs already (its window shows how far)
        self._show_blocked()

    def _colour_banner(self) -> None:
        """Fill, text and frame from the palette, the text checked for contrast (a red frame at "stop")."""
        if self.state not in (GateState.WARN, GateState.STOP):
            return  # hidden: coloured when it shows (a stylesheet repolishes the banner; the gate is read every minute)
        style = notice_style(self.palette(), str(self.state), "gate_banner", "gate_banner_text")
        if style != self.banner.styleSheet():
            self.banner.setStyleSheet(style)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        """A desktop that switches between light and dark: the banner's colours are taken again."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._colour_banner()

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
