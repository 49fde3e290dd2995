"""Search over the archive and the unflushed logs: `monchat search`, browsing by day, the moment of a message."""

from __future__ import annotations

import json
from datetime import timezone

import pytest
from hypothesis import given, settings, strategies as st

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.errors import InputError, NotFound
from monchat.core.logs.search import SearchService
from monchat.core.store.migrations import trigram_available
from monchat.core.types import Message, format_ts
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
NO_ITEMS = '{"items": []}'


def message(n: int, text: str, role: str = "user", day: int = 29, persona: str = "hana") -> Message:
    from datetime import datetime, timedelta
    when = datetime(2026, 11, day, 10, tzinfo=UTC) + timedelta(minutes=n)
    return Message(id=f"m{day}{n:04d}", ts=format_ts(when), role=role, text=text, persona=persona)


def search_json(capsys, *args) -> list[dict]:
    capsys.readouterr()
    assert cli.main(["search", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_finds_a_message_before_and_after_a_flush(home, capsys):
    backend = ScriptedBackend(default_reply=NO_ITEMS)
    assert cli.main(["chat", "--persona", "hana", "-m", "昨日は仙台ですき焼きを食べた"], pinned_backend=backend) == 0
    app = build_app(str(home))
    assert app.archive.count() == 0 and len(app.logbook.files()) == 1  # only in the log file
    app.close()

    before = search_json(capsys, "すき焼き")
    assert [(h["role"], h["text"]) for h in before] == [("user", "昨日は仙台ですき焼きを食べた")]
    assert set(before[0]) == {"id", "ts", "role", "persona", "text", "replaced", "off_record", "status"}
    assert before[0]["persona"] == "hana"

    assert cli.main(["flush"], pinned_backend=backend) == 0
    app = build_app(str(home))
    assert app.logbook.files() == [] and app.archive.count() == 2  # only in the archive now
    app.close()
    after = search_json(capsys, "すき焼き")
    assert after == before
    assert search_json(capsys, "仙台", "食べ") == before  # every word must occur; two-character words scan


def test_both_places_are_searched_and_a_copy_in_both_is_shown_once(home):
    app = build_app(str(home), tz=UTC)
    archived = [message(1, "ラーメンが好き"), message(2, "味噌ラーメンですね", "assistant")]
    app.archive.archive(archived)
    app.logbook.import_messages([archived[0], message(3, "今日もラーメン")])  # m290001 in both places
    search = SearchService(app.logbook, app.archive)
    assert search.indexed() == trigram_available(app.store.db)
    hits = search.search("ラーメン")
    assert [h.id for h in hits] == ["m290003", "m290002", "m290001"]  # newest first, each once
    assert [h.id for h in search.search("ラー")] == ["m290003", "m290002", "m290001"]  # short: the scan
    assert [h.id for h in search.search("ramen")] == []
    assert [h.id for h in search.search("味噌 ラーメン")] == ["m290002"]
    assert [h.id for h in search.search("ラーメン", limit=1)] == ["m290003"]


def test_latin_search_ignores_case_and_treats_like_wildcards_literally(home):
    app = build_app(str(home), tz=UTC)
    app.archive.archive([message(1, "I love Ramen"), message(2, "100% sure"), message(3, "a_b and aXb")])
    search = SearchService(app.logbook, app.archive)
    assert [h.id for h in search.search("RAMEN")] == ["m290001"]
    assert [h.id for h in search.search("%")] == ["m290002"]
    assert [h.id for h in search.search("a_b")] == ["m290003"]
    assert [h.id for h in search.search('"quoted')] == []


@settings(max_examples=40, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12).filter(lambda q: bool(q.split())))
def test_any_query_is_answered_like_a_plain_scan(tmp_path_factory, query):
    home = tmp_path_factory.mktemp("h")
    app = build_app(str(home), tz=UTC)
    texts = ["すき焼きを食べた", "Ramen NIGHT", 'he said "hi" (ok)', "100% * OR AND NEAR", "a_b"] + ["·"] * 60
    app.archive.archive([message(n, t) for n, t in enumerate(texts)])  # the filler keeps rare words rare:
    # a word in one or two messages goes through the index, a common one through the scan
    terms = [t.casefold() for t in query.split()]
    expected = sorted(f"m29{n:04d}" for n, t in enumerate(texts) if all(w in t.casefold() for w in terms))
    assert sorted(h.id for h in SearchService(app.logbook, app.archive).search(query)) == expected
    app.close()


def test_days_a_day_and_the_moment_of_a_message(home, capsys):
    app = build_app(str(home), tz=UTC)
    app.archive.archive([message(n, f"day 28 #{n}", day=28) for n in range(3)])
    app.logbook.import_messages([message(n, f"day 29 #{n}") for n in range(30)])
    search = SearchService(app.logbook, app.archive)
    assert search.days() == {"2026-11-28": 3, "2026-11-29": 30}
    assert [m.text for m in search.on_day("2026-11-28")] == ["day 28 #0", "day 28 #1", "day 28 #2"]
    around = search.around("m290001", before=2, after=2)
    assert [m.id for m in around] == ["m280001", "m280002", "m290000", "m290001", "m290002", "m290003"][1:]
    with pytest.raises(NotFound):
        search.around("nope")
    app.close()
    days = search_json(capsys, "--days")
    assert days == [{"day": "2026-11-28", "messages": 3, "tier": None},  # no flush yet: no tier
                    {"day": "2026-11-29", "messages": 30, "tier": None}]
    assert len(search_json(capsys, "--day", "2026-11-29")) == 30
    assert cli.main(["search", "--day", "29-11-2026"]) == 2


def test_empty_query_and_no_hits_exit_codes(home, capsys):
    assert cli.main(["search"]) == 2
    assert "empty" in capsys.readouterr().err
    assert cli.main(["search", "nothing-here"]) == 1
    app = build_app(str(home))
    for query in ("x" * 501, "a\x00b", "\x7f"):
        with pytest.raises(InputError):
            SearchService(app.logbook, app.archive).search(query)


def test_the_migration_indexed_rows_archived_before_it(home):
    """m010 fills the index for existing rows: drop it, re-run the migration, and old rows are found."""
    from monchat.core.store.migrations import m010_message_search
    app = build_app(str(home), tz=UTC)
    app.archive.archive([message(1, "古いメッセージ")])
    db = app.store.db
    db["messages_fts"].drop()
    for trigger in [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]:
        if trigger.startswith("messages_a"):
            db.execute(f"DROP TRIGGER {trigger}")
    m010_message_search(db)
    assert [h.id for h in SearchService(app.logbook, app.archive).search("メッセージ")] == ["m290001"]


def test_without_the_trigram_index_search_scans_and_says_so(home, capsys):
    """An SQLite without FTS5 trigram gets no index from m010: search still answers, by a scan, and says so."""
    app = build_app(str(home), tz=UTC)
    app.archive.archive([message(1, "索引のない検索")])
    app.store.db["messages_fts"].drop()
    search = SearchService(app.logbook, app.archive)
    assert not search.indexed()
    assert [h.id for h in search.search("索引の 検索")] == ["m290001"]
    app.close()
    capsys.readouterr()
    assert cli.main(["search", "検索"]) == 0
    assert "no FTS5 trigram tokenizer" in capsys.readouterr().err
