"""Never-remember rules cover word forms (issue 36, measured case 4), through every door that asks them.

Each measured case runs through a real flush (filters answer through the real ``ollama`` client from the
loopback fake Ollama, insisting on the item): with the rule, nothing reaches memory, ``memory.md``, the prompt
or MCP ``search_memory``; without it, the same answer does (the control), and a rule added afterwards finds
that memory (``monchat memory never matches``), hides it from MCP and forgets it. The matcher itself is checked
on a table of English and Japanese words it must and must not cover, and each of its parts (stemmer, digit
split, literal slash, Japanese analyser, NFKC, the inflection check) is removed in turn to see its case fail.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monchat.cli import main as cli
from monchat.core.errors import InputError
from monchat.core.memory import never_match
from monchat.core.memory.never import NEVER_RULE, matches_never
from monchat.core.transfer.mcp_server import MemoryPort
from tests.flush.conftest import ollama_world

# (rule, what the user said, what the model insists on remembering, its slot, a word MCP is searched for)
MEASURED = [
    ("passwords", "My password is the same for every site.", "password is the same for every site",
     "security/habit", "password"),
    ("divorce", "I got divorced in May.", "got divorced in May", "life/family", "divorced"),
    ("salary", "My salaries were late twice this year.", "salaries were late twice", "work/pay", "salaries"),
    ("password", "My password123 habit is hard to break.", "has a password123 habit", "security/habit",
     "password123"),
    ("AC/DC", "I have loved AC/DC since I was twelve.", "loved AC/DC since twelve", "music/band", "AC/DC"),
    ("AC/DC", "ＡＣ／ＤＣのライブに行った。", "ＡＣ／ＤＣのライブに行った", "music/live", "ライブ"),
    ("ｐａｓｓｗｏｒｄ", "My password is written on a sticky note.", "password on a sticky note",
     "security/note", "sticky"),
    ("別れる", "先月、彼と別れた。", "先月彼と別れた", "love/partner", "先月"),
    ("離婚", "去年離婚した。", "去年離婚した", "life/family", "去年"),
]
IDS = [f"{rule}-{said[:12]}" for rule, said, *_ in MEASURED]


@pytest.fixture
def world_and_server(home):
    with ollama_world(home) as (world, server):
        yield world, server


def insist(world, server, text: str, slot: str) -> None:
    """Every filter call proposes this item, citing the last line said."""
    alias = world.line_aliases()[f"m{len(world.said)}"]

    def answer(body: dict) -> str:
        return json.dumps({"items": [{"reason": "the user said so", "text": text, "slot": slot, "kind": "explicit",
                                      "score": 0.95, "evidence": [alias]}]})
    server.structured_reply = answer


def memory_md(world) -> str:
    """memory.md's remembered part: its History section lists a forgotten memory on purpose (``memory restore``
    can bring it back); what a scrub of words taken back removes from it is issue 36's "one way out"."""
    path = world.app.paths.memory_md
    return path.read_text(encoding="utf-8").split("## History")[0] if path.exists() else ""


def reached(world, text: str, word: str) -> dict[str, bool]:
    """Where ``text`` stands now: a live memory, memory.md, the prompt, MCP ``search_memory``."""
    live = [m for m in world.store.all() if m.text == text and m.live]
    return {"memory": bool(live), "memory.md": text in memory_md(world), "prompt": text in world.prompt(),
            "mcp": any(r["text"] == text for r in MemoryPort(world.app).search_memory(word))}


@pytest.mark.parametrize("rule, said, text, slot, word", MEASURED, ids=IDS)
def test_a_measured_case_reaches_no_memory_through_a_flush(world_and_server, rule, said, text, slot, word):
    world, server = world_and_server
    world.app.never.add(rule)
    world.say("2026-11-22T20:00:00+09:00", said)
    insist(world, server, text, slot)
    report = world.flush("2026-11-23T09:00:00+09:00")
    assert [(d["text"], d["rule"]) for d in report.dropped_items] == [(text, NEVER_RULE)] * len(report.dropped_items)
    assert report.dropped_items
    assert not any(m.text == text for m in world.store.all())  # in no state at all
    assert text not in world.app.paths.memory_md.read_text(encoding="utf-8")  # not even its History
    assert reached(world, text, word) == {"memory": False, "memory.md": False, "prompt": False, "mcp": False}


@pytest.mark.parametrize("rule, said, text, slot, word", MEASURED, ids=IDS)
def test_without_the_rule_it_is_remembered_and_the_rule_added_later_finds_it(world_and_server, capsys, rule,
                                                                               said, text, slot, word):
    """The control (the same answer becomes lasting memory everywhere), then the existing-memory check."""
    world, server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", said)
    insist(world, server, text, slot)
    world.flush("2026-11-23T09:00:00+09:00")
    assert reached(world, text, word) == {"memory": True, "memory.md": True, "prompt": True, "mcp": True}
    kept = world.mem(text)
    out = world.cli(capsys, "memory", "never", "add", rule)
    assert "1 memory(ies) you already have match it" in out and kept.id in out
    assert [m["id"] for m in world.cli_json(capsys, "memory", "never", "matches")] == [kept.id]
    assert MemoryPort(world.app).search_memory(word) == []  # hidden from other apps at once
    assert world.cli_json(capsys, "memory", "never", "forget") == {"forgotten": [kept.id]}
    assert reached(world, text, word) == {"memory": False, "memory.md": False, "prompt": False, "mcp": False}


