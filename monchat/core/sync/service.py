"""Sync (issue 41): one history on every device through any synced folder, no server.

``SyncService`` is what ``monchat sync …`` calls (``App.sync``). ``setup`` gives this data folder a stable
device id and a name and writes its ``device.json`` in the folder; ``run`` carries out the deletions (every
device's tombstones), imports the messages other devices' journals hold that this archive lacks, and exports what
this device archived (``journal.py``). A message from another device is archived with its ``origin``: it is
history here (search, the history views, the chat window), and no flush of this device reads it (the diary's
day reads only this device's messages; the filters read only the log files) — its memory comes from the device
that said it: after the messages, ``run`` replays the other devices' decisions about memory and writes this
device's (``replaying.py``, ``decisions.py``; ``docs/sync.md``, Decisions).

Settings, keys, ``monchat.db`` and the model files never enter the sync folder: only the files of
``folder.py``'s layout are written there.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable

from ..clock import Clock
from ..errors import FlushRunning, InputError, KnownError
from ..logs.files import LogBook
from ..paths import held_lock
from ..privacy.secrets import SecretStore
from ..store.db import Store
from ..store.messages import MessageArchive
from ..store.sync import Device, Offset, SyncStore
from ..types import Message, format_ts, parse_ts
from .crypto import folder_codec, keep_passphrase, known_fingerprint, remember_encryption, setup_codec
from .folder import DEVICE_FILE, FORMAT, SyncFolder, read_device, read_whole_lines, write_device
from .journal import carry_out, export, remember, repair
from .decisions import export_decisions, hybrid_clock, scrub_decisions
from .replaying import Replayed, apply_decisions, read_decisions

class SyncRunning(KnownError):
    """Another ``monchat sync`` (a window's, a terminal's) runs on this data folder now."""

    code = "sync_running"


NOT_SET_UP = ("This monchat is not set up to sync.", "Choose a folder: `monchat sync setup FOLDER --name NAME`.")


@dataclass
class SyncReport:
    """What one ``monchat sync`` did (``--json`` prints it)."""

    exported: int = 0  # messages appended to this device's journal
    imported: int = 0  # messages of other devices placed in this archive
    from_devices: dict[str, int] = field(default_factory=dict)  # device id → messages imported from it
    deletions_applied: int = 0  # messages another device deleted, deleted here
    lines_scrubbed: int = 0  # deleted messages' lines removed from this device's journal
    tombstones_written: int = 0  # this device's deletions written to its tombstone file
    torn: list[str] = field(default_factory=list)  # files whose last line is not whole yet (read at a later sync)
    bad_lines: int = 0  # whole lines that are not messages: skipped
    refused: int = 0  # sealed lines that do not open as their file's (moved from another file, damaged): not read
    conflicts: list[str] = field(default_factory=list)  # conflict copies found (never read)
    deletions_deferred: int = 0  # deletions that wait for a running flush to end (carried out at a later sync)
    repaired: int = 0  # journal files of this device someone else changed, written again from the archive
    decisions_exported: int = 0  # decision events appended to this device's decisions journal
    decisions_read: int = 0  # other devices' decision events read (kept to apply)
    decisions_applied: int = 0  # other devices' decisions made here (``core/sync/replaying.py``)
    decisions_same: int = 0  # other devices' decisions this device held already
    decisions_waiting: int = 0  # decisions that wait for the messages they cite (applied at a later sync)
    decisions_deferred: int = 0  # decisions that wait for a running flush to end (applied at a later sync)
    conflicts_opened: int = 0  # two devices changed one memory: a conflict item in the review queue
    conflicts_decided: int = 0  # the user's choices between two versions, written for the other devices
    decisions_scrubbed: int = 0  # decision lines that cited a deleted message, removed from this device's files

    @property
    def nothing(self) -> bool:
        return not (self.exported or self.imported or self.deletions_applied or self.lines_scrubbed
                    or self.tombstones_written or self.repaired
                    or self.decisions_exported or self.decisions_applied or self.conflicts_opened
                    or self.decisions_scrubbed)

    def as_dict(self) -> dict:
        return asdict(self)


class SyncService:
    def __init__(self, store: Store, archive: MessageArchive, logbook: LogBook, clock: Clock,
                 delete: Callable[[str], bool], lock: Path, secrets: SecretStore | None = None,
                 memory=None) -> None:
        """``delete(id)``: Delete message's path (``memory/takeback.py``); False when there was no such message.
        ``lock``: held while a sync runs, so this device's files have one writer. ``memory``: the
        ``MemoryService`` other devices' decisions are replayed through (None: messages only)."""
        self.memory = memory
        self.lock = lock
        self.logbook = logbook
        self.sync = SyncStore(store)
        self.store = store
        self.archive = archive
        self.clock = clock
        self.delete = delete
        self.secrets = secrets or SecretStore()  # an encrypted folder's passphrase (core/sync/crypto.py)
        self.passphrase: str | None = None  # typed in this process (setup): kept in memory only
        self.passphrase_kept = ""  # after setup: "keyring", "environment", "session"; "" not encrypted

    # ---- this device ----------------------------------------------------------
    def device(self) -> Device | None:
        return self.sync.device()

    def needs_passphrase(self) -> bool:
        """Set up on an encrypted folder, and no passphrase here: none typed in this process, no
        ``MONCHAT_SYNC_PASSPHRASE``, none in the OS keyring (Settings → Sync asks for it)."""
        device = self.sync.device()
        return (device is not None and known_fingerprint(self.sync) is not None
                and not (self.passphrase or self.secrets.sync_passphrase(device.id)))

    def setup(self, folder: Path, name: str, passphrase: str | None = None) -> Device:
        """Give this data folder its device id (kept if it has one) and a name, and write its ``device.json``.
        ``passphrase``: encrypt a new folder, or join an encrypted one (``crypto.py``); it is kept in the OS keyring.

        Raises:
            InputError: the folder is missing or cannot be written, or the name is empty; an encrypted folder and
                no or a wrong passphrase, or encryption asked of a folder with unencrypted devices' files.
        """
        name = " ".join(name.split())
        if not name:
            raise InputError("A device needs a name.", "Say which computer this is: `--name laptop`.")
        folder = _usable(folder.expanduser().absolute())
        known = self.sync.device()
        codec, key, used = setup_codec(self.sync, self.secrets, folder, known, passphrase)  # checked before any write
        copied = known is not None and self._copied(SyncFolder(folder, codec), known.id)
        with self.store.atomic():  # the device and its folder's encryption: together or not at all
            if copied:  # a copy of another data folder
                device = Device(uuid.uuid4().hex, name, str(folder), format_ts(self.clock()))
                self.sync.become(device)
            else:
                device = Device(known.id if known else uuid.uuid4().hex, name, str(folder),
                                known.created_at if known else format_ts(self.clock()),
                                known.last_sync if known else None)
                self.sync.set_device(device)
            remember_encryption(self.sync, key)  # a folder whose encryption.json goes or changes is refused
        self.passphrase = used
        self.passphrase_kept = keep_passphrase(self.secrets, device.id, used) if used else ""
        self._write_device(SyncFolder(folder, codec), device, device.last_sync)
        return device

    def _copied(self, place: SyncFolder, device_id: str) -> bool:
        """Whether another data folder syncs with this device's id: its ``device.json`` says it synced after the
        last sync this data folder made (a backup restored on another computer holds the same id). The file is
        read first, then the database: a sync of this data folder writes the database first, so one ending
        meanwhile never looks like a copy."""
        said = read_device(place.device_dir(device_id) / DEVICE_FILE, place.codec).get("last_sync")
        device = self.sync.device()
        if device is None:
            return False
        try:
            theirs = parse_ts(said) if isinstance(said, str) else None
            ours = parse_ts(device.last_sync) if device.last_sync else None
        except ValueError:
            return False
        return theirs is not None and (ours is None or theirs > ours)

    def record_deletion(self, ids: list[str]) -> None:
        """A message is being deleted here (``MessageDeletion``'s ``on_delete``): its deletion will travel."""
        record_deletion(self.store, self.clock, ids)

    def ready(self) -> tuple[Device, SyncFolder]:
        """This device and its folder, checked (``InputError`` when not set up, gone or not ours)."""
        device = self.sync.device()
        if device is None:
            raise InputError(*NOT_SET_UP)
        folder = _usable(Path(device.folder))
        place = SyncFolder(folder, folder_codec(self.sync, self.secrets, folder, device, self.passphrase))
        if not (place.device_dir(device.id) / DEVICE_FILE).is_file():
            raise InputError(f"The sync folder {folder} does not hold this device's files.",
                             "Is it the right folder, and mounted? `monchat sync setup FOLDER --name NAME` "
                             "writes them again.")
        if self._copied(place, device.id):
            raise InputError("Another monchat syncs as this device (a copy of this data folder, restored from a "
                             "backup?): two computers must not write one device's files.",
                             "Make this one a device of its own: `monchat sync setup FOLDER --name NAME`.")
        return device, place

    def _write_device(self, place: SyncFolder, device: Device, last_sync: str | None = None) -> None:
        info = {"id": device.id, "name": device.name, "created_at": device.created_at, "format": FORMAT,
                "last_sync": last_sync}
        write_device(place.device_dir(device.id) / DEVICE_FILE, info, place.codec)

    # ---- one sync ---------------------------------------------------------------
    def run(self) -> SyncReport:
        """Import what others wrote, carry out deletions, export what this device wrote (idempotent).

        Raises:
            InputError: not set up, or the folder is missing or cannot be written.
            SyncRunning: another sync runs on this data folder.
        """
        with held_lock(self.lock) as held:
            if not held:
                raise SyncRunning("Another monchat sync is running on this data folder.",
                                  "Let it finish; run `monchat sync` again then if it is still needed.")
            device, place = self.ready()  # under the lock: a sync of this folder ending now is no copy's
            return self._run(device, place)

    def _present(self, ids: list[str]) -> set[str]:
        """Which of ``ids`` this data folder holds: archived, or in a log file (off the record too)."""
        logged = self.logbook.ids() | (self.logbook.off_record.ids() if self.logbook.off_record else set())
        return self.archive.known_ids(ids) | (set(ids) & logged)

    def _run(self, device: Device, place: SyncFolder) -> SyncReport:
        report = SyncReport()
        layout = place.scan()
        report.conflicts = [str(p.relative_to(place.folder)) for p in layout.conflicts]
        now = format_ts(self.clock())
        for other in layout.devices.values():  # first the deletions: nothing deleted is imported again
            if other.id != device.id:
                self._read_tombstones(other, place, report)
        try:
            done = carry_out(self.sync, place, device.id, self.delete, self._present)
            report.deletions_applied, report.lines_scrubbed, report.tombstones_written = (
                done.applied, done.scrubbed, done.published)
        except FlushRunning:  # Delete message waits for a flush; nothing deleted is imported meanwhile
            report.deletions_deferred = len(self.sync.tombstones(unwritten=True))
        tombstoned = self.sync.tombstoned()
        for other in layout.devices.values():
            if other.id != device.id:
                for _month, path in sorted(other.journals.items()):
                    self._import(other.id, place, path, tombstoned, report)
        if self.memory is not None:  # after the messages: the decisions cite them
            self._decisions(device, place, layout, report)
        report.repaired = repair(self.sync, place, device.id)
        report.exported = export(self.sync, place, device.id).messages
        remember(self.sync, place, device.id)
        self.sync.set_device(replace(device, last_sync=now))  # here first, then the file: never the file alone
        self._write_device(place, device, now)
        return report

    def _decisions(self, device: Device, place: SyncFolder, layout, report: SyncReport) -> None:
        """Replay the other devices' decisions, then write this device's (``decisions.py``, ``replaying.py``)."""
        clock = hybrid_clock(self.store, device.id, lambda: int(self.clock().timestamp() * 1000))
        done = Replayed()
        for other in layout.devices.values():
            if other.id != device.id:
                read_decisions(self.store, place, other, clock, done)
        apply_decisions(self.store, self.memory, self.archive, self.clock, done)
        report.decisions_read, report.decisions_applied, report.decisions_same = done.read, done.applied, done.same
        report.decisions_waiting, report.conflicts_opened = done.waiting, done.conflicts
        report.decisions_deferred = done.deferred
        report.torn += done.torn
        report.bad_lines += done.bad_lines
        report.refused += done.refused
        written = export_decisions(self.store, place, device.id, clock)
        report.decisions_exported, report.conflicts_decided = written.events, written.conflicts_decided
        report.decisions_scrubbed = scrub_decisions(  # after the export: a memory deleted here is in it
            self.store, place, device.id, bool(report.deletions_applied or report.tombstones_written
                                               or report.lines_scrubbed))

    def _read_tombstones(self, other, place: SyncFolder, report: SyncReport) -> None:
        if not other.tombstones.is_file():
            return
        lines = read_whole_lines(other.tombstones, 0, "", codec=place.codec)
        if lines.torn:
            report.torn.append(str(other.tombstones.relative_to(place.folder)))
        report.bad_lines += lines.bad
        report.refused += lines.refused
        known = self.sync.tombstoned()
        rows = {r["id"]: str(r.get("deleted_at") or "") for r in lines.records
                if isinstance(r.get("id"), str) and r["id"] not in known}
        self.sync.add_deletions(sorted(rows.items()), other.id, written=False)

    def _import(self, origin: str, place: SyncFolder, path: Path, tombstoned: set[str], report: SyncReport) -> None:
        key = str(path.relative_to(place.folder))
        known = self.sync.offset(key) or Offset(0, "")
        lines = read_whole_lines(path, known.offset, known.tail, codec=place.codec)
        if lines.torn:
            report.torn.append(key)
        report.bad_lines += lines.bad
        report.refused += lines.refused
        messages: list[Message] = []
        for record in lines.records:
            try:
                message = Message.from_dict(record)
            except ValueError:
                report.bad_lines += 1
                continue
            if message.id not in tombstoned and not message.off_record:
                messages.append(message)
        if not messages and known == Offset(lines.end, lines.tail):
            return  # nothing new in the file
        with self.store.atomic():  # the messages and how far the file was read: together or not at all
            new = self.archive.archive(messages, self.clock(), origin=origin)
            self.sync.set_offset(key, Offset(lines.end, lines.tail))
        if new:
            report.imported += new
            report.from_devices[origin] = report.from_devices.get(origin, 0) + new


def record_deletion(store: Store, clock: Clock, ids: list[str]) -> None:
    """Messages are being deleted or edited away here: once this monchat syncs, their deletion travels."""
    sync = SyncStore(store)
    device = sync.device()
    if device is not None and ids:
        sync.add_tombstones(ids, device.id, format_ts(clock()), written=False)


def _usable(folder: Path) -> Path:
    """The folder, if it is one this process can write; else a clear error."""
    if not folder.is_dir():
        raise InputError(f"The sync folder {folder} does not exist.",
                         "Create it (or mount the drive), then try again.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"The sync folder {folder} cannot be written.", "Choose a folder you can write to.")
    return folder
