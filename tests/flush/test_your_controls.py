"""The user's own controls through real flushes: never remember this, pause memory, off the record.

Filters answer through the real ``ollama`` client from the loopback fake Ollama, which records every
request: what a rule or the pause keeps out must be in no memory, and an off-the-record conversation in
no request a flush sends.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from monchat.core.memory.never import NEVER_RULE, matches_never, never_rules
from monchat.core.memory.pause import pause, resume
from monchat.core.logs.off_record import is_off_record
from monchat.core.logs.search import SearchService
from monchat.core.types import Message, format_ts, parse_ts
from tests.flush.conftest import SEED, ollama_world


@pytest.fixture
def world_and_server(home):
    with ollama_world(home) as (world, server):
        yield world, server


def insisting(text: str, slot: str, kind: str = "explicit", line: str = "m1"):
    """A model that proposes this item, citing the user's line, whatever it is asked (every filter call)."""
    def answer(body: dict) -> str:
        return json.dumps({"items": [{"reason": "the user said so", "text": text, "slot": slot, "kind": kind,
                                      "score": 0.95, "evidence": [ALIASES[line]]}]})
    return answer


ALIASES: dict[str, str] = {}


def script(world, server, text: str, slot: str) -> None:
    """The filters cite the last line said."""
    server.structured_reply = insisting(text, slot, line=f"m{len(world.said)}")
    ALIASES.clear()
    ALIASES.update(world.line_aliases())


def filter_bodies(server) -> list[str]:
    return [json.dumps(r["body"], ensure_ascii=False) for r in server.requests
            if r["path"] == "/api/chat" and "items" in json.dumps(r["body"].get("format") or {})]


def every_text(world) -> list[str]:
    return [m.text for m in world.store.all()]


# ---- never remember this ------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule, said, text, slot", [
    ("health", "My health worries me; I sleep badly these days.", "worried about my health, sleeps badly",
     "sleep/quality"),
    ("Password", "Passwords for the bank are in my blue notebook.", "keeps passwords in a blue notebook",
     "home/notebook"),
    ("food/", "I drink barley tea every morning.", "drinks barley tea every morning", "food/daily"),
    ("健康", "最近、健康診断の結果が心配です。", "健康診断の結果が心配", "body/checkup"),
    ("my ex", "I ran into my ex at the station today.", "ran into my ex at the station", "social/meeting"),
])
def test_a_never_rule_drops_what_a_model_insists_on(world_and_server, capsys, rule, said, text, slot):
    world, server = world_and_server
    world.app.never.add(rule)
    world.say("2026-11-22T20:00:00+09:00", said)
    script(world, server, text, slot)
    report = world.flush("2026-11-23T09:00:00+09:00")
    assert text not in every_text(world)  # in no state: not queued, not a candidate
    assert report.dropped_items and all(d["rule"] == NEVER_RULE for d in report.dropped_items)
    assert {d["text"] for d in report.dropped_items} == {text}
    bodies = filter_bodies(server)
    told = [body.split("Never pick anything about these")[-1] for body in bodies]
    assert len(bodies) == 4 and all(len(t) < len(b) and f"- {rule}" in t for t, b in zip(told, bodies))  # told too
    assert world.queue() == [] and world.log_files() == []  # archived as usual
    assert len(world.rows("messages")) == 1


def test_without_the_rule_the_same_answer_is_remembered(world_and_server):
    """The control of the test above: the insisting model's item passes the guard and becomes memory."""
    world, server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", "My health worries me; I sleep badly these days.")
    script(world, server, "worried about my health, sleeps badly", "sleep/quality")
    report = world.flush("2026-11-23T09:00:00+09:00")
    assert "worried about my health, sleeps badly" in every_text(world)
    assert not [d for d in report.dropped_items if d["rule"] == NEVER_RULE]
    assert all("Never pick anything about" not in body for body in filter_bodies(server))


def test_a_rule_on_the_cited_line_drops_a_paraphrase(world_and_server):
    """The model says "wellbeing"; the line it rests on says "health": the program still drops it."""
    world, server = world_and_server
    world.app.never.add("health")
    world.say("2026-11-22T20:00:00+09:00", "My health worries me; I sleep badly these days.")
    script(world, server, "sleeps badly these days", "sleep/quality")
    report = world.flush("2026-11-23T09:00:00+09:00")
    assert not world.has("sleeps badly these days")
    assert [d["rule"] for d in report.dropped_items] == [NEVER_RULE] * len(report.dropped_items)


