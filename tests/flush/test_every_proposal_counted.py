"""Issue 45, items 1 and 3 of what was measured: every proposal of a flush is accounted for, and what a persona's
limit cuts is chosen across the flush's days and can be sent to review.

A 12-day history read by the base persona (``max_items = 3``) proposes 15 items; before, the first day's three by
order were kept and the rest went unreported ("Dropped for lack of evidence: 0"). Now the report, ``flush --json``,
the terminal's summary and the run's row count every drop by reason, the counts add up to the proposals, the kept
items come from three different days, and ``memory cut`` / ``memory queue-cut`` list and queue the cut ones.
"""

from __future__ import annotations

from monchat.core.vocabulary.states import DropCategory, State
from tests.flush.conftest import Rule

DAY_ONE = "D1: I have two cats. I also like dogs. I eat bread every morning. I drink green tea at night."
DAY_ONE_ITEMS = ("I have two cats", "I also like dogs", "I eat bread every morning", "I drink green tea at night")
LATER = {2: "I run along the river", 3: "I read science fiction", 4: "I bake sourdough bread",
         5: "I visit my parents monthly", 6: "I study Korean", 7: "I play the guitar every week",
         8: "I swim on Fridays", 9: "I lead a refactoring project at work", 10: "I grow tomatoes",
         11: "I collect old maps", 12: "I watch football on Sundays"}
SCORES = {"I play the guitar every week": 0.95, "I lead a refactoring project at work": 0.8}
KNOWN = "I live in Sendai"


def slot_of(text: str) -> str:
    return "life/" + text.split()[-1].lower()


def twelve_days(world) -> None:
    rules = [Rule(KNOWN, KNOWN, "home/city", "explicit", 0.9, persona="lifestyle"),
             Rule("salary", "My salary is low this year", "work/salary", "fact", persona="lifestyle"),
             Rule("Have some rest", "Have some rest", "health/rest", "fact", persona="base", roles=("assistant",))]
    rules += [Rule("D1:", text, slot_of(text), "fact", 0.9) for text in DAY_ONE_ITEMS]
    rules += [Rule(f"D{d}:", text, slot_of(text), "fact", SCORES.get(text, 0.9)) for d, text in LATER.items()]
    world.oracle.rules = rules
    world.say("2026-11-09T21:00:00+09:00", f"Remember: {KNOWN}.")
    world.flush("2026-11-09T22:00:00+09:00")
    assert world.layer(KNOWN) == 1  # the prompt carries it from now on
    world.app.never.add("salary")
    world.say("2026-11-11T21:00:00+09:00", DAY_ONE)
    world.say("2026-11-11T21:01:00+09:00", "Have some rest tonight.", role="assistant")
    for day, text in LATER.items():
        world.say(f"2026-11-{10 + day}T21:00:00+09:00", f"D{day}: {text}.")
    world.say("2026-11-15T20:00:00+09:00", f"As I said, {KNOWN}.")
    world.say("2026-11-16T20:00:00+09:00", "My salary is low this year.")


def test_a_twelve_day_flush_counts_every_drop_and_keeps_items_of_several_days(world, capsys):
    twelve_days(world)
    report = world.flush("2026-11-23T22:00:00+09:00")
    counted = report.accounting
    dropped = counted["dropped"]
    assert counted["proposals"] == 4 + len(LATER) + 3
    assert counted["kept"] + counted["unsure"] + counted["folded"] + counted["recalls"] + sum(dropped.values()) \
        == counted["proposals"]
    assert dropped[DropCategory.LIMIT] == 4 + len(LATER) - 3
    assert dropped[DropCategory.KNOWN] == 1 and dropped[DropCategory.NEVER] == 1
    assert dropped[DropCategory.EVIDENCE] == 1  # the assistant's line is no evidence
    known = next(d for d in report.dropped_items if d["category"] == DropCategory.KNOWN)
    assert known["text"] == KNOWN and "already known" in known["reason"]  # not "not backed by your messages"
    kept = report.items["base"]
    assert "I play the guitar every week" in [k["text"] for k in kept]  # the best, whichever day it came from
    days = {world.app.archive.get_many(k["evidence"])[k["evidence"][0]]["day"] for k in kept}
    assert len(days) == 3, days  # spread over the days, not the first day's three
    assert world.store.run(report.run_id)["accounting"] == counted  # the run's row keeps it

    out = world.cli(capsys, "memory", "cut", str(report.run_id))
    assert "I lead a refactoring project at work" in out
    cut = world.cli_json(capsys, "memory", "cut", str(report.run_id))
    assert len(cut) == dropped[DropCategory.LIMIT]
    number = next(c["number"] for c in cut if c["text"] == "I lead a refactoring project at work")
    sent = world.cli_json(capsys, "memory", "queue-cut", str(report.run_id), str(number))
    [row] = [r for r in world.memory.queue() if r.id in sent["queued"]]
    memory = world.mem("I lead a refactoring project at work")
    assert memory.state is State.QUEUED and row.confidence == 0.8 and memory.days == 1
    assert world.cli_json(capsys, "memory", "queue-cut", str(report.run_id))["queued"] != []  # the rest
    assert world.cli_json(capsys, "memory", "queue-cut", str(report.run_id))["queued"] == []  # twice: nothing


def test_the_terminal_summary_says_every_reason(world, capsys):
    twelve_days(world)
    world.clock.now = world.clock.now.replace(day=23)
    out = world.cli(capsys, "flush")
    assert "18 proposal(s): 3 kept, 12 over the persona's limit, 1 no evidence in your messages, 1 already known, " \
           "1 a never-remember rule" in out
    assert "monchat memory queue-cut 2" in out
