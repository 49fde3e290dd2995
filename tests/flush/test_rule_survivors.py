"""Rules that only the whole of a change shows: the second memory one statement touches, and the
evidence every promotion shows.

One statement can be sure about several kept memories; the first verdict makes the memory it now
lives in and each other target is weighed too (reinforced and promoted, or flagged as contradicted).
Every promotion, to either layer, shows in the report the lines it stood on. Mutation testing
(scripts/mutation, docs/testing.md) found these guarded only by the first target's outcome or by
"a Layer 2 change happened", so a second target left alone or a change with no evidence went unseen.
"""

from __future__ import annotations

from monchat.core.types import format_ts
from monchat.core.memory.waiting import said_again
from tests.flush.conftest import Judgement, Rule

COFFEE, TEA = "朝はコーヒーを飲む", "朝は紅茶も飲む"
DRINKS = "朝はコーヒーと紅茶を飲む"
DRINKS_SAID = "今朝もコーヒーと紅茶を飲んだ"
WATER = "朝は水だけにしている"
WATER_SAID = "朝はもう水だけにしてる"


def changes_of(report, memory_id: str) -> list[tuple[str, int, list[str]]]:
    """(kind, layer, the evidence lines' texts) of each change the report shows for one memory."""
    return [(c.kind, c.layer, [line["text"] for line in c.evidence]) for c in report.changes
            if c.memory_id == memory_id]


def ledger(world, memory_id: str) -> list[tuple]:
    return [(r["message_id"], r["day"], r["kind"], r["contradicts"]) for r in world.ledger(memory_id)]


def _morning(world, coffee_kind: str, tea_kind: str, judgements: dict, said: str = DRINKS_SAID,
             new_text: str = DRINKS, new_kind: str = "habit", score: float = 0.9):
    """Coffee and tea noticed on the 23rd; on the 25th one line about both, judged as ``judgements``."""
    world.oracle.rules = [Rule("コーヒーを淹れ", COFFEE, "drink/morning", coffee_kind, 0.9),
                          Rule("紅茶を淹れ", TEA, "drink/morning", tea_kind, 0.9),
                          Rule(said[:4], new_text, "drink/morning", new_kind, score)]
    world.oracle.judgements = {(old, new_text): verdict for old, verdict in judgements.items()}
    world.say("2026-11-23T07:00:00+09:00", "朝はコーヒーを淹れた")
    world.say("2026-11-23T07:10:00+09:00", "紅茶を淹れたのも飲んだ")
    world.flush("2026-11-23T08:00:00+09:00")
    world.say("2026-11-25T07:00:00+09:00", said)
    return world.flush("2026-11-25T08:00:00+09:00")


# ---- the second memory one statement is about -------------------------------------------------------

def test_a_second_memory_judged_the_same_is_reinforced_and_promoted_with_the_statements_evidence(world):
    report = _morning(world, "habit", "habit", {COFFEE: Judgement("SAME", 0.9), TEA: Judgement("SAME", 0.9)})
    coffee_line, tea_line, drinks_line = world.said
    assert not world.has(DRINKS)  # the statement lives on as support of both
    for text, first_line in ((COFFEE, coffee_line), (TEA, tea_line)):
        memory = world.mem(text)
        assert (memory.state, memory.score, memory.confidence) == ("candidate", 0.9, 0.9)
        assert ledger(world, memory.id) == sorted([(first_line, "2026-11-23", "habit", 0),
                                                   (drinks_line, "2026-11-25", "habit", 0)])
        # A habit needs three days: two days of evidence and a score over the threshold make Layer 2,
        # shown with the line that renewed it.
        assert changes_of(report, memory.id) == [("reinforced", 0, [DRINKS_SAID]), ("layer2", 2, [DRINKS_SAID])]
        assert world.layer(text) == 2
    assert world.queue() == [] and report.promoted == {"layer1": 0, "layer2": 2}


def test_a_second_memory_contradicted_gets_the_statements_evidence_flagged(world):
    report = _morning(world, "fact", "habit",
                      {COFFEE: Judgement("SAME", 0.9), TEA: Judgement("CONTRADICT", 0.9)},
                      said="今朝もコーヒーだけで紅茶はなし", new_text="朝はコーヒーだけ", new_kind="fact")
    coffee_line, tea_line, said_line = world.said
    coffee, tea = world.mem(COFFEE), world.mem(TEA)
    assert ledger(world, tea.id) == sorted([(tea_line, "2026-11-23", "habit", 0),
                                            (said_line, "2026-11-25", "fact", 1)])
    assert (tea.state, tea.contradictions, tea.superseded_by) == ("candidate", 1, None)
    # (Contradicted, nothing renews its Layer 2 window of the 23rd: prune lets it expire.)
    assert changes_of(report, tea.id) == [("contradicted", 0, ["今朝もコーヒーだけで紅茶はなし"]),
                                          ("expired", 0, [])]
    # The first verdict still did its part: coffee, a fact, has two days and goes to Layer 1.
    assert coffee.state == "active"
    assert [c[0] for c in changes_of(report, coffee.id)] == ["reinforced", "layer1"]
    assert report.superseded == 0


# ---- the evidence each promotion shows -----------------------------------------------------------------

def test_a_merged_memory_promoted_to_layer2_shows_the_merging_line(world):
    report = _morning(world, "habit", "habit", {COFFEE: Judgement("MERGE", 0.9, DRINKS)})
    merged = world.mem(DRINKS)
    assert world.mem(COFFEE).superseded_by == merged.id
    assert changes_of(report, merged.id) == [("merged", 0, [DRINKS_SAID]), ("layer2", 2, [DRINKS_SAID])]
    assert merged.state == "candidate" and world.layer(DRINKS) == 2


