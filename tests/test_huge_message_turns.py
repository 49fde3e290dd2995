"""A chat turn after a huge message costs what a turn without it costs (issue 25, point 8).

A turn reads its window cut (``core/records/long_text.py``): from the log, a long line is parsed once when it
is indexed and its cut message kept (``core/logs/index.py``); from the archive, only the first part
stored beside the text (migration m024) is read. The whole message stays in the log and the archive.
"""

from __future__ import annotations

import sqlite3
from datetime import timezone

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.records.long_text import TURN_TEXT_CHARS, left_out
from tests.support.scripted import ScriptedBackend
from tests.test_hostile_imports import huge_history

UTC = timezone.utc
CHARS = 3_000_000


def backend() -> ScriptedBackend:
    scripted = ScriptedBackend(default_reply="ok")
    scripted.context_length = lambda: 1_000_000  # a large cloud model's: the cut message fits
    return scripted


def huge_in_window(app) -> str:
    return next(m.text for m in app.chat.window() if m.text.startswith("the quick"))


def test_turns_after_a_huge_logged_message_do_not_read_its_line_again(home, tmp_path):
    assert cli.main(["import", str(huge_history(tmp_path, CHARS))]) == 0
    app = build_app(str(home), tz=UTC, pinned_backend=backend())
    try:
        app.chat.send("first turn")  # indexes the log: the long line is parsed once here
        stats = app.logbook.index.stats
        for n in range(3):
            read_before = stats.bytes_read
            app.chat.send(f"turn {n}")
            assert stats.bytes_read - read_before < 100_000  # the new lines, not the 3 MB one
        shown = huge_in_window(app)
        assert len(shown) < TURN_TEXT_CHARS + 200 and left_out(shown) == CHARS - TURN_TEXT_CHARS
        whole = app.chat.history.message(next(m.id for m in app.chat.window() if m.text.startswith("the quick")))
        assert len(whole.text) == CHARS  # asked for by id, it is whole
    finally:
        app.close()


def test_a_turn_reads_an_archived_huge_message_cut_and_the_archive_keeps_it_whole(home, tmp_path):
    assert cli.main(["import", str(huge_history(tmp_path, CHARS))]) == 0
    flush_backend = ScriptedBackend(default_reply='{"items": []}')
    assert cli.main(["flush"], pinned_backend=flush_backend) == 0
    app = build_app(str(home), tz=UTC, pinned_backend=backend())
    try:
        assert not app.logbook.files()  # in the archive only
        shown = huge_in_window(app)
        assert len(shown) < TURN_TEXT_CHARS + 200 and left_out(shown) == CHARS - TURN_TEXT_CHARS
        assert len(app.chat.older(9e9, 10)[0].text) < TURN_TEXT_CHARS + 200  # scrolling back too
        assert max(len(m.text) for m in app.archive.all()) == CHARS
        result = app.chat.send("what did I paste?")
        assert result.reply is not None
    finally:
        app.close()


def test_an_archive_from_before_the_cut_columns_is_read_cut_after_the_migration(home, tmp_path):
    assert cli.main(["import", str(huge_history(tmp_path, CHARS))]) == 0
    assert cli.main(["flush"], pinned_backend=ScriptedBackend(default_reply='{"items": []}')) == 0
    db = sqlite3.connect(home / "monchat.db")  # as an older monchat left it
    with db:
        db.execute("ALTER TABLE messages DROP COLUMN text_head")
        db.execute("ALTER TABLE messages DROP COLUMN text_chars")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm024_long_text_head'")
    db.close()
    app = build_app(str(home), tz=UTC, pinned_backend=backend())
    try:
        shown = huge_in_window(app)
        assert len(shown) < TURN_TEXT_CHARS + 200 and left_out(shown) == CHARS - TURN_TEXT_CHARS
    finally:
        app.close()
