"""The conversation history: archive + unflushed logs, each message once, for the window, scrolling back and export."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from monchat.app import build_app
from monchat.core.logs.history import History, merge_history
from monchat.core.transfer.messages import export_records
from monchat.core.types import Message, format_ts, new_message_id
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
T0 = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


@pytest.fixture
def app(home):
    application = build_app(str(home), pinned_backend=ScriptedBackend(), clock=lambda: T0, tz=UTC)
    yield application
    application.close()


def message(hours_ago: float, text: str, role: str = "user") -> Message:
    return Message(id=new_message_id(), ts=format_ts(T0 - timedelta(hours=hours_ago)), role=role, text=text)


def say(app, *messages: Message) -> None:
    for m in messages:
        app.logbook.append(m)


def archive_and_remove_files(app) -> None:
    """As a flush does: archive every logged message, then remove the files."""
    app.archive.archive(app.logbook.read_all().messages)
    assert app.logbook.remove_flushed(app.logbook.files(), app.archive.ids()) == []


def test_merge_keeps_each_message_once_oldest_first_the_archived_copy_winning():
    early, late = message(2, "early"), message(1, "late")
    unflushed_copy = Message(**{**early.__dict__, "text": "the log's copy"})
    merged = merge_history([late, early], [unflushed_copy, late])
    assert [m.text for m in merged] == ["early", "late"]


def test_merge_orders_messages_of_the_same_instant_by_id():
    a, b = message(1, "a"), message(1, "b")
    a.id, b.id = "zzzzzzzz", "aaaaaaaa"
    assert [m.text for m in merge_history([a], [b])] == ["b", "a"]


def test_older_reads_the_archive_and_the_unflushed_files_and_keeps_the_last_page(app):
    archived = [message(40 - n, f"archived {n}") for n in range(3)]
    say(app, *archived)
    archive_and_remove_files(app)
    unflushed = [message(20 - n, f"logged {n}") for n in range(3)]
    say(app, *unflushed)
    newest = message(1, "inside the window")
    say(app, newest)

    before = newest.dt.timestamp()
    assert [m.text for m in app.chat.older(before, 50)] == [m.text for m in archived + unflushed]
    assert [m.text for m in app.chat.older(before, 4)] == ["archived 2", "logged 0", "logged 1", "logged 2"]
    assert [m.text for m in app.chat.older(unflushed[0].dt.timestamp(), 2)] == ["archived 1", "archived 2"]


def test_a_message_both_archived_and_still_in_its_file_is_read_once_everywhere(app):
    # A flush killed after its commit and before it removed the file leaves both copies.
    first, reply = message(3, "first"), message(2.9, "reply", role="assistant")
    say(app, first, reply)
    app.archive.archive([first, reply])
    assert len(app.logbook.read_all().messages) == 2 and app.archive.count() == 2

    history = History(app.logbook, app.archive)
    assert [m.id for m in history.all()] == [first.id, reply.id]
    assert [m.id for m in history.since(0)] == [first.id, reply.id]
    assert [m.id for m in history.before(T0.timestamp(), 10)] == [first.id, reply.id]
    assert [m.id for m in app.chat.window()] == [first.id, reply.id]
    assert [r["id"] for r in export_records(app.logbook, app.archive)] == [first.id, reply.id]
