"""Knowledge gaps through the real flush: recall failures from questions memory could not answer, the
program's structural gaps from the profile, marking inbox entries, and the report's per-layer summary.

The oracle plays every LLM call (filters, judge, reflect, diary); the program's rules are what is tested.
"""

from __future__ import annotations

import pytest

from monchat.core.background.neighbours import expected
from monchat.core.errors import NotFound
from tests.flush.conftest import Rule, at
from tests.test_cli import in_process  # noqa: F401 (a fixture)

DOG = Rule("dog's name", "asked what my dog's name is", "pet/dog", "recall", 0.8)
DOG_LIFESTYLE = Rule("dog's name", "asked my dog's name again", "pet/dog", "recall", 0.8, persona="lifestyle")
# Its words are the user's ("娘と公園に行った"): a memory "not found in your words" waits for review and
# counts in no view (core/store/shown.py), so it would make no topic "often".
DAUGHTER = Rule("娘", "娘と公園に行く", "family/daughter", "fact", 0.8)
MOTHER = Rule("母", "母とよく電話する", "family/mother", "habit", 0.8)
RUST = Rule("Rust", "Rust async", "skill/rust_async", "skill", 0.8)


def ask_twice(world) -> None:
    world.say("2026-11-23T21:00:00+09:00", "what's my dog's name again?")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T21:00:00+09:00", "I told you my dog's name, you forgot it")


def test_a_question_memory_could_not_answer_is_a_failure_and_the_second_makes_a_gap(world, capsys):
    world.oracle.rules = [DOG]
    world.say("2026-11-23T21:00:00+09:00", "what's my dog's name again?")
    report = world.flush("2026-11-23T22:00:00+09:00")
    [failure] = world.rows("recall_failures")
    assert (failure["slot"], failure["source"]) == ("pet/dog", "question")
    assert world.cli_json(capsys, "gaps") == [] and report.background["layers"]["gaps"] == {"new": [], "raised": []}
    assert world.store.all() == []  # a question is never kept as a memory: nothing is filled in

    world.say("2026-11-25T21:00:00+09:00", "I told you my dog's name, you forgot it")
    report = world.flush("2026-11-25T22:00:00+09:00")
    [gap] = world.cli_json(capsys, "gaps")
    assert (gap["kind"], gap["slot"], gap["failures"], gap["status"], gap["source"]) == (
        "recall", "pet/dog", 2, "open", "failures")
    assert report.background["layers"]["gaps"]["new"] == [
        {"kind": "recall", "slot": "pet/dog", "source": "failures", "failures": 2}]
    assert world.store.all() == []
    assert "pet/dog" in world.prompt()  # ask rather than guess

    world.say("2026-11-27T21:00:00+09:00", "my dog's name, again!")
    report = world.flush("2026-11-27T22:00:00+09:00")
    assert [g["failures"] for g in world.cli_json(capsys, "gaps")] == [3]  # the same mark, counting on
    assert report.background["layers"]["gaps"]["raised"][0]["failures"] == 3


def test_a_message_counts_once_per_slot_however_many_personas_saw_it(world):
    world.oracle.rules = [DOG, DOG_LIFESTYLE]
    world.say("2026-11-23T21:00:00+09:00", "what's my dog's name again?")
    world.flush("2026-11-23T22:00:00+09:00")
    assert len(world.rows("recall_failures")) == 1 and world.rows("gaps") == []


