"""SIGKILL a chat and an import at every write and model step, rerun, compare with an uninterrupted run.

The process kills itself at a named point (before an append, halfway through one — a torn line on
disk — after it, before, during and after the reply). Then the user carries on as a user would:
sends the message again if it is not in the log, then the next one; imports the file again. Nothing
typed and logged is lost, nothing is doubled, and a torn fragment is quarantined, never read as a
message. Flush kill points are in ``tests/flush/test_kill.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.transfer.importers import import_jsonl
from tests.support.scripted import ScriptedBackend

pytestmark = pytest.mark.slow

UTC = timezone.utc
REPO = Path(__file__).resolve().parents[1]

KILL_SCRIPT = """
import os, signal, sys
from datetime import datetime, timezone
from monchat.app import build_app
from monchat.core.logs.files import LogBook
from monchat.core.transfer.importers import import_jsonl
from tests.support.scripted import ScriptedBackend

mode, point, source = sys.argv[1], sys.argv[2], sys.argv[3]


def die():
    os.kill(os.getpid(), signal.SIGKILL)


class KillingLogBook(LogBook):
    appends = 0

    def _append_lines(self, path, lines):
        KillingLogBook.appends += 1
        n = KillingLogBook.appends
        if point == f"before-append-{n}":
            die()
        if point == f"torn-append-{n}":  # the power went mid-write: half a line reached the disk
            payload = "".join(line + "\\n" for line in lines).encode("utf-8")
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.write(fd, payload[: len(payload) // 2])
            os.fsync(fd)
            die()
        super()._append_lines(path, lines)
        if point == f"after-append-{n}":
            die()


class KillingBackend(ScriptedBackend):
    def _stream(self, system, turns, temperature, reply):
        self.history.append(("chat", system, list(turns), None))
        if point == "before-reply":
            die()
        yield "one "
        if point == "mid-reply":
            die()
        yield "two"
        if point == "after-reply":
            die()


app = build_app(pinned_backend=KillingBackend(), tz=timezone.utc)
app.logbook = app.chat.logbook = KillingLogBook(app.logbook.logs_dir, app.logbook.quarantine_dir, timezone.utc)
if mode == "chat":
    app.chat.send("first")
else:
    import_jsonl(source, app.logbook, app.archive, default_persona="hana",
                 now=datetime(2026, 12, 1, tzinfo=timezone.utc))
app.close()
"""

CHAT_POINTS = ("before-append-1", "torn-append-1", "after-append-1", "before-reply", "mid-reply", "after-reply",
               "before-append-2", "torn-append-2", "after-append-2")
IMPORT_POINTS = tuple(f"{kind}-append-{n}" for n in range(1, 5) for kind in ("before", "torn", "after"))
HISTORY = [{"ts": f"2026-11-{day}T{hour:02d}:{minute:02d}:00+00:00", "role": role, "text": f"{day} {hour} {role}"}
           for day, hour in (("27", 1), ("27", 7), ("28", 13), ("29", 19))
           for minute, role in ((0, "user"), (1, "assistant"), (2, "user"))]


def run_killed(home: Path, mode: str, point: str, source: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", KILL_SCRIPT, mode, point, str(source or "")], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def state(home: Path) -> dict:
    app = build_app(str(home), tz=UTC)
    try:
        read = app.logbook.read_all()
        return {"messages": [(m.role, m.text, m.status) for m in read.messages],
                "ids": [m.id for m in read.messages],
                "bad": len(read.bad_lines), "quarantined": len(app.logbook.quarantined()),
                "files": {p.name: [m.id for m in app.logbook.read(p).messages] for p in app.logbook.files()}}
    finally:
        app.close()


def carry_on_chatting(home: Path) -> None:
    """What the user does next: resend the first message if it is not in the log, then the second."""
    app = build_app(str(home), pinned_backend=ScriptedBackend(default_reply="ok"), tz=UTC)
    try:
        users = [m.text for m in app.logbook.read_all().messages if m.role == "user"]
        if "first" not in users:
            app.chat.send("first")
        app.chat.send("second")
    finally:
        app.close()


@pytest.mark.parametrize("point", CHAT_POINTS)
def test_a_chat_killed_anywhere_loses_and_doubles_nothing(point, tmp_path):
    home = tmp_path / "home"
    killed = run_killed(home, "chat", point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    carry_on_chatting(home)
    final = state(home)

    user_logged = point not in ("before-append-1", "torn-append-1")
    reply_logged = point == "after-append-2"
    expected = [("user", "first", "ok")]
    if not user_logged:
        expected = [("user", "first", "ok"), ("assistant", "ok", "ok")]  # sent again after the kill
    elif reply_logged:
        expected.append(("assistant", "one two", "ok"))
    expected += [("user", "second", "ok"), ("assistant", "ok", "ok")]
    assert final["messages"] == expected
    assert len(final["ids"]) == len(set(final["ids"]))
    torn = point.startswith("torn")
    assert final["bad"] == final["quarantined"] == (1 if torn else 0)  # the fragment is kept aside, not read


@pytest.fixture(scope="module")
def import_source(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("import") / "history.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in HISTORY), encoding="utf-8")
    return source


@pytest.fixture(scope="module")
def uninterrupted_import(import_source, tmp_path_factory) -> dict:
    home = tmp_path_factory.mktemp("import") / "home"
    done = run_killed(home, "import", "none", import_source)
    assert done.returncode == 0, done.stderr
    result = state(home)
    assert len(result["files"]) == 4 and len(result["ids"]) == len(HISTORY)
    return result


@pytest.mark.parametrize("point", IMPORT_POINTS)
def test_an_import_killed_anywhere_then_rerun_ends_like_an_uninterrupted_one(point, import_source,
                                                                            uninterrupted_import, tmp_path):
    home = tmp_path / "home"
    killed = run_killed(home, "import", point, import_source)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    app = build_app(str(home), tz=UTC)
    try:
        import_jsonl(import_source, app.logbook, app.archive, default_persona="hana",
                     now=datetime(2026, 12, 1, tzinfo=UTC))
    finally:
        app.close()
    final = state(home)
    assert final["files"] == uninterrupted_import["files"]
    assert final["messages"] == uninterrupted_import["messages"]
    assert final["bad"] == final["quarantined"] == (1 if point.startswith("torn") else 0)
