"""Disk faults a test injects into one file: the disk will not let it go (``unlink`` refused, as on a file system
remounted read-only)."""

from __future__ import annotations

import errno
from pathlib import Path


def refuse_unlink(monkeypatch, path: Path) -> None:
    """``Path.unlink`` of ``path`` raises EROFS; every other file goes as usual."""
    unlink = Path.unlink

    def refuse(self, missing_ok=False):
        if self == path:
            raise OSError(errno.EROFS, "Read-only file system")
        return unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refuse)
