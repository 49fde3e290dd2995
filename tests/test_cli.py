"""The CLI, run as a user runs it (``python -m monchat`` in a subprocess) and in-process with a pinned backend."""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import stat
import subprocess
import sys
from datetime import timezone

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.errors import BackendUnreachable
from tests.support.scripted import FailingBackend, ScriptedBackend

UTC = timezone.utc

HISTORY = [
    {"ts": "2026-11-29T05:59:59+00:00", "role": "user", "text": "朝ごはんはまだ"},
    {"ts": "2026-11-29T15:00:00+09:00", "role": "assistant", "text": "何か食べてね", "persona": "ren"},
    {"ts": "2026-11-29T23:59:59.999+00:00", "role": "user", "text": "もう寝る"},
    {"ts": "2026-11-30T09:00:00+09:00", "role": "user", "text": "おはよう"},
]
EXPECTED_FILES = ["2026-11-29_00.jsonl", "2026-11-29_06.jsonl", "2026-11-29_18.jsonl", "2026-11-30_00.jsonl"]
FIVE_SLOTS = [{"ts": f"2026-11-{day}T{hour}:00:00+00:00", "role": "user", "text": f"slot {day} {hour}"}
              for day, hour in (("27", "01"), ("27", "07"), ("27", "13"), ("27", "19"), ("28", "01"))]


