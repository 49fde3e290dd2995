"""Restore: what a user relies on that the mutmut run of ``core/transfer/restore.py`` found unpinned (issue 44).

Each test was seen failing with the mutant it names in ``docs/testing.md`` ("Mutation testing per guarantee
module"): a refusal that names the backup it refused, a manifest without counts, the restored files private,
an entry streamed and never held whole, a hostile name shown cut, the disk's margin on each side of its edge,
and a full disk worded for the restore.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.core.errors import StorageError, StorageFull
from monchat.core.paths import Paths
from monchat.core.transfer import restore
from monchat.core.transfer.restore import restore_backup
from monchat.core.transfer.backup import create_backup
from tests.test_restore_hostile import entries, fill, make_zip, manifest_of, refused, with_db, with_manifest


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    home = tmp_path_factory.mktemp("kills") / "home"
    fill(home)
    dest = home.parent / "good.zip"
    create_backup(Paths.from_env(home), dest)
    return dest.read_bytes()


def without_database(good: bytes) -> bytes:
    items = entries(good)
    del items["data/monchat.db"]
    return make_zip(items)


def other_counts(good: bytes) -> bytes:
    manifest = manifest_of(good)
    manifest["counts"]["messages"] += 1
    return with_manifest(good, manifest)


# ---- a refusal names the file it refused -------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    without_database,  # no database though the manifest counts messages
    other_counts,  # the database holds other counts than the manifest
    "foreign",  # a database this monchat's migrations do not make
], ids=["no database", "other counts", "foreign database"])
def test_a_refused_backup_is_named_in_the_refusal(good, tmp_path, monkeypatch, capsys, make):
    raw = with_db(good, tmp_path, "CREATE TABLE planted(x);") if make == "foreign" else make(good)
    err = refused(tmp_path, monkeypatch, capsys, raw)
    assert f"{tmp_path / 'hostile.zip'} is not a usable monchat backup" in err


# ---- a manifest without counts: a clear refusal (exit 2) when there is a database, a restore when there is none --
def test_a_manifest_without_counts_over_a_database_is_refused(good, tmp_path, monkeypatch, capsys):
    manifest = manifest_of(good)
    del manifest["counts"]
    assert "does not hold what its manifest says" in refused(tmp_path, monkeypatch, capsys,
                                                             with_manifest(good, manifest))


def test_a_backup_without_database_or_counts_restores(good, tmp_path):
    items = entries(good)
    del items["data/monchat.db"]
    manifest = manifest_of(good)
    del manifest["counts"]
    items["monchat-backup.json"] = json.dumps(manifest).encode()
    (tmp_path / "b.zip").write_bytes(make_zip(items))
    report = restore_backup(tmp_path / "b.zip", Paths.from_env(tmp_path / "home"))
    assert report.counts == {} and report.files == len(items) - 1


# ---- what a restore writes is private ----------------------------------------------------------------------
def test_every_restored_file_is_readable_by_its_owner_only(good, tmp_path):
    (tmp_path / "b.zip").write_bytes(good)
    home = tmp_path / "home"
    restore_backup(tmp_path / "b.zip", Paths.from_env(home))
    modes = {str(p.relative_to(home)): oct(p.stat().st_mode & 0o777) for p in home.rglob("*") if p.is_file()}
    assert modes and set(modes.values()) == {"0o600"}, modes


# ---- an entry is streamed, never held whole ------------------------------------------------------------------
def test_a_large_entry_is_unpacked_in_pieces_never_held_whole(good, tmp_path):
    big = os.urandom(8 * 2**20).hex().encode()  # 16 MiB, packs about 2x: no zip bomb
    (tmp_path / "b.zip").write_bytes(make_zip({**entries(good), "data/logs/big.jsonl": big}))
    tracemalloc.start()
    try:
        restore_backup(tmp_path / "b.zip", Paths.from_env(tmp_path / "home"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (tmp_path / "home" / "logs" / "big.jsonl").stat().st_size == len(big)
    assert peak < len(big) // 2, f"peak {peak} bytes for a {len(big)}-byte entry"  # streamed: some 5 MB


# ---- a hostile name is shown cut ----------------------------------------------------------------------------------
def test_a_damaged_entry_is_named_by_its_first_120_characters_only(good, tmp_path, monkeypatch, capsys):
    name = "data/" + "n" * 200 + ".bin"
    raw = bytearray(make_zip({**entries(good), name: b"A" * 4000}))
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo(name)
    raw[info.header_offset + 30 + len(name.encode())] = 0xFF  # deflate block type 3: zlib's error names no file
    err = refused(tmp_path, monkeypatch, capsys, bytes(raw))
    assert f"{tmp_path / 'hostile.zip'} is not a usable monchat backup: {name[:120]} is damaged" in err
    assert name[:121] not in err


# ---- room on the disk: what it unpacks to, plus 1 MiB ------------------------------------------------------------
@pytest.mark.parametrize("free, fits", [(10**12 + 2**20, True), (10**12 + 2**20 - 1, False)])
def test_a_restore_needs_room_for_what_it_unpacks_and_one_mib_more(tmp_path, monkeypatch, free, fits):
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: shutil._ntuple_diskusage(10**13, 10**13 - free, free))
    if fits:
        restore._check_room(tmp_path / "b.zip", tmp_path, 10**12)
        return
    with pytest.raises(StorageFull) as caught:
        restore._check_room(tmp_path / "b.zip", tmp_path, 10**12)
    assert caught.value.message == (f"There is no room to restore {tmp_path / 'b.zip'} into {tmp_path}: it unpacks "
                                    "to 1000000.0 MB and 1000001.0 MB are free. Nothing was restored.")
    assert caught.value.hint == "Free some disk space, or restore into a folder on another disk (MONCHAT_HOME=…)."


# ---- a disk error while unpacking is worded for the restore, never with the hidden copy's path ------------------
def test_a_full_disk_while_unpacking_says_so_for_the_restore(tmp_path):
    paths = Paths.from_env(tmp_path / "home")
    hidden = tmp_path / ".home-restore-x" / "logs" / "a.jsonl"
    error = restore._restore_error(OSError(errno.ENOSPC, "No space left on device", str(hidden)), Path("b.zip"),
                                   paths)
    assert isinstance(error, StorageFull)
    assert error.message == (f"There is no room to restore b.zip into {tmp_path} (the disk is full or a file-size "
                             "limit was reached). Nothing was restored.")
    assert error.hint == "Free some disk space, or restore into a folder on another disk (MONCHAT_HOME=…)."


@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO])
def test_another_disk_error_while_unpacking_names_the_folder_not_the_hidden_copy(tmp_path, code):
    paths = Paths.from_env(tmp_path / "home")
    hidden = tmp_path / ".home-restore-x" / "logs" / "a.jsonl"
    error = restore._restore_error(OSError(code, "refused", str(hidden)), Path("b.zip"), paths)
    assert isinstance(error, StorageError) and not isinstance(error, StorageFull)
    assert str(tmp_path) in error.message and ".home-restore-x" not in error.message


def test_an_error_that_is_not_the_disks_is_left_as_it_is(tmp_path):
    assert restore._restore_error(OSError(errno.EINVAL, "bad"), Path("b.zip"), Paths.from_env(tmp_path)) is None


# ---- each refusal of an entry says which rule refused it, and names the entry ----------------------------------
@pytest.mark.parametrize("name, why", [
    ("/etc/evil", "an unexpected entry"),  # an absolute path
    ("data/x\\..\\evil", "an unexpected entry"),  # a backslash
    ("config/other.toml", "an unexpected entry"),  # config/ holds settings.toml and personas/ only
    ("data/" + "n" * 256, "an entry whose name is longer than a file name can be"),
    ("data/monchat.log.1", "a file a backup never holds"),
    ("data/monchat.db/inside", "a file a backup never holds"),  # a folder named as the database, one level in
])
def test_a_refused_entry_is_named_with_the_rule_that_refused_it(good, tmp_path, monkeypatch, capsys, name, why):
    items = entries(good)
    if name.startswith("data/monchat.db/"):
        del items["data/monchat.db"]
        manifest = manifest_of(good)
        manifest["counts"] = {}
        items["monchat-backup.json"] = json.dumps(manifest).encode()
    err = refused(tmp_path, monkeypatch, capsys, make_zip({**items, name: b"planted"}))
    assert f"it holds {why} ({name[:120]!r})" in err


# ---- a damaged search index whose structure record claims a huge size (found while measuring, 2026-12-04) --------
def test_a_search_index_whose_damage_reads_as_out_of_memory_is_rebuilt_not_an_internal_error(tmp_path, monkeypatch,
                                                                                              capsys):
    """These 21 bytes as the index's structure record make FTS5 answer SQLITE_NOMEM to 'rebuild' (Python's
    MemoryError): the restore exited 70 ("internal error") about one run in 30 of the random-block test."""
    import sqlite3

    from tests.test_restore_search_index import backup_with, found

    def structure(conn):
        conn.execute("UPDATE messages_fts_data SET block = ? WHERE id = 10",
                     [bytes.fromhex("26341adf776c0652eabbf603d8f01647183de1cb8e")])

    bad = backup_with(tmp_path, monkeypatch, structure)
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    capsys.readouterr()
    assert cli.main(["restore", str(bad)]) == 0
    assert sorted(found(capsys, "message")) == [f"message {k}" for k in range(4)]
    conn = sqlite3.connect(tmp_path / "home" / "monchat.db")
    try:
        conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)")
    finally:
        conn.close()
