"""Whether a Qt object's C++ side still exists (dialogs close with WA_DeleteOnClose)."""

from __future__ import annotations

from shiboken6 import isValid


def alive(obj) -> bool:
    return obj is not None and isValid(obj)
