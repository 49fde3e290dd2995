"""Slash commands are commands wherever they are typed: at the prompt, in piped stdin and in ``-m`` (issue 36, 7).

Driven as a user drives it: ``python -m monchat chat`` in a subprocess with piped stdin (or ``-m``), against the
loopback fake Ollama, which records every request. What the model was sent is read from the fake; what was kept
is read as the raw bytes of every file under the data folder (logs, the database and its WAL, the backup's
members), never through a query.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from monchat.cli import main as cli
from monchat.cli.slash import Command, Said, read_line
from monchat.core.errors import InputError
from tests.support.quiet_ollama import quiet_ollama

REPO = Path(__file__).resolve().parents[1]
OLLAMA = ["--backend", "ollama", "--model", "llama3.2"]
SECRET = "Xylophone-7731 is my bank PIN"
WORD = SECRET.split()[0].encode()


@pytest.fixture
def ollama(home):
    yield from quiet_ollama()


def monchat(home: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``python -m monchat ARGV`` with ``stdin`` piped in, as a shell pipe runs it."""
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC", "LANG": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
           "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    return subprocess.run([sys.executable, "-m", "monchat", *argv], env=env, cwd=home.parent, input=stdin,
                          capture_output=True, text=True, timeout=120)


def sent_bodies(server, since: int = 0) -> list[str]:
    with server.lock:
        return [json.dumps(r["body"], ensure_ascii=False) for r in server.requests[since:]]


def user_turns(server) -> list[str]:
    """The last user turn of each chat request (what each turn asked the model to answer)."""
    return [[m["content"] for m in r["body"]["messages"] if m["role"] == "user"][-1]
            for r in server.chat_requests() if not r["body"].get("format")]


