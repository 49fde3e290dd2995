"""Whether Regenerate, Edit and Flush can act now, and the reason shown when they cannot.

A control that cannot act is disabled and its tooltip says why; none is left enabled to do
nothing. The main window reads the state (a reply streaming, the gate, the shown messages) and
applies ``ActionReasons`` to its actions and the gate bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction


@dataclass(frozen=True)
class ChatState:
    """What the buttons depend on."""

    streaming: bool
    paused: bool  # the gate is at "stop"
    last_role: str  # the role of the last shown message, "" when none
    has_user_message: bool  # a message of the user's is shown
    nothing_to_flush: bool = False  # no log file waits (a first start)
    flushing: bool = False  # a flush runs now, in this window or in another process


class ActionReasons(QObject):
    """Why an action cannot act now ("" when it can)."""

    def _common(self, state: ChatState) -> str:
        if state.streaming:
            return self.tr("A reply is being written: wait for it or stop it first.")
        if state.paused:
            return self.tr("Chat is paused until you flush the waiting log files.")
        return ""

    def regenerate(self, state: ChatState) -> str:
        """A reply can be asked for again when a message is shown (a user's last one had no reply)."""
        return self._common(state) or ("" if state.last_role else self.tr(
            "There is no reply to regenerate yet: send a message first."))

    def edit(self, state: ChatState) -> str:
        return self._common(state) or ("" if state.has_user_message else self.tr(
            "There is no message of yours to edit yet."))

    def flush(self, state: ChatState) -> str:
        if state.streaming:
            return self.tr("A reply is being written: wait for it or stop it, then flush.")
        if state.flushing:
            return self.tr("A flush is running now (here, in another monchat window or in a terminal): "
                           "wait for it to finish.")
        return self.tr("Nothing to flush yet: chat first.") if state.nothing_to_flush else ""

    def apply(self, state: ChatState, regenerate: QAction, edit: QAction, flush: QAction, gate_bar) -> None:
        """Enable the actions that can act; the others disabled, their tooltip (and status tip) saying why."""
        for act, tip, reason in ((regenerate, self.tr("Ask for the last reply again"), self.regenerate(state)),
                                 (edit, self.tr("Change your last message and get a new reply"), self.edit(state)),
                                 (flush, self.tr("Turn the waiting log files into memory"), self.flush(state))):
            act.setEnabled(not reason)
            act.setToolTip(reason or tip)
            act.setStatusTip(reason or tip)
        gate_bar.set_flush_blocked(self.flush(state))
