"""The MCP server's hook and access log where the mutmut run of ``core/transfer/mcp_server.py`` found them unpinned
(issue 44).

The one hook: a never-remember rule hides what holds its words, and a message (which has no slot) only by its
words. The access log: each entry's fields by name, a client's name as written, a new log private to the user
(0600), the bound's edge (a log of exactly its bound is kept whole, one past it keeps its newest half), and a log
a crash left damaged still read past the damage. A history search's results: their fields and their limit.
The profile: its headings, each line as the prompt carries it, lasting then lately, "nothing remembered" only
when both are empty, a never-remember rule on a lately line's words or slot. The memory search: what either
layer of the prompt carries is found, a memory neither shown nor carried is not, more of the words first, 20 by
default. docs/testing.md lists the survivors these kill and the rest (``propose`` and the wait for the lock:
``test_mutation_kills_mcp_propose.py``; the server as a host meets it: ``test_mutation_kills_mcp_server.py``).
"""

from __future__ import annotations

from datetime import timezone

import pytest

from monchat.app import build_app
from monchat.core.errors import InputError
from monchat.core.memory.prompt import PromptItem, PromptSelection, save_selection
from monchat.core.memory.transitions import Transitions
from monchat.core.records.memory import MemoryRecord
from monchat.core.transfer import mcp_server
from monchat.core.transfer.mcp_server import (ACCESS_LOG, MAX_LIMIT, PROFILE_URI, AccessLog, MemoryPort,
                                              visible_to_clients)
from monchat.core.types import Message
from tests.support.memory_seed import NOW, seed

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
        handle.write(b'[1, 2]\n"a text"\n42\nnull\n')  # JSON, but no entry: `monchat mcp log` would stop at it
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


# ---- the profile and the memory search (the rest of the run's survivors) ---------------------------------------
HEAD = ("# What monchat remembers about its user\n\n"
        "The lines the companion's system prompt carries now: lasting memory, then what came up lately.\n\n")


def remembered(app, *rows: tuple[str, str, str]) -> None:
    """Active memories (id, text, slot) resting on no message: the views never show them, the prompt may."""
    t = Transitions(app.memory.memories, app.settings.flush, NOW)
    with app.store.atomic():
        for memory_id, text, slot in rows:
            t.activate(t.create(MemoryRecord(id=memory_id, text=text, slot=slot, kind="explicit", confidence=0.9,
                                             valid_at=NOW.isoformat(), created_at=NOW.isoformat()), []))


def carried(app, lasting: list[tuple[str, str, str]], lately: list[tuple[str, str, str]]) -> None:
    """The prompt's lines, as the last rebuild chose them."""
    save_selection(app.store, PromptSelection([PromptItem(i, text, slot, 1) for i, text, slot in lasting],
                                              [PromptItem(i, text, slot, 2) for i, text, slot in lately]))


def test_the_profile_reads_lasting_then_lately_each_line_as_the_prompt_carries_it(app):
    port = MemoryPort(app)
    carried(app, [("m1", "Lives in\n  Kanazawa", "home/city")], [("m2", "Started pottery classes", "hobby/pottery"),
                                                                 ("m3", "Reads mysteries", "reading/genre")])
    assert port.profile() == (HEAD + "## Lasting\n\n- Lives in Kanazawa\n\n"
                              "## Lately\n\n- Started pottery classes\n- Reads mysteries\n")
    assert port.log.read()[-1]["results"] == 3
    carried(app, [("m1", "Lives in Kanazawa", "home/city")], [])
    assert port.profile() == HEAD + "## Lasting\n\n- Lives in Kanazawa\n"
    carried(app, [], [("m2", "Started pottery classes", "hobby/pottery")])
    assert port.profile() == HEAD + "## Lately\n\n- Started pottery classes\n"
    carried(app, [], [])
    assert port.profile() == HEAD + "(Nothing remembered yet.)\n"
    assert port.log.read()[-1]["results"] == 0


def test_a_never_remember_rule_hides_a_lately_line_by_its_words_or_its_slot(app):
    port = MemoryPort(app)
    carried(app, [], [("m2", "Started pottery classes", "hobby/ceramics"), ("m3", "Reads mysteries", "reading/genre")])
    app.never.add("ceramics")  # the slot only
    assert port.profile() == HEAD + "## Lately\n\n- Reads mysteries\n"
    app.never.add("mysteries")  # the words only
    assert port.profile() == HEAD + "(Nothing remembered yet.)\n"


def test_every_profile_line_asks_the_hook_as_a_profile_line_with_its_id_text_and_slot(app, monkeypatch):
    asked = []
    monkeypatch.setattr(mcp_server, "visible_to_clients", lambda _app, kind, record: asked.append((kind, record)) or True)
    carried(app, [("m1", "Lives in Kanazawa", "home/city")], [("m2", "Started pottery classes", "hobby/pottery")])
    MemoryPort(app).profile()
    assert asked == [("profile", {"id": "m1", "text": "Lives in Kanazawa", "slot": "home/city"}),
                     ("profile", {"id": "m2", "text": "Started pottery classes", "slot": "hobby/pottery"})]


