"""``monchat gui`` (and ``monchat`` alone): the desktop app, or words on why it cannot open."""

from __future__ import annotations

import os
import sys

from ..core.errors import KnownError


def register(sub) -> None:
    p = sub.add_parser("gui", help="open the desktop app (the default)")
    p.set_defaults(**DEFAULTS)


def run(build, args) -> int:
    """``build()`` is called once the window's frame is painted (``paints_first``)."""
    _require_display()
    from ..gui.main import open_window
    return open_window(build)


def _has_display() -> bool:
    return not sys.platform.startswith("linux") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM"))


def _require_display() -> None:
    """Qt aborts the process without a display; say what to do instead."""
    if not _has_display():
        raise KnownError("There is no display to open the monchat window on.",
                         "Run it under a virtual display (`xvfb-run monchat`), "
                         "or chat in the terminal with `monchat chat`.")


def show_error_in_window(exc: KnownError) -> None:
    """The app could not be built: a user who started it from the desktop has no terminal to read."""
    if _has_display() and os.environ.get("QT_QPA_PLATFORM") != "offscreen":
        from ..gui.main import show_startup_error
        show_startup_error(exc)


DEFAULTS = {"run": run, "on_startup_error": show_error_in_window, "paints_first": True}
