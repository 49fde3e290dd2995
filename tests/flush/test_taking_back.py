"""Taking words back (issue 22, point 5): a message edited away is read by no filter; Delete message.

Each test drives the real FlushService, MemoryService and MessageDeletion built by ``build_app``; the LLM is
the oracle, whose ``history`` is every request a backend was sent.
"""

from __future__ import annotations

import json

import pytest

from monchat.core.errors import NotFound
from monchat.core.flush.service import LINE_ID_KEY
from monchat.core.vocabulary.states import State
from monchat.core.memory.withdraw import DELETED, EDITED_AWAY
from monchat.core.logs.search import SearchService
from monchat.core.types import Message, content_message_id, format_ts, parse_ts
from tests.flush.conftest import Rule

SECRET = "My secret diary password is hunter2, remember it"
TEA = "I like green tea"


def sent_anywhere(world, words: str) -> int:
    """How many requests the backend was sent that carry ``words`` (system prompt or turns)."""
    return sum(1 for _kind, system, turns, _schema in world.oracle.history
               if words in system or any(words in t.content for t in turns))


def edit(world, when: str, text: str, replaces: str, role: str = "user") -> str:
    """Log an edit (or a regenerated reply) as ChatService.edit_last does: a new message naming the old one."""
    ts = format_ts(parse_ts(when))
    message = Message(id=content_message_id(ts, role, text, "hana"), ts=ts, role=role, text=text, persona="hana",
                      replaces=replaces)
    world.app.logbook.append(message)
    world.said.append(message.id)
    return message.id


def events(world, memory_id: str) -> list[tuple[str, dict]]:
    return [(e["action"], json.loads(e["detail"])) for e in world.memory.events(memory_id)]


def search(world, words: str):
    return SearchService(world.app.logbook, world.app.archive).search(words)


# ---- edited away --------------------------------------------------------------------------------
def test_a_message_edited_away_and_its_reply_reach_no_filter_and_search_marks_them(world):
    world.oracle.rules = [Rule("password", "the diary password is hunter2", "secret/password", "explicit"),
                          Rule("green tea", "likes green tea", "drink/tea", "preference")]
    first = world.say("2026-11-23T21:00:00+09:00", SECRET)
    reply = world.say("2026-11-23T21:00:05+09:00", "OK, hunter2 it is.", role="assistant")
    edit(world, "2026-11-23T21:01:00+09:00", TEA, first)
    edit(world, "2026-11-23T21:01:05+09:00", "Green tea is lovely.", reply, role="assistant")
    report = world.flush("2026-11-23T22:00:00+09:00")

    assert world.oracle.filter_calls and world.oracle.diary_calls  # the filters and the diary did read
    assert sent_anywhere(world, "hunter2") == 0
    assert sent_anywhere(world, TEA) > 0
    assert [m.text for m in world.store.all()] == ["likes green tea"]
    assert [(n.code, n.args) for n in report.notes if n.code == "taken_back_unread"] == [("taken_back_unread", (2,))]
    assert world.app.archive.ids() >= {first, reply}  # kept (nothing is lost without the user's word), marked
    hits = search(world, "hunter2")
    assert {(h.id, h.replaced) for h in hits} == {(first, True), (reply, True)}
    assert [(h.text, h.replaced) for h in search(world, "like green tea")] == [(TEA, False)]


def test_an_edit_of_an_edit_takes_back_every_earlier_version(world):
    world.oracle.rules = [Rule("hunter", "password is hunter", "secret/password", "explicit")]
    first = world.say("2026-11-23T21:00:00+09:00", "password: hunter1")
    second = edit(world, "2026-11-23T21:01:00+09:00", "password: hunter2", first)
    edit(world, "2026-11-23T21:02:00+09:00", TEA, second)
    world.flush("2026-11-23T22:00:00+09:00")
    assert sent_anywhere(world, "hunter") == 0
    assert world.store.all() == []
    assert {h.id: h.replaced for h in search(world, "hunter")} == {first: True, second: True}


def test_a_filter_citing_an_edited_away_line_is_dropped(world):
    # The filter cites the taken-back line by its real id ("m1"), though it was never shown to it.
    world.oracle.rules = [Rule("green tea", "the diary password is hunter2", "secret/password", "explicit",
                               extra=("m1",), cite_matched=False)]
    first = world.say("2026-11-23T21:00:00+09:00", SECRET)
    edit(world, "2026-11-23T21:01:00+09:00", TEA, first)
    world.app.store.set_state(LINE_ID_KEY, "00" * 16)  # the line ids the oracle's aliases name
    report = world.flush("2026-11-23T22:00:00+09:00")
    [base] = [c for c in world.oracle.filter_calls if c["persona"] == "base"]
    assert base["items"][0]["evidence"] == [world.line_aliases()["m1"]]
    assert world.store.all() == []
    assert any(d["text"] == "the diary password is hunter2" and "no such line" in d["reason"]
               for d in report.dropped_items)


