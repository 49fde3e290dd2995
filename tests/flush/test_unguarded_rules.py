"""Three rules a probe of hand-written mutations found unguarded (issue 23): each test fails without its rule.

- Pinned lines are exempt from the memory budget: pinning refuses to go over it, but a user who lowers
  ``flush.memory_token_budget`` afterwards keeps every pinned memory in the prompt, and the budget says
  the pins are over it (``pinned_over_budget``, shown by ``monchat memory budget``).
- Knowledge lint's age bound: an age from 0 to 130 is a value of an age slot; 131 is not.
- The graph's "missing member" discoveries are only for clusters of three or more: a node linked to both
  members of a two-node cluster is not news (every linked pair of topics would fill the inbox).
"""

from __future__ import annotations

from monchat.core.background.graph import Node, discover
from monchat.core.background.lint_rules import grounding
from monchat.core.memory import MemoryRecord, State
from monchat.core.settings import GraphSettings

LONG = "毎週末は山に登り、季節ごとに違う道を選んで、頂上で写真を撮ってから温泉に寄って帰る"


def test_pinned_memories_stay_in_the_prompt_when_the_budget_is_lowered_below_them(world, capsys):
    world.app.settings.flush.memory_token_budget = 400
    texts = [f"{LONG}（{n}）" for n in range(3)]
    for n, text in enumerate(texts):
        world.store.insert(MemoryRecord(id=f"mem-low{n}", text=text, slot=f"hobby/{n}", kind="explicit",
                                        state=State.ACTIVE, confidence=0.9, created_at="2026-11-23T08:00:00+09:00"))
    world.memory.pin("mem-low0")
    world.memory.pin("mem-low1")
    assert not world.memory.budget_report()["pinned_over_budget"]

    world.app.settings.flush.memory_token_budget = 30  # less than one of these lines
    world.say("2026-11-23T09:00:00+09:00", "今日は雨")
    world.flush("2026-11-23T12:00:00+09:00")  # the prompt is rebuilt under the lower budget

    prompt = world.prompt()
    assert texts[0] in prompt and texts[1] in prompt  # pinned: kept, whatever the budget
    assert texts[2] not in prompt  # not pinned: left out for the budget
    budget = world.memory.budget_report()
    assert budget["pinned_over_budget"] and budget["pinned_tokens"] > 30
    assert [left["id"] for left in budget["left_out"]] == ["mem-low2"]
    out = world.cli(capsys, "memory", "budget")
    assert "pinned memories are over the budget" in out


def _age(memory_id: str, text: str) -> dict:
    return {"id": memory_id, "slot": "profile/age", "text": text}


def test_an_age_is_a_number_from_0_to_130_and_131_is_not():
    rows = [_age("mem-a0", "0歳"), _age("mem-a130", "130歳"), _age("mem-a131", "131歳"), _age("mem-a32", "32 years")]
    flagged = [f.memory_ids for f in grounding(rows) if f.kind == "value"]
    assert flagged == [["mem-a131"]]


def _cluster_with(members: list[str], outsider: str) -> list[dict]:
    """Drawn edges chaining ``members`` into one cluster; held edges (shared sessions) from ``outsider`` to each."""
    drawn = [{"source": a, "target": b, "drawn": True, "weight": 0.6, "shared": 2, "adamic_adar": 0.0}
             for a, b in zip(members, members[1:])]
    held = [{"source": outsider, "target": m, "drawn": False, "weight": 0.2, "shared": 1, "adamic_adar": 0.0}
            for m in members]
    return drawn + held


def _discover(members: list[str], outsider: str) -> list[dict]:
    keys = [*members, outsider]
    nodes = {k: Node(k, k.split(":")[1], "topic", sessions={"s1"}) for k in keys}
    cluster = {**{m: 1 for m in members}, outsider: 2}
    return [d for d in discover(nodes, _cluster_with(members, outsider), cluster, {}, GraphSettings())
            if d["kind"] == "missing"]


def test_a_missing_member_is_found_for_a_cluster_of_three_but_never_for_a_pair():
    [found] = _discover(["topic:hobby", "topic:music", "topic:guitar"], "topic:drink")
    assert found["nodes"] == ["topic:drink", "topic:guitar", "topic:hobby", "topic:music"] and found["score"] == 1.0
    assert _discover(["topic:hobby", "topic:music"], "topic:drink") == []
