"""Memory the user shapes: an edit is kept as written, Forget can be undone, Delete removes the words.

The user's edit of a memory that waited for review is the approval; a forgotten memory comes back
where it was; a deleted memory's words are in no memory table afterwards, while the archived
messages it stood on stay.
"""

from __future__ import annotations

import json

import pytest

from monchat.core.errors import InputError
from monchat.core.memory import View
from tests.flush.conftest import Judgement, Rule

SENDAI, KANAZAWA = "仙台に住んでいる", "金沢に住んでいる"


def _sendai(world, score: float) -> None:
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", score),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")


def test_an_edit_of_a_memory_waiting_for_review_is_its_approval_as_written(world):
    _sendai(world, 0.6)  # below auto-approval: it waits for review
    [row] = world.queue()
    edited = world.memory.edit(row["memory_id"], "仙台市に住んでいる")
    assert edited.text == "仙台市に住んでいる" and edited.state == "active"  # the user's word, kept
    assert world.queue() == []
    layer1, _ = world.memory.prompt_items()
    assert [m.text for m in layer1] == ["仙台市に住んでいる"]
    assert [e["action"] for e in world.memory.events(edited.id)][-1] == "approved as written"


def test_an_edit_of_a_proposed_replacement_replaces_with_the_users_words(world):
    _sendai(world, 0.9)
    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")
    assert world.mem(KANAZAWA).state == "queued"  # replacing a lasting memory waits for review
    edited = world.memory.edit(world.mem(KANAZAWA).id, "金沢市に引っ越した")
    assert edited.state == "active" and world.queue() == []
    assert [m.text for m in world.store.live()] == ["金沢市に引っ越した"]  # Sendai was replaced, not kept


def test_forget_can_be_undone(world):
    _sendai(world, 0.9)
    sendai = world.mem(SENDAI)
    assert sendai.state == "active"
    world.memory.forget(sendai.id)
    assert world.memory.prompt_items()[0] == []
    restored = world.memory.restore(sendai.id)
    assert restored.state == "active" and [m.text for m in world.memory.prompt_items()[0]] == [SENDAI]
    with pytest.raises(InputError):
        world.memory.restore(sendai.id)  # not forgotten any more


def test_delete_removes_the_words_from_every_memory_table_and_keeps_the_messages(world):
    _sendai(world, 0.9)
    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")
    world.memory.approve(str(world.queue()[0]["id"]))  # Kanazawa replaces Sendai: a chain of two
    deleted = world.memory.delete(world.mem(KANAZAWA).id)
    assert len(deleted) == 2
    db = world.app.store.db
    for table in db.table_names():
        if table.startswith("messages") or table.startswith("_"):
            continue
        for row in db.query(f"SELECT * FROM [{table}]"):
            dump = json.dumps(row, ensure_ascii=False, default=str)
            for text in (SENDAI, KANAZAWA):
                assert text not in dump and json.dumps(text)[1:-1] not in dump, (table, row)
    texts = [r["text"] for r in db.query("SELECT text FROM messages")]
    assert "覚えておいて：仙台に住んでる" in texts and "今は金沢にいる" in texts  # the archive stays
    assert SENDAI not in world.app.paths.memory_md.read_text(encoding="utf-8")
    assert world.memory.prompt_items() == ([], [])


def test_the_cli_restores_and_deletes(world, capsys):
    _sendai(world, 0.9)
    memory_id = world.mem(SENDAI).id
    world.cli(capsys, "memory", "forget", memory_id)
    assert "restore: " in world.cli(capsys, "memory", "restore", memory_id)
    out = world.cli(capsys, "memory", "delete", memory_id)
    assert out.startswith("deleted for good: " + memory_id)
    assert world.memory.list(all=True) == []


def test_the_new_view_shows_what_the_last_flush_proposed(world):
    assert world.memory.in_view(View.NEW) == []
    _sendai(world, 0.6)
    assert [m.text for m in world.memory.in_view(View.NEW)] == [SENDAI]
    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")
    assert [m.text for m in world.memory.in_view(View.NEW)] == [KANAZAWA]  # the last flush only
