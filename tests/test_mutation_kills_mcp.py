"""The MCP server's hook and access log where the mutmut run of ``core/transfer/mcp_server.py`` found them unpinned
(issue 44).

The one hook: a never-remember rule hides what holds its words, and a message (which has no slot) only by its
words. The access log: each entry's fields by name, a client's name as written, a new log private to the user
(0600), the bound's edge (a log of exactly its bound is kept whole, one past it keeps its newest half), and a log
a crash left damaged still read past the damage. A history search's results: their fields and their limit.
docs/testing.md lists the survivors these kill and the rest.
"""

from __future__ import annotations

from datetime import timezone

import pytest

from monchat.app import build_app
from monchat.core.transfer.mcp_server import ACCESS_LOG, PROFILE_URI, AccessLog, MemoryPort, visible_to_clients
from monchat.core.types import Message
from tests.support.memory_seed import seed

UTC = timezone.utc


@pytest.fixture
def app(home):
    app = build_app(str(home), tz=UTC)
    yield app
    app.close()


def test_a_message_is_hidden_from_other_apps_only_by_its_words(app):
    message = {"id": "m1", "ts": "2026-12-04T21:00:00+00:00", "role": "user", "persona": "", "text": "Walked by the river"}
    app.never.add("xxxx")  # a rule no word of the message holds; a message has no slot for it to match
    assert visible_to_clients(app, "message", message)
    app.never.add("river")
    assert not visible_to_clients(app, "message", message)


def test_each_entry_names_when_who_what_and_how_many_with_the_clients_name_as_written(tmp_path):
    log = AccessLog(tmp_path / ACCESS_LOG)
    log.write("クロード 1.0", "search_memory", "", 3)
    [entry] = log.read()
    assert sorted(entry) == ["at", "client", "event", "results", "what"]
    assert (entry["client"], entry["event"], entry["what"], entry["results"]) == ("クロード 1.0", "search_memory", "", 3)
    assert "クロード 1.0".encode() in (tmp_path / ACCESS_LOG).read_bytes()  # as written, for a user who opens it


def test_a_new_access_log_is_private_to_the_user(tmp_path):
    AccessLog(tmp_path / ACCESS_LOG).write("host", "connected")
    assert (tmp_path / ACCESS_LOG).stat().st_mode & 0o777 == 0o600


def equal_entries(log: AccessLog, count: int) -> int:
    """Write ``count`` entries of one size; return that size in bytes."""
    for n in range(count):
        log.write("host", "search_memory", "", 100 + n)  # three digits: every entry is as long
    sizes = {len(line) for line in log.path.read_bytes().splitlines(keepends=True)}
    assert len(sizes) == 1, sizes
    return sizes.pop()


def test_a_log_of_exactly_its_bound_is_kept_whole_and_one_entry_more_keeps_the_newest_half(tmp_path):
    probe = AccessLog(tmp_path / "probe.jsonl")
    size = equal_entries(probe, 1)
    log = AccessLog(tmp_path / ACCESS_LOG, max_bytes=10 * size)
    equal_entries(log, 10)
    assert [e["results"] for e in log.read()] == list(range(100, 110))
    log.write("host", "search_memory", "", 110)  # 11 entries: over the bound, the newest 5 fit half of it
    assert [e["results"] for e in log.read()] == list(range(106, 111))
    assert log.path.read_bytes().count(b"\n") == 5


def test_a_damaged_log_is_read_past_its_damage(tmp_path):
    log = AccessLog(tmp_path / ACCESS_LOG)
    log.write("host", "connected")
    with open(log.path, "ab") as handle:
        handle.write(b'{"at": "2026-12-04T2\xff\n{"cut off\n')  # bytes that are not UTF-8, a line cut short
    log.write("host", "search_memory", "", 2)
    assert [e["event"] for e in log.read()] == ["connected", "search_memory"]


@pytest.fixture
def seeded(app):
    seed(app)
    return app


def test_a_message_handed_out_says_only_who_when_and_what(seeded):
    [hit] = MemoryPort(seeded).search_history("Kanazawa")
    assert sorted(hit) == ["id", "persona", "role", "text", "ts"]  # not whether it was off the record


def test_a_history_search_hands_out_at_most_the_limit_and_at_least_one(seeded):
    seeded.archive.archive([Message(id=f"u-more-{n}", ts=f"2026-11-30T19:0{n}:00.000+09:00", role="user",
                                    text=f"Kanazawa again, day {n}", persona="mira") for n in range(3)])
    port = MemoryPort(seeded)
    assert len(port.search_history("Kanazawa")) == 4
    assert len(port.search_history("Kanazawa", limit=1)) == 1
    assert len(port.search_history("Kanazawa", limit=0)) == 1


def test_each_read_is_logged_with_its_client_its_name_and_its_count_only(seeded):
    port = MemoryPort(seeded)
    port.client = "host 1.2"
    port.search_history("Kanazawa")
    port.search_memory("Kanazawa")
    port.profile()
    entries = [{k: v for k, v in e.items() if k != "at"} for e in port.log.read()]
    assert entries == [{"client": "host 1.2", "event": "search_history", "what": "", "results": 1},
                       {"client": "host 1.2", "event": "search_memory", "what": "", "results": 1},
                       {"client": "host 1.2", "event": "read", "what": PROFILE_URI, "results": entries[2]["results"]}]
    assert entries[2]["results"] > 0


def test_a_memory_handed_out_says_what_where_of_which_kind_in_which_state_and_since_when(seeded):
    [hit] = MemoryPort(seeded).search_memory("Kanazawa")
    [memory] = [m for m in seeded.memory.memories.live() if m.text == "Lives in Kanazawa"]
    assert hit == {"id": memory.id, "text": "Lives in Kanazawa", "slot": "home/city", "kind": memory.kind,
                   "state": str(memory.state), "since": memory.valid_at}
