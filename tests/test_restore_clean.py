"""Nothing of a restore is left beside the data folder: no lock, no journal (or its temp file), no copy.

After a restore that succeeds, is refused or fails — and after the recovery (the next ``monchat status``) of
one SIGKILLed at each point where a kill can stop it — the folders that hold the data and config folders
list no hidden entry. The lock still serialises restores: its holder removes the file before letting go,
and a process that locked a removed file starts again (``core/transfer/swap.py`` ``restore_lock``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.core.paths import Paths
from tests.test_restore_hostile import entries, fill, make_zip, with_manifest, manifest_of
from tests.test_restore_kill import layout, messages

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}


def beside(paths: Paths) -> list[str]:
    """Hidden entries beside the data and config folders (a restore's lock, journal, temp files, copies)."""
    return sorted(p.name for folder in {paths.data_dir.parent, paths.config_dir.parent} if folder.exists()
                  for p in folder.iterdir() if p.name.startswith("."))


def backup_of(tmp_path: Path, monkeypatch, n: int = 4) -> Path:
    source = tmp_path / "source"
    fill(source, n)
    (source / "settings.toml").write_text("[gate]\nwarn_files = 5\n", encoding="utf-8")
    monkeypatch.setenv("MONCHAT_HOME", str(source))
    assert cli.main(["backup", str(tmp_path / "b.zip")]) == 0
    return tmp_path / "b.zip"


def damaged(raw: bytes) -> bytes:
    """The backup with one byte of its database entry's packed data changed (its CRC no longer matches)."""
    items = entries(raw)
    items["data/monchat.db"] = items["data/monchat.db"][:-1] + bytes([items["data/monchat.db"][-1] ^ 1])
    stored = make_zip(items, method=zipfile.ZIP_STORED)
    with zipfile.ZipFile(__import__("io").BytesIO(stored)) as z:
        info = z.getinfo("data/monchat.db")
    at = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra) + 100
    return stored[:at] + bytes([stored[at] ^ 0xFF]) + stored[at + 1:]


CASES = ["success", "forced", "not empty", "missing", "not a zip", "lying manifest", "damaged entry"]


@pytest.mark.parametrize("case", CASES)
def test_no_lock_journal_or_copy_is_left_after_a_restore_done_refused_or_failed(tmp_path, monkeypatch, capsys,
                                                                              case):
    good = backup_of(tmp_path, monkeypatch)
    raw = good.read_bytes()
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    paths = Paths.from_env()
    if case in ("forced", "not empty", "lying manifest", "damaged entry"):
        fill(home, 2)
    argv = ["restore", "--force"] if case in ("forced", "lying manifest", "damaged entry") else ["restore"]
    target = {"missing": tmp_path / "nothing.zip"}.get(case, tmp_path / "x.zip")
    if case == "not a zip":
        target.write_bytes(b"not a zip at all")
    elif case == "lying manifest":
        target.write_bytes(with_manifest(raw, {**manifest_of(raw), "counts": {"messages": 99, "memories": 0}}))
    elif case == "damaged entry":
        target.write_bytes(damaged(raw))
    elif case != "missing":
        target.write_bytes(raw)
    code = cli.main([*argv, str(target)])
    assert code == (0 if case in ("success", "forced") else 2), capsys.readouterr().err
    assert messages(paths) == (4 if case in ("success", "forced") else 2 if case != "missing" and
                               case != "not a zip" else 0)
    assert beside(paths) == []


KILL_SCRIPT = """
import os, signal, sys
from monchat.cli import main as cli
from monchat.core.transfer import restore, swap

point, at = sys.argv[2], int(sys.argv[3])
calls = {}


def hit(name):
    calls[name] = calls.get(name, 0) + 1
    if name == point and calls[name] == at:
        os.kill(os.getpid(), signal.SIGKILL)


real_move, real_write, real_unpack, real_recover = swap.move, swap.write_private, restore._unpack, \\
    restore.recover_locked


def move(source, dest):
    hit("move")
    real_move(source, dest)


def write_private(path, data):
    if point == "journal" and calls.get("journal", 0) + 1 == at:  # killed between the temp file and its rename
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(str(data)[:10])
    hit("journal")
    real_write(path, data)


def unpack(*args):
    real_unpack(*args)
    hit("unpack")


def recover(paths):
    hit("locked")
    real_recover(paths)


swap.move, swap.write_private, restore._unpack, restore.recover_locked = move, write_private, unpack, recover
sys.exit(cli.main(["restore", "--force", sys.argv[1]]))
"""

