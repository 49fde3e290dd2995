"""Skills as their own layer, through the real flush: the program's level goes up with use and down without.

A use is a day with user evidence of doing the thing (a filter's ``skill`` item); each use's point
halves every 30 days (``background.skill_half_life_days``). L2 at 3 points, L3 at 8.
"""

from __future__ import annotations

from datetime import date, timedelta

from tests.flush.conftest import Rule

RUST = Rule("Rust async", "Rust async", "skill/rust-async", "skill", 0.8)


def practise(world, first: str, days: int) -> None:
    start = date.fromisoformat(first)
    for n in range(days):
        world.say(f"{start + timedelta(days=n)}T20:00:00+09:00", f"今日もRust asyncでサーバを書いた ({n})")


def level(world, capsys) -> dict:
    [skill] = world.cli_json(capsys, "skills")
    return skill


def test_a_skill_levels_up_with_practice_and_down_without(world, capsys):
    world.oracle.rules = [RUST]
    practise(world, "2026-11-01", 2)
    report = world.flush("2026-11-02T22:00:00+09:00")
    assert report.background["skills"] == [{"name": "Rust async", "slot": "skill/rust-async", "from": None,
                                            "to": 1}]
    assert (level(world, capsys)["level"], level(world, capsys)["uses"]) == (1, 2)  # exposure

    practise(world, "2026-11-03", 2)
    world.flush("2026-11-04T22:00:00+09:00")
    assert level(world, capsys)["level"] == 2  # four days of use: competent
    assert "- Rust async: L2" in world.prompt()  # compactly, in the prompt
    [memory] = [m for m in world.cli_json(capsys, "memory", "list", "--all") if m["kind"] == "skill"]
    assert memory["text"] == "Rust async" and memory["skill"]["level"] == 2 and memory["skill"]["uses"] == 4

    practise(world, "2026-11-05", 5)
    world.flush("2026-11-09T22:00:00+09:00")
    assert level(world, capsys)["level"] == 3 and level(world, capsys)["xp"] >= 8  # nine days: generative

    world.say("2026-12-09T20:00:00+09:00", "今日は何もしなかった")  # a month without practice
    report = world.flush("2026-12-09T22:00:00+09:00")
    assert level(world, capsys)["level"] == 2 and report.background["skills"][0]["from"] == 3
    world.say("2027-01-08T20:00:00+09:00", "今日も休み")  # two months
    world.flush("2027-01-08T22:00:00+09:00")
    skill = level(world, capsys)
    assert skill["level"] == 1 and skill["uses"] == 9  # faded, never below exposure: the uses happened
    out = world.cli(capsys, "skills")
    assert "Rust async: L1" in out


def test_a_mention_is_not_a_use_and_a_forgotten_skill_has_no_level(world, capsys):
    world.oracle.rules = [RUST, Rule("Rustって", "Rustに興味がある", "study/rust", "fact", 0.6)]
    world.say("2026-11-01T20:00:00+09:00", "Rustって面白そう")
    world.flush("2026-11-01T22:00:00+09:00")
    assert world.cli_json(capsys, "skills") == []  # talked about, not done: no skill item, no level
    practise(world, "2026-11-02", 1)
    world.flush("2026-11-02T22:00:00+09:00")
    skill = level(world, capsys)
    world.memory.forget(skill["memory_id"])
    world.say("2026-11-03T20:00:00+09:00", "休み")
    world.flush("2026-11-03T22:00:00+09:00")
    assert world.cli_json(capsys, "skills") == []


def test_a_skill_not_in_the_users_words_is_dropped_not_queued(world, capsys):
    """It used to wait for review as "not found in your words"; the guard drops it (issue 22)."""
    world.oracle.rules = [Rule("サーバ", "Rust async", "skill/rust-async", "skill", 0.8)]
    world.say("2026-11-01T20:00:00+09:00", "今日もサーバを書いた")  # the name is not in the user's words
    report = world.flush("2026-11-01T22:00:00+09:00")
    assert world.queue() == [] and not world.has("Rust async")
    assert {d["rule"] for d in report.dropped_items} == {"echoes_instructions"}  # the filter prompt's own example
    assert world.cli_json(capsys, "skills") == []


def test_a_skill_waiting_for_review_has_no_level_until_approved(world, capsys):
    world.settings.ask_before_layer1 = True  # its Layer 1 promotion waits for the user
    world.oracle.rules = [RUST]
    practise(world, "2026-11-01", 2)
    world.flush("2026-11-02T22:00:00+09:00")
    [queued] = world.queue()
    assert queued["action"] == "layer1" and world.cli_json(capsys, "skills") == []
    world.memory.approve(str(queued["id"]))
    world.say("2026-11-03T20:00:00+09:00", "休み")
    world.flush("2026-11-03T22:00:00+09:00")
    assert level(world, capsys)["level"] == 1
