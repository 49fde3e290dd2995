"""Issue 45 item 3, near text: two rows that say the same thing in slightly different words are one row.

Measured before: 「看護師として働いている」 and 「看護師の仕事をしている」 (and "works as a nurse" / "is a nurse") were two
review rows, and approving both stored two memories. Now the frame of the sentence is no word
(``alike_words.near_words``); every other difference — a number, a negation, a time or tense, a name — keeps two
rows. Each edge is tested both ways: folded when only the frame differs, apart when one more word differs.
"""

from __future__ import annotations

import pytest

from monchat.core.memory.alike import same_change
from monchat.core.transfer.memory_import import import_memory
from monchat.core.vocabulary.states import State
from tests.flush.conftest import Rule

ALIKE = [
    ("看護師として働いている", "看護師の仕事をしている"),
    ("看護師として働いている", "看護師です。"),
    ("看護師をしている", "看護師の仕事をしています"),
    ("Works as a nurse", "Is a nurse"),
    ("The user works as a nurse.", "is a nurse"),
    ("猫を二匹飼っている", "猫を2匹飼っている"),
    ("Has two cats", "Has 2 cats"),
    ("Has a cat named Mochi", "has a cat named Mochi."),
]
APART = [  # one word beyond the frame differs: never one row
    ("Has two cats", "Has three cats"),  # a number
    ("猫を二匹飼っている", "猫を三匹飼っている"),
    ("看護師として二年働いている", "看護師として三年働いている"),
    ("Is a nurse", "Is not a nurse"),  # a negation
    ("Is a nurse", "Isn't a nurse"),
    ("Is a nurse", "Is no longer a nurse"),
    ("看護師として働いている", "看護師として働いていない"),
    ("看護師の仕事をしている", "看護師の仕事をしていない"),
    ("Has a cat named Alexander", "Has a cat named Alexandra"),  # a name (the guard's 5-letter stem says one word)
    ("看護師の田中さん", "看護師の中田さん"),
    ("Has a cat named Mochi", "Has a cat"),
    ("Works as a nurse", "Worked as a nurse"),  # a time or tense
    ("Is a nurse", "Was a nurse"),
    ("Works on Mondays", "Works on Fridays"),
    ("看護師として働いている", "看護師として働いていた"),
    ("看護師として働いている", "去年から看護師として働いている"),
    ("看護師をしている", "看護師をしていた"),
    ("看護師をしている", "看護師をしていない"),
    ("Works as a nurse", "Works as a nurse at night"),
    ("Lives in Osaka", "Works in Osaka"),  # what the user does with it
    ("Likes cats", "Dislikes cats"),
]


@pytest.mark.parametrize("a, b", ALIKE)
def test_the_same_thing_in_other_words_is_one_change(a, b):
    assert same_change(("work/job", "explicit", a), ("work/job", "fact", b))
    assert same_change(("work/job", "explicit", b), ("work/job", "fact", a))


@pytest.mark.parametrize("a, b", APART)
def test_a_number_a_negation_a_name_or_a_time_keeps_two_changes(a, b):
    assert not same_change(("work/job", "explicit", a), ("work/job", "explicit", b))
    assert not same_change(("imported/chatgpt", "explicit", b), ("work/job", "explicit", a))


def test_near_text_still_needs_the_same_slot():
    assert not same_change(("work/job", "explicit", "看護師として働いている"),
                           ("family/mother", "explicit", "看護師の仕事をしている"))  # the mother's job


def test_two_nurse_rows_are_one_row_and_approving_stores_one_memory(world, capsys):
    import_memory(world.app, text="- 看護師として働いている\n", source="chatgpt")
    world.settings.ask_before_layer1 = True
    world.oracle.rules = [Rule("看護師", "看護師の仕事をしている", "work/job", "explicit", 0.9)]
    said = world.say("2026-11-23T08:00:00+09:00", "看護師の仕事をしていて、今日も夜勤だった")
    world.flush("2026-11-23T09:00:00+09:00")
    rows = world.memory.queue()
    assert len(rows) == 2
    [group] = world.memory.queue_groups()
    assert world.memory.review_rows() == 1 and len(group) == 2
    assert "×2" in world.cli(capsys, "memory", "queue")
    world.memory.decide_many([str(r.id) for r in group], approve=True)
    kept = [m for m in world.store.live() if "看護師" in m.text]
    assert len(kept) == 1 and kept[0].state is State.ACTIVE
    assert said in [r["message_id"] for r in world.ledger(kept[0].id)]


def test_a_negated_nurse_row_stays_its_own_row(world):
    import_memory(world.app, text="- 看護師として働いている\n- 看護師として働いていない\n", source="chatgpt")
    assert len(world.memory.queue_groups()) == 2


def test_the_cli_decides_a_row_with_its_alike_items_and_names_an_import_s_source_once(world, capsys):
    import_memory(world.app, text="- 看護師として働いている\n- Has two cats\n", source="chatgpt")
    import_memory(world.app, text="- 看護師の仕事をしている\n", source="claude")
    queue = world.cli(capsys, "memory", "queue")
    assert "proposed by" not in queue and queue.count("imported from ChatGPT") == 2  # once a row
    [nurse] = [g for g in world.memory.queue_groups() if len(g) == 2]
    out = world.cli(capsys, "memory", "approve", str(nurse[0].id))  # the row's number: both of its items
    assert f"#{nurse[1].id}" in out
    assert [g[0].text for g in world.memory.queue_groups()] == ["Has two cats"]
    assert len([m for m in world.store.live() if "看護師" in m.text]) == 1
    assert "undone: 2 approved" in world.cli(capsys, "memory", "undo")
