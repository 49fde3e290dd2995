"""The sync folder on disk: its layout, the files a sync tool made, appends that survive a crash, whole lines.

```
<FOLDER>/monchat/devices/<device-id>/device.json         {id, name, created_at, last_sync, format}
<FOLDER>/monchat/devices/<device-id>/tombstones.jsonl    one deletion a line: {id, device, deleted_at}
<FOLDER>/monchat/devices/<device-id>/journal/YYYY-MM.jsonl  one archived message a line (a log line's JSON)
```

Every file has one writer: the device whose folder it is. Only names of exactly these shapes are read; anything
else is left alone, and a name a sync tool gives a conflicting copy (Syncthing's ``.sync-conflict-``, Dropbox's
``(conflicted copy``, ``-conflict-``, iCloud's ``name 2.jsonl``) is reported and never read. A file is read
only up to its last whole line: a torn last line (a crash mid-append, a half-synced file) waits for a later read.

Every line is written and read through the folder's ``Codec`` (``SyncFolder.codec``): ``PLAIN`` (the line as it
is) or, in an encrypted folder, ``crypto.py``'s sealed lines (one token a line, bound to its file). A journal is
written with ``append_lines(path, lines, codec=folder.codec)`` and read with ``read_whole_lines(…,
codec=folder.codec)`` / ``rewrite_without(…, codec=folder.codec)`` / ``ids_in(path, folder.codec)``; the
functions' default is ``PLAIN``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..paths import fsync_folder, write_all, write_private

DEVICE_FILE = "device.json"
TOMBSTONES = "tombstones.jsonl"
JOURNAL = "journal"
FORMAT = 1
DEVICE_ID = re.compile(r"^[0-9a-f]{32}$")
JOURNAL_FILE = re.compile(r"^(\d{4}-\d{2})\.jsonl$")
CONFLICT_COPY = re.compile(
    r"\.sync-conflict-"  # Syncthing: name.sync-conflict-20261204-120000-ABCDEFG.jsonl
    r"|\(.*conflicted copy.*\)"  # Dropbox: name (Laptop's conflicted copy 2026-12-04).jsonl
    r"|-conflict-"  # Nextcloud, Resilio and others
    r"| \d+(\.[^.]+)?$",  # iCloud: "2026-12 2.jsonl", "device 2.json"
    re.IGNORECASE)
TAIL_BYTES = 64


def is_conflict_copy(name: str) -> bool:
    return bool(CONFLICT_COPY.search(name))


class Codec(Protocol):
    """How a line of the folder is written and read: as it is, or sealed (``crypto.py``)."""

    encrypted: bool

    def seal(self, line: str, path: Path) -> str:
        """The line as ``path`` holds it (no newline in it)."""
        ...

    def open(self, line: bytes, path: Path) -> bytes | None:
        """The line's words, or None: not a line of ``path`` (another file's, damaged, half-synced)."""
        ...


class Plain:
    encrypted = False

    def seal(self, line: str, path: Path) -> str:
        return line

    def open(self, line: bytes, path: Path) -> bytes | None:
        return line


PLAIN: Codec = Plain()


def file_binding(path: Path) -> str:
    """What a sealed line is bound to: its path from its device's folder (``<id>/journal/2026-11.jsonl``)."""
    parts = path.parts
    for n in range(len(parts) - 2, -1, -1):
        if DEVICE_ID.match(parts[n]):
            return "/".join(parts[n:])
    return path.name


@dataclass
class DeviceFiles:
    """What one device's folder holds (only the names that are read)."""

    id: str
    folder: Path
    info: dict = field(default_factory=dict)  # device.json, {} when missing or unreadable
    journals: dict[str, Path] = field(default_factory=dict)  # month → file

    @property
    def tombstones(self) -> Path:
        return self.folder / TOMBSTONES


@dataclass
class Layout:
    devices: dict[str, DeviceFiles]
    conflicts: list[Path]  # files a sync tool made of a conflict: reported, never read
    size: int  # bytes under <FOLDER>/monchat


class SyncFolder:
    """``<FOLDER>/monchat/devices``: where each device writes its own files."""

    def __init__(self, folder: Path, codec: Codec = PLAIN) -> None:
        self.folder = folder
        self.devices = folder / "monchat" / "devices"
        self.codec = codec  # every file of the folder is written and read through it

    def device_dir(self, device_id: str) -> Path:
        return self.devices / device_id

    def journal_file(self, device_id: str, month: str) -> Path:
        return self.devices / device_id / JOURNAL / f"{month}.jsonl"

    def scan(self) -> Layout:
        devices: dict[str, DeviceFiles] = {}
        conflicts: list[Path] = []
        size = 0
        for path in sorted((self.folder / "monchat").rglob("*")):
            if path.is_file():
                size += path.stat().st_size
            if is_conflict_copy(path.name):
                conflicts.append(path)
        if not self.devices.is_dir():
            return Layout(devices, conflicts, size)
        for folder in sorted(self.devices.iterdir()):
            if not folder.is_dir() or not DEVICE_ID.match(folder.name):
                continue
            files = DeviceFiles(folder.name, folder, read_device(folder / DEVICE_FILE, self.codec))
            journal = folder / JOURNAL
            if journal.is_dir():
                for path in sorted(journal.iterdir()):
                    month = JOURNAL_FILE.match(path.name)
                    if month and path.is_file():
                        files.journals[month.group(1)] = path
            devices[folder.name] = files
        return Layout(devices, conflicts, size)


