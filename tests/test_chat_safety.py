"""What the user types is never lost: logged before anything can fail, decoded with replacement,
kept when a reply is stopped with Ctrl+C; settings that pass their range never break chat; and every
file monchat writes is private whatever the umask.
"""

from __future__ import annotations

import _thread
import io
import json
import os
import stat
import subprocess
import sys
import time
from datetime import timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings as hsettings
from hypothesis import strategies as st

from monchat.cli import main as cli, chat as cli_chat
from monchat.app import build_app
from monchat.core.errors import KnownError, SettingsError
from monchat.core.settings import CHECKS, Settings, set_value, settings_from_dict
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
REPO = Path(__file__).resolve().parents[1]


def logged_texts(app) -> list[tuple[str, str, str]]:
    return [(m.role, m.text, m.status) for m in app.logbook.read_all().messages]


# ---- log first, then resolve ----------------------------------------------------------------
def test_a_message_is_logged_even_when_the_backend_cannot_be_built(home):
    app = build_app(str(home), tz=UTC)
    app.settings.backend.name = "ollama"
    app.settings.ollama.host = "http://[bad"
    with pytest.raises(SettingsError):
        app.chat.send("消えないで")
    assert logged_texts(app) == [("user", "消えないで", "ok")]
    app.close()


def test_a_message_is_logged_even_when_its_persona_is_gone(home):
    app = build_app(str(home), pinned_backend=ScriptedBackend(default_reply="x"), tz=UTC)
    with pytest.raises(KnownError):
        app.chat.send("誰か聞いて", persona_id="nobody")
    assert logged_texts(app) == [("user", "誰か聞いて", "ok")]
    app.close()


def run_chat(home: Path, args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    """``monchat chat`` with invalid bytes where a user might type them, scripted backend replying "ok"."""
    code = ("import sys; from monchat.cli import main as cli; from tests.support.scripted import ScriptedBackend; "
            "sys.exit(cli.main(sys.argv[1:], pinned_backend=ScriptedBackend(default_reply='ok')))")
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC", "LC_ALL": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code, "chat", *args], env=env, input=stdin,
                          capture_output=True, timeout=120)


def test_invalid_utf8_in_an_argument_is_replaced_and_logged(home):
    bad = b"caf\xe9 au lait"
    code = ("import sys; from monchat.cli import main as cli; from tests.support.scripted import ScriptedBackend; "
            "sys.exit(cli.main(['chat', '-m', sys.argv[1]], pinned_backend=ScriptedBackend(default_reply='ok')))")
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC", "LC_ALL": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable.encode(), b"-c", code.encode(), bad], env=env, capture_output=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    assert b"not valid UTF-8" in result.stderr
    app = build_app(str(home))
    assert [t for _, t, _ in logged_texts(app)] == ["caf\ufffd au lait", "ok"]
    app.close()


def test_invalid_utf8_on_piped_stdin_drops_no_later_line(home):
    result = run_chat(home, [], stdin=b"first\nbad \xff\xfe line\nthird\n")
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().splitlines() == ["ok", "ok", "ok"]
    app = build_app(str(home))
    users = [t for role, t, _ in logged_texts(app) if role == "user"]
    assert users == ["first", "bad \ufffd\ufffd line", "third"]
    app.close()


# ---- Ctrl+C in the terminal chat ------------------------------------------------------------
class CtrlCBackend(ScriptedBackend):
    """Streams a first piece, then the user presses Ctrl+C (SIGINT reaches the main thread)."""

    def _stream(self, system, turns, temperature, reply):
        self.history.append(("chat", system, list(turns), None))
        yield "途中まで"
        _thread.interrupt_main()
        for _ in range(12000):  # the stop event ends this as soon as the main thread sets it (60 s: a busy machine)
            time.sleep(0.005)
            yield "…"


