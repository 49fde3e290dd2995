"""Eight rules no test pinned (issue 37), each on its edge through what a user's action goes through.

A mutation probe changed each by one step — the guard's thresholds (``memory/guard.py``), the states the views
may show (``vocabulary/states.py``), the views' "rests on a supporting user line" (``store/shown.py``), the Delete
message confirmation's count of what a memory still rests on (``memory/takeback.py``), the first pause time
(``memory/pause.py``) — and every neighbouring test still passed. Each test here was seen failing under its
change; ``scripts/mutation-pins`` applies them in turn and prints "killed" or "SURVIVED" for each. The guard's
pure-function twins are in ``tests/test_guard_boundaries.py``.

Every test drives the real services built by ``build_app``; the LLM is the oracle.
"""

from __future__ import annotations

import json

from monchat.core.store.shown import ShownStore
from tests.flush.conftest import Judgement, Rule

DAY = "2026-11-23"


def dropped(report, text: str) -> list[dict]:
    return [d for d in report.dropped_items if d["text"] == text]


# ---- the guard, at a flush ------------------------------------------------------------------------------
def test_a_three_letter_memory_is_a_statement_and_kept(world):
    """``MIN_MEANING``: "Tea" weighs exactly three; one less ("ok") says nothing."""
    world.oracle.rules = [Rule("Tea", "Tea", "drink/tea", "explicit")]
    world.say(f"{DAY}T08:00:00+09:00", "Tea, always Tea in the morning")
    report = world.flush(f"{DAY}T09:00:00+09:00")
    assert dropped(report, "Tea") == []
    assert world.has("Tea")


def test_a_three_letter_word_the_line_never_said_drops_the_item(world, capsys):
    """``MIN_WORD``: "dog" is a content word; "has a cat and a dog" citing "I have a cat" adds it."""
    world.oracle.rules = [Rule("cat", "has a cat and a dog", "pet/cat", "explicit")]
    world.say(f"{DAY}T20:00:00+09:00", "I have a cat")
    report = world.flush(f"{DAY}T21:00:00+09:00")
    [drop] = dropped(report, "has a cat and a dog")
    assert drop["rule"] == "adds_words" and drop["reason"].endswith(": dog")
    assert not world.has("has a cat and a dog")
    assert "dog" not in json.dumps(world.cli_json(capsys, "memory", "list", "--all"))


def test_a_slot_naming_an_id_drops_the_item(world):
    """``bad_slot``: a part with the word "id" in it ("guitar_id") is a schema field, not the user's subject."""
    world.oracle.rules = [Rule("ギター", "ギターを練習する", "hobby/guitar_id", "habit")]
    world.say(f"{DAY}T20:00:00+09:00", "今夜はギターを1時間練習した")
    report = world.flush(f"{DAY}T21:00:00+09:00")
    [drop] = dropped(report, "ギターを練習する")
    assert drop["rule"] == "bad_slot" and "guitar_id" in drop["reason"]
    assert not world.has("ギターを練習する")


EVENING = ["I moved to Sendai last spring for a new job.", "I usually cycle to work along the river."]


def _diary(world, capsys, page: str):
    for n, text in enumerate(EVENING):
        world.say(f"{DAY}T2{n}:00:00+09:00", text)
    world.oracle.diary = lambda day, lines: {"text": page, "cited": ["d1", "d2"]}
    report = world.flush(f"{DAY}T23:30:00+09:00")
    return report, world.cli_json(capsys, "diary")


def test_a_diary_page_saying_one_sentence_exactly_three_times_is_refused_and_owed(world, capsys):
    """``LOOP_TIMES``: three times is a loop, though every word of it is the user's."""
    report, pages = _diary(world, capsys, " ".join([EVENING[0], *[EVENING[1]] * 3]))
    assert pages == []
    assert json.loads(world.app.store.get_state("diary_owed") or "[]") == [DAY]
    assert any(e.startswith(f"diary {DAY}") and "over and over" in e for e in report.errors)


def test_a_diary_page_saying_it_twice_is_kept(world, capsys):
    _report, [page] = _diary(world, capsys, " ".join([EVENING[0], *[EVENING[1]] * 2]))
    assert page["text"].startswith("I moved to Sendai")


# ---- what the views may show ----------------------------------------------------------------------------
FADING = Rule("ゆっくり", "ゆっくり進めたい", "pace/projects", "preference", 0.9)


