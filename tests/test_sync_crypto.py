"""An encrypted sync folder (issue 41, point 7): two data folders through one folder sealed with a passphrase.

Each device is a ``World`` (``tests/test_sync_journal.py``'s helpers). The tests' keyring keeps nothing (the null
keyring, ``tests/conftest.py``): the passphrase comes from setup's argument, kept in the process, or from
``MONCHAT_SYNC_PASSPHRASE``, as on a machine without a keyring.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monchat.core.errors import InputError
from monchat.core.sync.crypto import ENCRYPTION_FILE, WrongPassphrase, open_folder, read_key_file
from monchat.core.sync.folder import SyncFolder, read_device, write_device
from monchat.core.sync.status import sync_status
from tests.fakes.fake_keyring import memory_keyring
from tests.flush.conftest import World, at
from tests.test_sync_journal import archived, chat

WORD = "plumquistbarrow"
PASSPHRASE = "correct horse battery staple"


def device(tmp_path, shared: Path, name: str, passphrase: str | None = PASSPHRASE) -> World:
    world = World(tmp_path / name, start="2026-11-23T20:00:00+09:00")
    world.app.sync.setup(shared, name, passphrase)
    return world


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def holding(folder: Path, *words: str) -> list[tuple[str, str]]:
    return [(path, word) for path, data in snapshot(folder).items() for word in words if word.encode() in data]


def journal(shared: Path, world: World, month: str = "2026-11") -> Path:
    return SyncFolder(shared).journal_file(world.app.sync.device().id, month)


def opened(shared: Path, path: Path) -> list[dict]:
    codec = open_folder(read_key_file(shared), PASSPHRASE)
    return [json.loads(codec.open(line, path)) for line in path.read_bytes().splitlines()]


def test_messages_and_deletions_travel_and_no_byte_of_the_folder_is_readable(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    kept, gone = chat(a, "2026-11-23T21:00:00+09:00", f"my locker word is {WORD}", "sukiyaki tonight")
    theirs, = chat(b, "2026-11-23T22:00:00+09:00", f"and {WORD} again on the guitar")
    for world in (a, b, a):
        world.app.sync.run()
    assert archived(a) == archived(b) and len(archived(a)) == 3
    status = sync_status(a.app.sync)
    assert status.encrypted and [d.name for d in status.devices] == ["desktop"]  # its device.json opened here
    a.clock.now = at("2026-11-24T09:00:00+09:00")
    a.app.messages.delete(kept)
    b.clock.now = at("2026-11-24T10:00:00+09:00")
    assert b.app.sync.run().deletions_applied == 0  # not written yet
    assert a.app.sync.run().tombstones_written == 1
    assert b.app.sync.run().deletions_applied == 1
    assert kept not in archived(b) and set(archived(b)) == {gone, theirs}
    secrets = [WORD, "sukiyaki", "guitar", "laptop", "desktop", kept, gone, theirs, "hana", "2026-11-23"]
    assert holding(shared, *secrets) == []
    names = {Path(p).name for p in snapshot(shared)}
    assert names == {ENCRYPTION_FILE, "device.json", "2026-11.jsonl", "tombstones.jsonl"}


def test_a_wrong_passphrase_is_exit_2_writes_nothing_loses_nothing_and_the_right_one_works(tmp_path, shared,
                                                                                          monkeypatch):
    a = device(tmp_path, shared, "laptop")
    chat(a, "2026-11-23T21:00:00+09:00", "sukiyaki tonight")
    a.app.sync.run()
    before = snapshot(shared)
    b = World(tmp_path / "desktop", start="2026-11-23T20:00:00+09:00")
    with pytest.raises(WrongPassphrase) as wrong:
        b.app.sync.setup(shared, "desktop", "correct horse battery stable")
    assert wrong.value.exit_code == 2 and "does not open" in wrong.value.message
    assert snapshot(shared) == before and b.app.sync.device() is None
    a.app.sync.passphrase = None  # a new process: the passphrase from the environment, and it is wrong
    monkeypatch.setenv("MONCHAT_SYNC_PASSPHRASE", "correct horse battery stable")
    chat(a, "2026-11-23T22:00:00+09:00", "and a second line")
    with pytest.raises(WrongPassphrase):
        a.app.sync.run()
    assert snapshot(shared) == before and len(archived(a)) == 2
    monkeypatch.setenv("MONCHAT_SYNC_PASSPHRASE", PASSPHRASE)
    assert a.app.sync.run().exported == 1
    b.app.sync.setup(shared, "desktop")  # joins with the environment's passphrase
    assert b.app.sync.run().imported == 2 and archived(b) == archived(a)


def test_no_passphrase_anywhere_is_a_clear_error_and_nothing_is_written(tmp_path, shared, monkeypatch):
    a = device(tmp_path, shared, "laptop")
    a.app.sync.run()
    before = snapshot(shared)
    a.app.sync.passphrase = None  # the keyring keeps nothing here, and no MONCHAT_SYNC_PASSPHRASE
    monkeypatch.delenv("MONCHAT_SYNC_PASSPHRASE", raising=False)
    for call in (a.app.sync.run, lambda: sync_status(a.app.sync)):
        with pytest.raises(InputError) as missing:
            call()
        assert missing.value.exit_code == 2 and "no passphrase" in missing.value.message
        assert "MONCHAT_SYNC_PASSPHRASE" in missing.value.hint
    assert snapshot(shared) == before


def test_a_torn_sealed_line_is_read_once_it_is_whole(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    chat(a, "2026-11-23T21:00:00+09:00", "first", "second")
    a.app.sync.run()
    path = journal(shared, a)
    whole = path.read_bytes()
    path.write_bytes(whole[:-20])  # the second line half-synced
    report = b.app.sync.run()
    assert report.imported == 1 and report.torn == [str(path.relative_to(shared))] and not report.refused
    path.write_bytes(whole)
    report = b.app.sync.run()
    assert report.imported == 1 and not report.torn and sorted(archived(b).values()) == ["first", "second"]


def test_a_whole_last_line_that_does_not_open_yet_waits_and_is_read_once_it_does(tmp_path, shared):
    a, b = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "desktop")
    chat(a, "2026-11-23T21:00:00+09:00", "first", "second")
    a.app.sync.run()
    path = journal(shared, a)
    whole = path.read_bytes()
    first = whole.index(b"\n") + 1
    path.write_bytes(whole[:first] + b"A" * (len(whole) - first - 1) + b"\n")  # a sync tool's file, half filled
    report = b.app.sync.run()
    assert report.imported == 1 and report.torn and not report.refused
    path.write_bytes(whole)
    assert b.app.sync.run().imported == 1 and sorted(archived(b).values()) == ["first", "second"]


def test_a_line_moved_from_another_devices_file_is_refused_not_read(tmp_path, shared):
    a, x = device(tmp_path, shared, "laptop"), device(tmp_path, shared, "tablet")
    chat(a, "2026-11-23T21:00:00+09:00", "the laptop's own line")
    moved, = chat(x, "2026-11-23T22:00:00+09:00", f"the tablet's {WORD}")
    a.app.sync.run()
    x.app.sync.run()
    path = journal(shared, a)
    path.write_bytes(journal(shared, x).read_bytes() + path.read_bytes())  # first: a line in the middle
    for name in ("device.json", "journal/2026-11.jsonl"):  # the tablet's own files never reached this folder
        (shared / "monchat" / "devices" / x.app.sync.device().id / name).unlink()
    b = device(tmp_path, shared, "desktop")
    report = b.app.sync.run()
    assert report.refused == 1 and report.imported == 1
    assert moved not in archived(b) and list(archived(b).values()) == ["the laptop's own line"]
    assert a.app.sync.run().repaired == 1  # the laptop writes its own file again, sealed, without the stranger
    assert [line["text"] for line in opened(shared, path)] == ["the laptop's own line"]


def test_a_copy_of_an_encrypted_data_folder_is_found_through_its_sealed_device_file(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    a.app.sync.run()
    folder = SyncFolder(shared, open_folder(read_key_file(shared), PASSPHRASE))
    info = folder.device_dir(a.app.sync.device().id) / "device.json"
    written = read_device(info, folder.codec)
    assert written["name"] == "laptop" and read_device(info) == {}  # sealed: unreadable as plain JSON
    write_device(info, {**written, "last_sync": "2099-01-01T00:00:00+00:00"}, folder.codec)  # a copy synced
    with pytest.raises(InputError) as copied:
        a.app.sync.run()
    assert "Another monchat syncs as this device" in copied.value.message


def test_the_scrub_of_a_deleted_message_removes_its_sealed_line(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    gone, kept = chat(a, "2026-11-23T21:00:00+09:00", f"my locker word is {WORD}", "sukiyaki tonight")
    a.app.sync.run()
    path = journal(shared, a)
    assert [line["id"] for line in opened(shared, path)] == [gone, kept]
    a.app.messages.delete(gone)
    assert a.app.sync.run().lines_scrubbed == 1
    assert [line["id"] for line in opened(shared, path)] == [kept]
    tombstones = path.parent.parent / "tombstones.jsonl"
    assert [line["id"] for line in opened(shared, tombstones)] == [gone]


def test_an_encrypted_folder_refuses_a_plain_device_and_a_plain_folder_refuses_encryption(tmp_path, shared,
                                                                                         monkeypatch):
    monkeypatch.delenv("MONCHAT_SYNC_PASSPHRASE", raising=False)
    device(tmp_path, shared, "laptop")
    plain = World(tmp_path / "desktop", start="2026-11-23T20:00:00+09:00")
    with pytest.raises(InputError) as refused:
        plain.app.sync.setup(shared, "desktop")
    assert refused.value.exit_code == 2 and "is encrypted" in refused.value.message
    assert "--encrypt" in refused.value.hint and plain.app.sync.device() is None
    other = tmp_path / "Plain"
    other.mkdir()
    plain.app.sync.setup(other, "desktop")
    before = snapshot(other)
    late = World(tmp_path / "tablet", start="2026-11-23T20:00:00+09:00")
    with pytest.raises(InputError) as refused:
        late.app.sync.setup(other, "tablet", PASSPHRASE)
    assert "unencrypted files" in refused.value.message and snapshot(other) == before
    with pytest.raises(InputError) as short:
        late.app.sync.setup(tmp_path / "Plain", "tablet", "short")
    assert "at least 8" in short.value.message


def test_a_plain_device_finds_its_folder_encrypted_later_and_writes_nothing(tmp_path, shared):
    plain = device(tmp_path, shared, "desktop", passphrase=None)
    chat(plain, "2026-11-23T21:00:00+09:00", f"my {WORD}")
    device_dir = shared / "monchat" / "devices" / plain.app.sync.device().id
    keep = (device_dir / "device.json").read_bytes()
    (device_dir / "device.json").unlink()
    (device_dir).rmdir()
    device(tmp_path, shared, "laptop")  # encrypts the folder, which looked empty
    (device_dir).mkdir()
    (device_dir / "device.json").write_bytes(keep)  # the plain device's file comes back
    before = snapshot(shared)
    with pytest.raises(InputError) as refused:
        plain.app.sync.run()
    assert "set up to sync without encryption" in refused.value.message and snapshot(shared) == before


def test_an_encrypted_folder_whose_encryption_file_is_gone_gets_no_word_in_clear(tmp_path, shared):
    a = device(tmp_path, shared, "laptop")
    chat(a, "2026-11-23T21:00:00+09:00", f"my {WORD}")
    (shared / "monchat" / ENCRYPTION_FILE).unlink()
    with pytest.raises(InputError) as gone:
        a.app.sync.run()
    assert "is gone" in gone.value.message and holding(shared, WORD) == []
    with pytest.raises(InputError):  # setup again without a passphrase does not turn it off either
        a.app.sync.setup(shared, "laptop")
    assert holding(shared, WORD) == []


@pytest.fixture
def ring():
    """A keyring that keeps what it is given (this process only), through keyring's own ``set_keyring``."""
    with memory_keyring() as kept:
        yield kept


def test_the_passphrase_goes_to_the_keyring_one_a_device_and_to_no_file(tmp_path, shared, ring, monkeypatch):
    monkeypatch.delenv("MONCHAT_SYNC_PASSPHRASE", raising=False)
    a = device(tmp_path, shared, "laptop")
    assert a.app.sync.passphrase_kept == "keyring"
    assert ring.values == {("monchat", f"sync_passphrase/{a.app.sync.device().id}"): PASSPHRASE}
    a.app.sync.passphrase = None  # a new start: read from the keyring
    chat(a, "2026-11-23T21:00:00+09:00", "sukiyaki tonight")
    assert not a.app.sync.needs_passphrase() and a.app.sync.run().exported == 1
    for folder in (shared, tmp_path / "laptop"):
        assert holding(folder, PASSPHRASE) == []
    ring.values.clear()  # the keyring lost it
    assert a.app.sync.needs_passphrase()
