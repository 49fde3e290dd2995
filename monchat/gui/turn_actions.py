"""Whether Regenerate, Edit and Flush can act now, and the reason shown when they cannot.

A control that cannot act is disabled and its tooltip says why; none is left enabled to do
nothing. The main window reads the state (a reply streaming, the gate, the shown messages) and
applies ``ActionReasons`` to its actions and the gate bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject


@dataclass(frozen=True)
class ChatState:
    """What the buttons depend on."""

    streaming: bool
    paused: bool  # the gate is at "stop"
    last_role: str  # the role of the last shown message, "" when none
    has_user_message: bool  # a message of the user's is shown


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
        return self.tr("A reply is being written: wait for it or stop it, then flush.") if state.streaming else ""
