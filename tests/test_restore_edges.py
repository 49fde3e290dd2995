"""Restore and backup at the depths and names their rules are about (issue 44: tests that bite).

Each case here was a mutant no test killed: a rule of ``core/transfer/restore.py`` or ``backup.py`` taken out
(or one name of a list dropped) and every test still passing. A path climbing out of the backup's folder
deeper than ``../evil`` (which the "only data/ and config/" rule refuses by itself), a manifest that leaves
some tables' counts out, and each file a backup never holds — the app's log and each of its rotations, crash
reports, off-the-record files, locks — are checked one by one.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from monchat.core.paths import Paths
from monchat.core.transfer.backup import create_backup
from tests.test_restore_hostile import entries, fill, make_zip, manifest_of, refused, with_manifest


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    home = tmp_path_factory.mktemp("edges") / "home"
    fill(home)
    dest = home.parent / "good.zip"
    create_backup(Paths.from_env(home), dest)
    return dest.read_bytes()


# ---- a path that climbs out: deeper than one level, and refused by the ".." rule alone ------------------
@pytest.mark.parametrize("name", [
    "data/../../evil.txt",  # data/ then out of the folder restored into, and out of its parent
    "data/logs/../../../evil.txt",  # three levels up from a real folder of a backup
    "data/a/../../../evil.txt",  # at the depth limit (6 parts), every part a plain name but ".."
    "data/../evil.txt",  # one level out, three parts
    "config/personas/../../../evil.png",  # from config/, whose own rule would take personas/…
])
def test_an_entry_climbing_out_of_the_folder_at_any_depth_is_refused(good, tmp_path, monkeypatch, capsys, name):
    """Only the ".." rule refuses these: each starts with data/ or config/, is at most 6 parts deep and names
    no file a backup never holds. Without the rule the entry was written above the folder restored into."""
    err = refused(tmp_path, monkeypatch, capsys, make_zip({**entries(good), name: b"planted"}))
    assert "an unexpected entry" in err
    assert not list(tmp_path.rglob("evil*"))


# ---- the manifest states every table's count ----------------------------------------------------------
def count_names(good: bytes) -> list[str]:
    return sorted(manifest_of(good)["counts"])


def test_the_manifest_counts_the_tables_a_restore_checks(good):
    assert {"messages", "memories"} <= set(count_names(good))


@pytest.mark.parametrize("left_out", ["messages", "memories"])
def test_a_manifest_that_leaves_one_tables_count_out_is_refused(good, tmp_path, monkeypatch, capsys, left_out):
    """A manifest is checked against the database table by table: leaving one out is no way around it."""
    manifest = manifest_of(good)
    del manifest["counts"][left_out]
    err = refused(tmp_path, monkeypatch, capsys, with_manifest(good, manifest))
    assert "does not hold what its manifest says" in err


def test_every_count_of_the_manifest_is_needed(good, tmp_path, monkeypatch, capsys):
    """Each table the backup counts, left out in turn (the list above names the ones known today)."""
    for name in count_names(good):
        manifest = manifest_of(good)
        del manifest["counts"][name]
        case = tmp_path / name
        case.mkdir()
        assert "does not hold what its manifest says" in refused(case, monkeypatch, capsys,
                                                                 with_manifest(good, manifest)), name


def test_a_manifest_with_every_count_restores(good, tmp_path, monkeypatch, capsys):
    from monchat.cli import main as cli
    backup = tmp_path / "b.zip"
    backup.write_bytes(good)
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "target"))
    assert cli.main(["restore", str(backup)]) == 0


# ---- what a backup never holds, name by name ------------------------------------------------------------
NEVER_IN_A_BACKUP = [
    "monchat.log", "monchat.log.1", "monchat.log.2", "monchat.log.5",  # the app's log and its rotations
    "crash/crash-2026-12-04.txt",  # crash reports
    "off_record/2026-12-04_18.jsonl",  # off the record: never kept beyond its hours
    "monchat.db-wal", "monchat.db-shm", "monchat.db-journal", "monchat.db.lock",
    "flush.lock", "flush.running",
    "logs/.hidden", "logs/2026-12-04_18.jsonl.tmp",
]


@pytest.mark.parametrize("name", NEVER_IN_A_BACKUP)
def test_a_backup_never_holds_this_file(home, tmp_path, name):
    fill(home, 1)
    planted = home / name
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_bytes(b"SECRET-WORDS of the app's own files\n")
    dest = tmp_path / "out.zip"
    create_backup(Paths.from_env(home), dest)
    with zipfile.ZipFile(dest) as z:
        names = z.namelist()
        held = b"".join(z.read(n) for n in names if n != "data/monchat.db")
    assert f"data/{name}" not in names
    assert b"SECRET-WORDS" not in held
    assert "data/monchat.db" in names and json.loads(z_manifest(dest))["counts"]["messages"] == 1


def z_manifest(dest: Path) -> bytes:
    with zipfile.ZipFile(dest) as z:
        return z.read("monchat-backup.json")


def test_a_log_of_the_users_own_messages_is_held(home, tmp_path):
    """The other side: the chat's log files (logs/…jsonl) are what a backup is for."""
    fill(home, 1)
    log = home / "logs" / "2026-12-04_18.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(b"")
    create_backup(Paths.from_env(home), tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        assert "data/logs/2026-12-04_18.jsonl" in z.namelist()


# ---- each limit of an entry, on both sides of its edge (judged before anything is written) --------------------
def judge(items: dict[str, bytes]) -> str:
    """"" when ``plan_entries`` takes the entries (with a manifest), else why it refuses them."""
    import io

    from monchat.core.errors import InputError
    from monchat.core.transfer.restore import plan_entries
    raw = make_zip({"monchat-backup.json": b"{}", **items})
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            plan_entries(Path("b.zip"), archive)
    except InputError as exc:
        return exc.message
    return ""


def test_an_entry_at_the_depth_limit_is_taken_and_one_deeper_is_not():
    from monchat.core.transfer.restore import MAX_DEPTH
    at = "data/" + "d/" * (MAX_DEPTH - 2) + "x.jsonl"
    assert len(Path(at).parts) == MAX_DEPTH and judge({at: b"{}"}) == ""
    assert f"{MAX_DEPTH + 1} folders deep" in judge({"data/d/" + at[5:]: b"{}"})


def test_a_name_part_of_255_bytes_is_taken_and_one_of_256_is_not():
    assert judge({"data/logs/" + "é" * 127 + "a": b""}) == ""
    assert "longer than a file name can be" in judge({"data/logs/" + "é" * 128: b""})


def test_a_control_character_is_refused_and_a_space_is_not():
    assert judge({"data/logs/a b.jsonl": b""}) == ""
    assert "an unexpected entry" in judge({"data/logs/a\x1fb.jsonl": b""})
    assert "an unexpected entry" in judge({"data/logs/a\\b.jsonl": b""})
    assert "an unexpected entry" in judge({"/data/logs/a.jsonl": b""})
    assert "an unexpected entry" in judge({"data": b""})
    assert "an unexpected entry" in judge({"elsewhere/a.jsonl": b""})


@pytest.mark.parametrize("name, taken", [
    ("config/settings.toml", True), ("config/personas/surface/mira.toml", True), ("config/personas/x.png", True),
    ("config/other.toml", False), ("config/personas", False), ("config/settings.toml/x", False),
    ("data/settings.toml", False), ("data/personas/x.toml", False), ("data/monchat.db/x", False),
    ("data/monchat.db", True), ("data/logs/2026-12-04_18.jsonl", True), ("data/memory.md", True),
])
def test_which_names_a_backup_may_hold(name, taken):
    assert (judge({name: b""}) == "") is taken


def test_a_highly_packed_entry_is_judged_only_above_a_mebibyte():
    from monchat.core.transfer.restore import RATIO_FROM_BYTES
    assert judge({"data/logs/a.jsonl": b"\0" * RATIO_FROM_BYTES}) == ""
    assert "a zip bomb" in judge({"data/logs/a.jsonl": b"\0" * (RATIO_FROM_BYTES + 1)})


def test_a_manifest_of_64_kib_is_read_and_one_byte_more_is_not(good, tmp_path, monkeypatch, capsys):
    from monchat.cli import main as cli
    from monchat.core.transfer.restore import MAX_MANIFEST_BYTES
    text = json.dumps(manifest_of(good)).encode()
    at = text[:-1] + b" " * (MAX_MANIFEST_BYTES - len(text)) + b"}"
    assert len(at) == MAX_MANIFEST_BYTES
    err = refused(tmp_path, monkeypatch, capsys, with_manifest(good, at[:-1] + b" }"))
    assert "more than a manifest ever is" in err
    backup = tmp_path / "ok.zip"
    backup.write_bytes(with_manifest(good, at))
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "fresh"))
    assert cli.main(["restore", str(backup)]) == 0


