"""``monchat sync setup FOLDER --name NAME --encrypt`` through ``python -m monchat``: the passphrase from stdin or
``MONCHAT_SYNC_PASSPHRASE``, a missing or wrong one exit 2 with words, ``sync status --json`` says ``encrypted``.

The keyring keeps nothing here (the null keyring), as on a machine without one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PASSPHRASE = "correct horse battery staple"


def monchat(home, *args: str, stdin: str = "", passphrase: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC",
           "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    env.pop("MONCHAT_SYNC_PASSPHRASE", None)
    if passphrase is not None:
        env["MONCHAT_SYNC_PASSPHRASE"] = passphrase
    return subprocess.run([sys.executable, "-m", "monchat", *args], env=env, input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_setup_encrypt_sync_and_status_from_the_command_line(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    done = monchat(laptop, "sync", "setup", str(folder), "--name", "laptop", "--encrypt", "--json",
                   stdin=PASSPHRASE + "\n")
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["encrypted"] is True and said["passphrase"] == "session"  # no keyring, no variable: say so
    assert (folder / "monchat" / "encryption.json").is_file()
    assert b"laptop" not in b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
    done = monchat(laptop, "sync")  # a new process: no passphrase anywhere
    assert done.returncode == 2 and "no passphrase" in done.stderr and "MONCHAT_SYNC_PASSPHRASE" in done.stderr
    assert monchat(laptop, "sync", passphrase=PASSPHRASE).returncode == 0
    done = monchat(laptop, "sync", "status", "--json", passphrase=PASSPHRASE)
    assert done.returncode == 0 and json.loads(done.stdout)["encrypted"] is True

    done = monchat(desktop, "sync", "setup", str(folder), "--name", "desktop")  # a plain device: refused
    assert done.returncode == 2 and "is encrypted" in done.stderr and "--encrypt" in done.stderr
    done = monchat(desktop, "sync", "setup", str(folder), "--name", "desktop", "--encrypt",
                   passphrase="wrong horse battery staple")
    assert done.returncode == 2 and "does not open" in done.stderr
    done = monchat(desktop, "sync", "setup", str(folder), "--name", "desktop", "--encrypt", "--json",
                   passphrase=PASSPHRASE)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["passphrase"] == "environment"
    done = monchat(desktop, "sync", "status", passphrase=PASSPHRASE)
    assert done.returncode == 0 and "device laptop" in done.stdout and "encrypted" in done.stdout


def test_setup_encrypt_with_no_passphrase_is_exit_2(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    done = monchat(tmp_path / "home", "sync", "setup", str(folder), "--name", "laptop", "--encrypt", stdin="")
    assert done.returncode == 2 and "No passphrase was given" in done.stderr
    assert not (folder / "monchat").exists()
