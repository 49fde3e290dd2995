"""monchat: a local-first chat companion that remembers what changed, from evidence.

Supported systems: Linux and macOS. The core relies on POSIX file behaviour (``fcntl`` locks
shared by every window and terminal, ``pread``, folder ``fsync`` for crash safety, 0600/0700
modes); on Windows it stops at once with a clear message instead of failing halfway.
"""

import os as _os

__version__ = "0.1.0"

SUPPORTED_SYSTEMS = "Linux and macOS"


def unsupported_system_message(os_name: str = _os.name) -> str:
    """Why monchat cannot run here ("" on a supported system)."""
    if os_name == "posix":
        return ""
    return (f"monchat runs on {SUPPORTED_SYSTEMS} only: its crash-safe storage needs POSIX file locks and "
            "file modes, which this system does not have. On Windows, run it inside WSL "
            "(https://learn.microsoft.com/windows/wsl/).")


if unsupported_system_message():
    raise ImportError(unsupported_system_message())
