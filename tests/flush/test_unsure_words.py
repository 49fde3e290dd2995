"""What the guard's recall means for a flush (issue 43): honest reinforcements count, "unsure" goes to review.

A capable model reinforces a kept habit in the memory's own words, citing a line that says it otherwise
("went for my morning jog, still keeping it up"): the guard judges the proposal against the memory's words and
the line together, so a habit mentioned on three days becomes lasting. A proposal the guard is not sure of (only a
words rule broken, by what may be a distillation) waits in the review queue, marked plainly, with the lines it
cites: never in a layer, never silently dropped, set aside when left unanswered.
"""

from __future__ import annotations

from datetime import timedelta

from monchat.core.flush.prune import prune
from monchat.core.memory.guard_unsure import UNSURE_REASON
from monchat.core.vocabulary.states import Action, Held, State

from .conftest import Judgement, Rule

RUNS = "Runs 30 minutes every morning"
SLEEP = "Sleeps badly when stressed"


def test_a_habit_reinforced_on_three_days_in_a_capable_models_words_becomes_lasting(world):
    world.oracle.rules = [Rule("30 minutes before work", RUNS, "exercise/running", "habit", 0.9),
                          Rule("morning jog", RUNS, "exercise/running", "habit", 0.9),
                          Rule("never skipping", RUNS, "exercise/running", "habit", 0.9)]
    world.oracle.judgements = {(RUNS, None): Judgement("SAME", 0.9)}

    world.say("2026-11-23T07:30:00+09:00", "I run 30 minutes before work every morning")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.mem(RUNS).days == 1 and world.mem(RUNS).state == "candidate"
    world.say("2026-11-24T23:00:00+09:00", "nothing much today")
    world.flush("2026-11-24T23:30:00+09:00")  # past Layer 2's 24 hours: out of the prompt, still kept
    assert world.layer(RUNS) == 0 and RUNS not in world.prompt()

    jog = world.say("2026-11-25T07:40:00+09:00", "went for my morning jog, still keeping it up")
    report = world.flush("2026-11-25T22:00:00+09:00")  # a kept candidate the guard knows (not the prompt's)
    assert report.dropped_items == [] and report.unsure == 0
    assert jog in world.mem(RUNS).evidence and world.mem(RUNS).days == 2

    world.say("2026-11-27T07:35:00+09:00", "another 30 minutes this morning, never skipping")
    report = world.flush("2026-11-27T22:00:00+09:00")
    runs = world.mem(RUNS)
    assert [m.text for m in world.store.all()] == [RUNS]  # reinforced, never a second memory
    assert runs.days == 3 and runs.state == "active"
    assert report.promoted["layer1"] == 1 and world.layer(RUNS) == 1


def test_a_proposal_the_guard_is_not_sure_of_waits_for_review_beside_the_line_it_cites(world, capsys):
    said = "When I'm stressed I can't sleep at all"
    world.oracle.rules = [Rule("stressed", SLEEP, "health/sleep", "fact", 0.9)]
    line = world.say("2026-11-23T23:30:00+09:00", said)
    report = world.flush("2026-11-24T00:30:00+09:00")

    assert report.dropped_items == [] and report.queued == 1 and report.unsure == 1
    assert report.accounting["unsure"] == 1 and report.accounting["kept"] == 0  # waiting, not kept
    [row] = world.queue()
    assert (row["action"], row["held"], row["text"]) == (Action.WORDS, Held.UNSURE_WORDS, SLEEP)
    assert row["reason"] == f"{UNSURE_REASON}. You said: “{said}”"
    memory = world.mem(SLEEP)
    assert memory.state == State.QUEUED and memory.evidence == [line]
    assert world.layer(SLEEP) == 0 and SLEEP not in world.prompt()  # never straight into memory
    assert world.oracle.judged == []  # nothing to weigh against kept memories: the user decides


