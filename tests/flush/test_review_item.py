"""The review queue hands out ``ReviewItem``s, not dicts; ``--json`` prints them as the rows it printed before.

``monchat memory queue --json``: the ``review_queue`` table's columns in their order (``proposers`` read from
its JSON, ``quoted`` too), then ``alike``; ``approve --json`` says the item's number, memory, action and result.
"""

from __future__ import annotations

import json

from monchat.core.memory.review_item import ReviewItem
from monchat.core.vocabulary.states import Action
from tests.flush.conftest import Judgement, Rule

SENDAI, KANAZAWA = "仙台に住んでいる", "金沢に住んでいる"


def _kanazawa_waits(world) -> None:
    """Sendai is kept; Kanazawa would replace it and waits for review (a Layer 1 memory's supersession)."""
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-29T19:00:00+09:00", "今は金沢にいる")
    world.flush("2026-11-29T20:00:00+09:00")


def test_the_queue_is_review_items_and_its_json_is_the_tables_row(world, capsys):
    _kanazawa_waits(world)
    [item] = world.memory.queue()
    assert isinstance(item, ReviewItem) and item.action is Action.SUPERSEDE
    assert (item.memory_id, item.target_id) == (world.mem(KANAZAWA).id, world.mem(SENDAI).id)
    assert world.memory.queue_groups() == [[item]]

    [row] = world.rows("review_queue")
    printed = world.cli_json(capsys, "memory", "queue")
    assert printed == [{**row, "proposers": json.loads(row["proposers"] or "[]"),
                       "quoted": json.loads(row["quoted"] or "[]"), "alike": [row["id"]], "origin": "chat",
                       "said_again": []}]
    assert list(printed[0]) == [*row, "alike", "origin", "said_again"]  # the keys in the table's order, as before; then added

    decided = world.cli_json(capsys, "memory", "approve", str(item.id))
    assert decided == {"queue": item.id, "memory_id": item.memory_id, "action": "supersede", "result": "approved"}
    assert world.memory.queue() == []