def test_editing_a_flushed_message_takes_its_evidence_back_at_the_next_flush(world):
    world.oracle.rules = [Rule("password", "the diary password is hunter2", "secret/password", "explicit"),
                          Rule("green tea", "likes green tea", "drink/tea", "preference")]
    first = world.say("2026-11-23T21:00:00+09:00", SECRET)
    world.flush("2026-11-23T21:30:00+09:00")
    secret = world.mem("the diary password is hunter2")
    assert secret.live and "hunter2" in world.prompt()
    edit(world, "2026-11-23T21:40:00+09:00", TEA, first)  # the window still shows it: Edit may take it back
    calls = len(world.oracle.history)
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert world.oracle.diary_calls[-1]["day"] == "2026-11-23"  # the day's page is written again, without it
    assert not any("hunter2" in system or any("hunter2" in t.content for t in turns)
                   for _kind, system, turns, _schema in world.oracle.history[calls:])

    secret = world.mem("the diary password is hunter2")
    assert secret.state is State.RETRACTED and world.ledger(secret.id) == []
    assert ("retracted", {"why": EDITED_AWAY, "messages": [first]}) in events(world, secret.id)
    assert "hunter2" not in world.prompt()
    assert report.taken_back == {"retracted": [secret.id], "weakened": []}
    assert world.mem("likes green tea").live
    world.say("2026-11-23T23:00:00+09:00", "Late tea.")  # the day's page is written again, later
    world.flush("2026-11-23T23:30:00+09:00")
    assert world.oracle.diary_calls[-1]["day"] == "2026-11-23"
    assert [line["text"] for line in world.oracle.diary_calls[-1]["lines"]] == [TEA, "Late tea."]


# ---- deleted ------------------------------------------------------------------------------------
def test_deleting_a_flushed_message_retracts_what_rests_only_on_it_and_weakens_the_rest(world, capsys):
    world.oracle.rules = [Rule("password", "the diary password is hunter2", "secret/password", "explicit"),
                          Rule("tea", "drinks tea every day", "drink/tea", "habit")]
    secret = world.say("2026-11-23T21:00:00+09:00", SECRET + ", and I drink tea")
    world.say("2026-11-24T21:00:00+09:00", "tea again today")
    world.flush("2026-11-24T22:00:00+09:00")
    password, tea = world.mem("the diary password is hunter2"), world.mem("drinks tea every day")
    assert [r["message_id"] for r in world.ledger(tea.id)] == sorted([secret, world.said[1]])
    assert tea.days == 2 and "hunter2" in world.prompt()

    done = world.app.messages.delete(secret)

    assert (done.log_lines, done.archived) == (0, 1)
    assert done.memory.as_dict() == {"retracted": [password.id], "weakened": [tea.id]}
    # issue 36: history that still held the words would keep them: the retracted memory is deleted with it
    assert done.memories_deleted == [password.id] and not world.has("the diary password is hunter2")
    assert world.memory.events(password.id) == []
    tea = world.mem("drinks tea every day")
    assert tea.live and tea.state is world.mem("drinks tea every day").state and tea.days == 1
    assert [r["message_id"] for r in world.ledger(tea.id)] == [world.said[1]]
    assert ("lost evidence", {"why": DELETED, "messages": [secret], "days_left": 1}) in events(world, tea.id)
    assert "hunter2" not in world.prompt()  # the prompt was rebuilt
    assert secret not in world.app.archive.ids() and search(world, "hunter2") == []
    fts = world.app.store.db.execute("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?",
                                     ['"hunter2"']).fetchone()[0]
    assert fts == 0
    when = world.clock.now.isoformat()[:16]
    assert f"lost evidence {when}: {DELETED}" in world.cli(capsys, "memory", "history", tea.id)


