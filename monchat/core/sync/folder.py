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
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

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

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.devices = folder / "monchat" / "devices"

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
            files = DeviceFiles(folder.name, folder, read_device(folder / DEVICE_FILE))
            journal = folder / JOURNAL
            if journal.is_dir():
                for path in sorted(journal.iterdir()):
                    month = JOURNAL_FILE.match(path.name)
                    if month and path.is_file():
                        files.journals[month.group(1)] = path
            devices[folder.name] = files
        return Layout(devices, conflicts, size)


def read_device(path: Path) -> dict:
    """A device.json, or {} while it is missing, half-synced or not ours."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_device(path: Path, info: dict) -> None:
    write_private(path, json.dumps(info, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


def append_lines(path: Path, lines: list[str]) -> None:
    """Append whole lines to a file of this device's own and sync them to disk.

    A torn last line there is what this device's own crash left mid-append (it is the file's one writer): it is cut
    off first, so the file holds whole lines only. No reader took it (they read up to the last whole line)."""
    if not lines:
        return
    payload = "".join(line + "\n" for line in lines).encode("utf-8")
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


def rewrite_without(path: Path, ids: set[str]) -> int:
    """Rewrite a device's own file without the lines of ``ids`` (temp file + rename); return lines removed.

    The only rewrite of a journal: a deletion's words leave the folder."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    if not any(i.encode() in data for i in ids):
        return 0
    kept, removed = [], 0
    for line in data.splitlines(keepends=True):
        if line_id(line) in ids:
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


def read_whole_lines(path: Path, offset: int, tail: str) -> WholeLines:
    """The whole lines of ``path`` after ``offset`` (from the start when the file was rewritten since). Only the
    bytes from just before ``offset`` are read, unless the file was rewritten."""
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
    bad = 0
    position = first
    for n, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            if n == len(lines) - 1:  # the last line so far: a half-synced file, whole later
                torn = True
                end = position
                break
            bad += 1
        else:
            records.append(record)
        position += len(line)
    end = max(end, first)
    return WholeLines(records, start + end, tail_of(data[:end]), torn, bad)
