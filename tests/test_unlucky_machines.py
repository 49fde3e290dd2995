"""A nearly full disk and a broken database on the chat, flush and import paths (issue 25, points 11–12).

The full disk is a real one for the process: ``RLIMIT_FSIZE`` makes every write past the limit fail with
EFBIG (Python ignores SIGXFSZ), as a full disk fails with ENOSPC; both map to exit 5. Below 32 KB the WAL
index (``monchat.db-shm``) cannot even be created, which SQLite reports as a disk I/O error
(SQLITE_IOERR_SHMSIZE): that is a full disk too, not a failing one. (On a real 4 MB tmpfs filled to
64/32/16/0 KB free the same commands give the same exit codes: see docs/testing.md.)
The broken databases are written as they are found: garbage, cut short, held by another program.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.errors import StorageCorrupt, StorageFull, StorageLocked
from monchat.core.types import Message
from tests.test_faults import fresh_home, log_lines, run_cli_limited
from tests.test_storage_errors import corrupt_by_garbage, corrupt_by_truncation, monchat


def without_wal_files(home: Path) -> None:
    """After a clean close: the next start must create the WAL index again (it needs 32 KB)."""
    for suffix in ("-wal", "-shm"):
        Path(f"{home / 'monchat.db'}{suffix}").unlink(missing_ok=True)


def logged_texts(home: Path) -> list[str]:
    return [json.loads(line)["text"] for line in log_lines(home)]


# ---- point 11: a nearly full disk ------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["chat", "-m", "words I typed"], ["flush"], ["import", "HISTORY"]])
def test_under_32_kb_of_room_chat_flush_and_import_exit_5_not_6(home, tmp_path, command):
    fresh_home(home)
    history = tmp_path / "history.jsonl"
    history.write_text(json.dumps({"ts": "2026-11-29T05:00:00+00:00", "role": "user", "text": "old"}) + "\n")
    without_wal_files(home)
    argv = [str(history) if a == "HISTORY" else a for a in command]
    result = run_cli_limited(home, argv, fsize=16_000, reply='{"items": []}')
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert "no room" in result["stderr"] and "Traceback" not in result["stderr"]
    if command[0] == "chat":
        assert logged_texts(home) == ["words I typed"]  # logged before failing, and said so
        assert "your message was saved in" in result["stderr"]


@pytest.mark.parametrize("database_opens", [True, False])
def test_a_message_the_disk_cannot_take_fails_saying_it_was_not_saved(home, database_opens):
    fresh_home(home)
    limit = (home / "monchat.db").stat().st_size + 60_000 if database_opens else 20_000
    app = build_app(str(home))
    app.logbook.append(Message(id="m0", ts=time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()), role="user",
                               text="x" * (limit + 1000)))  # this slot's file is already past the limit
    app.close()
    result = run_cli_limited(home, ["chat", "-m", "lost words"], fsize=limit)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert "message was not saved and not sent" in result["stderr"].lower() and result["calls"] == 0
    assert ("your message was saved" in result["stderr"]) is False
    assert "lost words" not in logged_texts(home)


def test_a_flush_that_exits_5_prints_no_logging_traceback_when_monchat_log_cannot_be_written(home):
    app = build_app(str(home))
    for n in range(30):
        app.logbook.append(Message(id=f"m{n}", ts=f"2026-11-29T01:{n:02d}:00+00:00", role="user", text="あ" * 3000))
    app.close()
    limit = (home / "monchat.db").stat().st_size + 60_000  # the database opens; the flush's writes do not fit
    (home / "monchat.log").write_text("an older session's line\n" * (limit // 24 + 10))  # already past it
    result = run_cli_limited(home, ["flush"], fsize=limit, reply='{"items": []}')
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert "Logging error" not in result["stderr"] and "Traceback" not in result["stderr"]
    assert result["stderr"].count("monchat.log cannot be written") == 1
    said = [line for line in result["stderr"].splitlines() if not line.startswith("[")]  # not the progress
    assert len(said) == 3, said  # the warning, the error and its hint


def test_an_import_stopped_by_a_full_disk_says_how_many_and_a_rerun_completes_it(home, tmp_path):
    fresh_home(home)
    source = tmp_path / "history.jsonl"
    lines = [{"ts": f"2026-11-28T01:{n:02d}:00+00:00", "role": "user", "text": f"early {n}"} for n in range(10)]
    lines += [{"ts": f"2026-11-29T01:{n:02d}:00+00:00", "role": "user", "text": f"late {n} " + "y" * 1000}
              for n in range(60)]  # ~60 KB in one slot's file: past the limit
    source.write_text("".join(json.dumps(r) + "\n" for r in lines))
    result = run_cli_limited(home, ["import", str(source)], fsize=40_000)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert "10 of 70 message(s) are imported" in result["stderr"]
    assert "run the same import again" in result["stderr"]
    assert len(log_lines(home)) == 10
    again = run_cli_limited(home, ["import", str(source)])
    assert again["rc"] == 0, again["stderr"]
    assert sorted(logged_texts(home)) == sorted(r["text"] for r in lines)  # completed, nothing doubled


# ---- point 12: a damaged, cut short or locked database ------------------------------------------------
def hold_the_lock(db: Path) -> sqlite3.Connection:
    """Another program holding the database: an exclusive lock in exclusive locking mode (readers wait too)."""
    holder = sqlite3.connect(db)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO kv(key, value) VALUES('held', 'by another program')")
    return holder


@pytest.mark.parametrize("fault, code", [("garbage", StorageCorrupt.exit_code),
                                         ("truncated", StorageCorrupt.exit_code),
                                         ("locked", StorageLocked.exit_code)])
def test_chat_m_logs_the_message_before_failing_on_a_broken_database(home, fault, code):
    fresh_home(home)
    db = home / "monchat.db"
    holder = None
    if fault == "locked":
        holder = hold_the_lock(db)
    else:
        without_wal_files(home)
        (corrupt_by_garbage if fault == "garbage" else corrupt_by_truncation)(db)
    try:
        started = time.monotonic()
        done = monchat(home, "chat", "-m", "words that must not be lost")
        took = time.monotonic() - started
    finally:
        if holder is not None:
            holder.rollback()
            holder.close()
    assert done.returncode == code == 6, done.stderr
    assert logged_texts(home) == ["words that must not be lost"]
    assert "your message was saved in" in done.stderr and "internal error" not in done.stderr
    assert took < 15  # not the 30 s busy timeout first


def test_lines_piped_to_chat_are_logged_before_failing_on_a_damaged_database(home):
    import subprocess
    import sys
    from tests.test_storage_errors import env_for
    fresh_home(home)
    without_wal_files(home)
    corrupt_by_garbage(home / "monchat.db")
    done = subprocess.run([sys.executable, "-m", "monchat", "chat"], env=env_for(home), cwd=home.parent,
                          input="first piped line\nsecond piped line\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == StorageCorrupt.exit_code, done.stderr
    assert logged_texts(home) == ["first piped line", "second piped line"]
