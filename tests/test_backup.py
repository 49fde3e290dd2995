"""One-file backup and restore of the data folder: consistent while another connection writes, whole or nothing."""

from __future__ import annotations

import io
import json
import threading
import zipfile
from datetime import datetime, timezone

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.transfer.backup import create_backup
from monchat.core.transfer.restore import restore_backup
from monchat.core.errors import InputError
from monchat.core.paths import Paths
from monchat.core.store.db import Store
from monchat.core.store.messages import MessageArchive
from monchat.core.types import Message, format_ts
from tests.gui.flush_script import item_answer
from tests.support.scripted import ScriptedBackend

NO_ITEMS = '{"items": []}'  # a chat reply and an empty filter answer alike

UTC = timezone.utc


def state(capsys, home, monkeypatch) -> dict:
    """What a user would compare: every message, the memories, settings, personas, log files."""
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    capsys.readouterr()
    assert cli.main(["export", "--jsonl"]) == 0
    messages = capsys.readouterr().out
    assert cli.main(["memory", "list", "--json"]) == 0
    memories = json.loads(capsys.readouterr().out)
    files = {str(p.relative_to(home)): p.read_bytes() for sub in ("personas", "logs")
             for p in sorted((home / sub).rglob("*")) if p.is_file()}
    return {"messages": messages, "memories": memories, "settings": (home / "settings.toml").read_text() if (home / "settings.toml").exists() else None,
            "files": files}


@pytest.fixture
def filled(home, capsys):
    """A data folder with archived messages, a memory, an unflushed message, a setting and a persona file."""
    backend = ScriptedBackend(default_reply=NO_ITEMS)
    assert cli.main(["chat", "-m", "覚えておいて、私は仙台に住んでいます。"], pinned_backend=backend) == 0
    backend.enqueue(item_answer("仙台に住んでいる", "home/city"))
    assert cli.main(["flush"], pinned_backend=backend) == 0
    assert cli.main(["chat", "-m", "まだ flush していない話"], pinned_backend=backend) == 0
    assert cli.main(["settings", "set", "gate.warn_files", "4"]) == 0
    (home / "personas" / "surface" / "mine.toml").write_text('id = "mine"\nname = "Mine"\nsystem = "You are Mine."\n', encoding="utf-8")
    capsys.readouterr()
    return home


def test_restore_into_an_empty_folder_gives_the_same_messages_memories_and_settings(filled, tmp_path, capsys,
                                                                                    monkeypatch):
    before = state(capsys, filled, monkeypatch)
    assert before["memories"] and before["messages"].count("\n") == 4 and before["files"]
    backup = tmp_path / "monchat-backup.zip"
    assert cli.main(["backup", str(backup)]) == 0
    assert "2 archived message(s), 1 memories" in capsys.readouterr().out
    assert oct(backup.stat().st_mode & 0o777) == "0o600"

    empty = tmp_path / "restored"
    monkeypatch.setenv("MONCHAT_HOME", str(empty))
    assert cli.main(["restore", str(backup)]) == 0
    assert "into" in capsys.readouterr().out
    assert state(capsys, empty, monkeypatch) == before
    assert not [p for p in tmp_path.iterdir() if "-restore-" in p.name or "-old-" in p.name]


def test_restore_refuses_a_folder_that_is_not_empty_unless_forced(filled, tmp_path, capsys, monkeypatch):
    backup = tmp_path / "b.zip"
    assert cli.main(["backup", str(backup)]) == 0
    other = tmp_path / "other"
    monkeypatch.setenv("MONCHAT_HOME", str(other))
    assert cli.main(["chat", "-m", "別の家の話"], pinned_backend=ScriptedBackend(default_reply="はい")) == 0
    theirs = state(capsys, other, monkeypatch)
    assert cli.main(["restore", str(backup)]) == 2
    err = capsys.readouterr().err
    assert "not empty" in err and "--force" in err
    assert state(capsys, other, monkeypatch) == theirs
    assert cli.main(["restore", "--force", str(backup)]) == 0
    assert state(capsys, other, monkeypatch) == state(capsys, filled, monkeypatch)