def test_mcp_neither_shows_nor_takes_a_word_form_a_rule_covers(world_and_server):
    world, _server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", "I got divorced in May.")
    world.app.never.add("divorce")
    port = MemoryPort(world.app)
    assert port.search_history("divorced") == []
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    with pytest.raises(InputError, match="keeps this topic out"):
        port.propose("Got divorced in May", "life/family")
    world.app.never.add("AC/DC")
    with pytest.raises(InputError, match="keeps this topic out"):
        port.propose("Loves ＡＣ／ＤＣ", "music/band")


def test_the_diary_is_never_shown_a_line_a_rule_covers_in_another_form(home):
    with ollama_world(home, background=True) as (world, server):
        world.app.settings.background.reflect = world.app.settings.background.lint_llm = False
        world.app.never.add("divorce")
        world.app.never.add("別れる")
        world.say("2026-11-22T20:00:00+09:00", "I got divorced in May, it still hurts.")
        world.say("2026-11-22T20:02:00+09:00", "先月、彼と別れた。")
        world.say("2026-11-22T20:05:00+09:00", "I cooked curry with my sister tonight.")

        def answer(body: dict) -> str:
            if "private diary" in json.dumps(body, ensure_ascii=False):
                return json.dumps({"text": "Cooked curry with their sister.", "cited": ["d1"]})
            return json.dumps({"items": []})
        server.structured_reply = answer
        world.flush("2026-11-23T09:00:00+09:00")
        diary = [json.dumps(r["body"], ensure_ascii=False) for r in server.requests
                 if "private diary" in json.dumps(r["body"], ensure_ascii=False)]
        shown = diary[0].split("private diary")[-1]
        assert len(diary) == 1 and "curry" in shown
        assert "divorced" not in shown and "別れた" not in shown


# ---- the matcher on its own ----------------------------------------------------------------------------------
COVERED = [
    ("passwords", "My password is the same for every site"),
    ("password", "Passwords are in a file"),
    ("divorce", "I got divorced in May"),
    ("divorced", "thinking about divorcing"),
    ("salary", "My salaries…"),
    ("password", "My password123 habit"),
    ("password", "パスワードはpassword123です"),
    ("covid19", "I had covid-19 in March"),
    ("AC/DC", "I have loved AC/DC since I was twelve"),
    ("AC/DC", "ＡＣ／ＤＣ rocks"),
    ("ＡＣ／ＤＣ", "ac/dc rocks"),
    ("password", "my ｐａｓｓｗｏｒｄ"),
    ("cat", "I have two cats"),
    ("run", "I was running late"),
    ("study", "I studied all night"),
    ("stop", "I stopped smoking"),
    ("my ex", "my ex's new car"),
    ("my ex", "talked about my ex again"),
    ("c++", "I code in C++ all day"),
    ("別れる", "先月、彼と別れた"),
    ("別れる", "私は別れません"),
    ("別れる", "もう別れている"),
    ("別れた", "彼と別れるつもり"),
    ("離婚", "去年離婚した"),
    ("離婚した", "去年離婚しました"),
    ("仕事を辞める", "会社じゃなくて仕事を辞めました"),
    ("健康", "健康診断に行った"),
    ("パスワード", "ﾊﾟｽﾜｰﾄﾞは全部同じ"),
]
NOT_COVERED = [
    ("cat", "my category of choice"),
    ("art", "I started running"),
    ("AC/DC", "I bought a cd player"),
    ("AC/DC", "the AC and the DC current"),
    ("organ", "I buy organic food"),
    ("import", "an important day"),
    ("present", "my presentation went well"),
    ("universe", "my university days"),
    ("health", "a healthy lunch"),
    ("password", "a passwordless login"),
    ("my ex", "my exam went well"),
    ("my ex", "that is my. Ex-colleagues came"),
    ("c++", "vitamin c every day"),
    ("password", "the word pass"),
    ("別れる", "分かれ道で迷った"),
    ("離婚した", "結婚した"),
    ("food/", "I like food"),
    ("divorce", "離婚した"),  # a rule is matched in its own language
]


@pytest.mark.parametrize("rule, text", COVERED)
def test_the_matcher_covers_a_word_in_another_form(rule, text):
    assert matches_never(text, "x/y", [rule]) == rule


@pytest.mark.parametrize("rule, text", NOT_COVERED)
def test_the_matcher_stays_with_the_words_meaning(rule, text):
    assert matches_never(text, "x/y", [rule]) is None


