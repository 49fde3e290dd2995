"""Backup: what a user relies on that the mutmut run of ``core/transfer/backup.py`` found unpinned (issue 44).

Each test was seen failing with the mutant it names in ``docs/testing.md`` ("Mutation testing per guarantee
module"): every name a backup leaves out, one by one; what a backup that fails part way leaves beside its
destination (nothing) and says (the destination without room, the locked database, the file that failed),
in process, where ``tests/test_backup_faults.py`` needs a child process with a file-size limit.
"""

from __future__ import annotations

import errno
import json
import sqlite3
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from monchat.core.errors import StorageError, StorageFull, StorageLocked
from monchat.core.paths import Paths
from monchat.core.transfer import backup
from monchat.core.transfer.backup import LEFT_OUT, SKIP_NAMES, create_backup, skipped_in_backup
from tests.test_restore_hostile import fill


# ---- every name a backup leaves out, one test per name ----------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SKIP_NAMES))
def test_each_name_of_the_list_is_left_out_at_the_top_of_the_data_folder(name):
    assert skipped_in_backup(PurePosixPath(name))
    assert skipped_in_backup(PurePosixPath(name, "inside.txt"))  # a folder of that name, whole


@pytest.mark.parametrize("name", ["monchat.log", "monchat.log.1", "monchat.log.2", "monchat.log.10",
                                  ".hidden", "logs/.x.jsonl", "logs/2026-12-04_18.jsonl.tmp", "x.tmp"])
def test_the_apps_log_its_rotations_hidden_and_temp_files_are_left_out(name):
    assert skipped_in_backup(PurePosixPath(name))


@pytest.mark.parametrize("name", ["logs/2026-12-04_18.jsonl", "memory.md", "settings.toml", "personas/surface/a.toml",
                                  "logs/crash/x.jsonl", "logs/monchat.log", "logs/flush.lock", "crashes.txt",
                                  "logs/a.tmp.jsonl", "logs/a.b"])
def test_the_users_own_files_are_kept_even_when_a_part_of_their_name_is_on_the_list(name):
    """Only the first part of the path is compared with the list (a log named like a lock inside logs/ is the
    user's); a dot or ``.tmp`` is judged on the file's own name."""
    assert not skipped_in_backup(PurePosixPath(name))


def test_the_sync_lock_is_never_in_a_backup(home, tmp_path):
    """``sync.lock`` was the one name of the list no backup test planted (tests/test_restore_edges.py)."""
    fill(home, 1)
    (home / "sync.lock").write_bytes(b"SECRET-WORDS 12345\n")
    create_backup(Paths.from_env(home), tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        assert "data/sync.lock" not in z.namelist()
        assert not any(b"SECRET-WORDS" in z.read(n) for n in z.namelist())


def test_the_manifest_names_what_is_left_out_and_the_report_only_what_was_there(home, tmp_path):
    fill(home, 1)
    report = create_backup(Paths.from_env(home), tmp_path / "none.zip")
    assert report.left_out == []
    for name in LEFT_OUT:
        (home / name).mkdir()
        (home / name / "weights.gguf").write_bytes(b"GGUF" + b"\0" * 64)
    report = create_backup(Paths.from_env(home), tmp_path / "out.zip")
    assert report.left_out == [f"data/{name}/" for name in LEFT_OUT] == ["data/models/"]
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        manifest = json.loads(z.read("monchat-backup.json"))
        assert not [n for n in z.namelist() if n.startswith("data/models")]
    assert manifest["left_out"] == ["data/models/"] and manifest["format"] == "monchat-backup"
    assert manifest["version"] == 1


# ---- a backup that fails part way: nothing beside the destination, the earlier backup untouched ------------------
def failing_at_counts(monkeypatch, exc: BaseException) -> None:
    """The database's copy is made, the zip half written: then ``exc`` (the disk, the database, a Ctrl-C)."""
    def counts(path):
        assert Path(path).exists() and Path(path).name.startswith(".b.zip-db.")  # the copy is there to remove
        raise exc

    monkeypatch.setattr(backup, "counts", counts)


@pytest.fixture
def earlier(home, tmp_path):
    """A data folder and an earlier backup at the destination ``tmp_path/out/b.zip``."""
    fill(home, 1)
    (home / "logs").mkdir(exist_ok=True)
    (home / "logs" / "2026-12-04_18.jsonl").write_bytes(b'{"id": "x"}\n')
    dest = tmp_path / "out" / "b.zip"
    dest.parent.mkdir()
    dest.write_bytes(b"the earlier backup")
    return dest


def left_beside(dest: Path) -> list[str]:
    return sorted(p.name for p in dest.parent.iterdir())


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG, errno.EDQUOT])
def test_a_full_disk_names_the_backup_and_leaves_nothing_beside_it(home, earlier, monkeypatch, code):
    failing_at_counts(monkeypatch, OSError(code, "No space left on device"))
    with pytest.raises(StorageFull) as caught:
        create_backup(Paths.from_env(home), earlier)
    assert caught.value.message == (
        f"There is no room to write the backup {earlier} (the disk is full or a file-size limit was reached); "
        "nothing was written, and an earlier backup there is untouched.")
    assert caught.value.hint == "Free some disk space, or back up to another disk, then try again."
    assert left_beside(earlier) == ["b.zip"] and earlier.read_bytes() == b"the earlier backup"


