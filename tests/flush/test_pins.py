"""Pinned memories always go into the prompt, so together they must leave room in its memory budget."""

from __future__ import annotations

import pytest

from monchat.core.errors import PinOverBudget
from monchat.core.memory import MemoryRecord, State

LONG = "毎週末は山に登り、季節ごとに違う道を選んで、頂上で写真を撮ってから温泉に寄って帰る"


def _memories(world, count: int) -> list[str]:
    ids = []
    for n in range(count):
        memory = MemoryRecord(id=f"mem-pin{n:03d}", text=f"{LONG}（{n}）", slot=f"hobby/{n}", kind="explicit",
                              state=State.ACTIVE, confidence=0.9, created_at="2026-11-23T08:00:00+09:00")
        world.store.insert(memory)
        ids.append(memory.id)
    return ids


def test_pinning_past_the_memory_budget_is_refused_and_changes_nothing(world, capsys):
    world.app.settings.flush.memory_token_budget = 400
    ids = _memories(world, 12)
    pinned = []
    with pytest.raises(PinOverBudget) as refused:
        for memory_id in ids:
            world.memory.pin(memory_id)
            pinned.append(memory_id)
    assert 0 < len(pinned) < len(ids)
    assert "400-token memory budget" in refused.value.message
    refused_id = ids[len(pinned)]
    assert not world.memory.get(refused_id).pinned
    assert sorted(m.id for m in world.store.all() if m.pinned) == sorted(pinned)
    budget = world.memory.budget_report()
    assert budget["pinned_tokens"] <= 400 and not budget["pinned_over_budget"]
    out = world.cli(capsys, "memory", "budget")
    assert f"pinned memories take {budget['pinned_tokens']} tokens" in out


def test_the_cli_refuses_an_over_budget_pin_with_exit_2(world, capsys):
    from monchat.cli.main import build_parser
    from monchat.cli.memory import cmd_memory

    world.app.settings.flush.memory_token_budget = 60
    [memory_id] = _memories(world, 1)
    args = build_parser().parse_args(["memory", "pin", memory_id])
    with pytest.raises(PinOverBudget) as refused:
        cmd_memory(world.app, args)
    assert refused.value.exit_code == 2
    assert not world.memory.get(memory_id).pinned