def files_holding(folder: Path, needle: bytes) -> list[str]:
    """Every file under ``folder`` whose raw bytes hold ``needle`` (relative paths)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and needle in p.read_bytes())


def logged(home: Path, folder: str = "logs") -> bytes:
    return b"".join(p.read_bytes() for p in sorted((home / folder).glob("*.jsonl")))


def backup_members_holding(home: Path, tmp_path: Path, needle: bytes) -> list[str]:
    target = tmp_path / "after.zip"
    assert cli.main(["backup", str(target)]) == 0
    with zipfile.ZipFile(target) as zf:
        return [name for name in zf.namelist() if needle in zf.read(name)]


# ---- measured case 7, as it was found --------------------------------------------------------------------------
def test_offrecord_on_in_a_pipe_keeps_what_follows_off_the_record(ollama, home, tmp_path):
    done = monchat(home, *OLLAMA, "chat", "--persona", "hana", stdin=f"hi\n/offrecord on\n{SECRET}\n")
    assert done.returncode == 0, done.stderr
    assert user_turns(ollama) == ["hi", SECRET]  # the command was done, not sent
    assert all("/offrecord" not in body for body in sent_bodies(ollama))
    assert b"/offrecord" not in logged(home) + logged(home, "off_record")
    assert b"hi" in logged(home) and WORD not in logged(home)
    assert WORD in logged(home, "off_record")
    assert "Off the record" in done.stderr  # said, off stdout: stdout stays one reply a line
    assert done.stdout.splitlines() == ["Hello", "Hello"]

    before = len(ollama.requests)
    assert cli.main([*OLLAMA, "flush"]) == 0
    flushed = sent_bodies(ollama, before)
    assert flushed and all("Xylophone" not in body for body in flushed)
    assert files_holding(home, WORD) == [p for p in files_holding(home, WORD) if p.startswith("off_record/")]
    assert backup_members_holding(home, tmp_path, WORD) == []


def test_offrecord_in_m_and_back_on_the_record(ollama, home):
    done = monchat(home, *OLLAMA, "chat", "--persona", "hana", "-m", "hi", "-m", "/offrecord on", "-m", SECRET,
                   "-m", "/offrecord off", "-m", "I had ramen")
    assert done.returncode == 0, done.stderr
    assert user_turns(ollama) == ["hi", SECRET, "I had ramen"]
    assert WORD not in logged(home) and b"ramen" in logged(home) and b"/offrecord" not in logged(home)
    assert WORD in logged(home, "off_record") and b"ramen" not in logged(home, "off_record")
    assert "On the record again" in done.stderr


# ---- a line that starts with / is never a message by accident --------------------------------------------------
@pytest.mark.parametrize("given, bad", [("pipe", "/offrecrd on"), ("-m", "/offrecrd on"), ("pipe", "/offrecord"),
                                        ("pipe", "/offrecord maybe"), ("pipe", "/secret plan"), ("-m", "/help me"),
                                        ("pipe", "/edit"), ("-m", "/edit"), ("pipe", "  ／ｏｆｆ")])
def test_input_with_a_line_that_is_no_command_is_refused_whole(ollama, home, given, bad):
    lines = ["Quokka says hi", bad, SECRET]
    argv = [a for line in lines for a in ("-m", line)] if given == "-m" else []
    done = monchat(home, *OLLAMA, "chat", "--persona", "hana", *argv,
                   stdin="\n".join(lines) + "\n" if given == "pipe" else "")
    assert done.returncode == 2, done.stderr
    assert ollama.chat_requests() == []  # not even the "hi" before it
    assert files_holding(home, b"Quokka") == [] and files_holding(home, WORD) == []
    assert "line 2" in done.stderr and "Nothing was sent or logged" in done.stderr
    if bad == "/edit":
        assert "/edit TEXT" in done.stderr
    elif "offrecord" in bad:
        assert "/offrecord on" in done.stderr
    else:
        assert "/regenerate, /edit, /offrecord, /help, /quit, /exit" in done.stderr or "takes nothing" in done.stderr
        assert "type the slash twice" in done.stderr
    assert "Traceback" not in done.stderr  # and what was typed is named on stderr only, never in monchat.log:
    assert files_holding(home, bad.split()[0].encode()) == []


@pytest.mark.parametrize("given", ["pipe", "-m"])
def test_two_slashes_send_one(ollama, home, given):
    lines = ["//usr/bin is full", "  //tmp"]
    argv = [a for line in lines for a in ("-m", line)] if given == "-m" else []
    done = monchat(home, *OLLAMA, "chat", "--persona", "hana", *argv,
                   stdin="\n".join(lines) + "\n" if given == "pipe" else "")
    assert done.returncode == 0, done.stderr
    assert user_turns(ollama) == ["/usr/bin is full", "  /tmp"]
    assert b'"/usr/bin is full"' in logged(home) and b"//usr" not in logged(home)


def test_help_quit_regenerate_and_edit_act_in_a_pipe_as_at_the_prompt(ollama, home):
    done = monchat(home, *OLLAMA, "chat", "--persona", "hana",
                   stdin="/help\nI like coffee\n/regenerate\n/edit I like green tea\n/quit\nnever sent\n/no such\n")
    assert done.returncode == 0, done.stderr
    assert "/offrecord on|off" in done.stdout and "//path sends /path" in done.stdout
    assert user_turns(ollama) == ["I like coffee", "I like coffee", "I like green tea"]
    turns = [[(m["role"], m["content"]) for m in r["body"]["messages"] if m["role"] != "system"]
             for r in ollama.chat_requests()]
    assert turns[1] == [("user", "I like coffee")]  # asked again: the old reply is not sent back
    assert turns[2] == [("user", "I like green tea")]  # the edit replaced the message
    assert b"never sent" not in logged(home) and b"/help" not in logged(home) and b"/edit" not in logged(home)
    assert done.stdout.count("Hello") == 3


def test_at_the_prompt_an_unknown_command_is_said_and_the_chat_goes_on(ollama, home, monkeypatch, capsys):
    import io

    class Typed(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.setattr(sys, "stdin", Typed("/offrecrd on\n//etc/hosts is mine\n/help\n"))
    assert cli.main([*OLLAMA, "chat", "--persona", "hana"]) == 0
    said = capsys.readouterr()
    assert "'/offrecrd' is not a command" in said.err and "/offrecord" in said.err
    assert "//path sends /path" in said.out
    assert user_turns(ollama) == ["/etc/hosts is mine"]
    assert b"offrecrd" not in logged(home) + logged(home, "off_record")


# ---- without a database, the commands still decide where the words go ---------------------------------------
@pytest.mark.parametrize("argv, stdin", [([], f"first\n/offrecord on\n{SECRET}\n"),
                                         (["--off-record", "-m", SECRET], "")])
def test_without_a_database_off_record_lines_go_to_the_off_record_files(home, argv, stdin):
    from monchat.core.errors import StorageCorrupt
    from tests.test_faults import fresh_home
    from tests.test_storage_errors import corrupt_by_garbage
    from tests.test_unlucky_machines import without_wal_files
    fresh_home(home)
    without_wal_files(home)
    corrupt_by_garbage(home / "monchat.db")
    done = monchat(home, "chat", *argv, stdin=stdin)
    assert done.returncode == StorageCorrupt.exit_code, done.stderr
    assert WORD not in logged(home) and WORD in logged(home, "off_record")
    assert b"/offrecord" not in logged(home) + logged(home, "off_record")
    if stdin:
        assert b"first" in logged(home)


def test_without_a_database_a_line_that_is_no_command_logs_nothing(home):
    from tests.test_faults import fresh_home
    from tests.test_storage_errors import corrupt_by_garbage
    from tests.test_unlucky_machines import without_wal_files
    fresh_home(home)
    without_wal_files(home)
    corrupt_by_garbage(home / "monchat.db")
    done = monchat(home, "chat", stdin=f"Quokka first\n/offrecrd on\n{SECRET}\n")
    assert done.returncode == 2, done.stderr
    assert files_holding(home, b"Quokka") == [] and files_holding(home, WORD) == []


# ---- the reading itself ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("line, read", [
    ("hello", Said("hello")), ("1/2 cup", Said("1/2 cup")), ("   ", None), ("", None),
    ("//", Said("/")), ("// x", Said("/ x")), ("／／path", Said("／path")),
    ("/help", Command("/help")), ("  /HELP  ", Command("/help")), ("/offrecord ON", Command("/offrecord", "on")),
    ("／offrecord　on", Command("/offrecord", "on")), ("/offrecord\ton", Command("/offrecord", "on")),
    ("/edit  I like tea ", Command("/edit", "I like tea")), ("/edit //not a command", Command("/edit", "//not a command")),
    ("/regenerate", Command("/regenerate")), ("/quit", Command("/quit")), ("/exit", Command("/exit")),
])
def test_read_line(line, read):
    assert read_line(line) == read


@pytest.mark.parametrize("line", ["/", "/ hello", "/offrecord", "/offrecord onn", "/quit now", "/regenerate 2",
                                  "/usr/bin", "/s", "\t/offrecrd on", "／ｘ"])
def test_read_line_refuses(line):
    with pytest.raises(InputError):
        read_line(line)


@given(st.text())
def test_no_line_that_starts_with_a_slash_is_a_message_unless_the_slash_is_doubled(text):
    line = "/" + text
    try:
        read = read_line(line)
    except InputError:
        return
    assert isinstance(read, Command) or (isinstance(read, Said) and text.startswith(("/", "／"))
                                         and read.text == text)