def test_a_dormant_memory_is_still_shown_in_the_graph(world, capsys):
    """``SHOWN_STATES``: a faded preference is out of the prompt, but still the user's: the views show it."""
    world.oracle.rules = [FADING]
    world.say("2026-01-01T20:00:00+09:00", "プロジェクトはゆっくり進めたい")
    world.flush("2026-01-01T22:00:00+09:00")
    world.say("2026-07-20T20:00:00+09:00", "今日は雨")
    world.flush("2026-07-20T22:00:00+09:00")  # 200 days: below rules.DORMANT_BELOW
    memory = world.mem(FADING.text)
    assert memory.state == "dormant" and FADING.text not in world.prompt()
    assert memory.id in ShownStore(world.app.store).ids()
    assert "topic:pace" in {n["id"] for n in world.cli_json(capsys, "graph")["nodes"]}


GUITAR = Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9)


def test_a_memory_whose_user_lines_all_contradict_it_is_shown_nowhere(world, capsys):
    """``shown``: a memory must rest on a *supporting* user line; a contradicting one is no support. The graph
    and the profile check it again in their own queries, but reflect's "Known slots" and the slots an insight
    may keep read only ``shown``."""
    world.oracle.rules = [GUITAR]
    world.say(f"{DAY}T20:00:00+09:00", "今夜はギターを1時間練習した")
    against = world.say(f"{DAY}T20:05:00+09:00", "もうギターは弾かない")
    world.flush(f"{DAY}T22:00:00+09:00")
    guitar = world.mem(GUITAR.text)
    assert guitar.id in ShownStore(world.app.store).ids()
    with world.app.store.atomic():  # only the contradicting line left, written by hand (as test_views_shown does)
        world.app.store.db.execute("DELETE FROM evidence WHERE memory_id = ?", [guitar.id])
        world.store.add_evidence(guitar.id, [{"message_id": against, "day": DAY, "session": "", "kind": "habit",
                                              "contradicts": 1, "persona": "base"}], None)
    assert guitar.id not in ShownStore(world.app.store).ids()
    world.oracle.rules = [Rule("緑茶", "緑茶を飲む", "drink/tea", "habit", 0.9)]
    world.oracle.reflection = {"insights": [{"text": "ギターの練習が続いている", "slots": ["hobby/guitar"]}],
                               "gaps": []}
    world.say("2026-11-24T08:00:00+09:00", "朝は緑茶を飲む")
    world.flush("2026-11-24T22:00:00+09:00")
    assert "Known slots: drink/tea\n" in world.oracle.reflect_calls[-1]["user"]  # never named to the model
    assert "ギター" not in json.dumps(world.cli_json(capsys, "insights"), ensure_ascii=False)  # nor to the user
    assert "topic:hobby" not in {n["id"] for n in world.cli_json(capsys, "graph")["nodes"]}


# ---- Delete message: what the confirmation says ---------------------------------------------------------
COFFEE, BLACK_TEA = "毎朝コーヒーを飲む", "今朝は紅茶にした"


def test_deleting_a_memorys_only_support_is_announced_as_taking_it_back_though_a_line_contradicts_it(world):
    """``MessageDeletion.plan``: a contradicting line is no support, so the memory is retracted, as said."""
    world.oracle.rules = [Rule("コーヒー", COFFEE, "drink/morning", "habit", 0.9, persona="lifestyle"),
                          Rule("紅茶", BLACK_TEA, "drink/morning", "habit", 0.8, persona="lifestyle")]
    world.oracle.judgements = {(COFFEE, BLACK_TEA): Judgement("CONTRADICT", 0.9)}
    coffee_line = world.say(f"{DAY}T08:00:00+09:00", "朝はやっぱりコーヒー")
    world.flush(f"{DAY}T09:00:00+09:00")
    world.say("2026-11-24T08:00:00+09:00", "今朝は紅茶にした")
    world.flush("2026-11-24T09:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert sorted(r["contradicts"] for r in world.ledger(coffee.id)) == [0, 1]

    plan = world.app.messages.plan(coffee_line)
    assert [m["id"] for m in plan.retracted] == [coffee.id] and plan.weakened == []
    done = world.app.messages.delete(coffee_line)
    assert done.memory.retracted == [coffee.id]  # the confirmation said what deleting did


# ---- pause memory ---------------------------------------------------------------------------------------
def test_pausing_again_keeps_the_first_time(world, capsys):
    world.clock.now = world.clock.now.replace(hour=9)
    first = world.cli_json(capsys, "memory", "pause")["since"]
    world.clock.now = world.clock.now.replace(hour=18)
    assert world.cli_json(capsys, "memory", "pause")["since"] == first
    assert world.app.pause.pause() == first
    assert world.cli_json(capsys, "status")["memory_paused"] == first
    assert first.startswith(f"{DAY}T09:00")
