"""Issue 45 item 3: proposals and imports that say the same thing are one review row, and approving stores one memory.

Measured before: 猫を二匹 / 猫を2匹 and "Has two cats" / "Has 2 cats" were separate rows, nothing linking them, and
bulk approve stored both. Numbers and counters are now compared as figures (``alike.wording_key``), an imported
memory (slot ``imported/<source>``: no subject) is alike to a proposal of any slot, and approving a change that a
kept memory already says folds it into that memory with its lines.
"""

from __future__ import annotations

from monchat.core.flush.fold import fold_items
from monchat.core.memory.alike import kanji_figures, same_change, wording_key
from monchat.core.transfer.memory_import import import_memory
from monchat.core.vocabulary.states import State
from tests.flush.conftest import Judgement, Rule
from monchat.core.flush.records import Item


def test_numbers_in_figures_kanji_and_words_are_one_wording():
    assert wording_key("猫を二匹飼っている") == wording_key("猫を2匹飼っている")
    assert wording_key("Has two cats") == wording_key("Has 2 cats") == wording_key("has 2 cats.")
    assert wording_key("十二時に寝る") == wording_key("12時に寝る")
    assert [kanji_figures(k) for k in ("二", "十", "十二", "二十", "二十三", "二〇二六", "十十")] == \
        ["2", "10", "12", "20", "23", "2026", "十十"]
    assert wording_key("Has two cats") != wording_key("Has three cats")
    assert same_change(("imported/chatgpt", "explicit", "Has two cats"), ("pets/cats", "fact", "Has 2 cats"))
    assert not same_change(("home/city", "fact", "Tokyo"), ("work/city", "fact", "Tokyo"))  # a slot is a subject


def item(persona: str, text: str, score: float, evidence: list[str]) -> Item:
    return Item(persona, "reinforced", text, "pets/cats", "fact", score, evidence, "why", 1.0, "2026-11-25 Wed 20:00")


def test_two_personas_proposing_kanji_and_figures_fold_into_one_item():
    folded, records = fold_items([item("base", "猫を二匹飼っている", 0.9, ["m1"]),
                                  item("lifestyle", "猫を2匹飼っている", 0.8, ["m2"])])
    assert len(folded) == 1 and folded[0].evidence == ["m1", "m2"] and records[0]["proposals"] == 2


def test_an_import_and_a_proposal_saying_the_same_are_one_row_and_one_memory(world, capsys):
    import_memory(world.app, text="- Has two cats\n", source="chatgpt")
    world.settings.ask_before_layer1 = True
    world.oracle.rules = [Rule("cats", "Has 2 cats", "pets/cats", "explicit", 0.9)]
    world.oracle.judgements = {("Has two cats", "Has 2 cats"): Judgement("COEXIST", 0.95)}
    said = world.say("2026-11-23T08:00:00+09:00", "I have 2 cats at home")
    world.flush("2026-11-23T09:00:00+09:00")
    rows = world.memory.queue()
    assert len(rows) == 2
    [group] = world.memory.queue_groups()
    assert {r.id for r in group} == {r.id for r in rows}
    assert world.memory.review_rows() == 1
    printed = world.cli_json(capsys, "memory", "queue")
    assert all(sorted(p["alike"]) == sorted(r.id for r in rows) for p in printed)

    world.memory.decide_many([str(r.id) for r in group], approve=True)
    kept = [m for m in world.store.live() if "cats" in m.text]
    assert len(kept) == 1 and kept[0].state is State.ACTIVE
    assert said in [r["message_id"] for r in world.ledger(kept[0].id)]  # the user's line goes with it
    assert world.prompt().count("cats") == 1


def test_approving_what_a_kept_memory_already_says_stores_nothing_new(world):
    world.oracle.rules = [Rule("猫を", "猫を二匹飼っている", "pets/cats", "explicit", 0.9)]
    world.say("2026-11-23T08:00:00+09:00", "覚えておいて、猫を二匹飼っている")
    world.flush("2026-11-23T09:00:00+09:00")
    assert world.layer("猫を二匹飼っている") == 1
    import_memory(world.app, text="- 猫を2匹飼っている\n", source="chatgpt")
    [row] = world.memory.queue()
    world.memory.approve(str(row.id))
    assert [m.text for m in world.store.live()] == ["猫を二匹飼っている"]
    assert world.mem("猫を2匹飼っている").superseded_by == world.mem("猫を二匹飼っている").id
