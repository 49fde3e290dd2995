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
from monchat.core.errors import InputError, StorageError, StorageFull
from monchat.core.paths import Paths
from monchat.core.transfer import restore
from monchat.core.transfer.restore import restore_backup
from monchat.core.transfer.backup import create_backup
from tests.test_restore_hostile import (entries, files, fill, make_zip, manifest_of, patched_header, refused, with_db,
                                       with_manifest)


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
    lambda good: with_manifest(good, {**manifest_of(good), "version": 2}),  # refused by its manifest
    lambda good: make_zip({**entries(good), "data/logs/../../evil": b"x"}),  # refused by the zip's directory
], ids=["no database", "other counts", "foreign database", "a future version", "a climbing entry"])
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


# ---- plan_entries (run 2026-12-05): each refusal of the zip's directory names the backup, and cuts a hostile name ------
LONG = "data/logs/" + "n" * 200 + ".jsonl"


def planned(path: Path, raw: bytes) -> str:
    """"" when ``plan_entries`` takes the zip, else its refusal's whole message."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            restore.plan_entries(path, archive)
    except InputError as exc:
        return exc.message
    return ""


@pytest.mark.parametrize("make, why", [
    (lambda good: make_zip({**entries(good), "data/logs/../../evil": b"x"}), "it holds an unexpected entry"),
    (lambda good: patched_header(make_zip({**entries(good), LONG: b"x"}), LONG, flags=0x1),
     f"{LONG[:120]} is encrypted"),
    (lambda good: patched_header(make_zip({**entries(good), LONG: b"x"}, zipfile.ZIP_STORED), LONG, method=6),
     f"{LONG[:120]} is packed with compression method 6"),
    (lambda good: make_zip(list(entries(good).items()) + [(LONG, b"x"), (LONG, b"y")]), f"it holds {LONG[:120]!r} twice"),
    (lambda good: make_zip({**entries(good), "data/logs": b"x", "data/logs/y.jsonl": b"{}"}),
     "it holds a file and a folder of the same name. Nothing was restored."),
], ids=["a climbing entry", "encrypted", "another packing", "twice", "a file and a folder"])
def test_a_refused_entry_names_the_backup_and_at_most_120_characters_of_its_name(good, tmp_path, make, why):
    err = planned(tmp_path / "b.zip", make(good))
    assert err.startswith(f"{tmp_path / 'b.zip'} is not a usable monchat backup: {why}"), err
    assert LONG[:121] not in err


class Directory:
    """A zip's directory as ``plan_entries`` reads it (sizes set by hand: the packed size of an edge case)."""

    def __init__(self, *infos: zipfile.ZipInfo) -> None:
        self.infos = [zipfile.ZipInfo("monchat-backup.json"), *infos]

    def infolist(self) -> list[zipfile.ZipInfo]:
        return self.infos


