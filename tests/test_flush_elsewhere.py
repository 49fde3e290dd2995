"""A flush running in another process opens chat here too, in the terminal as in the window (one service).

The other flush read its files when it started; what is sent meanwhile lands in a log file it then keeps,
and the next flush archives it.
"""

from __future__ import annotations

from datetime import timedelta

from monchat.app import build_app
from monchat.cli.main import main as cli
from monchat.core.paths import Paths, is_marked, running_mark
from monchat.core.types import Message, format_ts, new_message_id
from tests.support.other_flush import flush_in_another_process
from tests.support.scripted import ScriptedBackend


def five_files(home) -> None:
    app = build_app(str(home), pinned_backend=ScriptedBackend())
    try:
        for n in range(5):
            when = app.clock() - timedelta(hours=6 * n + 0.01)
            app.logbook.append(Message(id=new_message_id(), ts=format_ts(when), role="user", text=f"message {n}",
                                       persona="hana"))
        assert app.chat.gate().state == "stop"
    finally:
        app.store.close()


def test_monchat_chat_goes_on_while_a_flush_runs_in_another_process(home, capsys):
    five_files(home)
    assert cli(["chat", "-m", "paused?"], pinned_backend=ScriptedBackend(default_reply="no")) != 0
    assert "monchat flush" in capsys.readouterr().err
    with flush_in_another_process(home) as other:
        backend = ScriptedBackend().enqueue("still here")
        assert cli(["chat", "-m", "sent while it flushes"], pinned_backend=backend) == 0
        assert "still here" in capsys.readouterr().out
        report = other.finish()
    assert report["archived"] == 5
    app = build_app(str(home), pinned_backend=ScriptedBackend())
    try:
        during = [m for m in app.logbook.read_all().messages if m.text in ("sent while it flushes", "still here")]
        assert len(during) == 2 and not {m.id for m in during} & app.archive.ids()
        assert len(app.logbook.files()) == 1 and app.chat.gate().state == "ok"
    finally:
        app.store.close()


def test_the_terminal_chat_says_a_flush_is_running_and_answers(home, monkeypatch, capsys):
    import io
    import sys

    from monchat.cli import chat as cli_chat
    five_files(home)
    with flush_in_another_process(home) as other:
        app = build_app(str(home), pinned_backend=ScriptedBackend().enqueue("still here"))
        try:
            monkeypatch.setattr(sys, "stdin", io.StringIO("typed while it flushes\n"))
            assert cli_chat.interactive_chat(app, "hana") == 0
        finally:
            app.close()
        out = capsys.readouterr().out
        assert "a flush is running" in out and "kept for the next flush" in out and "still here" in out
        assert other.finish()["archived"] == 5


def test_chat_m_without_a_database_logs_the_message_while_a_flush_runs_elsewhere(home, capsys):
    """The database cannot be opened (here: damaged); the message is still logged at the stop count."""
    from tests.test_storage_errors import corrupt_by_garbage
    from tests.test_unlucky_machines import without_wal_files
    five_files(home)
    without_wal_files(home)
    corrupt_by_garbage(home / "monchat.db")
    paths = Paths.from_env(home)
    assert cli(["chat", "-m", "paused?"]) != 0
    assert "was not saved" in capsys.readouterr().err
    with running_mark(paths.flush_running):  # as the flush in another process holds it
        assert cli(["chat", "-m", "kept for later"]) != 0
    assert "your message was saved in" in capsys.readouterr().err
    assert len([p for p in paths.logs_dir.glob("*.jsonl") if "kept for later" in p.read_text()]) == 1


def test_the_running_mark_is_seen_by_a_probe_that_never_takes_it(home):
    paths = Paths.from_env(home).ensure()
    assert not is_marked(paths.flush_running)  # never flushed: no file yet
    with running_mark(paths.flush_running):
        assert is_marked(paths.flush_running) and is_marked(paths.flush_running)  # probing twice keeps it held
    assert not is_marked(paths.flush_running)


def test_a_backup_leaves_the_running_mark_out(home, tmp_path):
    from zipfile import ZipFile

    from monchat.core.transfer.backup import create_backup
    five_files(home)
    paths = Paths.from_env(home)
    with running_mark(paths.flush_running):  # a flush ran here once: the mark's file stays behind, unlocked
        pass
    assert paths.flush_running.exists()
    names = ZipFile(create_backup(paths, tmp_path / "backup.zip").path).namelist()
    assert any(name.endswith(".jsonl") for name in names)
    assert not any(name.endswith("flush.running") or name.endswith("flush.lock") for name in names)