def test_backup_while_another_connection_writes_is_one_committed_state(home, tmp_path):
    app = build_app(str(home), tz=UTC)
    app.close()
    stop = threading.Event()
    written = [0]

    def writer():
        store = Store(Paths.from_env(home).db_path)
        archive = MessageArchive(store, tz=UTC)
        n = 0
        while not stop.is_set():
            batch = [Message(id=f"w{n:06d}{k}", ts=format_ts(datetime(2026, 11, 29, 10, tzinfo=UTC)), role="user",
                             text=f"batch {n} line {k}", persona="hana") for k in range(10)]
            archive.archive(batch)  # ten rows per transaction
            n += 1
            written[0] = n * 10
        store.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while written[0] < 50:
            stop.wait(0.01)
        reports = [create_backup(Paths.from_env(home), tmp_path / f"b{i}.zip") for i in range(3)]
    finally:
        stop.set()
        thread.join()
    for i, report in enumerate(reports):
        target = Paths.from_env(tmp_path / f"r{i}")
        restored = restore_backup(tmp_path / f"b{i}.zip", target)
        count = restored.counts["messages"]
        assert count == report.counts["messages"] and count % 10 == 0 and 50 <= count <= written[0]
        assert Store(target.db_path).integrity() == "ok"


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buffer.getvalue()


def _damaged_db_member(backup: bytes) -> bytes:
    """The same backup with the database's pages overwritten (its CRC recomputed: only SQLite can tell)."""
    with zipfile.ZipFile(io.BytesIO(backup)) as z:
        entries = {i.filename: z.read(i) for i in z.infolist()}
    db = bytearray(entries["data/monchat.db"])
    db[4096:8192] = b"\xa5" * 4096
    entries["data/monchat.db"] = bytes(db)
    return _zip(entries)


MANIFEST = json.dumps({"format": "monchat-backup", "version": 1}).encode()