# (where the kill stops it, at which call, data and config apart, messages the next start finds)
KILLS = [("locked", 1, False, 2), ("unpack", 1, False, 2), ("unpack", 2, True, 2), ("journal", 1, False, 2),
         ("journal", 1, True, 2), ("move", 1, False, 4), ("move", 1, True, 4), ("move", 2, True, 4),
         ("journal", 2, False, 4), ("journal", 2, True, 4)]


@pytest.mark.parametrize("point, at, split, found", KILLS)
def test_the_recovery_after_a_kill_at_any_point_leaves_nothing_beside_the_folder(tmp_path, monkeypatch, capsys,
                                                                                 point, at, split, found):
    backup = backup_of(tmp_path, monkeypatch)
    paths = layout(tmp_path, split, monkeypatch)
    if split:
        monkeypatch.delenv("MONCHAT_HOME", raising=False)
    fill(None, 2)  # the data being replaced
    env = {**os.environ, "PYTHONPATH": ENV["PYTHONPATH"]}  # the layout's MONCHAT_HOME or XDG_* folders
    done = subprocess.run([sys.executable, "-c", KILL_SCRIPT, str(backup), point, str(at)], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert beside(paths) != []  # the kill left something
    capsys.readouterr()
    assert cli.main(["status"]) == 0
    assert messages(paths) == found
    assert beside(paths) == []


HOLD_SCRIPT = """
import sys
from monchat.core.paths import Paths
from monchat.core.transfer.swap import restore_lock
with restore_lock(Paths.from_env()):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_a_restore_is_refused_while_another_holds_the_lock_and_runs_once_it_is_released(tmp_path, monkeypatch,
                                                                                         capsys):
    backup = backup_of(tmp_path, monkeypatch)
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    paths = Paths.from_env()
    holder = subprocess.Popen([sys.executable, "-c", HOLD_SCRIPT], env={**ENV, "MONCHAT_HOME": str(home)},
                              cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        capsys.readouterr()
        assert cli.main(["restore", str(backup)]) != 0
        assert "running in another monchat" in capsys.readouterr().err
        assert not paths.data_dir.exists() or not any(paths.data_dir.iterdir())
    finally:
        holder.communicate("go\n", timeout=60)
    assert holder.returncode == 0 and beside(paths) == []
    assert cli.main(["restore", str(backup)]) == 0
    assert messages(paths) == 4 and beside(paths) == []


COUNT_SCRIPT = """
import fcntl, sys, time
from pathlib import Path
from monchat.core.paths import Paths
from monchat.core.transfer.swap import restore_lock
real_flock = fcntl.flock


def slow_flock(fd, operation):  # widens the gap between opening the file and locking it, where the race is
    time.sleep(0.002)
    return real_flock(fd, operation)


fcntl.flock = slow_flock
counter = Path(sys.argv[1])
for _ in range(int(sys.argv[2])):
    with restore_lock(Paths.from_env(), wait_s=120):
        n = int(counter.read_text())
        time.sleep(0.001)
        counter.write_text(str(n + 1))
"""


def test_processes_taking_and_removing_the_lock_in_a_loop_still_exclude_each_other(tmp_path):
    """Each holder removes the lock file; one that locked a removed file must start again, or two run at once
    and an increment is lost."""
    counter = tmp_path / "counter"
    counter.write_text("0")
    env = {**ENV, "MONCHAT_HOME": str(tmp_path / "home")}
    runs = [subprocess.Popen([sys.executable, "-c", COUNT_SCRIPT, str(counter), "150"], env=env, cwd=REPO)
            for _ in range(3)]
    assert [run.wait(timeout=300) for run in runs] == [0, 0, 0]
    assert int(counter.read_text()) == 450
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_link_in_the_lock_files_place_is_a_clear_error_not_a_crash(tmp_path, monkeypatch, capsys):
    backup = backup_of(tmp_path, monkeypatch)
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    (tmp_path / ".home-restore.lock").symlink_to(tmp_path / "elsewhere")
    capsys.readouterr()
    assert cli.main(["restore", str(backup)]) == 6
    err = capsys.readouterr().err
    assert "is in the way" in err and "Traceback" not in err
    assert not (tmp_path / "elsewhere").exists()
