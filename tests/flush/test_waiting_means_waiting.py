"""Issue 45 item 2: a memory waiting for review is not memory until the user approves it.

Measured before: after a flush, an imported item still in the queue was "reinforced, into recent memory", listed
under 最近 at 0.90 and given an unrelated line about bread as evidence, because the judge said SAME. Here every
verdict a flush can reach about a waiting memory (SAME, MERGE, SUPERSEDE, CONTRADICT; sure and unsure), a held
Layer 1 promotion, a reply that relied on it and the prune are walked against the queue; the waiting memory stays
as it was — queued, no evidence, in no layer, not in the prompt or the views — until approve, when the lines the user
said again (and only lines that say its words) become its evidence.
"""

from __future__ import annotations

import json

import pytest

from monchat.core.memory.waiting import said_again
from monchat.core.store.shown import ShownStore
from monchat.core.transfer.memory_import import import_memory
from monchat.core.vocabulary.states import State
from tests.flush.conftest import Judgement, Rule

CATS = "Has two cats"
BREAD = "Eats bread every morning"
EXPORT = {"format": "monchat-memory", "version": 1, "exported_at": "2026-11-01T10:00:00+00:00", "memories": [
    {"id": "mem-1", "text": CATS, "slot": "pets/cats", "kind": "fact", "state": "active", "layer": 1,
     "pinned": False, "confidence": 0.9, "valid_at": "2026-10-01T10:00:00+00:00", "invalid_at": None,
     "superseded_by": None, "superseded_at": None, "created_at": "2026-10-01T10:00:00+00:00",
     "updated_at": "2026-10-01T10:00:00+00:00", "evidence": []}]}


def imported(world):
    import_memory(world.app, text=json.dumps(EXPORT))
    waiting = world.mem(CATS)
    assert waiting.state is State.QUEUED
    return waiting


def untouched(world, waiting) -> None:
    """Still exactly what the import made: queued, its confidence, no evidence, in no layer, prompt or view."""
    now = world.mem(CATS)
    assert now.state is State.QUEUED and now.confidence == waiting.confidence == 0.9
    assert world.ledger(now.id) == [] and now.layer(world.clock.now.timestamp()) == 0
    assert CATS not in world.prompt()
    assert now.id not in ShownStore(world.app.store).ids()
    assert [r.memory_id for r in world.memory.queue()] == [now.id]
    layers = world.memory.counts()["layers"]
    assert layers["layer2"] == 0 or all(m.text != CATS for m in world.memory.prompt_items()[1])


@pytest.mark.parametrize("verdict,confidence", [("SAME", 0.95), ("MERGE", 0.95), ("CONTRADICT", 0.95),
                                                ("SAME", 0.3), ("MERGE", 0.3), ("SUPERSEDE", 0.3), ("CONTRADICT", 0.3)])
def test_a_flush_never_changes_a_waiting_memory_about_an_unrelated_line(world, verdict, confidence):
    waiting = imported(world)
    world.oracle.rules = [Rule("bread", BREAD, "pets/cats", "fact", 0.9)]  # its slot: the judge is asked
    world.oracle.judgements = {(CATS, BREAD): Judgement(verdict, confidence, merged_text=f"{CATS}; {BREAD}")}
    world.say("2026-11-23T08:00:00+09:00", "I eat bread every morning")
    world.flush("2026-11-23T09:00:00+09:00")
    assert any(p.old == CATS for p in world.oracle.judged)  # the judge was asked, and said what it said
    untouched(world, waiting)
    assert said_again(world.store, world.app.archive, waiting.id) == []  # the bread line does not say it
    assert world.mem(BREAD).live  # the user's own line is memory of its own
    assert all(r.target_id != waiting.id for r in world.memory.queue())  # no judgement row about the waiting one


def test_the_same_words_again_are_kept_beside_the_item_and_become_evidence_on_approval(world, capsys):
    waiting = imported(world)
    world.oracle.rules = [Rule("two cats", "Has two cats at home", "pets/cats", "fact", 0.9)]
    world.oracle.judgements = {(CATS, "Has two cats at home"): Judgement("SAME", 0.95)}
    said = world.say("2026-11-23T08:00:00+09:00", "I have two cats at home, Miso and Kinako")
    world.flush("2026-11-23T09:00:00+09:00")
    untouched(world, waiting)
    assert not world.has("Has two cats at home")  # one row per thing said: no second memory
    assert [(s["message_id"], s["day"]) for s in said_again(world.store, world.app.archive, waiting.id)] == \
        [(said, "2026-11-23")]
    shown = world.cli(capsys, "memory", "queue")
    assert "said again on 2026-11-23: “I have two cats at home, Miso and Kinako”" in shown
    assert world.cli_json(capsys, "memory", "queue")[0]["said_again"][0]["message_id"] == said
    world.memory.approve(waiting.id)
    approved = world.mem(CATS)
    assert approved.state is State.ACTIVE and [r["message_id"] for r in world.ledger(approved.id)] == [said]


def test_a_held_layer1_promotion_waits_outside_recent_memory(world):
    world.settings.ask_before_layer1 = True
    world.oracle.rules = [Rule("Remember", "Lives in Sendai", "home/city", "explicit", 0.95)]
    world.say("2026-11-23T08:00:00+09:00", "Remember: I live in Sendai")
    report = world.flush("2026-11-23T09:00:00+09:00")
    held = world.mem("Lives in Sendai")
    assert held.state is State.QUEUED and held.layer(world.clock.now.timestamp()) == 0
    assert report.promoted["layer2"] == 0 and "Lives in Sendai" not in world.prompt()
    world.memory.approve(held.id)
    assert world.layer("Lives in Sendai") == 1 and "Lives in Sendai" in world.prompt()


def test_a_reply_that_relied_on_it_and_the_prune_leave_it_waiting(world):
    waiting = imported(world)
    world.say("2026-11-23T08:00:00+09:00", "Guess what pets I have")
    world.say("2026-11-23T08:00:05+09:00", "You have two cats!", role="assistant")
    world.flush("2026-11-23T09:00:00+09:00")
    untouched(world, waiting)
    assert all(e["action"] != "boosted" for e in world.store.events(waiting.id))


def test_a_sure_newer_statement_replaces_a_waiting_proposal_whose_words_never_entered_memory(world):
    waiting = imported(world)
    world.oracle.rules = [Rule("three cats", "Has three cats now", "pets/cats", "fact", 0.9)]
    world.oracle.judgements = {(CATS, "Has three cats now"): Judgement("SUPERSEDE", 0.95)}
    world.say("2026-11-23T08:00:00+09:00", "We adopted another one, I have three cats now")
    world.flush("2026-11-23T09:00:00+09:00")
    replaced = world.mem(CATS)
    assert replaced.state is State.SUPERSEDED and world.ledger(waiting.id) == []
    assert world.memory.queue() == [] and CATS not in world.prompt()
    assert world.mem("Has three cats now").live
