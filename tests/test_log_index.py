"""The index of the unflushed logs: what it gives is what a full read gives, and a turn reads only its window.

Every scenario compares ``LogBook.since``/``before`` (the index: lines this process appended, other
writers found by inode, size and time) with a full read of the same files, after a change made the
way a user or another process makes it.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monchat.app import build_app
from monchat.core.logs.index import IndexStats
from monchat.core.logs.files import LogBook
from monchat.core.types import Message, format_ts
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
START = datetime(2026, 11, 29, 0, 0, tzinfo=UTC)


def message(minutes: float, text: str = "こんにちは", role: str = "user") -> Message:
    ts = START + timedelta(minutes=minutes)
    return Message(id=f"m{minutes:08.2f}-{text[:8]}", ts=format_ts(ts), role=role, text=text, persona="hana")


def full_since(logbook: LogBook, epoch: float) -> list[Message]:
    return [m for m in LogBook(logbook.logs_dir, logbook.quarantine_dir, logbook.tz).read_all().messages
            if m.dt.timestamp() >= epoch]


def by_time(messages: list[Message]) -> list[Message]:
    return sorted(messages, key=lambda m: (m.dt.timestamp(), m.id))


def assert_same(logbook: LogBook, hours_back: float = 0) -> list[Message]:
    """The index and a full read agree, for the whole folder and for a window starting ``hours_back``."""
    for epoch in (float("-inf"), (START + timedelta(hours=hours_back)).timestamp()):
        assert by_time(logbook.since(epoch)) == by_time(full_since(logbook, epoch))
    return logbook.since(float("-inf"))


@pytest.fixture
def logbook(tmp_path) -> LogBook:
    return LogBook(tmp_path / "logs", tmp_path / "quarantine", tz=UTC)


def test_appends_by_this_process_are_indexed_as_they_are_written(logbook):
    for n in range(30):
        logbook.append(message(n * 20, f"話 {n}"))  # 10 hours: two 6-hour files
        assert_same(logbook, hours_back=5)
    assert len(logbook.files()) == 2
    stats = logbook.index.stats
    reads, parsed = stats.full_reads, stats.lines_parsed
    logbook.append(message(700, "もう一つ"))
    assert stats.lines_parsed == parsed + 1  # as it was written
    assert logbook.since(START.timestamp() + 86400) == []
    assert (stats.full_reads, stats.lines_parsed) == (reads, parsed + 1)  # and not read back from the file
    assert_same(logbook, hours_back=5)


def test_appends_by_a_second_logbook_on_the_same_folder_are_found(logbook):
    other = LogBook(logbook.logs_dir, logbook.quarantine_dir, tz=UTC)
    logbook.append(message(1, "ここから"))
    assert_same(logbook)
    for n in range(2, 12):
        (other if n % 3 else logbook).append(message(n, f"交互 {n}"))
        assert_same(logbook, hours_back=0.1)
        assert_same(other, hours_back=0.1)
    other.import_messages([message(400 + n, f"取り込み {n}") for n in range(20)])
    assert len(assert_same(logbook, hours_back=6)) == 31
    assert logbook.index.stats.full_reads == 1  # only the new file is read from its start; the first read on


def test_a_truncated_file_is_read_again_wholly(logbook):
    for n in range(10):
        logbook.append(message(n, f"長い話 {n}"))
    assert_same(logbook)
    path = logbook.files()[0]
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:4]) + b"\n")  # a hand edit keeps the first four
    assert len(assert_same(logbook)) == 4
    logbook.append(message(20, "その後"))
    assert [m.text for m in assert_same(logbook)][-1] == "その後"


def test_a_replaced_file_is_read_again_even_when_it_grew(logbook):
    for n in range(5):
        logbook.append(message(n, f"元 {n}"))
    assert_same(logbook)
    path = logbook.files()[0]
    other = LogBook(logbook.logs_dir, logbook.quarantine_dir, tz=UTC)
    path.unlink()
    other.import_messages([message(n + 0.5, f"差し替え後の長めの話 {n}") for n in range(8)])  # a new inode
    assert [m.text[:5] for m in assert_same(logbook)] == ["差し替え後"] * 8


def test_an_edit_in_place_of_the_same_size_is_found_by_its_time(logbook):
    for n in range(4):
        logbook.append(message(n, f"話{n}"))
    assert_same(logbook, hours_back=5)
    path = logbook.files()[0]
    stat = path.stat()
    # Message 2 moved seven hours on, into the window: its bytes keep their places, its time changed.
    path.write_bytes(path.read_bytes().replace(b'"2026-11-29T00:02', b'"2026-11-29T07:02'))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert path.stat().st_size == stat.st_size
    assert [m.text for m in assert_same(logbook, hours_back=5)] == ["話0", "話1", "話2", "話3"]
    assert [m.text for m in logbook.since((START + timedelta(hours=5)).timestamp())] == ["話2"]


def test_an_edit_before_the_known_end_that_also_grew_the_file_is_read_again(logbook):
    for n in range(4):
        logbook.append(message(n, f"話{n}"))
    assert_same(logbook)
    path = logbook.files()[0]
    data = path.read_bytes().replace("話3".encode(), "長くなった話3".encode())  # the lines after it moved
    path.write_bytes(data + (message(9, "追加").to_json() + "\n").encode())
    texts = [m.text for m in assert_same(logbook)]
    assert texts == ["話0", "話1", "話2", "長くなった話3", "追加"]


def test_a_bad_line_written_by_another_process_is_quarantined_once_and_the_rest_kept(logbook):
    logbook.append(message(1, "前"))
    assert_same(logbook)
    path = logbook.files()[0]
    with path.open("ab") as out:
        out.write(b'{"id": "torn", "ts": "2026-11-29T00:02:00+00:00", "ro\n')
    other = LogBook(logbook.logs_dir, logbook.quarantine_dir, tz=UTC)
    other.append(message(3, "後"))
    assert [m.text for m in assert_same(logbook)] == ["前", "後"]
    quarantined = logbook.quarantined()
    assert [p.name.split(".")[1] for p in quarantined] == ["jsonl"] and ".line2." in quarantined[0].name
    assert_same(logbook)
    assert logbook.quarantined() == quarantined  # once, however often it is read


def test_a_torn_last_line_is_quarantined_like_a_full_read_does_and_the_next_append_is_found(logbook):
    logbook.append(message(1, "前"))
    path = logbook.files()[0]
    with path.open("ab") as out:
        out.write(message(2, "途中").to_json().encode()[:20])  # the power went mid-write
    assert [m.text for m in assert_same(logbook)] == ["前"]
    assert len(logbook.quarantined()) == 1
    logbook.append(message(3, "後"))  # starts on a fresh line
    assert [m.text for m in assert_same(logbook)] == ["前", "後"]
    assert len(logbook.quarantined()) == 1


def test_a_file_removed_by_a_flush_leaves_the_index(logbook):
    logbook.append(message(1, "朝"))
    logbook.append(message(60 * 7, "昼"))  # the next 6-hour file
    assert len(assert_same(logbook)) == 2
    first = logbook.files()[0]
    assert logbook.remove_flushed([first], {message(1, "朝").id}) == []
    assert [m.text for m in assert_same(logbook)] == ["昼"]
    logbook.append(message(2, "朝の続き"))  # a fresh file under the old name
    assert [m.text for m in assert_same(logbook)] == ["朝の続き", "昼"]


def test_paging_back_gives_the_last_messages_before_a_time(logbook):
    for n in range(40):
        logbook.append(message(n * 10, f"話 {n}"))
    epoch = (START + timedelta(minutes=300)).timestamp()
    older = by_time(logbook.before(epoch, 7))
    assert older[-7:] == by_time([m for m in full_since(logbook, float("-inf")) if m.dt.timestamp() < epoch])[-7:]
    assert len(older) == 7


def test_a_turn_reads_only_the_lines_of_its_window(tmp_path):
    """8,000 unflushed lines a day old: after the first window, a turn reads none of them."""
    clock = [START + timedelta(days=1)]
    app = build_app(str(tmp_path), pinned_backend=ScriptedBackend(default_reply="うん"), clock=lambda: clock[0],
                    tz=UTC)
    app.settings.gate.warn_files = app.settings.gate.stop_files = 1000
    old = [message(i * 0.05, f"昔の話 {i} " + "あ" * 40, "user" if i % 2 == 0 else "assistant") for i in range(8000)]
    assert app.logbook.import_messages(old) == 8000
    assert app.chat.window() == []  # the conversation shown at start: the index is built once here
    assert app.logbook.index.stats.lines_parsed >= 8000
    app.logbook.index.stats = stats = IndexStats()
    for n in range(3):
        clock[0] += timedelta(minutes=1)
        app.chat.send(f"今日の話 {n}")
    window = app.chat.window()
    assert len(window) == 6
    window_bytes = sum(len(m.to_json().encode()) + 1 for m in window)
    assert stats.full_reads == 0
    # Each turn reads its window once (1, 3 and 5 messages with its own, then 6 here) and parses its two appends.
    assert stats.lines_parsed == (1 + 3 + 5 + 6) + 3 * 2
    assert stats.bytes_read <= 4 * window_bytes  # the 8,000 old lines are about 1 MB
    app.close()


def test_a_turn_hands_back_the_context_meter_of_the_next_turn(tmp_path):
    clock = [START]
    app = build_app(str(tmp_path), pinned_backend=ScriptedBackend(default_reply="はい、そうです"),
                    clock=lambda: clock[0], tz=UTC)
    for n in range(3):
        clock[0] += timedelta(minutes=1)
        result = app.chat.send(f"質問 {n}")
        assert result.meter == app.chat.context_meter()
    clock[0] += timedelta(minutes=1)
    result = app.chat.regenerate()
    assert result.meter == app.chat.context_meter()
    result = app.chat.edit_last("質問を言い直す")
    assert result.meter == app.chat.context_meter()
    clock[0] += timedelta(hours=14)  # the window moved on: the old messages have left it
    result = app.chat.send("久しぶり")
    assert result.meter == app.chat.context_meter() and result.meter.window_tokens > 0
    app.close()


def test_index_lines_are_json_lines_a_full_read_agrees_with(logbook):
    """A message with every field set survives the trip through the index unchanged."""
    full = Message(id="x1", ts=format_ts(START), role="assistant", text="改行\nも\"引用\"も", persona="hana",
                   backend="ollama", model="m", status="partial", replaces="x0", usage={"prompt_tokens": 3})
    logbook.append(full)
    assert logbook.since(float("-inf")) == [full]
    assert json.loads(logbook.files()[0].read_text())["text"] == full.text


class CountingBackend(ScriptedBackend):
    """The scripted backend, counting what it is asked to count."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.counted: list[str] = []

    def count_text(self, text: str) -> int:
        self.counted.append(text)
        return super().count_text(text)