def test_a_memory_search_finds_what_the_prompt_carries_in_either_layer_and_nothing_else_unshown(app):
    remembered(app, ("m-lasting", "Pottery on Sundays", "hobby/pottery"),
               ("m-lately", "Pottery wheel bought", "hobby/wheel"), ("m-hidden", "Pottery class dropped", "hobby/class"))
    carried(app, [("m-lasting", "Pottery on Sundays", "hobby/pottery")], [("m-lately", "Pottery wheel bought", "hobby/wheel")])
    assert sorted(m["id"] for m in MemoryPort(app).search_memory("pottery")) == ["m-lasting", "m-lately"]


def test_a_memory_search_puts_the_memory_holding_more_of_the_words_first(app):
    rows = [("m-a", "Pottery on Sundays", "a/pottery"), ("m-b", "Pottery wheel at home", "b/wheel")]
    remembered(app, *rows)
    carried(app, rows, [])
    assert [m["id"] for m in MemoryPort(app).search_memory("pottery wheel")] == ["m-b", "m-a"]


def test_a_memory_search_hands_out_20_by_default_at_least_one_and_at_most_50(app):
    rows = [(f"m-kiln-{n:02}", f"Fires the kiln, batch {n}", f"kiln/batch{n:02}") for n in range(MAX_LIMIT + 1)]
    remembered(app, *rows)
    carried(app, rows, [])
    port = MemoryPort(app)
    assert len(port.search_memory("kiln")) == 20
    assert len(port.search_memory("kiln", limit=1)) == 1
    assert len(port.search_memory("kiln", limit=0)) == 1
    assert len(port.search_memory("kiln", limit=1000)) == MAX_LIMIT  # another app reads a bounded handful at a time


def test_a_history_search_hands_out_20_by_default_and_at_most_50(app):
    app.archive.archive([Message(id=f"u-kiln-{n:02}", ts=f"2026-11-30T19:{n:02}:00.000+09:00", role="user",
                                 text=f"fired the kiln again, batch {n}", persona="mira") for n in range(MAX_LIMIT + 1)])
    port = MemoryPort(app)
    assert len(port.search_history("kiln")) == 20
    assert len(port.search_history("kiln", limit=1000)) == MAX_LIMIT


def test_an_empty_search_is_refused_in_words_another_app_can_act_on(app):
    port = MemoryPort(app)
    for search in (port.search_memory, port.search_history):
        with pytest.raises(InputError) as caught:
            search("  ")
        assert (caught.value.message, caught.value.hint) == ("The search is empty.",
                                                             "Type a word or part of a sentence to look for.")


def test_messages_hidden_from_other_apps_do_not_crowd_out_the_ones_it_may_read(app):
    """The search reads a few candidates per result; those the hook hides must not leave the result empty while an
    older message the app may read holds the words (the survivors of its candidate count showed it)."""
    app.archive.archive([Message(id="u-zebra-old", ts="2026-11-28T19:00:00.000+09:00", role="user",
                                 text="saw a zebra at the zoo", persona="mira")])
    for n in range(8):
        app.logbook.off_record.append(Message(id=f"u-zebra-off-{n}", ts=f"2026-11-29T20:0{n}:00.000+09:00",
                                              role="user", text=f"off the record: zebra {n}", persona="mira",
                                              off_record=True))
    port = MemoryPort(app)
    assert [h["id"] for h in port.search_history("zebra", limit=1)] == ["u-zebra-old"]
    assert [h["id"] for h in port.search_history("zebra", limit=2)] == ["u-zebra-old"]


def test_more_hidden_messages_than_one_search_reads_still_leave_the_readable_one_found(app):
    """Past ``SearchService``'s 200 (its default count): the search reads on, however many the hook hides."""
    from monchat.core.logs.search import DEFAULT_LIMIT
    app.archive.archive([Message(id="u-zebra-old", ts="2026-11-28T19:00:00.000+09:00", role="user",
                                 text="saw a zebra at the zoo", persona="mira")]
                        + [Message(id=f"u-zebra-{n:03}", ts=f"2026-11-29T{n // 60:02}:{n % 60:02}:00.000+09:00",
                                   role="user", text=f"the zebra password is {n}", persona="mira")
                           for n in range(DEFAULT_LIMIT + 1)])
    app.never.add("password")
    assert [h["id"] for h in MemoryPort(app).search_history("zebra", limit=1)] == ["u-zebra-old"]


def test_the_access_log_reads_a_clients_name_as_written_whatever_the_locale(tmp_path):
    """The log is written in UTF-8; read in the locale's encoding (Windows' cp1252 or cp932, a C locale), a client's
    non-ASCII name would show garbled in ``monchat mcp log`` and Settings (``read`` 2, 4)."""
    import locale
    import sys
    if sys.flags.utf8_mode:
        pytest.skip("Python's UTF-8 mode reads every file as UTF-8 whatever the locale")
    log = AccessLog(tmp_path / ACCESS_LOG)
    log.write("クロード 1.0", "connected")
    kept = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C")  # a locale whose encoding is ASCII
        assert locale.getpreferredencoding(False).casefold() not in ("utf-8", "utf8")
        assert [e["client"] for e in log.read()] == ["クロード 1.0"]
    finally:
        locale.setlocale(locale.LC_CTYPE, kept)
