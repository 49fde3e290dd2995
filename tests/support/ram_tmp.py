"""The tests' temporary files on the machine's RAM disk (``/dev/shm``) when it has one with room.

Nearly every test writes a home under ``tmp_path``, and monchat syncs what it writes (SQLite under
``synchronous = FULL``, every log line, every atomic replace): on the shared machine's disk a sync took 2.3 ms
under the other engineers' load, 0.001 ms on ``/dev/shm``, and the flush tests make 30-40 a test. A RAM disk
keeps every call the code makes (the syncs still happen; they return at once) and loses nothing a test proves: a
killed process loses no written page on either, and no test is about the disk's speed. ``tests/conftest.py`` calls
``use_ram_disk`` before pytest picks its ``tmp_path`` root; xdist's workers and every interpreter a test starts
inherit ``TMPDIR``. A ``TMPDIR`` the user set wins, and so does the disk where ``/dev/shm`` is missing, not
writable, or has less than ``ROOM`` free (a container's 64 MB ``/dev/shm``): a full run keeps about 330 MB
(``pytest-of-<user>``, the last three runs).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

RAM_DISK = Path("/dev/shm")
ROOM = 4 * 2**30  # bytes free on the RAM disk before the tests use it


def ram_disk_for_temporary_files(environ, ram_disk: Path = RAM_DISK, room: int = ROOM) -> Path | None:
    """The folder the tests' temporary files should go to instead of the system's, or None (leave it)."""
    if environ.get("TMPDIR") and environ["TMPDIR"] != str(ram_disk):  # one the user chose (an xdist worker
        return None  # inherits the RAM disk from the process that started it)
    try:
        free = shutil.disk_usage(ram_disk).free
    except OSError:
        return None
    if free < room or not os.access(ram_disk, os.W_OK | os.X_OK):
        return None
    return ram_disk


def use_ram_disk(environ=os.environ) -> Path | None:
    """Point ``TMPDIR`` (and this process's ``tempfile``) at the RAM disk when it is fit; return it, or None."""
    chosen = ram_disk_for_temporary_files(environ)
    if chosen is not None:
        environ["TMPDIR"] = str(chosen)
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again at its next call
    return chosen
