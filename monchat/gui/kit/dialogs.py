"""The dialogs a window keeps: opened here and held (Python would drop a dialog nothing refers to) until closed.

The main window owns one ``OpenDialogs``; a helper that opens a dialog (the File and Memory menus, your controls,
Help…) is given it, never the window. Shutdown asks the ones still open to cancel their work.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QWidget

from .lifetime import alive
from .wheel_guard import install_wheel_guard

D = TypeVar("D", bound=QWidget)


class OpenDialogs:
    """The dialogs held open, oldest first (iterable and indexable, ``dialogs[-1]`` the last)."""

    def __init__(self) -> None:
        self._held: list[QWidget] = []
        install_wheel_guard()  # a wheel over an unfocused setting scrolls the page in every dialog (wheel_guard.py)

    def open(self, dialog: D, modal: bool = True) -> D:
        """Show ``dialog``: window-modal (``open()``), or (``modal=False``) as a window beside the chat.

        Dialogs closed since the last one opened are let go now.
        """
        for old in self._held:
            if alive(old) and not old.isVisible():
                old.deleteLater()
        self._held = [d for d in self._held if alive(d) and d.isVisible()]
        self._held.append(dialog)
        if modal:
            dialog.open()  # type: ignore[attr-defined]
        else:
            dialog.setModal(False)  # type: ignore[attr-defined]
            dialog.show()
        return dialog

    def keep(self, dialog: D) -> D:
        """Hold ``dialog`` that the caller shows itself (a message box already open, a reader shown)."""
        self._held.append(dialog)
        return dialog

    def cancel_work(self) -> None:
        """The window closes: every dialog still here that runs work (a flush, an import…) cancels it."""
        for dialog in self._held:
            if alive(dialog) and hasattr(dialog, "cancel"):
                dialog.cancel()

    def __iter__(self):
        return iter(list(self._held))

    def __len__(self) -> int:
        return len(self._held)

    def __getitem__(self, index: int) -> QWidget:
        return self._held[index]
