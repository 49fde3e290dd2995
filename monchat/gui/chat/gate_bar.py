"""The flush gate, always visible: the count of unflushed files, and one banner at "warn" and "stop".

Below "warn" the count row carries a small Flush button. At "warn" and "stop" that button goes and
the banner carries the only Flush button of the bar; at "stop" the banner is louder (a red frame,
bold words) and says why chat is paused. Its colours are a tint of the palette's window colour with
text checked for contrast (``kit/colours.py``), taken again when the desktop switches light/dark. While a reply
streams, the Flush button is disabled and its tooltip says why.

Its parts, words and colours are built by ``gate_look.py``, which the window's frame uses too: the frame shows the
same banner before the app is built, so nothing moves when the window fills.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from ...core.logs.files import FlushGate
from ...core.vocabulary.states import GateNotice, GateState
from .gate_look import build_gate_parts, colour_banner, show_gate, stop_words


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
        self.off_record = False  # this persona's chat is off the record: it goes on at "stop"
        self.parts = build_gate_parts(self)  # the frame's gate row is built by the same function (gate_look.py)
        self.count_label, self.flush_button = self.parts.count_label, self.parts.flush_button
        self.banner, self.banner_label, self.banner_button = (self.parts.banner, self.parts.banner_label,
                                                              self.parts.banner_button)
        self.flush_button.clicked.connect(self.flush_requested)
        self.banner_button.clicked.connect(self.flush_requested)

    def set_gate(self, gate: FlushGate, off_record: bool = False) -> None:
        """The gate's words and banner, as the window's frame shows them for the same numbers (``gate_look.py``);
        ``off_record``: this persona's chat is off the record, which goes on at "stop" (the banner says so)."""
        self.state = gate.state
        self.files = gate.unflushed_files
        self.flushing = gate.flushing
        self.off_record = off_record
        show_gate(self.parts, self.palette(), gate.unflushed_files, gate.warn_at, gate.stop_at, gate.flushing,
                  self._notice())
        if gate.closed and off_record:
            self.banner_label.setText(self.banner_label.text() + "\n" + self.tr(
                "Off the record you can go on chatting: nothing said off the record waits for a flush."))
        self._show_blocked()

    def _notice(self) -> GateNotice:
        """The banner's kind: the gate's state said as a notice (none below "warn")."""
        return GateNotice.of(self.state)

    def _colour_banner(self) -> None:
        """Fill, text and frame from the palette (hidden below "warn": coloured when it shows)."""
        if self._notice():
            colour_banner(self.parts, self.palette(), self._notice())

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
        return stop_words(gate.unflushed_files, gate.stop_at)
