"""Preferences only the desktop app has, kept in the store's key/value table.

``settings.toml`` has no place for them yet (see the report to core); the CLI
has no use for them.
"""

from __future__ import annotations

SEND_KEY = "gui.send_key"  # "enter" (Enter sends) | "ctrl_enter" (Enter = newline, Ctrl+Enter sends)


class GuiPrefs:
    def __init__(self, state) -> None:
        self.state = state  # get_state/set_state (the Store)

    @property
    def ctrl_enter_sends(self) -> bool:
        return self.state.get_state(SEND_KEY) == "ctrl_enter"

    @ctrl_enter_sends.setter
    def ctrl_enter_sends(self, value: bool) -> None:
        self.state.set_state(SEND_KEY, "ctrl_enter" if value else "enter")