@pytest.mark.parametrize("make, why", [
    (lambda good: b"not a zip at all", "not a zip file"),
    (lambda good: good[: len(good) // 2], "not a zip file"),
    (lambda good: _zip({"data/logs/x.jsonl": b"{}"}), "no manifest"),
    (lambda good: _zip({"monchat-backup.json": b"{\"format\": \"other\"}"}), "not a monchat backup"),
    (lambda good: _zip({"monchat-backup.json": MANIFEST, "../evil": b"x"}), "unexpected entry"),
    (lambda good: _zip({"monchat-backup.json": json.dumps({"format": "monchat-backup", "version": 99}).encode()}),
     "version 99"),
    (lambda good: _damaged_db_member(good), "database is damaged"),
    (lambda good: good.replace(b"monchat-backup.json", b"monchat-backup.jsoX", 1), "differ"),
])
def test_a_corrupt_backup_is_a_clear_error_and_restores_nothing(filled, tmp_path, capsys, monkeypatch, make, why):
    good = tmp_path / "good.zip"
    assert cli.main(["backup", str(good)]) == 0
    bad = tmp_path / "bad.zip"
    bad.write_bytes(make(good.read_bytes()))
    target = tmp_path / "target"
    monkeypatch.setenv("MONCHAT_HOME", str(target))
    capsys.readouterr()
    assert cli.main(["restore", str(bad)]) == 2
    err = capsys.readouterr().err
    assert why in err and "Nothing was restored" in err
    assert not target.exists() or not any(target.iterdir())
    assert not [p for p in tmp_path.iterdir() if "-restore-" in p.name]


def test_a_flipped_byte_fails_the_crc_check(filled, tmp_path, monkeypatch):
    good = tmp_path / "good.zip"
    create_backup(Paths.from_env(filled), good)
    raw = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as z:
        info = z.getinfo("data/monchat.db")
    raw[info.header_offset + 30 + len(info.filename) + 100] ^= 0xFF  # inside the compressed data
    (tmp_path / "bad.zip").write_bytes(bytes(raw))
    with pytest.raises(InputError, match="damaged"):
        restore_backup(tmp_path / "bad.zip", Paths.from_env(tmp_path / "t"))
    assert not (tmp_path / "t").exists() or not any((tmp_path / "t").iterdir())


def test_a_backup_inside_the_data_folder_is_refused(filled, capsys):
    assert cli.main(["backup", str(filled / "b.zip")]) == 2
    assert "data folder" in capsys.readouterr().err


def test_a_backup_taken_during_a_flush_holds_every_message(home, tmp_path):
    """A flush moves messages from log files into the archive while backups are taken: none is ever missing."""
    from monchat.core.logs.search import SearchService
    backend = ScriptedBackend(default_reply=NO_ITEMS, delay=0.01)
    app = build_app(str(home), pinned_backend=backend, tz=UTC)
    start = datetime(2026, 11, 28, 1, tzinfo=UTC)
    from datetime import timedelta
    ids = set()
    for n in range(12):  # three 6-hour files
        m = Message(id=f"f{n:04d}", ts=format_ts(start + timedelta(hours=1.5 * n)), role="user",
                    text=f"flush中のメッセージ {n}", persona="hana")
        app.logbook.append(m)
        ids.add(m.id)
    done = threading.Event()
    failure = []

    def flush():
        try:
            app.flush.run()
        except BaseException as exc:  # noqa: BLE001 (reported below)
            failure.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=flush)
    thread.start()
    backups = []
    while not done.is_set() or not backups:
        backups.append(create_backup(Paths.from_env(home), tmp_path / f"b{len(backups)}.zip").path)
    thread.join()
    assert not failure and app.logbook.files() == []
    for n, backup in enumerate(backups):
        target = Paths.from_env(tmp_path / f"r{n}")
        restore_backup(backup, target)
        restored = build_app(str(target.data_dir), tz=UTC)
        found = {h.id for h in SearchService(restored.logbook, restored.archive).search("メッセージ")}
        restored.close()
        assert found == ids, f"backup {n} of {len(backups)}"
    app.close()


def test_a_restore_killed_part_way_is_undone_by_the_next_one(filled, tmp_path, capsys, monkeypatch):
    """Killed after moving the old folder aside and before the new one took its place: the old one comes back."""
    backup = tmp_path / "b.zip"
    assert cli.main(["backup", str(backup)]) == 0
    before = state(capsys, filled, monkeypatch)
    aside = filled.with_name(f".{filled.name}-old-x1")
    filled.rename(aside)  # where _swap_in was killed
    staged = filled.with_name(f".{filled.name}-restore-x2")
    staged.mkdir()
    (staged / "half").write_text("x")
    assert cli.main(["restore", str(backup)]) == 2  # the old folder is back, so it is not empty
    assert not aside.exists() and not staged.exists()
    assert state(capsys, filled, monkeypatch) == before


# Downloaded models (data/models/, gigabytes each) are not the user's chats or memory: `monchat models pull`
# gets them again, so a backup leaves them out, says so, and a restore neither misses them nor deletes them.

MODEL_FILE = "models/smollm2-135m/smollm2-135m.gguf"


def test_a_backup_leaves_the_downloaded_models_out_and_says_so(filled, tmp_path, capsys, monkeypatch):
    (filled / MODEL_FILE).parent.mkdir(parents=True)
    (filled / MODEL_FILE).write_bytes(b"GGUF" + bytes(4096))
    before = state(capsys, filled, monkeypatch)
    backup = tmp_path / "b.zip"
    assert cli.main(["backup", str(backup)]) == 0
    out = capsys.readouterr().out
    assert "models are not in it" in out and "monchat models pull" in out
    with zipfile.ZipFile(backup) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read("monchat-backup.json"))
    assert not [n for n in names if n.startswith("data/models")], names
    assert [n for n in names if n.startswith("data/logs/")]  # the rest of the data folder is there
    assert manifest["left_out"] == ["data/models/"]

    empty = tmp_path / "restored"
    monkeypatch.setenv("MONCHAT_HOME", str(empty))
    assert cli.main(["restore", str(backup)]) == 0
    restored = capsys.readouterr()
    assert "missing" not in restored.out + restored.err and restored.err == ""
    assert state(capsys, empty, monkeypatch) == before
    assert not (empty / "models").exists()