def test_a_turn_counts_only_the_texts_it_has_not_counted_before(tmp_path):
    clock = [START]
    backend = CountingBackend()
    app = build_app(str(tmp_path), pinned_backend=backend, clock=lambda: clock[0], tz=UTC)
    for n in range(4):
        clock[0] += timedelta(minutes=1)
        backend.enqueue(f"答え {n}")
        app.chat.send(f"質問 {n}")
    backend.counted.clear()
    clock[0] += timedelta(minutes=1)
    backend.enqueue("最後の答え")
    result = app.chat.send("新しい質問")
    # The new message (to fit the request) and the reply (for the meter), once each: the system prompt
    # and the window were counted at the turns before.
    assert sorted(backend.counted) == sorted(["新しい質問", "最後の答え"])
    assert result.meter == app.chat.context_meter()
    app.close()


def test_a_bad_line_the_disk_had_no_room_to_copy_out_is_copied_at_a_later_read(logbook):
    logbook.append(message(1, "前"))
    with logbook.files()[0].open("ab") as out:
        out.write(b'{"id": "torn", "ts": \n')
    logbook.quarantine_dir.parent.mkdir(exist_ok=True)
    logbook.quarantine_dir.write_text("something in the way")
    assert [m.text for m in logbook.since(float("-inf"))] == ["前"]  # reading is not blocked
    logbook.quarantine_dir.unlink()
    assert [m.text for m in logbook.since(float("-inf"))] == ["前"]
    assert len(logbook.quarantined()) == 1


OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("append"), st.sampled_from(["this", "other"]), st.integers(0, 900)),
    st.tuples(st.just("import"), st.integers(1, 5), st.integers(0, 900)),
    st.tuples(st.just("bad"), st.booleans()),  # a bad line, with or without its newline
    st.tuples(st.just("cut"), st.integers(0, 400)),  # a hand edit cuts the first file at a byte
    st.tuples(st.just("flush"),),  # the first file is archived and removed
    st.tuples(st.just("read"), st.integers(0, 15)),
), max_size=25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_whatever_happens_to_the_files_the_index_agrees_with_a_full_read(tmp_path_factory, operations):
    folder = tmp_path_factory.mktemp("logs")
    this = LogBook(folder / "logs", folder / "quarantine", tz=UTC)
    other = LogBook(folder / "logs", folder / "quarantine", tz=UTC)
    for n, op in enumerate(operations):
        files = this.files()
        if op[0] == "append":
            (this if op[1] == "this" else other).append(message(op[2], f"話 {n}"))
        elif op[0] == "import":
            other.import_messages([message(op[2] + i, f"取り込み {n}-{i}") for i in range(op[1])])
        elif op[0] == "bad" and files:
            with files[-1].open("ab") as out:
                out.write(b'{"id": "bad", "ts": ' + (b"\n" if op[1] else b""))
        elif op[0] == "cut" and files:
            data = files[0].read_bytes()
            files[0].write_bytes(data[:op[1]])
        elif op[0] == "flush" and files:
            files[0].unlink()
        elif op[0] == "read":
            assert_same(this, hours_back=op[1])
    assert_same(this, hours_back=3)
    assert_same(other, hours_back=3)
