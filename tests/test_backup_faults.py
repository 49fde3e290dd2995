"""A backup killed or stopped by a full disk: what it leaves and what it says.

A SIGKILL cannot be cleaned up after, so what a killed backup leaves must be found and removed by
the next one: its temp files sit beside the destination with the process id in their names (never
an empty ``monchat-backup-*`` in the system's temp folder). A destination without room is named as
the place without room (before: "no room to write monchat's data folder").
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from monchat.core.errors import StorageFull
from tests.test_faults import run_cli_limited
from tests.test_restore_hostile import fill

REPO = Path(__file__).resolve().parents[1]


KILL_AT_COUNTS = """
import os, signal, sys
from monchat.cli import main as cli
from monchat.core.transfer import backup


def counts(path):
    os.kill(os.getpid(), signal.SIGKILL)  # the zip and the database's copy are half made


backup.counts = counts
sys.exit(cli.main(["backup", sys.argv[1]]))
"""


def test_what_a_killed_backup_leaves_beside_its_destination_the_next_one_removes(home, tmp_path):
    fill(home)
    scratch_tmp = tmp_path / "system-tmp"
    scratch_tmp.mkdir()
    dest = tmp_path / "out" / "b.zip"
    env = {**os.environ, "MONCHAT_HOME": str(home), "TMPDIR": str(scratch_tmp),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", KILL_AT_COUNTS, str(dest)], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    left = sorted(p.name for p in dest.parent.iterdir())
    assert left == sorted([f".b.zip-db.{done_pid}.tmp" for done_pid in _pids(left, ".b.zip-db.")]
                          + [f".b.zip.{done_pid}.tmp" for done_pid in _pids(left, ".b.zip.")]), left
    assert len(left) == 2 and not dest.exists()
    assert list(scratch_tmp.iterdir()) == []  # nothing in the system's temp folder

    again = subprocess.run([sys.executable, "-m", "monchat", "backup", str(dest)], env=env, cwd=REPO,
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in dest.parent.iterdir()) == ["b.zip"]
    assert list(scratch_tmp.iterdir()) == []


def _pids(names: list[str], prefix: str) -> list[str]:
    return [n[len(prefix):-len(".tmp")] for n in names if n.startswith(prefix) and n[len(prefix):-4].isdigit()]


@pytest.mark.parametrize("fsize, big_log", [(60_000, False),  # the database's copy cannot be written
                                             (300_000, True)])  # the zip cannot (a 400 KB log that does not pack)
def test_a_destination_without_room_is_named_as_such(home, tmp_path, fsize, big_log):
    fill(home)
    if big_log:
        (home / "logs" / "2026-11-29_06.jsonl").write_bytes(os.urandom(400_000))
    dest = tmp_path / "b.zip"
    result = run_cli_limited(home, ["backup", str(dest)], fsize=fsize)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert f"no room to write the backup {dest}" in result["stderr"]
    assert "data folder" not in result["stderr"] and "Traceback" not in result["stderr"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".b.zip")] == []