def test_ctrl_c_in_the_terminal_chat_logs_the_partial_reply_as_stopped(home, monkeypatch, capsys):
    app = build_app(str(home), pinned_backend=CtrlCBackend(), tz=UTC)
    monkeypatch.setattr(sys, "stdin", io.StringIO("聞いて\n"))
    assert cli_chat.interactive_chat(app, "hana") == 0
    messages = logged_texts(app)
    assert messages[0] == ("user", "聞いて", "ok")
    role, text, status = messages[1]
    assert (role, status) == ("assistant", "stopped") and text.startswith("途中まで")
    assert "(stopped)" in capsys.readouterr().out
    app.close()


# ---- settings ranges -------------------------------------------------------------------------
def test_a_huge_window_is_refused_and_chat_still_works(home, capsys):
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text("[chat]\nwindow_hours = 100000000\n")
    assert cli.main(["chat", "-m", "hi"], pinned_backend=ScriptedBackend(default_reply="ok")) == 0
    assert capsys.readouterr().out.strip() == "ok"
    with pytest.raises(SettingsError):
        set_value(Settings(), "chat.window_hours", "100000000")
    settings, warnings = settings_from_dict({"chat": {"window_hours": 100000000}})
    assert settings.chat.window_hours == 12 and "out of range" in warnings[0]


NUMERIC = sorted(f"{section}.{key}" for section, values in Settings().to_dict().items()
                 for key, value in values.items() if isinstance(value, (int, float)) and not isinstance(value, bool))


def test_every_numeric_setting_has_a_range():
    assert [name for name in NUMERIC if name not in CHECKS] == []


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(NUMERIC),
       value=st.one_of(st.integers(-2**63, 2**63), st.floats(allow_nan=True, allow_infinity=True)))
def test_any_accepted_numeric_setting_leaves_chat_working(home, name, value):
    section, key = name.split(".")
    settings, warnings = settings_from_dict({section: {key: value}})
    if warnings:
        return  # refused: the default stays
    app = build_app(str(home), pinned_backend=ScriptedBackend(default_reply="ok"), tz=UTC)
    app.settings = settings
    app.chat.settings = settings
    try:
        app.chat.window()
        app.chat.gate()
        app.status.report()
    finally:
        app.close()


# ---- file modes -----------------------------------------------------------------------------
MODES_SCRIPT = """
import os, sys, json
os.umask(0)
from monchat.cli import main as cli
from tests.support.scripted import ScriptedBackend
backend = ScriptedBackend(default_reply='{"items": []}')
for argv in json.loads(sys.argv[1]):
    assert cli.main(argv, pinned_backend=backend) == 0, argv
"""


def test_everything_monchat_writes_is_private_whatever_the_umask(home, tmp_path):
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"spec": "chara_card_v2", "data": {"name": "Mode", "description": "d"}}))
    export = tmp_path / "out" / "export.jsonl"
    export.parent.mkdir()
    commands = [["chat", "-m", "hello"], ["settings", "set", "gate.warn_files", "4"],
                ["personas", "import", str(card)], ["export", "--jsonl", "-o", str(export)],
                ["flush"], ["status"]]
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", MODES_SCRIPT, json.dumps(commands)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    wide = {str(p.relative_to(home)): oct(stat.S_IMODE(p.stat().st_mode)) for p in [home, *home.rglob("*")]
            if stat.S_IMODE(p.stat().st_mode) != (0o700 if p.is_dir() else 0o600)}
    assert wide == {}
    assert {"monchat.log", "monchat.db", "settings.toml", "memory.md"} <= {p.name for p in home.iterdir()}
    assert stat.S_IMODE(export.stat().st_mode) == 0o600


def test_folders_left_open_by_an_older_monchat_are_made_private(home):
    for folder in (home / "logs", home / "personas" / "surface"):
        folder.mkdir(parents=True)
        os.chmod(folder, 0o755)
    os.chmod(home / "personas", 0o755)
    build_app(str(home)).close()
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in (home / "logs", home / "personas",
                                                          home / "personas" / "surface")} == {oct(0o700)}
