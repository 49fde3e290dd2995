"""``monchat sync …`` as the issue names it: setup, sync, status [--json]; bad input is exit 2 with words."""

from __future__ import annotations

import json

import pytest

from monchat.cli.main import main
from monchat.core.paths import held_lock
from monchat.core.sync.folder import SyncFolder
from monchat.core.sync.service import SyncRunning
from monchat.core.types import parse_ts
from tests.flush.conftest import World


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_not_set_up_is_a_clear_error_and_exit_2(home, capsys):
    for argv in (["sync"], ["sync", "status"], ["sync", "status", "--json"]):
        assert main(argv) == 2
        assert "not set up to sync" in capsys.readouterr().err


def test_a_folder_that_is_missing_or_a_file_is_exit_2(home, tmp_path, capsys):
    assert main(["sync", "setup", str(tmp_path / "nowhere"), "--name", "laptop"]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "a-file").write_text("")
    assert main(["sync", "setup", str(tmp_path / "a-file"), "--name", "laptop"]) == 2
    assert main(["sync", "setup", str(tmp_path), "--name", "  "]) == 2
    assert "needs a name" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["sync", "setup", str(tmp_path)])  # --name is required
    assert exit_.value.code == 2


def test_setup_sync_and_status(home, tmp_path, capsys):
    folder = tmp_path / "Sync"
    folder.mkdir()
    assert main(["sync", "setup", str(folder), "--name", "laptop", "--json"]) == 0
    device = json.loads(capsys.readouterr().out)
    assert device["name"] == "laptop" and len(device["id"]) == 32
    info = json.loads((folder / "monchat" / "devices" / device["id"] / "device.json").read_text())
    assert info["id"] == device["id"] and info["name"] == "laptop"
    assert main(["sync", "setup", str(folder), "--name", "work laptop"]) == 0  # a new name, the same device
    capsys.readouterr()
    assert main(["sync"]) == 0
    assert "Nothing to do" in capsys.readouterr().out
    assert main(["sync", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["device"] == {"id": device["id"], "name": "work laptop"}
    assert set(status) == {"device", "folder", "devices", "deletions_waiting", "conflict_copies", "folder_size",
                           "encrypted",
                           "decisions_waiting", "conflicts_open"}  # the decisions replay's (core/sync/replaying.py)
    assert status["folder_size"] > 0


def test_an_unmounted_folder_is_exit_2_and_nothing_is_written(home, tmp_path, capsys):
    folder = tmp_path / "usb"
    folder.mkdir()
    assert main(["sync", "setup", str(folder), "--name", "laptop"]) == 0
    (folder / "monchat" / "devices").rename(tmp_path / "elsewhere")  # an empty mount point where the stick was
    assert main(["sync"]) == 2
    assert "does not hold this device's files" in capsys.readouterr().err
    assert not (folder / "monchat" / "devices").exists()


def test_status_lists_the_other_device_with_its_name_and_last_write(tmp_path, capsys):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = World(tmp_path / "a"), World(tmp_path / "b")
    a.app.sync.setup(folder, "laptop")
    b.app.sync.setup(folder, "desktop")
    b.app.sync.run()
    status = a.cli_json(capsys, "sync", "status")
    [other] = status["devices"]
    assert other["id"] == b.app.sync.device().id and other["name"] == "desktop" and other["last_write"]
    out = a.cli(capsys, "sync", "status")
    assert "this device: laptop" in out and "desktop" in out
    written = parse_ts(other["last_write"]).astimezone(a.app.clock().tzinfo)  # shown on this computer's clock
    assert f"last wrote {written:%Y-%m-%d %H:%M}" in out and other["last_write"] not in out


def test_a_second_sync_at_once_is_refused_with_words(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a = World(tmp_path / "a")
    a.app.sync.setup(folder, "laptop")
    with held_lock(a.app.paths.data_dir / "sync.lock"):  # a window's sync, say (a lock is per open file)
        with pytest.raises(SyncRunning):
            a.app.sync.run()
    assert a.app.sync.run().nothing


def test_a_sync_of_this_folder_that_ended_a_moment_ago_is_no_copy(tmp_path):
    """The database is written before device.json: read in that order by a second look, the two always agree."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    a = World(tmp_path / "a")
    a.app.sync.setup(folder, "laptop")
    a.app.sync.run()
    device = a.app.sync.device()
    assert not a.app.sync._copied(SyncFolder(folder), device.id)
    a.clock.now = a.clock.now.replace(year=2027)  # the file says a later sync than this database knows
    a.app.sync._write_device(SyncFolder(folder), device, a.clock().isoformat())
    assert a.app.sync._copied(SyncFolder(folder), device.id)


def test_sync_names_the_device_it_imported_from(tmp_path, capsys):
    """"imported 1 message(s) from desktop (<id>)": the name its owner gave, not only a 32-digit id (seen walking
    two data folders through one folder by hand)."""
    from monchat.core.types import Message
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = World(tmp_path / "a"), World(tmp_path / "b")
    a.app.sync.setup(folder, "laptop")
    b.app.sync.setup(folder, "desktop")
    b.app.archive.archive([Message(id="i" + "0" * 19, ts="2026-11-28T20:20:00.000+09:00", role="user",
                                   text="I only drink green tea", persona="hana")])
    b.app.sync.run()
    out = a.cli(capsys, "sync")
    assert f"imported 1 message(s) from desktop ({b.app.sync.device().id})" in out

