"""A restore SIGKILLed between its two renames: the next command finishes it before using the folder.

The restore runs in a subprocess that kills itself at the Nth rename of a checked copy into place
(``core/transfer/swap.py``'s ``move``), so the data folder is gone and the old one sits aside. Then the user
runs ``monchat status`` (or any command): it must find the restored data — never an empty new
folder beside the old data — and leave no copy, aside folder or journal behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.paths import Paths
from tests.test_restore_hostile import fill

REPO = Path(__file__).resolve().parents[1]

KILL_SCRIPT = """
import os, signal, sys
from monchat.cli import main as cli
from monchat.core.transfer import swap

calls = [0]
real_move = swap.move


def move(source, dest):
    calls[0] += 1
    if calls[0] == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
    real_move(source, dest)


swap.move = move
sys.exit(cli.main(["restore", "--force", sys.argv[1]]))
"""


def layout(tmp_path: Path, split: bool, monkeypatch) -> Paths:
    """One MONCHAT_HOME folder, or the platform's data and config folders apart (XDG_*)."""
    if split:
        monkeypatch.delenv("MONCHAT_HOME")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    else:
        monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    paths = Paths.from_env()
    assert (paths.data_dir != paths.config_dir) == split
    return paths


def messages(paths: Paths) -> int:
    app = build_app()
    try:
        return app.archive.count()
    finally:
        app.close()


def aside(paths: Paths) -> list[str]:
    return sorted(p.name for folder in {paths.data_dir.parent, paths.config_dir.parent} if folder.exists()
                  for p in folder.iterdir() if p.name.startswith(".") and not p.name.endswith(".lock"))


@pytest.mark.parametrize("split, kill_at", [(False, 1), (True, 1), (True, 2)])
def test_any_command_after_a_restore_killed_between_its_renames_finds_the_restored_data(
        tmp_path, monkeypatch, capsys, split, kill_at):
    paths = layout(tmp_path, split, monkeypatch)
    source_home = tmp_path / "source"
    fill(source_home, 4)
    (source_home / "settings.toml").write_text("[gate]\nwarn_files = 5\n", encoding="utf-8")
    monkeypatch.setenv("MONCHAT_HOME", str(source_home))
    assert cli.main(["backup", str(tmp_path / "b.zip")]) == 0
    if split:
        monkeypatch.delenv("MONCHAT_HOME")
    else:
        monkeypatch.setenv("MONCHAT_HOME", str(paths.data_dir))
    fill(None, 2)  # the data being replaced
    (paths.config_dir / "settings.toml").write_text("[gate]\nwarn_files = 3\n", encoding="utf-8")

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", KILL_SCRIPT, str(tmp_path / "b.zip"), str(kill_at)], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert not paths.data_dir.exists() or not paths.config_dir.exists()  # killed between the renames

    capsys.readouterr()
    assert cli.main(["status"]) == 0
    assert messages(paths) == 4  # the restore was finished, not a fresh empty folder
    assert "warn_files = 5" in paths.settings_path.read_text(encoding="utf-8")
    assert aside(paths) == []  # no copy, no old folder, no journal left


def test_a_folder_put_aside_is_never_deleted_while_nothing_shows_it_is_a_copy(tmp_path, monkeypatch, capsys):
    """An aside folder beside a folder in use, with no journal (an older monchat's kill): kept, not removed."""
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    fill(tmp_path / "source", 4)
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "source"))
    assert cli.main(["backup", str(tmp_path / "b.zip")]) == 0
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    fill(home, 1)
    only_copy = tmp_path / ".home-old-abc"
    fill(only_copy, 3)
    assert cli.main(["restore", "--force", str(tmp_path / "b.zip")]) == 0
    assert only_copy.is_dir() and (only_copy / "monchat.db").exists()
    assert messages(Paths.from_env()) == 4


def test_an_interrupted_restore_with_nothing_in_place_puts_the_old_folder_back_at_the_next_start(
        tmp_path, monkeypatch, capsys):
    """Before the journal existed (or a kill before it was written): the folder aside comes back, no empty
    folder is made beside it (before: ``status`` made one and chat wrote into it)."""
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    fill(home, 2)
    home.rename(tmp_path / ".home-old-x1")
    assert cli.main(["status"]) == 0
    assert messages(Paths.from_env()) == 2 and not (tmp_path / ".home-old-x1").exists()


def test_a_data_folder_deeper_than_the_recursion_limit_is_replaced_by_a_forced_restore(tmp_path, monkeypatch,
                                                                                       capsys):
    """An older monchat restored a 2,000-folder entry; every later --force then died in rmtree (exit 70)."""
    fill(tmp_path / "source", 4)
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "source"))
    assert cli.main(["backup", str(tmp_path / "b.zip")]) == 0
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    fill(home, 1)
    fd = os.open(home / "logs", os.O_RDONLY)
    try:
        for _ in range(1500):  # os.makedirs would recurse too: one level at a time, relative to the last
            os.mkdir("d", 0o700, dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    try:
        assert cli.main(["restore", "--force", str(tmp_path / "b.zip")]) == 0
        assert messages(Paths.from_env()) == 4 and aside(Paths.from_env()) == []
    finally:  # never leave a tree pytest's own clean-up cannot remove
        subprocess.run(["rm", "-rf", str(home), *map(str, tmp_path.glob(".home-*"))], check=False)
