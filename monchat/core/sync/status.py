"""``monchat sync status``: this device, the others and when each last wrote, deletions still waiting, conflict
copies found, the folder's size. Reads the folder; writes nothing.

A deletion waits on a device that has not synced since it was made: its ``device.json`` says it last synced
before the deletion (or never), or its journal still holds the message's line. A deletion of this device's own
not yet written to the folder waits on this device.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime

from ..store.sync_events import SyncEvents
from ..types import parse_ts
from .folder import PLAIN, Codec, DeviceFiles, opened_bytes
from .service import SyncService


@dataclass
class OtherDevice:
    id: str
    name: str
    last_write: str | None  # the end of its last sync, as it wrote it (None: never synced)


@dataclass
class Waiting:
    id: str  # the deleted message
    deleted_at: str
    device: str  # the device that deleted it
    waiting_on: list[str]  # ids of devices that have not carried it out yet


@dataclass
class SyncStatus:
    device: dict  # {id, name}
    folder: str
    devices: list[OtherDevice] = field(default_factory=list)
    deletions_waiting: list[Waiting] = field(default_factory=list)
    conflict_copies: list[str] = field(default_factory=list)  # relative to the folder; never read
    folder_size: int = 0  # bytes under <FOLDER>/monchat
    encrypted: bool = False  # the folder's files are sealed with a passphrase (core/sync/crypto.py)
    decisions_waiting: int = 0  # other devices' decisions waiting here for the messages they cite
    conflicts_open: int = 0  # review items holding two devices' versions of one memory (core/sync/replaying.py)

    def as_dict(self) -> dict:
        return asdict(self)


def _when(text: str | None) -> datetime | None:
    try:
        return parse_ts(text) if text else None
    except ValueError:
        return None


def _journal_bytes(files: DeviceFiles, codec: Codec = PLAIN) -> bytes:
    chunks = []
    for path in files.journals.values():
        try:
            chunks.append(opened_bytes(path, codec))
        except OSError:
            continue
    return b"".join(chunks)


def sync_status(service: SyncService) -> SyncStatus:
    """Raises ``InputError`` when this monchat is not set up or its folder is gone (as ``run`` does)."""
    device, place = service.ready()
    layout = place.scan()
    status = SyncStatus({"id": device.id, "name": device.name}, device.folder,
                        conflict_copies=[str(p.relative_to(place.folder)) for p in layout.conflicts],
                        folder_size=layout.size, encrypted=place.codec.encrypted)
    events = SyncEvents(service.store)
    status.decisions_waiting, status.conflicts_open = events.counts().get("new", 0), events.open_conflicts()
    others = [d for d in layout.devices.values() if d.id != device.id]
    for other in others:
        status.devices.append(OtherDevice(other.id, str(other.info.get("name") or ""),
                                          other.info.get("last_sync") or None))
    journals = {other.id: _journal_bytes(other, place.codec) for other in others}
    for tombstone in service.sync.tombstones():
        at = _when(tombstone.deleted_at)
        waiting = [] if tombstone.written else [device.id]
        for other in others:
            if other.id == tombstone.device:
                continue
            synced = _when(other.info.get("last_sync"))
            if synced is None or (at is not None and synced < at) \
                    or tombstone.message_id.encode() in journals[other.id]:
                waiting.append(other.id)
        if waiting:
            status.deletions_waiting.append(Waiting(tombstone.message_id, tombstone.deleted_at, tombstone.device,
                                                    waiting))
    return status
