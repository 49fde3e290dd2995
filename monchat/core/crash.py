"""Crash reports: our bugs are written down, never swallowed."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .clock import system_now
from .redact import redact

log = logging.getLogger(__name__)


def write_crash_report(crash_dir: Path | None, details: str) -> str:
    """Write a traceback to ``crash_dir``; return the path ("" if it could not be written)."""
    if crash_dir is None:
        return ""
    try:
        crash_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = crash_dir / f"crash-{system_now():%Y%m%d-%H%M%S-%f}.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(redact(details))
        return str(path)
    except OSError:
        log.exception("could not write a crash report")
        return ""