def test_a_backup_without_models_says_nothing_of_them(filled, tmp_path, capsys):
    assert cli.main(["backup", str(tmp_path / "b.zip")]) == 0
    assert "not in it" not in capsys.readouterr().out


def test_a_forced_restore_keeps_the_models_already_downloaded_here(filled, tmp_path, capsys, monkeypatch):
    backup = tmp_path / "b.zip"
    assert cli.main(["backup", str(backup)]) == 0
    other = tmp_path / "other"
    monkeypatch.setenv("MONCHAT_HOME", str(other))
    assert cli.main(["chat", "-m", "別の家の話"], pinned_backend=ScriptedBackend(default_reply="はい")) == 0
    (other / MODEL_FILE).parent.mkdir(parents=True)
    (other / MODEL_FILE).write_bytes(b"GGUF mine")
    assert cli.main(["restore", "--force", str(backup)]) == 0
    assert (other / MODEL_FILE).read_bytes() == b"GGUF mine"
    assert state(capsys, other, monkeypatch) == state(capsys, filled, monkeypatch)
    assert not [p for p in tmp_path.iterdir() if "-restore-" in p.name or "-old-" in p.name]


def test_an_older_backup_holding_models_still_restores_them(filled, tmp_path, capsys, monkeypatch):
    backup = tmp_path / "b.zip"
    assert cli.main(["backup", str(backup)]) == 0
    older = tmp_path / "older.zip"
    with zipfile.ZipFile(backup) as source, zipfile.ZipFile(older, "w") as target:
        for info in source.infolist():
            target.writestr(info, source.read(info))
        target.writestr(f"data/{MODEL_FILE}", b"GGUF old")  # what backups made before this change hold
    empty = tmp_path / "restored"
    monkeypatch.setenv("MONCHAT_HOME", str(empty))
    assert cli.main(["restore", str(older)]) == 0
    assert (empty / MODEL_FILE).read_bytes() == b"GGUF old"


def test_backup_help_says_models_are_not_in_it(capsys):
    with pytest.raises(SystemExit):
        cli.main(["backup", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "models are not in it" in help_text and "downloaded again" in help_text


def test_a_forced_restore_keeps_a_model_that_is_a_link_as_a_link_and_lets_an_older_backups_copy_win(
        filled, tmp_path, capsys, monkeypatch, caplog):
    backup = tmp_path / "b.zip"
    assert cli.main(["backup", str(backup)]) == 0
    older = tmp_path / "older.zip"
    with zipfile.ZipFile(backup) as source, zipfile.ZipFile(older, "w") as target:
        for info in source.infolist():
            target.writestr(info, source.read(info))
        target.writestr(f"data/{MODEL_FILE}", b"GGUF from the backup")
    other = tmp_path / "other"
    monkeypatch.setenv("MONCHAT_HOME", str(other))
    assert cli.main(["chat", "-m", "別の家の話"], pinned_backend=ScriptedBackend(default_reply="はい")) == 0
    (other / MODEL_FILE).parent.mkdir(parents=True)
    (other / MODEL_FILE).write_bytes(b"GGUF here")
    (other / MODEL_FILE).with_name("verified.json").write_text("{}")  # after the backup's file: kept all the same
    elsewhere = tmp_path / "big-disk" / "qwen.gguf"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(b"GGUF elsewhere")
    (other / "models" / "qwen").mkdir()
    (other / "models" / "qwen" / "qwen.gguf").symlink_to(elsewhere)
    caplog.set_level("WARNING")
    assert cli.main(["restore", "--force", str(older)]) == 0
    assert (other / MODEL_FILE).read_bytes() == b"GGUF from the backup"
    assert "could not keep" not in caplog.text
    assert (other / MODEL_FILE).with_name("verified.json").read_text() == "{}"  # the backup's copy is no failure to report
    link = other / "models" / "qwen" / "qwen.gguf"
    assert link.is_symlink() and link.resolve() == elsewhere.resolve()