def test_a_full_disk_while_a_file_is_written_still_names_the_backup_not_that_file(home, earlier, monkeypatch):
    failing_at_counts(monkeypatch, OSError(errno.ENOSPC, "No space left on device", str(home / "x")))
    with pytest.raises(StorageFull) as caught:
        create_backup(Paths.from_env(home), earlier)
    assert f"the backup {earlier} " in caught.value.message and str(home / "x") not in caught.value.message


def test_a_disk_error_on_one_file_names_that_file(home, earlier, monkeypatch):
    failing = home / "logs" / "2026-12-04_18.jsonl"
    failing_at_counts(monkeypatch, OSError(errno.EIO, "Input/output error", str(failing)))
    with pytest.raises(StorageError) as caught:
        create_backup(Paths.from_env(home), earlier)
    assert caught.value.message == f"The disk reported an input/output error on {failing}."
    assert left_beside(earlier) == ["b.zip"]


def test_a_disk_error_naming_no_file_names_the_backup(home, earlier, monkeypatch):
    failing_at_counts(monkeypatch, OSError(errno.EIO, "Input/output error"))
    with pytest.raises(StorageError) as caught:
        create_backup(Paths.from_env(home), earlier)
    assert caught.value.message == f"The disk reported an input/output error on {earlier}."


def test_a_database_error_names_the_database(home, earlier, monkeypatch):
    failing_at_counts(monkeypatch, sqlite3.OperationalError("database is locked"))
    with pytest.raises(StorageLocked) as caught:
        create_backup(Paths.from_env(home), earlier)
    assert caught.value.message == f"The database {home / 'monchat.db'} is locked by another program."
    assert left_beside(earlier) == ["b.zip"] and earlier.read_bytes() == b"the earlier backup"


def test_an_error_that_is_not_the_disks_is_raised_as_it_is_and_leaves_nothing(home, earlier, monkeypatch):
    error = OSError(errno.EINVAL, "Invalid argument")
    failing_at_counts(monkeypatch, error)
    with pytest.raises(OSError) as caught:
        create_backup(Paths.from_env(home), earlier)
    assert caught.value is error
    assert left_beside(earlier) == ["b.zip"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), RuntimeError("a bug of ours")])
def test_a_backup_stopped_part_way_leaves_nothing_and_the_earlier_backup_untouched(home, earlier, monkeypatch, stop):
    failing_at_counts(monkeypatch, stop)
    with pytest.raises(type(stop)):
        create_backup(Paths.from_env(home), earlier)
    assert left_beside(earlier) == ["b.zip"] and earlier.read_bytes() == b"the earlier backup"


def test_a_finished_backup_leaves_only_itself_beside_its_destination(home, earlier):
    report = create_backup(Paths.from_env(home), earlier)
    assert left_beside(earlier) == ["b.zip"] and report.path == earlier
    assert zipfile.is_zipfile(earlier)


# ---- the config folder's entries, one by one -------------------------------------------------------------------
@pytest.mark.parametrize("entry, files", [("settings.toml", ["settings.toml"]),
                                          ("personas", ["personas/surface/mira.toml", "personas/deep/a/b.toml"])])
def test_each_entry_of_the_config_folder_is_in_the_backup_once_under_config(tmp_path, entry, files):
    """The platform's own folders (config apart from data) and MONCHAT_HOME (one folder): either way each config
    entry is in the backup, under ``config/`` only; nothing else of the config folder is."""
    for paths in (Paths(data_dir=tmp_path / "data", config_dir=tmp_path / "config"), Paths.from_env(tmp_path / "one")):
        for rel in files:
            (paths.config_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            (paths.config_dir / rel).write_text(f"# {rel}\n")
        (paths.config_dir / "notes.txt").write_text("not monchat's\n")
        paths.data_dir.mkdir(exist_ok=True)
        dest = tmp_path / f"{paths.config_dir.name}.zip"
        report = create_backup(paths, dest)
        with zipfile.ZipFile(dest) as z:
            names = set(z.namelist())
            assert {f"config/{rel}" for rel in files} <= names
            assert all(z.read(f"config/{rel}") == f"# {rel}\n".encode() for rel in files)
        assert not {f"data/{rel}" for rel in files} & names and "config/notes.txt" not in names
        assert report.files == len(names) - 1  # all but the manifest (one folder: notes.txt is the data folder's)


# ---- what a killed backup left, the next one removes (in process; tests/test_backup_faults.py kills one) -----------
def test_the_temp_files_of_a_killed_backup_are_removed_by_the_next_one_and_a_running_ones_are_kept(home, tmp_path):
    """Found by a hand-written probe after the mutmut runs: either ``remove_stale_temps`` taken out passed every fast
    test. Process 1 is alive; a pid past ``pid_max`` never is."""
    fill(home, 1)
    dest = tmp_path / "out" / "b.zip"
    dest.parent.mkdir()
    gone, alive = 4_194_305, 1  # above Linux's largest pid_max (2**22): no such process
    left = [f".b.zip.{gone}.tmp", f".b.zip-db.{gone}.tmp"]
    running = [f".b.zip.{alive}.tmp", f".b.zip-db.{alive}.tmp", ".other.zip.4194305.tmp"]
    for name in left + running:
        (dest.parent / name).write_bytes(b"half a backup")
    create_backup(Paths.from_env(home), dest)
    assert left_beside(dest) == sorted(["b.zip", *running])