def test_the_cli_lists_the_drop_with_its_rule_and_offers_existing_memories(world_and_server, capsys):
    world, server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", "My health worries me; I sleep badly these days.")
    script(world, server, "worried about my health, sleeps badly", "sleep/quality")
    world.flush("2026-11-23T09:00:00+09:00")
    kept = world.mem("worried about my health, sleeps badly")
    out = world.cli(capsys, "memory", "never", "add", "health")
    assert "1 memory(ies) you already have match it" in out and kept.id in out
    assert world.cli_json(capsys, "memory", "never", "matches")[0]["id"] == kept.id
    assert world.cli_json(capsys, "memory", "never", "forget") == {"forgotten": [kept.id]}
    assert str(world.mem("worried about my health, sleeps badly").state) == "forgotten"
    assert "worried about my health" not in world.prompt()
    world.say("2026-11-24T20:00:00+09:00", "My health is still bad.")
    script(world, server, "health is still bad", "health/state")
    out = world.cli(capsys, "flush", "--seed", str(SEED))
    assert "[never_remember]: health is still bad — matches your never-remember rule 'health'" in out


def test_rules_add_list_remove_through_the_cli(world, capsys):
    assert world.cli(capsys, "memory", "never", "list").startswith("No never-remember rules")
    world.cli(capsys, "memory", "never", "add", "my", "ex")
    world.cli(capsys, "memory", "never", "add", "パスワード")
    world.cli(capsys, "memory", "never", "add", "MY  EX")  # the same rule: one
    assert [r["text"] for r in world.cli_json(capsys, "memory", "never", "list")] == ["my ex", "パスワード"]
    assert never_rules(world.app.store) == ["my ex", "パスワード"]
    world.cli(capsys, "memory", "never", "remove", "my ex")
    assert never_rules(world.app.store) == ["パスワード"]


@pytest.mark.parametrize("text, slot, expected", [
    ("Worried about my HEALTH", "x/y", "health"),
    ("healthy lunch", "meal/lunch", None),  # whole words only
    ("my exam went well", "study/exam", None),
    ("talked about my ex again", "social/talk", "my ex"),
    ("Passwords are in a file", "home/file", "password"),
    ("a passwordless login", "tech/login", None),
    ("ok", "food/daily", "food/"),
    ("ok", "foodie/blog", None),  # a slot family is a whole part
    ("健康診断に行った", "body/checkup", "健康"),
    ("sleep", "health/sleep", "health"),  # a word is a slot family too
    ("ok", "study_plan/week", "study_plan"),  # a rule written as a slot's subject
    ("元カレに会った", "social/ex", "元カレ"),
])
def test_matching_in_english_and_japanese(text, slot, expected):
    rules = ["health", "my ex", "password", "food/", "健康", "元カレ", "study_plan"]
    assert matches_never(text, slot, rules) == expected


# ---- pause memory -------------------------------------------------------------------------------------------
def test_a_paused_flush_archives_and_asks_no_model(world_and_server, capsys):
    world, server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", "Remember: I live in Sendai.")
    script(world, server, "lives in Sendai", "home/city")
    pause(world.app.store, world.clock())
    assert world.cli_json(capsys, "status")["memory_paused"]
    report = world.flush("2026-11-23T09:00:00+09:00")
    assert report.memory_paused and [n.code for n in report.notes] == ["memory_paused"]
    assert server.chat_requests() == []  # no filter, judge, reflect, diary or lint call
    assert world.store.all() == [] and world.queue() == []
    assert len(world.rows("messages")) == 1 and world.log_files() == []
    resume(world.app.store)
    world.say("2026-11-23T20:00:00+09:00", "Remember: I live in Sendai.")
    script(world, server, "lives in Sendai", "home/city")
    world.flush("2026-11-24T09:00:00+09:00")
    assert world.has("lives in Sendai")  # the paused flush's messages stay archived, unread


def test_a_paused_dry_run_writes_nothing(world_and_server):
    world, server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", "Remember: I live in Sendai.")
    pause(world.app.store, world.clock())
    report = world.flush("2026-11-23T09:00:00+09:00", dry_run=True)
    assert report.run_id is None and report.messages_archived == 1
    assert world.rows("messages") == [] and len(world.log_files()) == 1


# ---- off the record -----------------------------------------------------------------------------------------
SECRET = "I am secretly planning to quit my job at Hanamaru"


def test_an_off_record_chat_reaches_no_flush(world_and_server):
    world, server = world_and_server
    chat = world.app.chat
    world.clock.now = parse_ts("2026-11-22T20:00:00+09:00")
    chat.send("I had ramen for dinner.", persona_id="hana")
    chat.set_off_record("hana", True)
    result = chat.send(SECRET, persona_id="hana")
    assert is_off_record(result.user) and is_off_record(result.reply)
    assert world.log_files() and all(SECRET not in (world.app.paths.logs_dir / f).read_text()
                                     for f in world.log_files())
    assert SECRET in "".join(p.read_text() for p in world.app.paths.off_record_dir.glob("*.jsonl"))
    before = len(server.requests)
    world.flush("2026-11-23T09:00:00+09:00")
    sent = [json.dumps(r["body"], ensure_ascii=False) for r in server.requests[before:]]
    assert len(filter_bodies(server)) == 4 and all(SECRET not in body and "Hanamaru" not in body for body in sent)
    assert all("ramen" in body for body in filter_bodies(server))
    assert [r["text"] for r in world.rows("messages")] == ["I had ramen for dinner.", "Hello"]
    hits = SearchService(world.app.logbook, world.app.archive).search("Hanamaru")
    assert [h.off_record for h in hits] == [True]  # found until it is removed