def read_device(path: Path, codec: Codec = PLAIN) -> dict:
    """A device.json, or {} while it is missing, half-synced, not ours or sealed otherwise."""
    try:
        raw = path.read_bytes()
        opened = codec.open(raw.strip(), path) if codec.encrypted else raw
        data = json.loads(opened) if opened is not None else None
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_device(path: Path, info: dict, codec: Codec = PLAIN) -> None:
    if codec.encrypted:
        text = codec.seal(json.dumps(info, ensure_ascii=False, sort_keys=True), path)
    else:
        text = json.dumps(info, ensure_ascii=False, indent=1, sort_keys=True)
    write_private(path, text + "\n")


def append_lines(path: Path, lines: list[str], *, codec: Codec = PLAIN) -> None:
    """Append whole lines to a file of this device's own and sync them to disk.

    A torn last line there is what this device's own crash left mid-append (it is the file's one writer): it is cut
    off first, so the file holds whole lines only. No reader took it (they read up to the last whole line)."""
    if not lines:
        return
    payload = "".join(codec.seal(line, path) + "\n" for line in lines).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    created = not path.exists()
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            os.ftruncate(fd, _end_of_last_line(fd, size))
        write_all(fd, payload)
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_folder(path.parent)


def _end_of_last_line(fd: int, size: int) -> int:
    """The offset after the file's last newline (0 when it has none), read backwards."""
    end = size
    while end > 0:
        start = max(0, end - 65536)
        found = os.pread(fd, end - start, start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        end = start
    return 0


def rewrite_without(path: Path, ids: set[str], *, codec: Codec = PLAIN) -> int:
    """Rewrite a device's own file without the lines of ``ids`` (temp file + rename); return lines removed.

    The only rewrite of a journal: a deletion's words leave the folder."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    if not codec.encrypted and not any(i.encode() in data for i in ids):
        return 0
    kept, removed = [], 0
    for line in data.splitlines(keepends=True):
        opened = codec.open(line.rstrip(b"\n"), path) if codec.encrypted else line
        if opened is not None and line_id(opened) in ids:
            removed += 1
        else:
            kept.append(line if line.endswith(b"\n") else line + b"\n")
    if removed:
        write_private(path, b"".join(kept))
    return removed


def line_id(line: bytes) -> str | None:
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None


def ids_in(path: Path, codec: Codec = PLAIN) -> set[str]:
    """The ids of the lines of a file (none while it is missing); lines that do not open are left out."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return set()
    if codec.encrypted:
        return {i for i in (line_id(o) for o in (codec.open(line, path) for line in data.splitlines()) if o) if i}
    return {i for i in map(line_id, data.splitlines()) if i}


def opened_bytes(path: Path, codec: Codec = PLAIN) -> bytes:
    """A file's bytes as its words (each sealed line opened; lines that do not open left out)."""
    data = path.read_bytes()
    if not codec.encrypted:
        return data
    return b"\n".join(o for o in (codec.open(line, path) for line in data.splitlines()) if o is not None)


def tail_of(data: bytes) -> str:
    """A short hash of the last bytes of ``data`` (how a read offset knows its file was not rewritten)."""
    return hashlib.sha256(data[-TAIL_BYTES:]).hexdigest()[:16]


@dataclass
class WholeLines:
    records: list[dict]  # the JSON objects of whole lines after the offset
    end: int  # the offset after the last line taken
    tail: str
    torn: bool  # a last line not whole yet (no newline, or not JSON at the end): read at a later sync
    bad: int  # whole lines in the middle that are not JSON objects: skipped
    refused: int = 0  # sealed lines in the middle that do not open as this file's (moved from another, damaged)


def read_whole_lines(path: Path, offset: int, tail: str, *, codec: Codec = PLAIN) -> WholeLines:
    """The whole lines of ``path`` after ``offset`` (from the start when the file was rewritten since). Only the
    bytes from just before ``offset`` are read, unless the file was rewritten. Sealed lines are opened first: one
    that does not open is refused (counted, never read), or, the last so far, torn (a half-synced file)."""
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        start = max(0, offset - TAIL_BYTES) if offset <= size else 0
        f.seek(start)
        data = f.read()
        if offset > size or tail_of(data[:offset - start]) != tail:
            # shorter, or other bytes before the offset: a deletion rewrote it (ids dedupe what is read again)
            offset = 0
            if start:
                f.seek(0)
                data, start = f.read(), 0
    first = offset - start  # where the unread lines begin in ``data``
    end = data.rfind(b"\n") + 1
    torn = end < len(data)
    lines = data[first:end].splitlines(keepends=True) if end > first else []
    records: list[dict] = []
    bad = refused = 0
    position = first
    for n, line in enumerate(lines):
        opened = codec.open(line.rstrip(b"\n"), path) if codec.encrypted else line
        try:
            record = json.loads(opened) if opened is not None else None
        except ValueError:
            record = None
        if not isinstance(record, dict):
            if n == len(lines) - 1:  # the last line so far: a half-synced file, whole later
                torn = True
                end = position
                break
            if opened is None:
                refused += 1
            else:
                bad += 1
        else:
            records.append(record)
        position += len(line)
    end = max(end, first)
    return WholeLines(records, start + end, tail_of(data[:end]), torn, bad, refused)