def packed(name: str, size: int, compressed: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.file_size, info.compress_size, info.compress_type = size, compressed, zipfile.ZIP_DEFLATED
    return info


def test_an_entry_may_unpack_to_exactly_200_times_its_packed_size_and_not_one_byte_more(tmp_path):
    restore.plan_entries(tmp_path / "b.zip", Directory(packed("data/logs/a.jsonl", 200 * 10_000, 10_000)))
    with pytest.raises(InputError) as caught:
        restore.plan_entries(tmp_path / "b.zip", Directory(packed(LONG, 200 * 10_000 + 1, 10_000)))
    assert caught.value.message == (f"{tmp_path / 'b.zip'} is not a usable monchat backup: {LONG[:120]} unpacks to "
                                    "2000001 bytes from 10000 (more than 200 times: a zip bomb). Nothing was "
                                    "restored.")


def test_what_a_backup_unpacks_to_is_the_sum_of_its_entries_bounded_at_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(restore, "MAX_TOTAL_BYTES", 3000)
    plan = restore.plan_entries(tmp_path / "b.zip", Directory(packed("data/a", 1000, 900), packed("data/b", 2000, 900)))
    assert plan.total == 3000
    with pytest.raises(InputError) as caught:
        restore.plan_entries(tmp_path / "b.zip", Directory(packed("data/a", 1001, 900), packed("data/b", 2000, 900)))
    assert caught.value.message == (f"{tmp_path / 'b.zip'} is not a usable monchat backup: it unpacks to 3001 bytes "
                                    "(at most 3000). Nothing was restored.")


@pytest.mark.parametrize("files_held, taken", [(3, True), (4, False)])
def test_a_backup_may_hold_as_many_files_as_the_limit_besides_its_manifest_and_not_one_more(tmp_path, monkeypatch,
                                                                                            files_held, taken):
    monkeypatch.setattr(restore, "MAX_MEMBERS", 3)
    raw = make_zip({"monchat-backup.json": b"{}", **{f"data/logs/{k}.jsonl": b"" for k in range(files_held)}})
    err = planned(tmp_path / "b.zip", raw)
    if taken:
        assert err == ""
    else:
        assert err == (f"{tmp_path / 'b.zip'} is not a usable monchat backup: it holds {files_held + 1} entries (a "
                       "backup holds at most 3). Nothing was restored.")


def test_folder_entries_in_the_zip_are_passed_over_and_every_file_after_them_restored(good, tmp_path):
    """``zip -r`` writes an entry for each folder before its files: none may end the judging or the unpacking."""
    items = {"data/": b"", "data/logs/": b"", "data/logs/2026-12-04_18.jsonl": b"{}\n", "config/": b"",
             **entries(good)}
    (tmp_path / "b.zip").write_bytes(make_zip(items))
    report = restore_backup(tmp_path / "b.zip", Paths.from_env(tmp_path / "home"))
    assert report.files == 2 and report.counts["messages"] == 4
    assert (tmp_path / "home" / "logs" / "2026-12-04_18.jsonl").read_bytes() == b"{}\n"


# ---- where the data and config folders are apart (platformdirs' default), each entry goes to its own -------------
CONFIG_ITEMS = {"config/settings.toml": b"[ui]\nlanguage = \"en\"\n", "config/personas/surface/mira.toml": b"x"}


def test_settings_and_personas_go_to_the_config_folder_and_the_rest_to_the_data_folder(good, tmp_path):
    items = {**entries(good), **CONFIG_ITEMS, "data/logs/2026-12-04_18.jsonl": b"{}\n", "data/memory.md": b"# m\n"}
    (tmp_path / "b.zip").write_bytes(make_zip(items))
    paths = Paths(data_dir=tmp_path / "share" / "monchat", config_dir=tmp_path / "config" / "monchat")
    report = restore_backup(tmp_path / "b.zip", paths)
    assert report.files == 5 and report.data_dir == paths.data_dir
    assert files(paths.config_dir) == {"settings.toml": CONFIG_ITEMS["config/settings.toml"],
                                       "personas/surface/mira.toml": b"x"}
    assert sorted(files(paths.data_dir)) == ["logs/2026-12-04_18.jsonl", "memory.md", "monchat.db"]


# ---- restore_backup ------------------------------------------------------------------------------------------------
def test_without_force_a_restore_refuses_a_folder_that_is_not_empty_and_leaves_it(good, tmp_path):
    """The GUI's restore passes no ``force``: a folder the user picked that holds anything is never replaced."""
    (tmp_path / "b.zip").write_bytes(good)
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_bytes(b"mine")
    with pytest.raises(InputError) as caught:
        restore_backup(tmp_path / "b.zip", Paths.from_env(home))
    assert caught.value.message == f"{home} is not empty; restoring would replace what is there."
    assert caught.value.hint == ("Restore into an empty folder (MONCHAT_HOME=…), or add --force to replace it (quit "
                                 "monchat first).")
    assert files(home) == {"notes.txt": b"mine"}


def test_a_backup_that_is_not_there_or_not_a_zip_says_so(tmp_path):
    paths = Paths.from_env(tmp_path / "home")
    with pytest.raises(InputError) as caught:
        restore_backup(tmp_path / "gone.zip", paths)
    assert (caught.value.message, caught.value.hint) == (f"{tmp_path / 'gone.zip'} does not exist.", "Check the path.")
    (tmp_path / "notes.zip").write_bytes(b"not a zip at all")
    with pytest.raises(InputError) as caught:
        restore_backup(tmp_path / "notes.zip", paths)
    assert caught.value.message == (f"{tmp_path / 'notes.zip'} is not a usable monchat backup: not a zip file (File is "
                                    "not a zip file). Nothing was restored.")
    assert caught.value.hint == ("Choose a file made by `monchat backup` (or File → Back up…); a damaged copy cannot "
                                 "be used.")
    assert not (tmp_path / "home").exists() or files(tmp_path / "home") == {}


def test_the_report_says_what_was_restored_when_the_backup_was_made_and_whether_a_folder_was_replaced(good, tmp_path):
    (tmp_path / "b.zip").write_bytes(make_zip({**entries(good), "data/memory.md": b"# m\n"}))
    home = tmp_path / "deeper" / "home"  # its parent not made yet
    first = restore_backup(tmp_path / "b.zip", Paths.from_env(home))
    assert (first.data_dir, first.files, first.replaced) == (home, 2, False)
    assert first.created_at == manifest_of(good)["created_at"] and first.counts == manifest_of(good)["counts"]
    again = restore_backup(tmp_path / "b.zip", Paths.from_env(home), force=True)
    assert (again.files, again.replaced) == (2, True)
    assert oct((tmp_path / "deeper").stat().st_mode & 0o777) == "0o700"


# ---- read_manifest: each refusal in its words, each limit on both sides of its edge --------------------------------
def manifest_says(tmp_path: Path, manifest) -> str | dict:
    """What ``read_manifest`` makes of a zip holding only ``manifest`` (an object, or bytes as they are)."""
    raw = manifest if isinstance(manifest, bytes) else json.dumps(manifest).encode()
    with zipfile.ZipFile(io.BytesIO(make_zip({"monchat-backup.json": raw}))) as archive:
        try:
            return restore.read_manifest(tmp_path / "b.zip", archive)
        except InputError as exc:
            assert exc.message.startswith(f"{tmp_path / 'b.zip'} is not a usable monchat backup: "), exc.message
            assert exc.message.endswith(". Nothing was restored.")
            return exc.message[len(f"{tmp_path / 'b.zip'} is not a usable monchat backup: "):-len(". Nothing was "
                                                                                                    "restored.")]


OURS = {"format": "monchat-backup", "version": 1}
SHAPE = "its manifest's time or counts are not what a backup writes"


@pytest.mark.parametrize("manifest, why", [
    ([OURS], "its manifest is not a monchat backup's"),
    ({**OURS, "format": "monchat-backup2"}, "its manifest is not a monchat backup's"),
    ({"version": 1}, "its manifest is not a monchat backup's"),
    ({**OURS, "version": 0}, "it is format version 0; this monchat reads up to 1"),
    ({**OURS, "version": 2}, "it is format version 2; this monchat reads up to 1"),
    ({**OURS, "version": True}, "it is format version True; this monchat reads up to 1"),
    ({**OURS, "version": "1"}, "it is format version '1'; this monchat reads up to 1"),
    ({**OURS, "version": 10**18}, f"it is format version {10**18}; this monchat reads up to 1"),  # 19 digits: shown
    ({**OURS, "version": 10**19}, "it is format version unknown; this monchat reads up to 1"),  # 20: not
    ({**OURS, "version": 1.0}, "it is format version unknown; this monchat reads up to 1"),
    ({"format": "monchat-backup"}, "it is format version unknown; this monchat reads up to 1"),
    ({**OURS, "created_at": "x" * 65}, SHAPE),
    ({**OURS, "created_at": 2026}, SHAPE),
    ({**OURS, "counts": []}, SHAPE),
    ({**OURS, "counts": {"messages": -1}}, SHAPE),
    ({**OURS, "counts": {"messages": 10**12 + 1}}, SHAPE),
    ({**OURS, "counts": {"messages": True}}, SHAPE),
    ({**OURS, "counts": {"messages": 1.0}}, SHAPE),
    ({**OURS, "counts": {"messages": 4, "memories": "4"}}, SHAPE),
])
def test_a_manifest_not_of_our_shape_is_refused_in_words_that_say_why(tmp_path, manifest, why):
    assert manifest_says(tmp_path, manifest) == why


@pytest.mark.parametrize("manifest", [
    OURS,
    {**OURS, "created_at": "x" * 64, "counts": {"messages": 0, "memories": 10**12}},
    {**OURS, "counts": {}},
])
def test_a_manifest_at_each_edge_of_its_shape_is_read(tmp_path, manifest):
    assert manifest_says(tmp_path, manifest) == manifest


def test_a_zip_without_a_manifest_says_so(tmp_path):
    with zipfile.ZipFile(io.BytesIO(make_zip({"data/memory.md": b"# m\n"}))) as archive:
        with pytest.raises(InputError) as caught:
            restore.read_manifest(tmp_path / "b.zip", archive)
    assert caught.value.message == (f"{tmp_path / 'b.zip'} is not a usable monchat backup: it has no manifest. "
                                    "Nothing was restored.")


def test_a_manifest_too_large_says_its_size(tmp_path):
    assert manifest_says(tmp_path, b" " * (restore.MAX_MANIFEST_BYTES + 1)) == \
        f"its manifest is {restore.MAX_MANIFEST_BYTES + 1} bytes, more than a manifest ever is"


def test_a_manifest_that_is_not_json_shows_the_first_80_characters_of_why(tmp_path):
    raw = b"{" + b"\n" * 1000 + b"x"
    try:
        json.loads(raw)
    except ValueError as exc:
        why = str(exc)
    assert len(why) > 80
    assert manifest_says(tmp_path, raw) == f"its manifest is not plain JSON ({why[:80]})"
    assert manifest_says(tmp_path, b'{"format": "monchat-backup", "version": -Infinity}') == \
        "its manifest is not plain JSON (-Infinity is not a number JSON allows)"
    assert manifest_says(tmp_path, b"[" * 60_000) == "its manifest is nested too deeply"


def test_a_damaged_manifest_says_so(tmp_path):
    raw = bytearray(make_zip({"monchat-backup.json": json.dumps(OURS).encode() * 10}))
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo("monchat-backup.json")
    raw[info.header_offset + 30 + len(info.filename)] = 0xFF  # deflate block type 3
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        with pytest.raises(InputError) as caught:
            restore.read_manifest(tmp_path / "b.zip", archive)
    assert caught.value.message.startswith(f"{tmp_path / 'b.zip'} is not a usable monchat backup: its manifest is "
                                           "damaged (Error -3 while decompressing data")


def test_a_manifest_without_a_time_reports_none_not_a_word(good, tmp_path):
    manifest = manifest_of(good)
    del manifest["created_at"]
    (tmp_path / "b.zip").write_bytes(with_manifest(good, manifest))
    assert restore_backup(tmp_path / "b.zip", Paths.from_env(tmp_path / "home")).created_at == ""


def test_the_hidden_copies_are_made_beside_each_folder_under_the_name_recovery_looks_for(good, tmp_path, monkeypatch):
    """A copy elsewhere (the system's temp folder) may be on another disk, and one a kill leaves would never be found
    again by ``swap.recover_locked``, which looks for ``.NAME-restore-*`` beside the folder."""
    staged: list[Path] = []
    real = restore.swap_in
    monkeypatch.setattr(restore, "swap_in", lambda paths, stages: staged.extend(stages.values()) or real(paths, stages))
    (tmp_path / "b.zip").write_bytes(make_zip({**entries(good), **CONFIG_ITEMS}))
    paths = Paths(data_dir=tmp_path / "share" / "monchat", config_dir=tmp_path / "config" / "monchat")
    restore_backup(tmp_path / "b.zip", paths)
    assert [(p.parent, p.name.startswith(".monchat-restore-")) for p in staged] == [(tmp_path / "share", True),
                                                                                    (tmp_path / "config", True)]


def test_too_little_room_for_a_restore_names_the_backup(good, tmp_path, monkeypatch):
    (tmp_path / "b.zip").write_bytes(good)
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: shutil._ntuple_diskusage(10**9, 10**9, 0))
    with pytest.raises(StorageFull) as caught:
        restore_backup(tmp_path / "b.zip", Paths.from_env(tmp_path / "home"))
    assert caught.value.message.startswith(f"There is no room to restore {tmp_path / 'b.zip'} into {tmp_path}: ")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_a_disk_that_fills_while_unpacking_is_a_full_disk_for_the_restore_and_leaves_nothing(good, tmp_path,
                                                                                            monkeypatch, code):
    def full(fd, data):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(restore, "write_all", full)
    (tmp_path / "b.zip").write_bytes(good)
    home = tmp_path / "home"
    with pytest.raises(StorageFull) as caught:
        restore_backup(tmp_path / "b.zip", Paths.from_env(home))
    assert caught.value.message.startswith(f"There is no room to restore {tmp_path / 'b.zip'} into {tmp_path} (the "
                                           "disk is full")
    assert files(home) == {} and [p.name for p in tmp_path.iterdir()] == ["b.zip"]