def test_a_slash_rule_is_a_slot_family_and_text():
    assert matches_never("ok", "ac/dc/live", ["AC/DC"]) == "AC/DC"
    assert matches_never("ok", "food/daily", ["food/"]) == "food/"
    assert matches_never("ok", "foodie/blog", ["food/"]) is None
    assert matches_never("loves divorce dramas", "", []) is None  # no rule: nothing covered


# ---- each part seen failing with it removed ------------------------------------------------------------------
def _plain_fold(text: str) -> str:
    return " ".join((text or "").casefold().split())


ABLATIONS = {
    # part removed: (what replaces it, the cases that then slip through)
    "stemmer": (("_stem", lambda word: word),
                [("divorce", "I got divorced in May"), ("salary", "My salaries…"), ("study", "I studied")]),
    "digit split": (("_WORD", re.compile(r"[^\W_]+(?:'[^\W_]+)*")),
                    [("password", "My password123 habit")]),
    "literal slash": (("_LITERAL_SLASH", re.compile(r"(?!)")),
                      [("AC/DC", "I have loved AC/DC since I was twelve")]),
    "NFKC": (("fold", _plain_fold), [("AC/DC", "ＡＣ／ＤＣ rocks"), ("password", "my ｐａｓｓｗｏｒｄ")]),
    "Japanese analyser": (("_rule_lemmas", lambda rule: ()), [("別れる", "先月、彼と別れた"),
                                                            ("離婚した", "去年離婚しました")]),
}


@pytest.mark.parametrize("part", list(ABLATIONS))
def test_each_part_is_needed(monkeypatch, part):
    """With the part replaced by nothing, its cases are no longer covered (and they are with it)."""
    (name, stand_in), cases = ABLATIONS[part]
    for rule, text in cases:
        assert matches_never(text, "", [rule]) == rule
    never_match._compile.cache_clear()
    monkeypatch.setattr(never_match, name, stand_in)
    try:
        for rule, text in cases:
            assert matches_never(text, "", [rule]) is None, (part, rule, text)
    finally:
        never_match._compile.cache_clear()


def test_the_inflection_check_keeps_the_stemmer_from_joining_roots(monkeypatch):
    """Snowball alone joins "import" with "important" and "present" with "presentation": the ending check parts
    them."""
    cases = [("import", "an important day"), ("present", "my presentation went well")]
    assert all(matches_never(text, "", [rule]) is None for rule, text in cases)
    monkeypatch.setattr(never_match, "_inflection", lambda tail, shared: True)
    assert all(matches_never(text, "", [rule]) == rule for rule, text in cases)


# ---- the analysers load only when a rule is matched ----------------------------------------------------------
ANALYSERS = ("snowballstemmer", "janome")


def test_a_flush_without_rules_loads_no_analyser_and_a_rule_loads_only_its_own(tmp_path):
    from tests.test_fast_start import run_python
    code = f"""
import json, sys
from tests.flush.conftest import ollama_world
from pathlib import Path
loaded = lambda: [m for m in {ANALYSERS!r} if m in sys.modules]
out = {{}}
with ollama_world(Path({str(tmp_path / "h")!r})) as (world, server):
    world.say("2026-11-22T20:00:00+09:00", "My password123 habit is hard to break.")
    alias = world.line_aliases()["m1"]
    server.structured_reply = lambda body: json.dumps({{"items": [{{"reason": "said", "text": "has a habit",
        "slot": "security/habit", "kind": "explicit", "score": 0.95, "evidence": [alias]}}]}})
    world.flush("2026-11-23T09:00:00+09:00")
    out["flushed"] = world.has("has a habit")
    out["no rules"] = loaded()
    from monchat.core.memory.never import matches_never
    matches_never("I got divorced", "", ["divorce"])
    out["latin rule"] = loaded()
    matches_never("彼と別れた", "", ["divorce"])
    out["latin rule, japanese text"] = loaded()
    matches_never("彼と別れた", "", ["別れる"])
    out["japanese rule"] = loaded()
print(json.dumps(out))
"""
    result = run_python(code, tmp_path / "h")
    assert result == {"flushed": True, "no rules": [], "latin rule": ["snowballstemmer"],
                      "latin rule, japanese text": ["snowballstemmer"],
                      "japanese rule": ["snowballstemmer", "janome"]}


# ---- any rule the user can write ---------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAzZ09 -_/'+.éßＡ１あア漢ｶ"), min_size=1, max_size=12),
       st.text(alphabet=st.sampled_from("aAzZ09 -_/'+.éßＡ１あア漢ｶ\n"), max_size=30))
def test_any_rule_covers_its_own_words_and_never_raises(rule, text):
    """A rule written as text (not a slot family only) covers that very text, in any surroundings; any text is
    checked without an error."""
    matches_never(text, text, [rule])
    folded = never_match.fold(rule)
    if folded.strip("/ ") and ("/" not in folded or never_match._LITERAL_SLASH.search(folded)):
        assert matches_never(f"said {rule} today", "", [rule]) == rule