# ---- a backup copies bytes, and says which file failed -----------------------------------------------------------
def test_a_log_holding_bytes_that_are_not_utf8_is_copied_byte_for_byte(home, tmp_path):
    fill(home, 1)
    raw = b'{"id": "x", "text": "ok"}\n\xff\xfe not UTF-8 \xc3\n'
    log = home / "logs" / "2026-12-04_18.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(raw)
    create_backup(Paths.from_env(home), tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        assert z.read("data/logs/2026-12-04_18.jsonl") == raw


def test_a_damaged_database_is_named_as_the_failure_and_nothing_is_left_beside_the_destination(home, tmp_path):
    from monchat.core.errors import StorageError
    fill(home, 1)
    for extra in home.glob("monchat.db-*"):
        extra.unlink()
    (home / "monchat.db").write_bytes(b"not a database " * 1000)
    out = tmp_path / "backups"
    out.mkdir()
    with pytest.raises(StorageError) as caught:
        create_backup(Paths.from_env(home), out / "b.zip")
    assert f"The database {home / 'monchat.db'} is damaged or unreadable" in caught.value.message
    assert list(out.iterdir()) == []


def test_a_link_in_the_data_folder_to_a_file_elsewhere_is_not_copied(home, tmp_path):
    fill(home, 1)
    outside = tmp_path / "outside-secret.txt"
    outside.write_bytes(b"SECRET-WORDS from outside the data folder")
    (home / "logs").mkdir(exist_ok=True)
    (home / "logs" / "2026-12-04_18.jsonl").symlink_to(outside)
    create_backup(Paths.from_env(home), tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        assert "data/logs/2026-12-04_18.jsonl" not in z.namelist()
        assert not any(b"SECRET-WORDS" in z.read(n) for n in z.namelist())


@pytest.mark.parametrize("inside", ["data", "config"])
def test_a_backup_inside_either_folder_it_copies_is_refused(tmp_path, inside):
    from monchat.core.errors import InputError
    paths = Paths(data_dir=tmp_path / "data", config_dir=tmp_path / "config")
    for folder in (paths.data_dir, paths.config_dir):
        folder.mkdir()
    with pytest.raises(InputError) as caught:
        create_backup(paths, tmp_path / inside / "sub" / "b.zip")
    assert caught.value.message == "A backup cannot be written into the data folder it copies."
    assert caught.value.hint == f"Choose a file outside {paths.data_dir}."
    assert not (tmp_path / inside / "sub").exists()


def test_a_data_folder_without_a_database_is_backed_up_with_its_logs(tmp_path):
    home = tmp_path / "home"
    (home / "logs").mkdir(parents=True)
    (home / "logs" / "2026-12-04_18.jsonl").write_bytes(b"")
    report = create_backup(Paths.from_env(home), tmp_path / "out.zip")
    assert report.counts == {} and report.files == 1
    assert json.loads(z_manifest(tmp_path / "out.zip"))["counts"] == {}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "out.zip"]


def test_a_backup_is_packed_and_counts_every_file_it_holds(home, tmp_path):
    fill(home, 2)
    (home / "settings.toml").write_text("[gate]\nwarn_files = 3\n")
    (home / "personas" / "surface").mkdir(parents=True, exist_ok=True)
    (home / "personas" / "surface" / "mira.toml").write_text('name = "mira"\n')
    (home / "logs").mkdir(exist_ok=True)
    (home / "logs" / "2026-12-04_18.jsonl").write_bytes(b'{"id": "x"}\n' * 200)
    report = create_backup(Paths.from_env(home), tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        infos = [i for i in z.infolist() if i.filename != "monchat-backup.json"]
    assert report.files == len(infos) and {"config/settings.toml", "config/personas/surface/mira.toml"} <= {
        i.filename for i in infos}
    assert {i.compress_type for i in infos} == {zipfile.ZIP_DEFLATED}


def test_a_log_being_appended_to_is_copied_only_once_the_append_is_done(home, tmp_path):
    """The append holds an exclusive lock on the log; the backup reads it under a shared one, so it never copies
    half a line."""
    import fcntl
    import threading
    fill(home, 1)
    log = home / "logs" / "2026-12-04_18.jsonl"
    log.parent.mkdir(exist_ok=True)
    done = threading.Event()
    with open(log, "ab") as appending:
        fcntl.flock(appending.fileno(), fcntl.LOCK_EX)
        appending.write(b'{"id": "half')
        appending.flush()
        backup = threading.Thread(target=lambda: (create_backup(Paths.from_env(home), tmp_path / "out.zip"),
                                                  done.set()))
        backup.start()
        assert not done.wait(0.5), "the backup copied the log while an append held it"
        appending.write(b' a line"}\n')
        appending.flush()
        fcntl.flock(appending.fileno(), fcntl.LOCK_UN)
    backup.join(10)
    assert done.is_set()
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        assert z.read("data/logs/2026-12-04_18.jsonl") == b'{"id": "half a line"}\n'


def test_a_log_a_flush_removes_during_the_backup_is_skipped_and_the_files_after_it_are_copied(home, tmp_path,
                                                                                              monkeypatch):
    from monchat.core.transfer import backup
    fill(home, 1)
    (home / "logs").mkdir(exist_ok=True)
    for name in ("2026-12-04_12.jsonl", "2026-12-04_18.jsonl"):
        (home / "logs" / name).write_bytes(b"{}\n")
    read = backup._read_locked

    def flushed_first(path):
        if path.name == "2026-12-04_12.jsonl":
            path.unlink()  # a flush archived it and removed it just now
        return read(path)

    monkeypatch.setattr(backup, "_read_locked", flushed_first)
    create_backup(Paths.from_env(home), tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as z:
        names = z.namelist()
    assert "data/logs/2026-12-04_12.jsonl" not in names
    assert {"data/logs/2026-12-04_18.jsonl", "data/monchat.db"} <= set(names)


def test_a_restore_says_when_its_backup_was_made(home, tmp_path):
    from datetime import datetime, timezone

    from monchat.core.transfer.restore import restore_backup
    fill(home, 1)
    made = datetime(2026, 12, 4, 18, 30, tzinfo=timezone.utc)
    create_backup(Paths.from_env(home), tmp_path / "out.zip", now=made)
    report = restore_backup(tmp_path / "out.zip", Paths.from_env(tmp_path / "elsewhere"))
    assert report.created_at.startswith("2026-12-04T18:30:00")
    assert report.counts == {"messages": 1, "memories": 0} and report.files >= 1