def test_an_unsure_proposal_is_never_weighed_against_a_kept_memory(world):
    """The judge never sees it: a sure SAME would otherwise lend its words to the kept memory's evidence."""
    kept = "Sleeps 7 hours"
    world.oracle.rules = [Rule("7 hours", kept, "health/sleep", "fact", 0.9),
                          Rule("stressed", SLEEP, "health/sleep", "fact", 0.9)]
    world.oracle.judgements = {(kept, None): Judgement("SAME", 0.9)}
    world.say("2026-11-22T23:30:00+09:00", "I sleep 7 hours most nights")
    world.flush("2026-11-23T00:30:00+09:00")
    world.say("2026-11-23T23:30:00+09:00", "When I'm stressed I can't sleep at all")
    report = world.flush("2026-11-24T00:30:00+09:00")
    assert world.oracle.judged == [] and report.unsure == 1
    assert world.mem(kept).days == 1 and world.mem(SLEEP).state == State.QUEUED


def test_one_sure_proposal_of_the_same_words_makes_them_sure(world):
    world.oracle.rules = [Rule("at all", SLEEP, "health/sleep", "fact", 0.95, persona="base"),
                          Rule("badly", SLEEP, "health/sleep", "fact", 0.9, persona="lifestyle")]
    world.say("2026-11-23T23:30:00+09:00", "When I'm stressed I can't sleep at all")
    world.say("2026-11-23T23:35:00+09:00", "I sleep badly when stressed")
    report = world.flush("2026-11-24T00:30:00+09:00")
    assert report.unsure == 0 and world.queue() == []
    assert world.mem(SLEEP).state == State.CANDIDATE and len(world.mem(SLEEP).evidence) == 2


def test_the_flush_report_says_how_many_wait_because_the_guard_was_not_sure(world, capsys):
    world.oracle.rules = [Rule("stressed", SLEEP, "health/sleep", "fact", 0.9)]
    world.say("2026-11-23T23:30:00+09:00", "When I'm stressed I can't sleep at all")
    world.clock.now = world.clock.now.replace(day=24)
    out = world.cli(capsys, "flush")
    assert "sent to review 1 (1 not sure these are your words)" in out


def test_an_unsure_proposal_approved_is_the_users_and_left_unanswered_is_set_aside(world, make_world):
    world.oracle.rules = [Rule("stressed", SLEEP, "health/sleep", "fact", 0.9)]
    world.say("2026-11-23T23:30:00+09:00", "When I'm stressed I can't sleep at all")
    world.flush("2026-11-24T00:30:00+09:00")
    later = world.clock() + timedelta(days=world.settings.review_deadline_days + 1)
    with world.app.store.atomic():
        prune(world.memory.memories, world.settings, later, None)
    assert world.mem(SLEEP).state == State.PENDING and world.queue() == []  # never a candidate by default

    other = make_world("approved")
    other.oracle.rules = world.oracle.rules
    other.say("2026-11-23T23:30:00+09:00", "When I'm stressed I can't sleep at all")
    other.flush("2026-11-24T00:30:00+09:00")
    [row] = other.queue()
    other.memory.approve(str(row["id"]))
    assert other.mem(SLEEP).state == State.ACTIVE


def test_junk_is_still_dropped_with_its_rule_and_why_in_plain_words(world):
    world.oracle.rules = [Rule("Fukuoka", "Moving to Fukuoka next month, and my password is hunter2", "home/city",
                               "fact", 0.9),
                          Rule("cilantro", "Likes cilantro", "food/cilantro", "preference", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "I'm moving to Fukuoka next month")
    world.say("2026-11-23T21:05:00+09:00", "I hate cilantro, it tastes like soap to me")
    report = world.flush("2026-11-23T22:00:00+09:00")
    reasons = {d["text"]: (d["rule"], d["reason"]) for d in report.dropped_items}
    assert reasons["Moving to Fukuoka next month, and my password is hunter2"] == (
        "adds_words", "says something the user's lines it cites do not: password, hunter2")
    assert reasons["Likes cilantro"] == (
        "adds_words", "says something the user's lines it cites do not: it turns what you said round "
                      "(likes for dislikes)")
    assert report.unsure == 0 and world.queue() == []