def test_a_memory_that_supersedes_a_candidate_is_promoted_with_its_own_line(world):
    report = _morning(world, "habit", "habit", {COFFEE: Judgement("SUPERSEDE", 0.9)}, said=WATER_SAID,
                      new_text=WATER)
    water = world.mem(WATER)
    assert world.mem(COFFEE).superseded_by == water.id
    assert changes_of(report, water.id) == [("superseded", 0, [WATER_SAID]), ("layer2", 2, [WATER_SAID])]
    assert water.state == "candidate" and world.layer(WATER) == 2


def test_a_statement_replacing_a_layer1_memory_waits_outside_layer2_with_its_own_line(world):
    report = _morning(world, "explicit", "habit", {COFFEE: Judgement("SUPERSEDE", 0.9)}, said=WATER_SAID,
                      new_text=WATER)
    water, coffee = world.mem(WATER), world.mem(COFFEE)
    assert coffee.state == "active" and coffee.superseded_by is None  # asked, not done
    assert changes_of(report, water.id) == [("queued", 0, [WATER_SAID])]
    assert water.state == "queued" and world.layer(WATER) == 0  # waiting means waiting (issue 45)


def test_a_layer1_promotion_that_waits_for_review_keeps_its_later_support_beside_it(world):
    # Said outright (Layer 1 at once) with a confidence below auto-approval: asked, and meanwhile in no
    # layer (issue 45: waiting means waiting). Said again two days later in words that say it: kept beside
    # the review item as said again, not reinforced while it waits; approval makes it evidence.
    world.oracle.rules = [Rule("コーヒーを淹れ", COFFEE, "drink/morning", "explicit", 0.7),
                          Rule("今朝もコーヒー", "毎朝コーヒー", "drink/morning", "explicit", 0.7)]
    world.oracle.judgements = {(COFFEE, "毎朝コーヒー"): Judgement("SAME", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "覚えておいて、朝はコーヒーを淹れる")
    first = world.flush("2026-11-23T08:00:00+09:00")
    coffee = world.mem(COFFEE)
    assert changes_of(first, coffee.id) == [("new", 0, ["覚えておいて、朝はコーヒーを淹れる"]),
                                            ("queued", 0, ["覚えておいて、朝はコーヒーを淹れる"])]
    assert [r["action"] for r in world.queue()] == ["layer1"]

    again = world.say("2026-11-25T07:00:00+09:00", "今朝もコーヒーを飲む")
    second = world.flush("2026-11-25T08:00:00+09:00")
    assert changes_of(second, coffee.id) == []
    assert world.mem(COFFEE).state == "queued" and world.layer(COFFEE) == 0 and world.mem(COFFEE).days == 1
    assert [s["message_id"] for s in said_again(world.store, world.app.archive, coffee.id)] == [again]
    world.memory.approve(coffee.id)
    assert world.mem(COFFEE).days == 2 and world.layer(COFFEE) == 1


# ---- the audit trail of the user's own decisions -------------------------------------------------------

def test_a_users_decision_is_in_the_audit_trail_at_its_time_and_outside_any_flush_run(world):
    world.oracle.rules = [Rule("コーヒーを淹れ", COFFEE, "drink/morning", "explicit", 0.9)]
    world.say("2026-11-23T07:00:00+09:00", "覚えておいて、朝はコーヒーを淹れる")
    world.flush("2026-11-23T08:00:00+09:00")
    coffee = world.mem(COFFEE)
    world.clock.now = world.clock.now.replace(hour=12)
    world.memory.pin(coffee.id)
    [pinned] = [e for e in world.rows("memory_events") if e["memory_id"] == coffee.id and e["action"] == "pinned"]
    assert (pinned["at"], pinned["run_id"], pinned["detail"]) == (format_ts(world.clock.now), None, "{}")


# ---- one memory reached twice ---------------------------------------------------------------------------

def test_a_memory_a_statement_reaches_twice_is_weighed_once(world):
    # The second line is judged the same as coffee directly and as the first line of the same flush
    # (item:0), which has just become coffee's support: both verdicts name one memory, counted once.
    again, once_more = "今朝もコーヒー", "またコーヒー"
    world.oracle.rules = [Rule("コーヒーを淹れ", COFFEE, "drink/morning", "habit", 0.9),
                          Rule("今朝もコーヒー", again, "drink/morning", "habit", 0.9),
                          Rule("またコーヒー", once_more, "drink/morning", "habit", 0.9)]
    world.oracle.judgements = {(COFFEE, again): Judgement("SAME", 0.9), (COFFEE, once_more): Judgement("SAME", 0.9),
                               (again, once_more): Judgement("SAME", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "朝はコーヒーを淹れた")
    world.flush("2026-11-23T08:00:00+09:00")
    world.say("2026-11-25T07:00:00+09:00", "今朝もコーヒーを飲んだ")
    world.say("2026-11-25T07:30:00+09:00", "またコーヒーをおかわり")
    report = world.flush("2026-11-25T08:00:00+09:00")
    coffee = world.mem(COFFEE)
    run_verdicts = [(v["target_id"], v["verdict"]) for v in world.rows("verdicts") if v["run_id"] == report.run_id]
    assert sorted(run_verdicts) == sorted([(coffee.id, "SAME"), (coffee.id, "SAME"), ("item:0", "SAME")])
    assert not world.has(again) and not world.has(once_more)
    assert len(coffee.evidence) == 3
    # Each line reinforces coffee and renews its Layer 2 window once: two promotions, not three.
    assert report.promoted == {"layer1": 0, "layer2": 2}