def test_on_the_record_again_the_off_record_words_are_not_sent(world_and_server):
    world, server = world_and_server
    chat = world.app.chat
    world.clock.now = parse_ts("2026-11-22T20:00:00+09:00")
    chat.set_off_record("hana", True)
    off = chat.send(SECRET, persona_id="hana")
    assert "Hanamaru" in json.dumps(server.chat_requests()[-1]["body"])  # said off the record: sent in its chat
    assert [m.id for m in chat.window()][-2:] == [off.user.id, off.reply.id]  # and shown
    chat.set_off_record("hana", False)
    chat.send("What should I cook tonight?", persona_id="hana")
    assert "Hanamaru" not in json.dumps(server.chat_requests()[-1]["body"])


def test_off_record_messages_are_removed_after_the_setting_hours_or_on_demand(world):
    chat = world.app.chat
    world.app.settings.off_record.hours = 24
    world.clock.now = parse_ts("2026-11-22T20:00:00+09:00")
    chat.set_off_record("hana", True)
    chat.send(SECRET, persona_id="hana")
    world.clock.now = parse_ts("2026-11-23T10:00:00+09:00")
    chat.send("a later secret", persona_id="hana")
    search = SearchService(world.app.logbook, world.app.archive)
    world.clock.now = parse_ts("2026-11-23T19:59:00+09:00")
    chat.window()
    assert [h.text for h in search.search("secret")] == ["a later secret", SECRET]
    world.clock.now = parse_ts("2026-11-23T20:00:01+09:00")
    chat.window()
    assert [h.text for h in search.search("secret")] == ["a later secret"]
    shown = [m.text for m in chat.window()]  # the window reads through the log index: the same there
    assert "a later secret" in shown and SECRET not in shown
    assert world.app.logbook.off_record.clear() == 2
    assert search.search("secret") == [] and chat.window() == []


def test_a_persona_that_starts_off_the_record_still_reads_memory(world_and_server):
    world, server = world_and_server
    world.say("2026-11-22T20:00:00+09:00", "Remember: I live in Sendai.")
    script(world, server, "lives in Sendai", "home/city")
    world.flush("2026-11-23T09:00:00+09:00")
    world.app.settings.off_record.personas = ["hana"]
    result = world.app.chat.send("Where do I live?", persona_id="hana")
    assert result.user.off_record and "lives in Sendai" in result.system_prompt
    assert world.log_files() == []


def test_an_off_record_message_is_never_a_backup_file(world):
    from monchat.core.transfer.backup import skipped_in_backup
    from pathlib import PurePosixPath
    assert skipped_in_backup(PurePosixPath("off_record/2026-11-22_18.jsonl"))


def test_an_off_record_line_read_back_is_marked_whatever_it_says(world):
    """A line in the off-record folder is off the record even if written without the mark."""
    off = world.app.logbook.off_record
    off.logs_dir.mkdir(parents=True, exist_ok=True)
    ts = format_ts(parse_ts("2026-11-22T20:00:00+09:00"))
    (off.logs_dir / "2026-11-22_18.jsonl").write_text(Message(id="x1", ts=ts, role="user", text="hi").to_json() + "\n")
    assert [is_off_record(m) for m in off.read_all().messages] == [True]
    assert world.app.logbook.files() == []
    assert timedelta(hours=world.app.settings.off_record.hours) == timedelta(hours=24)


def test_the_diary_is_never_shown_a_line_a_rule_covers(home):
    """The diary is written from the day's messages: a line a never-remember rule covers is not among them."""
    with ollama_world(home, background=True) as (world, server):
        world.app.settings.background.reflect = world.app.settings.background.lint_llm = False
        world.app.never.add("health")
        world.say("2026-11-22T20:00:00+09:00", "My health worries me; I sleep badly these days.")
        world.say("2026-11-22T20:05:00+09:00", "I cooked curry with my sister tonight.")

        def answer(body: dict) -> str:
            if "private diary" in json.dumps(body, ensure_ascii=False):
                return json.dumps({"text": "Cooked curry with their sister.", "cited": ["d1"]})
            return json.dumps({"items": []})
        server.structured_reply = answer
        world.flush("2026-11-23T09:00:00+09:00")
        diary = [json.dumps(r["body"], ensure_ascii=False) for r in server.requests
                 if "private diary" in json.dumps(r["body"], ensure_ascii=False)]
        assert len(diary) == 1 and "curry" in diary[0] and "health" not in diary[0].split("private diary")[-1]
        pages = [p["text"] for p in world.app.store.db.query("SELECT text FROM diary")]
        assert pages == ["Cooked curry with their sister."]