def test_deleting_an_unflushed_message_removes_its_line_and_keeps_every_other_byte(world):
    keep = world.say("2026-11-23T21:00:00+09:00", "first line stays")
    secret = world.say("2026-11-23T21:01:00+09:00", SECRET)
    world.say("2026-11-23T21:02:00+09:00", "last line stays")
    [path] = world.app.logbook.files()
    with path.open("ab") as f:
        f.write(b'{"not json\n')  # an unreadable line is the user's too: kept byte for byte
    before = path.read_bytes().split(b"\n")
    assert [m.text for m in world.app.chat.window(at_now(world))] == ["first line stays", SECRET, "last line stays"]

    done = world.app.messages.delete(secret)

    assert (done.log_lines, done.archived, done.role) == (1, 0, "user")
    assert path.read_bytes().split(b"\n") == [line for line in before if secret.encode() not in line]
    assert [m.text for m in world.app.chat.window(at_now(world))] == ["first line stays", "last line stays"]
    assert search(world, "hunter2") == [] and keep in {h.id for h in search(world, "stays")}
    world.oracle.rules = [Rule("password", "the diary password is hunter2", "secret/password", "explicit")]
    world.flush("2026-11-23T22:00:00+09:00")
    assert sent_anywhere(world, "hunter2") == 0 and world.store.all() == []


def at_now(world):
    return world.clock.now


def test_deleting_an_edited_message_takes_its_earlier_versions_too(world):
    first = world.say("2026-11-23T21:00:00+09:00", SECRET)
    world.flush("2026-11-23T21:30:00+09:00")
    second = edit(world, "2026-11-23T21:40:00+09:00", "password hunter3", first)
    done = world.app.messages.delete(second)
    assert done.ids == [second, first] and (done.log_lines, done.archived) == (1, 1)
    assert search(world, "password") == []


def test_deleting_a_rated_reply_clears_its_rating_and_its_effect(world):
    world.oracle.rules = [Rule("ramen", "loves ramen", "food/ramen", "explicit")]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I love ramen")
    world.flush("2026-11-23T21:30:00+09:00")
    ramen = world.mem("loves ramen")
    ts = format_ts(parse_ts("2026-11-23T21:40:00+09:00"))
    reply = Message(id="reply-1", ts=ts, role="assistant", text="You love ramen, so try this ramen place.",
                    persona="hana", memory_revision=world.memory.revision())
    world.app.logbook.append(reply)
    before = world.mem("loves ramen").confidence
    assert world.app.feedback.rate_message("reply-1", "down")["relied_on"] == [ramen.id]
    assert world.mem("loves ramen").confidence < before

    done = world.app.messages.delete("reply-1")

    assert done.ratings_cleared == 1 and done.memory.as_dict() == {"retracted": [], "weakened": []}
    assert world.app.feedback.rating("message", "reply-1") == ""
    assert world.mem("loves ramen").confidence == before and world.mem("loves ramen").live


def test_a_reply_asked_for_again_does_not_lengthen_the_memories_it_used(world):
    world.oracle.rules = [Rule("ramen", "loves ramen", "food/ramen", "explicit")]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I love ramen")
    world.flush("2026-11-23T21:30:00+09:00")
    ramen = world.mem("loves ramen")
    ts = format_ts(parse_ts("2026-11-23T21:40:00+09:00"))
    old = Message(id="reply-old", ts=ts, role="assistant", text="You love ramen, so try this ramen place.",
                  persona="hana", memory_revision=world.memory.revision())
    world.app.logbook.append(old)
    edit(world, "2026-11-23T21:41:00+09:00", "How about a walk?", old.id, role="assistant")
    world.flush("2026-11-23T22:00:00+09:00")
    assert not any(action == "boosted" and "reply-old" in detail.get("why", "")
                   for action, detail in events(world, ramen.id))


def test_a_diary_page_that_cites_a_deleted_message_goes_and_is_owed_again(world):
    secret = world.say("2026-11-23T21:00:00+09:00", SECRET)
    world.say("2026-11-23T21:05:00+09:00", "Walked by the river.")
    world.flush("2026-11-23T22:00:00+09:00")
    page = world.app.paths.data_dir / "diary" / "2026-11-23.md"
    assert "hunter2" in page.read_text(encoding="utf-8")
    done = world.app.messages.delete(secret)
    assert done.diary_days == ["2026-11-23"] and not page.exists()
    world.say("2026-11-24T21:00:00+09:00", "Quiet day.")
    world.flush("2026-11-24T22:00:00+09:00")  # the day is owed: its page is written from what is left
    assert "hunter2" not in page.read_text(encoding="utf-8") and "river" in page.read_text(encoding="utf-8")


def test_an_unknown_id_is_not_found_and_changes_nothing(world):
    world.say("2026-11-23T21:00:00+09:00", "hello")
    files = {p: p.read_bytes() for p in world.app.logbook.files()}
    with pytest.raises(NotFound):
        world.app.messages.delete("no-such-id")
    assert {p: p.read_bytes() for p in world.app.logbook.files()} == files