def test_an_error_while_unpacking_that_is_not_the_disks_is_left_as_it_is(good, tmp_path, monkeypatch):
    def odd(fd, data):
        raise OSError(errno.EINVAL, "odd")

    monkeypatch.setattr(restore, "write_all", odd)
    (tmp_path / "b.zip").write_bytes(good)
    with pytest.raises(OSError) as caught:
        restore_backup(tmp_path / "b.zip", Paths.from_env(tmp_path / "home"))
    assert type(caught.value) is OSError and caught.value.errno == errno.EINVAL
    assert [p.name for p in tmp_path.iterdir()] == ["b.zip"]


def test_a_reason_ending_in_a_full_stop_is_not_given_two():
    assert restore._not_a_backup(Path("b.zip"), "  it is odd.").message == \
        "b.zip is not a usable monchat backup:   it is odd. Nothing was restored."


@pytest.mark.parametrize("flags", [0x1, 0x20, 0x40], ids=["encrypted", "patched data", "strong encryption"])
def test_each_flag_a_backup_never_sets_is_refused(good, tmp_path, flags):
    """Found by a hand-written probe after the mutmut runs (2026-12-05): ``& 0x61`` made ``& 0x01`` passed every test."""
    raw = patched_header(good, "data/monchat.db", flags=flags)
    assert planned(tmp_path / "b.zip", raw) == (f"{tmp_path / 'b.zip'} is not a usable monchat backup: data/monchat.db "
                                                "is encrypted. Nothing was restored.")