def closed_port_url() -> str:
    """A loopback address nothing listens on: an Ollama that is not running."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def run(home, tmp_path):
    """Run ``python -m monchat ARGS`` as a user would, with MONCHAT_HOME, TZ=UTC and no backend running."""
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC", "OLLAMA_HOST": closed_port_url(),
           "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        env.pop(name, None)

    def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "monchat", *args], env=env, cwd=tmp_path, input=stdin,
                              capture_output=True, text=True, timeout=180)
    return run_cli


@pytest.fixture
def in_process(home):
    """Call ``cli.main`` in this process; leave no logging handler behind."""
    before = list(logging.getLogger().handlers)
    level = logging.getLogger().level
    yield cli.main
    root = logging.getLogger()
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def write_jsonl(path, records) -> None:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n"
                            for r in records), encoding="utf-8")


def log_names(home) -> list[str]:
    logs = home / "logs"
    return sorted(p.name for p in logs.glob("*.jsonl")) if logs.is_dir() else []


# ---- status -----------------------------------------------------------------------
def test_status_json_names_backend_model_files_and_gate(run, home):
    # No Ollama answers and no key is set: the automatic choice is the embedded model.
    done = run("status", "--json")
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert (status["backend"], status["model"]) == ("embedded", "SmolLM2-135M-Instruct")
    assert status["unflushed_files"] == 0 and status["gate"] == "ok"

    assert run("settings", "set", "backend.name", "ollama").returncode == 0
    assert run("settings", "set", "ollama.model", "qwen3:8b").returncode == 0
    write_jsonl(home / "import.jsonl", [{"ts": f"2026-11-2{n}T10:00:00+00:00", "role": "user", "text": f"day {n}"}
                                        for n in range(3)])
    assert run("import", str(home / "import.jsonl")).returncode == 0
    status = json.loads(run("status", "--json").stdout)
    assert (status["backend"], status["model"]) == ("ollama", "qwen3:8b")  # what the settings name
    assert status["unflushed_files"] == 3 and status["gate"] == "warn"


def test_status_in_words(run):
    done = run("--backend", "embedded", "status")
    assert done.returncode == 0, done.stderr
    assert "embedded" in done.stdout and "0 unflushed" in done.stdout


# ---- import ------------------------------------------------------------------------
def test_import_places_lines_into_six_hour_files(run, home, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, HISTORY)
    done = run("import", str(source))
    assert done.returncode == 0, done.stderr
    assert "imported 4 of 4" in done.stdout
    assert log_names(home) == EXPECTED_FILES
    contents = {name: (home / "logs" / name).read_text(encoding="utf-8") for name in EXPECTED_FILES}
    assert "何か食べてね" in contents["2026-11-29_06.jsonl"] and "おはよう" in contents["2026-11-30_00.jsonl"]

    again = run("import", str(source))
    assert again.returncode == 0, again.stderr
    assert "imported 0 of 4" in again.stdout
    assert {name: (home / "logs" / name).read_text(encoding="utf-8") for name in log_names(home)} == contents


def test_import_with_bad_lines_imports_nothing_and_names_them(run, home, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, [HISTORY[0], '{"ts": "2026-11-29T10:00:00+00:00", "role": "user", "te', HISTORY[1],
                         {"ts": "2026-11-29T10:00:00", "role": "user", "text": "no offset"}])
    done = run("import", str(source))
    assert done.returncode != 0
    assert "line 2" in done.stderr and "line 4" in done.stderr
    assert "line 1:" not in done.stderr and "line 3:" not in done.stderr
    assert "--skip-bad" in done.stderr
    assert log_names(home) == []

    skipped = run("import", "--skip-bad", str(source))
    assert "imported 2 of 4" in skipped.stdout
    assert "line 2" in skipped.stderr and "line 4" in skipped.stderr
    assert log_names(home) == ["2026-11-29_00.jsonl", "2026-11-29_06.jsonl"]


# ---- export ------------------------------------------------------------------------
def test_export_jsonl_prints_every_message_once(run, home, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, HISTORY)
    assert run("import", str(source)).returncode == 0
    app = build_app(str(home), tz=UTC)
    messages = app.logbook.read_all().messages
    app.archive.archive(messages[:3])  # some archived (and still in their files) ...
    first_file = app.logbook.files()[0]
    assert app.logbook.remove_flushed([first_file], app.archive.ids()) == []  # ... one only in the archive
    app.store.close()

    done = run("export", "--jsonl")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 4 and len({r["id"] for r in records}) == 4
    for record in records:
        assert {"id", "ts", "role", "text", "persona"} <= set(record)
    # a line naming no persona went, before the first start, to the terminal language's persona
    # (tests/test_import_first_start.py): Hana in a Japanese terminal, Mira otherwise
    unnamed = "hana" if os.environ.get("LC_ALL", os.environ.get("LANG", "")).lower().startswith("ja") else "mira"
    assert [(r["role"], r["text"], r["persona"]) for r in records] == [
        (h["role"], h["text"], h.get("persona", unnamed)) for h in HISTORY]
    assert {r["id"] for r in records} == {m.id for m in messages}


# ---- the flush gate ------------------------------------------------------------------
def test_at_the_stop_gate_chat_says_flush_and_calls_no_model(run, in_process, home, tmp_path, capsys):
    source = tmp_path / "five.jsonl"
    write_jsonl(source, FIVE_SLOTS)
    assert run("import", str(source)).returncode == 0
    assert len(log_names(home)) == 5
    status = json.loads(run("status", "--json").stdout)
    assert (status["unflushed_files"], status["gate"]) == (5, "stop")
    before = {name: (home / "logs" / name).read_bytes() for name in log_names(home)}

    done = run("chat", "-m", "hi")
    assert done.returncode != 0
    assert "flush" in done.stderr.lower()

    backend = ScriptedBackend(default_reply="should never be said")
    code = in_process(["chat", "-m", "hi"], pinned_backend=backend)
    assert code != 0
    assert "monchat flush" in capsys.readouterr().err
    assert backend.history == [] and backend.calls == 0
    assert {name: (home / "logs" / name).read_bytes() for name in log_names(home)} == before


def test_warn_gate_is_reported_but_chat_goes_on(in_process, run, tmp_path, capsys):
    source = tmp_path / "three.jsonl"
    write_jsonl(source, FIVE_SLOTS[:3])
    assert run("import", str(source)).returncode == 0
    assert json.loads(run("status", "--json").stdout)["gate"] == "warn"
    backend = ScriptedBackend().enqueue("still here")
    assert in_process(["chat", "-m", "hi"], pinned_backend=backend) == 0
    assert "still here" in capsys.readouterr().out


# ---- chat ---------------------------------------------------------------------------
def test_chat_message_prints_the_reply_and_logs_both(in_process, home, capsys):
    backend = ScriptedBackend().enqueue(["こんに", "ちは"], "二回目")
    assert in_process(["chat", "-m", "やあ", "-m", "元気？"], pinned_backend=backend) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["こんにちは", "二回目"]
    assert backend.calls == 2
    app = build_app(str(home))
    assert [(m.role, m.text) for m in app.logbook.read_all().messages] == [
        ("user", "やあ"), ("assistant", "こんにちは"), ("user", "元気？"), ("assistant", "二回目")]


def test_chat_with_piped_stdin_answers_each_line(in_process, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("one\n\ntwo\n"))
    backend = ScriptedBackend().enqueue("1", "2")
    assert in_process(["chat", "--persona", "mira"], pinned_backend=backend) == 0
    assert capsys.readouterr().out.splitlines() == ["1", "2"]
    assert [turns[-1].content for _, _, turns, _ in backend.history] == ["one", "two"]
    assert "Mira" in backend.history[0][1]


class TerminalInput(io.StringIO):
    """Lines typed at an interactive terminal (``monchat chat`` then shows its prompt and takes commands)."""

    def isatty(self) -> bool:
        return True


def chat_at_the_prompt(in_process, monkeypatch, typed: str, backend: ScriptedBackend) -> int:
    monkeypatch.setattr(sys, "stdin", TerminalInput(typed))
    return in_process(["chat"], pinned_backend=backend)


def chat_calls(backend: ScriptedBackend) -> list[list[tuple[str, str]]]:
    """The turns each chat call sent, as (role, text)."""
    return [[(t.role, t.content) for t in turns] for kind, _, turns, _ in backend.history if kind == "chat"]


def test_regenerate_at_the_prompt_asks_again_and_the_new_reply_replaces_the_old(in_process, monkeypatch,
                                                                                 home, capsys):
    # A reply logged in the same millisecond as its question could sort before it; the delay keeps order.
    backend = ScriptedBackend(delay=0.002).enqueue("最初の返事", "二度目の返事")
    assert chat_at_the_prompt(in_process, monkeypatch, "やあ\n/regenerate\n", backend) == 0
    assert chat_calls(backend) == [[("user", "やあ")], [("user", "やあ")]]  # the old reply is not sent back
    assert "二度目の返事" in capsys.readouterr().out
    app = build_app(str(home))
    user, first, second = app.logbook.read_all().messages
    assert (second.role, second.text, second.replaces) == ("assistant", "二度目の返事", first.id)
    assert [m.text for m in app.chat.window()] == ["やあ", "二度目の返事"]
    app.close()


def test_edit_at_the_prompt_replaces_the_last_message_and_its_reply(in_process, monkeypatch, home, capsys):
    backend = ScriptedBackend(delay=0.002).enqueue("r1", "r2", "r3")
    typed = "one\ntwo\n/edit two, corrected\n"
    assert chat_at_the_prompt(in_process, monkeypatch, typed, backend) == 0
    assert chat_calls(backend)[2] == [("user", "one"), ("assistant", "r1"), ("user", "two, corrected")]
    assert "r3" in capsys.readouterr().out
    app = build_app(str(home))
    logged = app.logbook.read_all().messages  # issue 36: the edited-away "two" and its reply "r2" left the log
    assert [m.text for m in logged] == ["one", "r1", "two, corrected", "r3"]
    new_user, new_reply = logged[2], logged[3]
    assert new_user.replaces and new_reply.replaces and new_user.replaces != new_reply.replaces
    assert [m.text for m in app.chat.window()] == ["one", "r1", "two, corrected", "r3"]
    app.close()


def test_edit_alone_shows_the_last_message_and_reads_the_new_text(in_process, monkeypatch, home, capsys):
    backend = ScriptedBackend(delay=0.002).enqueue("r1", "r2")
    assert chat_at_the_prompt(in_process, monkeypatch, "typo hre\n/edit\ntypo here\n", backend) == 0
    assert "Your last message: typo hre" in capsys.readouterr().out
    assert chat_calls(backend)[1] == [("user", "typo here")]
    app = build_app(str(home))
    assert [m.text for m in app.chat.window()] == ["typo here", "r2"]
    app.close()


def test_edit_alone_with_an_empty_line_changes_nothing(in_process, monkeypatch, home):
    backend = ScriptedBackend(delay=0.002).enqueue("r1")
    assert chat_at_the_prompt(in_process, monkeypatch, "keep me\n/edit\n\n", backend) == 0
    assert len(chat_calls(backend)) == 1
    app = build_app(str(home))
    assert [m.text for m in app.logbook.read_all().messages] == ["keep me", "r1"]
    app.close()


def test_regenerate_and_edit_with_nothing_said_yet_explain_and_the_chat_goes_on(in_process, monkeypatch,
                                                                                capsys):
    backend = ScriptedBackend(delay=0.002).enqueue("hello back")
    assert chat_at_the_prompt(in_process, monkeypatch, "/regenerate\n/edit\n/edit new\nhello\n", backend) == 0
    captured = capsys.readouterr()
    assert "There is no reply to regenerate" in captured.err
    assert captured.err.count("There is no message to edit") == 2
    assert chat_calls(backend) == [[("user", "hello")]]


def test_help_at_the_prompt_lists_the_commands_and_sends_nothing(in_process, monkeypatch, capsys):
    backend = ScriptedBackend()
    assert chat_at_the_prompt(in_process, monkeypatch, "/help\n", backend) == 0
    out = capsys.readouterr().out
    assert "/help for commands" in out
    for command in ("/regenerate", "/edit TEXT", "/quit"):
        assert command in out
    assert backend.history == []


def test_a_stopped_backend_is_a_clear_error_and_the_message_stays_logged(in_process, home, capsys):
    failing = FailingBackend(BackendUnreachable("Ollama is not running at http://127.0.0.1:11434.",
                                                "Start it with `ollama serve`."))
    code = in_process(["chat", "-m", "聞こえる？"], pinned_backend=failing)
    assert code == BackendUnreachable.exit_code != 0
    err = capsys.readouterr().err
    assert "Ollama is not running" in err and "ollama serve" in err
    app = build_app(str(home))
    assert [(m.role, m.text) for m in app.logbook.read_all().messages] == [("user", "聞こえる？")]


def test_an_unknown_persona_is_a_clear_error(in_process, capsys):
    assert in_process(["chat", "--persona", "nobody", "-m", "hi"], pinned_backend=ScriptedBackend()) != 0
    err = capsys.readouterr().err
    assert "nobody" in err and "hana" in err


# ---- doctor ---------------------------------------------------------------------------
def test_doctor_with_no_usable_backend_fails_and_says_what_to_do(run, home):
    missing = home / "no-such-model.gguf"
    assert run("settings", "set", "embedded.model_path", str(missing)).returncode == 0
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    done = run("doctor")
    assert done.returncode != 0, done.stdout
    assert "ollama serve" in done.stdout
    assert "GEMINI_API_KEY" in done.stdout
    assert str(missing) in done.stdout

    as_json = run("doctor", "--json")
    assert as_json.returncode != 0
    report = json.loads(as_json.stdout)
    assert report["usable"] == []
    assert {s.get("backend") for s in report["sections"]} >= {"ollama", "gemini", "embedded"}


# ---- personas and settings ----------------------------------------------------------------
def test_personas_list_and_validate(run, home):
    listed = run("personas", "list")
    assert listed.returncode == 0, listed.stderr
    for persona_id in ("hana", "mira", "ren"):
        assert persona_id in listed.stdout
    rows = json.loads(run("personas", "list", "--json").stdout)
    assert {"hana", "mira", "ren"} <= {r["id"] for r in rows if r["kind"] == "surface"}

    valid = run("personas", "validate")
    assert valid.returncode == 0, valid.stderr
    assert "valid" in valid.stdout

    user_dir = home / "personas" / "surface"
    user_dir.mkdir(parents=True, exist_ok=True)
    (user_dir / "broken.toml").write_text('id = "broken"\n', encoding="utf-8")
    invalid = run("personas", "validate")
    assert invalid.returncode != 0
    assert "broken.toml" in invalid.stderr and "name is required" in invalid.stderr


def test_settings_set_then_show(run, home):
    done = run("settings", "set", "gate.warn_files", "4")
    assert done.returncode == 0, done.stderr
    shown = run("settings", "show")
    assert shown.returncode == 0
    assert "warn_files = 4" in shown.stdout
    assert "stop_files = 5" in shown.stdout
    settings_file = home / "settings.toml"
    assert stat.S_IMODE(settings_file.stat().st_mode) == 0o600
    assert json.loads(run("--backend", "embedded", "status", "--json").stdout)["warn_at"] == 4

    bad = run("settings", "set", "gate.warn_files", "many")
    assert bad.returncode != 0
    assert "gate.warn_files" in bad.stderr
    assert "warn_files = 4" in run("settings", "show").stdout  # unchanged

    assert run("settings", "set", "no.such", "1").returncode != 0
    assert run("settings", "path").stdout.strip() == str(settings_file)


def test_a_broken_settings_file_is_reported_not_fatal(run, home):
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text("[gate\nwarn_files = 4", encoding="utf-8")
    done = run("--backend", "embedded", "status", "--json")
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["warn_at"] == 3
    assert any("not valid TOML" in w for w in status["settings_warnings"])


def test_the_app_without_a_display_says_how_to_open_it(home):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["MONCHAT_HOME"] = str(home)
    done = subprocess.run([sys.executable, "-m", "monchat"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert "xvfb-run monchat" in done.stderr and "monchat chat" in done.stderr


def test_the_gemini_key_goes_to_the_keyring_and_never_to_a_file(in_process, home, monkeypatch, capsys):
    from tests.fakes.fake_keyring import memory_keyring
    with memory_keyring() as ring:
        monkeypatch.setattr(sys, "stdin", io.StringIO("AIza-secret-key\n"))
        assert in_process(["settings", "gemini-key"]) == 0
        assert ring.values[("monchat", "gemini_api_key")] == "AIza-secret-key"
        for path in home.rglob("*"):
            if path.is_file() and path.suffix != ".db-wal":
                assert b"AIza-secret-key" not in path.read_bytes(), path
        assert build_app(str(home)).secrets.gemini_key() == "AIza-secret-key"
        assert in_process(["settings", "forget-gemini-key"]) == 0
        assert ("monchat", "gemini_api_key") not in ring.values


def test_without_a_keyring_the_key_command_says_to_use_the_environment(in_process, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("AIza-secret-key\n"))
    assert in_process(["settings", "gemini-key"]) != 0
    assert "GEMINI_API_KEY" in capsys.readouterr().err
