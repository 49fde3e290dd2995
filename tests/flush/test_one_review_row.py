"""One review item per change: the same proposal from several filter personas is one item and one row.

Measured on a real flush before the fold: four personas proposing a move from Osaka to Fukuoka left four
review rows for one memory, and approving one silently closed the other three. Each test here failed
with ``fold_items`` returning the items as they came.
"""

from __future__ import annotations

from monchat.core.flush.fold import fold_items
from monchat.core.flush.records import Item
from tests.flush.conftest import Judgement, Rule

OSAKA = "Lives in Osaka"
MOVE = "Moved from Osaka to Fukuoka"
PERSONAS = ("base", "lifestyle", "project", "emotional")  # the four a flush with SEED runs


def _lived_in_osaka(world) -> None:
    world.oracle.rules = [Rule("I live in Osaka", OSAKA, "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I live in Osaka")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.layer(OSAKA) == 1


def _four_propose_the_move(world) -> None:
    """Each persona words it a little differently (case, a full stop, "The user"), with its own score."""
    wordings = {"base": (MOVE, 0.95), "lifestyle": ("moved from Osaka to Fukuoka.", 0.8),
                "project": ("The user moved from Osaka to Fukuoka", 0.85),
                "emotional": ("Moved from OSAKA to Fukuoka!", 0.7)}
    world.oracle.rules = [Rule("Fukuoka", text, "home/city" if persona != "project" else "Home / City", "explicit",
                               score, persona=persona) for persona, (text, score) in wordings.items()]
    world.oracle.judgements = {(OSAKA, None): Judgement("SUPERSEDE", 0.9)}


def test_four_personas_proposing_one_move_make_one_item_judged_once_and_one_review_row(world, capsys):
    _lived_in_osaka(world)
    _four_propose_the_move(world)
    said = world.say("2026-11-25T20:00:00+09:00", "I moved from Osaka to Fukuoka last week")
    report = world.flush("2026-11-25T21:00:00+09:00")

    asked = [p for p in world.oracle.judged if p.old == OSAKA]
    assert len(asked) == 1 and asked[0].new == MOVE  # the best-scored wording, asked about once
    rows = world.queue()
    assert len(rows) == 1, rows
    row = rows[0]
    assert row["action"] == "supersede" and row["text"] == MOVE
    assert row["proposers"] == list(PERSONAS)
    assert world.mem(MOVE).evidence == [said]
    assert report.folded == [{"text": MOVE, "slot": "home/city", "personas": list(PERSONAS), "proposals": 4}]
    assert [n.code for n in report.notes if getattr(n, "code", "") == "folded"] == ["folded"]
    assert sum(1 for m in world.store.all() if "fukuoka" in m.text.casefold()) == 1

    # The faces say who proposed it: `monchat memory queue`, text and JSON.
    text = world.cli(capsys, "memory", "queue")
    assert "(proposed by base, lifestyle, project, emotional)" in text
    assert world.cli_json(capsys, "memory", "queue")[0]["proposers"] == list(PERSONAS)

    # Approving the one row closes nothing else behind the user's back.
    world.memory.approve(str(row["id"]))
    assert world.mem(OSAKA).superseded_by == world.mem(MOVE).id
    assert world.layer(MOVE) == 1
    closed = [r for r in world.rows("review_queue") if r["status"] not in ("open", "approved")]
    assert closed == [] and world.queue() == []


def test_proposals_repeated_by_personas_are_more_support_not_more_memories(world):
    """A trip three personas noticed: one memory, its score the best of them, its evidence the union."""
    trip = "Went to Kenrokuen in Kanazawa"
    world.oracle.rules = [Rule("Kenrokuen", trip, "travel/kanazawa", "fact", 0.6, persona="base"),
                          Rule("Kenrokuen", trip, "travel/kanazawa", "fact", 0.8, persona="lifestyle",
                               extra=("m2",)),
                          Rule("Kenrokuen", trip.lower(), "travel/kanazawa", "habit", 0.7, persona="emotional")]
    first = world.say("2026-11-25T10:00:00+09:00", "Went to Kenrokuen in Kanazawa this morning")
    second = world.say("2026-11-25T10:05:00+09:00", "The garden was covered in snow")
    report = world.flush("2026-11-25T12:00:00+09:00")
    memory = world.mem(trip)
    assert memory.score == 0.8 and sorted(memory.evidence) == sorted([first, second])
    assert memory.kind == "fact"  # with mixed kinds the loosest rule's kind (fact: 2 days, habit: 3)
    assert report.folded[0]["personas"] == ["base", "lifestyle", "emotional"]
    assert [m.text for m in world.store.all()] == [trip]


def test_one_persona_saying_the_same_twice_is_one_item_and_the_note_says_so(world):
    world.oracle.rules = [Rule("tea", "Drinks green tea", "drink/daily", "fact", 0.8),
                          Rule("again", "drinks green tea.", "drink/daily", "fact", 0.9)]
    world.say("2026-11-25T08:00:00+09:00", "Green tea again this morning")
    report = world.flush("2026-11-25T09:00:00+09:00")
    assert [m.text for m in world.store.all()] == ["drinks green tea."]
    assert [(n.code, n.args) for n in report.notes if getattr(n, "code", "") in ("folded", "repeated")] == \
        [("repeated", ("base", 2, "drinks green tea."))]


def test_two_different_changes_in_one_slot_are_not_folded(world):
    world.oracle.rules = [Rule("Fukuoka", "Moved to Fukuoka", "home/city", "explicit", 0.9, persona="base"),
                          Rule("Fukuoka", "Moved to Sapporo", "home/city", "explicit", 0.9, persona="lifestyle")]
    world.say("2026-11-25T20:00:00+09:00", "Fukuoka or Sapporo, I moved somewhere")
    report = world.flush("2026-11-25T21:00:00+09:00")
    assert world.has("Moved to Fukuoka") and world.has("Moved to Sapporo")
    assert report.folded == []


def _item(text: str, slot: str = "home/city", kind: str = "explicit", persona: str = "base",
          score: float = 0.9, evidence=("m1",)) -> Item:
    return Item(persona, "reinforced", text, slot, kind, score, list(evidence), "why", 1.0, "2026-11-25T20:00")


def test_what_is_near_identical_and_what_is_not():
    def folds(a: Item, b: Item) -> bool:
        return len(fold_items([a, b])[0]) == 1

    assert folds(_item("Moved from Osaka to Fukuoka"), _item("ＭＯＶＥＤ  from osaka to fukuoka。", persona="x"))
    assert folds(_item("Practises the guitar at nights"), _item("practises guitar at night", persona="x"))  # plural
    # A tense is a time (issue 45, near text): "practised" is not "practises", "Alexander" not "Alexandra".
    assert not folds(_item("Practised guitar tonight"), _item("practises guitar tonight", persona="x"))
    assert not folds(_item("Cat named Alexander"), _item("Cat named Alexandra", persona="x"))
    assert folds(_item("大阪から福岡に引っ越した"), _item("ユーザーは大阪から福岡に引っ越した", persona="x"))
    # Not the same claim, though a bag of words would call them equal:
    assert not folds(_item("Moved from Osaka to Fukuoka"),
                     _item("Moved from Fukuoka to Osaka", persona="x"))
    assert not folds(_item("I have no car"), _item("I have a car", persona="x"))
    assert not folds(_item("Likes coffee"), _item("Likes coffee but not in the evening", persona="x"))
    # The same words in another slot, or of another kind family, are another claim:
    assert not folds(_item("Tokyo"), _item("Tokyo", slot="work/city", persona="x"))
    assert not folds(_item("Rust", kind="fact"), _item("Rust", kind="retraction", persona="x"))
    assert not folds(_item("..."), _item("...", persona="x"))  # no words: nothing to call identical