def test_two_questions_in_one_flush_make_the_gap_and_a_correction_counts_in_the_same_slot(world, capsys):
    world.oracle.rules = [DOG, Rule("違う", "犬の名前はポチじゃない", "pet/dog", "correction", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "what's my dog's name again?")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-24T21:00:00+09:00", "違う、犬の名前はポチじゃない")
    world.flush("2026-11-24T22:00:00+09:00")
    assert sorted(r["source"] for r in world.rows("recall_failures")) == ["correction", "question"]
    [gap] = world.cli_json(capsys, "gaps")
    assert (gap["slot"], gap["failures"]) == ("pet/dog", 2)


def test_a_recall_item_not_in_the_words_of_its_line_or_citing_the_assistant_counts_nothing(world):
    world.oracle.rules = [Rule("覚えて", "unknown pet", "pet/dog", "recall", 0.8),
                          Rule("dog's name", "asked my dog's name", "pet/dog", "recall", 0.8, roles=("assistant",))]
    world.say("2026-11-23T21:00:00+09:00", "覚えてないの？")
    world.say("2026-11-23T21:01:00+09:00", "Your dog's name is Rex, right?", role="assistant")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert world.rows("recall_failures") == []
    reasons = {d["text"]: (d["category"], d["reason"]) for d in report.dropped_items}
    assert reasons["unknown pet"] == ("words", "a recall failure shares no words with the line it cites")
    assert "assistant line" in reasons["asked my dog's name"][1]


# ---- the program's structural gaps --------------------------------------------------
def family_week(world, days=("2026-11-23", "2026-11-24", "2026-11-25")) -> None:
    for day in days:
        world.say(f"{day}T20:00:00+09:00", "娘と公園に行った")
        world.say(f"{day}T20:10:00+09:00", "母から電話")


def test_a_topic_talked_about_often_without_an_expected_neighbour_is_a_structural_gap(world, capsys):
    world.oracle.rules = [DAUGHTER, MOTHER]
    world.oracle.reflection = {"insights": [], "gaps": []}
    world.app.settings.background.structural_gap_after = 7
    family_week(world)
    world.flush("2026-11-25T22:00:00+09:00")
    assert world.cli_json(capsys, "gaps") == []  # 6 family messages in 30 days: not often enough

    world.app.settings.background.structural_gap_after = 6
    world.say("2026-11-26T20:00:00+09:00", "娘の誕生日")
    report = world.flush("2026-11-26T22:00:00+09:00")
    [gap] = world.cli_json(capsys, "gaps")  # children (daughter) and parents (mother) came up; the partner never
    assert (gap["kind"], gap["slot"], gap["source"], gap["failures"]) == ("structural", "family/partner",
                                                                           "neighbours", 0)
    assert "family often (7 messages in 30 days)" in gap["text"]
    assert report.background["layers"]["gaps"]["new"][0]["slot"] == "family/partner"
    assert "family/partner" in world.prompt()
    assert sorted(m.text for m in world.store.all()) == ["娘と公園に行く", "母とよく電話する"]  # nothing invented

    world.say("2026-11-27T20:00:00+09:00", "娘とまた公園")
    report = world.flush("2026-11-27T22:00:00+09:00")
    assert len(world.cli_json(capsys, "gaps")) == 1 and report.background["gaps"] == []  # marked once


def test_the_neighbour_table_reads_a_neighbours_words_anywhere_in_a_slot_of_its_topic_or_as_a_topic():
    counts = {"family": 5, "work": 4}
    assert [m["slot"] for m in expected(counts, ["family/kids"], 5)] == ["family/partner", "family/parents"]
    assert [m["slot"] for m in expected(counts, ["family/wife_job", "mother/health", "family/son"], 5)] == []
    assert [m["slot"] for m in expected(counts, ["family/kids"], 4)][-3:] == [
        "work/role", "work/schedule", "work/colleagues"]
    assert expected(counts, [], 0) == []  # 0 turns the program's structural gaps off
    assert expected({"hobby": 50}, [], 1) == []  # a topic outside the table expects nothing


# ---- marking inbox entries ------------------------------------------------------------
def test_a_dismissed_gap_gives_no_hint_at_once_and_is_not_marked_again(world, capsys):
    world.oracle.rules = [DOG]
    ask_twice(world)
    world.flush("2026-11-25T22:00:00+09:00")
    [gap] = world.cli_json(capsys, "gaps")
    revision = world.memory.revision()
    out = world.cli(capsys, "gaps", "dismiss", str(gap["id"]))
    assert f"gap #{gap['id']} is dismissed." in out
    assert [g["status"] for g in world.cli_json(capsys, "gaps")] == ["dismissed"]
    assert "pet/dog" not in world.prompt() and world.memory.revision() != revision  # the next turn sees it

    world.say("2026-11-27T21:00:00+09:00", "my dog's name, again!")
    report = world.flush("2026-11-27T22:00:00+09:00")
    assert len(world.rows("recall_failures")) == 3  # still counted
    assert [(g["status"], g["failures"]) for g in world.cli_json(capsys, "gaps")] == [("dismissed", 2)]
    assert report.background["gaps"] == [] and "pet/dog" not in world.prompt()


def test_a_gap_read_still_gives_its_hint_and_the_hint_moves_to_the_next_gap_when_one_is_dismissed(world, capsys):
    world.oracle.rules = [DOG, Rule("where I work", "asked where I work", "work/place", "recall", 0.8)]
    world.say("2026-11-23T21:00:00+09:00", "what's my dog's name again? and where I work?")
    world.say("2026-11-23T21:05:00+09:00", "you forgot my dog's name and where I work")
    world.flush("2026-11-23T22:00:00+09:00")
    dog, work = sorted(world.cli_json(capsys, "gaps"), key=lambda g: g["id"])
    assert "work/place" in world.prompt()  # the newest
    world.cli(capsys, "gaps", "read", str(work["id"]))
    assert "work/place" in world.prompt()
    world.cli_json(capsys, "gaps", "dismiss", str(work["id"]))
    assert "work/place" not in world.prompt() and "pet/dog" in world.prompt()
    assert dog["slot"] == "pet/dog"


def test_insights_are_marked_read_or_dismissed_and_an_unknown_number_is_not_found(world, capsys):
    world.oracle.rules = [RUST]
    world.say("2026-11-23T21:00:00+09:00", "I wrote Rust async code today")
    world.flush("2026-11-23T22:00:00+09:00")
    [insight] = world.cli_json(capsys, "insights")
    assert insight["status"] == "open"
    assert world.cli_json(capsys, "insights", "read", str(insight["id"]))["status"] == "read"
    assert "(read)" in world.cli(capsys, "insights")
    world.cli(capsys, "insights", "dismiss", str(insight["id"]))
    assert [i["status"] for i in world.cli_json(capsys, "insights")] == ["dismissed"]
    from monchat.core.background.inbox import Inbox
    with pytest.raises(NotFound):
        Inbox(world.app.store, world.settings, world.memory).mark("gap", 99, "dismiss")


# ---- the report, layer by layer ------------------------------------------------------------
def test_the_flush_report_says_what_each_layer_changed_and_a_dry_run_writes_none_of_it(world, capsys):
    world.oracle.rules = [DOG, RUST]
    world.say("2026-11-23T21:00:00+09:00", "what's my dog's name again?")
    world.say("2026-11-23T21:10:00+09:00", "I wrote Rust async code today")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-24T21:00:00+09:00", "I told you my dog's name")
    world.say("2026-11-24T21:10:00+09:00", "more Rust async today")
    world.clock.now = at("2026-11-24T22:00:00+09:00")
    data = world.cli_json(capsys, "flush", "--dry-run")
    layers = data["background"]["layers"]
    assert layers["gaps"]["new"] == [{"kind": "recall", "slot": "pet/dog", "source": "failures", "failures": 2}]
    assert layers["diary"] == {"days": ["2026-11-24"]}
    assert layers["reflect"] == {"insights": 1, "gaps": 0, "dropped": 0}
    assert layers["profile"]["changed"] == [{"topic": "skill", "count": 2, "delta": 1}]
    assert world.rows("gaps") == [] and len(world.rows("recall_failures")) == 1  # nothing written
    assert [p["date"] for p in world.cli_json(capsys, "diary")] == ["2026-11-23"]

    out = world.cli(capsys, "flush")
    for line in ("  reflect: 1 insight(s), 0 suspected gap(s)", "  profile: this week skill 2 (+1); rising -",
                 "  diary: 2026-11-24 — `monchat diary`",
                 "  gaps: new recall pet/dog (2 failures) — `monchat gaps`"):
        assert line in out
    [run] = world.flusher.runs(1)
    assert run["background"]["layers"]["gaps"]["new"][0]["slot"] == "pet/dog"


def test_the_report_says_so_when_a_layer_changed_nothing(world, capsys):
    world.app.settings.background.reflect = False
    world.say("2026-11-23T21:00:00+09:00", "こんばんは")
    out = world.cli(capsys, "flush")
    for line in ("reflect: did not run", "profile: no change this week", "diary: 2026-11-23",
                 "gaps: none new or raised", "skills: no level changed"):
        assert line in out


def test_the_cli_marks_only_an_entry_it_is_given_and_knows(in_process, capsys):  # noqa: F811 (a fixture)
    assert in_process(["gaps", "dismiss"]) == 2
    assert "Which gap? Give its number." in capsys.readouterr().err
    assert in_process(["insights", "read", "7"]) == 2
    assert "There is no insight 7." in capsys.readouterr().err
    assert in_process(["gaps", "--json"]) == 0 and capsys.readouterr().out.strip() == "[]"
