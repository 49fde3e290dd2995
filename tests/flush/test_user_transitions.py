"""What each of the user's own changes does to every field it touches, and what it leaves alone.

Edit, forget, pin and unpin, and approving an unsure judgement (folding a statement into a kept
memory, or rewording it for a MERGE), each through the real ``MemoryService`` after real flushes;
and the second memory one statement replaces (``Consolidator._retire_into``). Mutation testing found
these transitions guarded by their outcome only ("the new text is there"), so a dropped stamp, a
lost evidence row or a review item left pointing at the old version went unseen.
"""

from __future__ import annotations

import json

from monchat.core.types import format_ts
from tests.flush.conftest import Judgement, Rule

GYM, RUN, WALK = "ジムに通っている", "毎朝ランニングしている", "運動は散歩だけにしている"
SENDAI, KANAZAWA = "仙台に住んでいる", "金沢に住んでいる"
WALK_SAID = "運動はもう全部やめて、今は散歩だけ"


def stamp(world) -> str:
    return format_ts(world.clock.now)


def row_of(world, memory_id: str) -> dict:
    [row] = [r for r in world.rows("memories") if r["id"] == memory_id]
    return row


def events(world, memory_id: str) -> list[tuple[str, dict]]:
    return [(e["action"], json.loads(e["detail"])) for e in world.memory.events(memory_id)]


def ledger(world, memory_id: str) -> list[tuple]:
    return [(r["message_id"], r["day"], r["session"], r["kind"], r["contradicts"]) for r in world.ledger(memory_id)]


def open_queue(world) -> list[dict]:
    return [r for r in world.rows("review_queue") if r["status"] == "open"]


def _exercise(world, gym_kind: str, gym_verdict: Judgement, run_verdict: Judgement, run_kind: str = "fact") -> None:
    world.oracle.rules = [Rule("ジム", GYM, "exercise/routine", gym_kind, 0.9),
                          Rule("ランニング", RUN, "exercise/routine", run_kind, 0.9),
                          Rule("散歩だけ", WALK, "exercise/routine", "correction", 0.9)]
    world.oracle.judgements = {(GYM, WALK): gym_verdict, (RUN, WALK): run_verdict}
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.say("2026-11-23T07:10:00+09:00", "毎朝ランニングもしてる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T19:00:00+09:00", WALK_SAID)
    return world.flush("2026-11-25T22:00:00+09:00")


def _moved(world, confidence: float = 0.9) -> None:
    """Sendai said outright (Layer 1 at once); then Kanazawa, a change to it that waits for review."""
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", confidence)}
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて、仙台に住んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-26T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    world.flush("2026-11-26T22:00:00+09:00")


# ---- one statement, a second memory it replaces ----------------------------------------------------

def test_a_second_lasting_memory_is_asked_with_its_own_confidence_reason_and_evidence(world):
    report = _exercise(world, "explicit", Judgement("SUPERSEDE", 0.85), Judgement("SUPERSEDE", 0.9))
    walk, gym = world.mem(WALK), world.mem(GYM)
    [row] = open_queue(world)
    assert (row["action"], row["memory_id"], row["target_id"]) == ("supersede", walk.id, gym.id)
    assert row["reason"] == "replaces an active Layer 1 memory"
    assert row["confidence"] == 0.85  # the verdict's, not the item's score (0.9)
    assert (row["text"], row["old_text"]) == (WALK, GYM)
    [queued] = [c for c in report.changes if c.kind == "queued"]
    assert queued.memory_id == walk.id and queued.old_text == GYM
    assert [line["text"] for line in queued.evidence] == [WALK_SAID]
    assert report.superseded == 1  # the running is replaced now; the gym waits


def test_a_second_memory_replaced_by_a_proposal_that_waits_waits_with_it(world):
    # The first verdict rewords the lasting gym memory, so the merged statement waits for review;
    # replacing the running (a candidate) is asked in the same review rather than done now.
    merged = "ジムはやめて散歩だけにしている"
    report = _exercise(world, "explicit", Judgement("MERGE", 0.9, merged), Judgement("SUPERSEDE", 0.8))
    survivor, run = world.mem(merged), world.mem(RUN)
    assert survivor.state == "queued"
    rows = {r["action"]: r for r in open_queue(world)}
    assert set(rows) == {"merge", "supersede"}
    assert rows["merge"]["target_id"] == world.mem(GYM).id
    assert rows["supersede"]["memory_id"] == survivor.id and rows["supersede"]["target_id"] == run.id
    assert rows["supersede"]["reason"] == "replaces a memory, with a change that waits for your review"
    assert rows["supersede"]["confidence"] == 0.8
    assert run.state != "superseded" and run.superseded_by is None
    assert report.superseded == 0
    [asked] = [c for c in report.changes if c.kind == "queued" and c.old_text == RUN]
    assert [line["text"] for line in asked.evidence] == [WALK_SAID]


def test_a_second_memory_merged_into_the_survivor_gives_it_its_evidence(world):
    merged = "ジムもランニングもやめて散歩だけにしている"
    report = _exercise(world, "fact", Judgement("MERGE", 0.9, merged), Judgement("MERGE", 0.9, merged))
    survivor, gym, run = world.mem(merged), world.mem(GYM), world.mem(RUN)
    assert gym.superseded_by == survivor.id and run.superseded_by == survivor.id
    gym_line, run_line, walk_line = world.said
    assert sorted(survivor.evidence) == sorted([gym_line, run_line, walk_line])
    assert report.superseded == 2
    # One of the two is the first verdict (merged); the other is retired into the merged memory.
    [merged_change] = [c for c in report.changes if c.kind == "merged"]
    [retired] = [c for c in report.changes if c.kind == "superseded"]
    assert retired.memory_id == merged_change.memory_id == survivor.id
    assert {retired.old_text, merged_change.old_text} == {GYM, RUN}
    assert [line["text"] for line in retired.evidence] == [WALK_SAID]


def test_a_second_memory_superseded_takes_no_evidence_to_the_survivor(world):
    report = _exercise(world, "fact", Judgement("SUPERSEDE", 0.9), Judgement("SUPERSEDE", 0.9))
    walk = world.mem(WALK)
    assert walk.evidence == [world.said[2]]  # replacing is not agreeing: the old lines stay with the old rows
    assert report.superseded == 2


# ---- edit -----------------------------------------------------------------------------------------

def test_an_edit_makes_a_new_version_with_every_field_carried_and_the_old_one_history(world):
    _moved(world)
    sendai = world.mem(SENDAI)
    world.memory.pin(sendai.id)
    world.clock.now = world.clock.now.replace(hour=23)
    before = row_of(world, sendai.id)
    new = world.memory.edit(sendai.id, "  仙台の青葉区に住んでいる ")
    now = stamp(world)

    after_old = row_of(world, sendai.id)
    assert {k: v for k, v in after_old.items() if before[k] != v} == {
        "state": "superseded", "superseded_by": new.id, "superseded_at": now, "invalid_at": now,
        "updated_at": now}
    assert after_old["layer2_until"] is None

    created = row_of(world, new.id)
    assert created["text"] == "仙台の青葉区に住んでいる"
    carried = ("slot", "kind", "state", "score", "style", "pinned", "valid_at", "layer2_until",
               "last_evidence_epoch", "contradictions")
    assert {k: created[k] for k in carried} == {k: before[k] for k in carried}
    assert created["state"] == "active" and created["pinned"] == 1
    assert created["persona"] == "user" and created["confidence"] == max(before["confidence"], 0.8)
    assert (created["created_at"], created["updated_at"]) == (now, now)
    assert created["superseded_by"] is None and created["invalid_at"] is None
    assert ledger(world, new.id) == ledger(world, sendai.id) and ledger(world, new.id)

    assert events(world, sendai.id)[-1] == ("edited", {"by": new.id})
    assert events(world, new.id) == [("created by edit", {"from": sendai.id, "old_text": SENDAI}),
                                     ("approved as written", {"queue": []})]
    assert [m.text for m in world.memory.history(new.id)] == [SENDAI, "仙台の青葉区に住んでいる"]


def test_an_edit_is_the_users_word_kept_as_lasting_memory(world):
    world.oracle.rules = [Rule("紅茶", "朝は紅茶", "drink/morning", "fact", 0.6)]
    world.say("2026-11-23T08:00:00+09:00", "朝は紅茶")
    world.flush("2026-11-23T22:00:00+09:00")
    tea = world.mem("朝は紅茶")
    assert tea.confidence == 0.6 and tea.layer2_until  # a candidate in Layer 2
    new = world.memory.edit(tea.id, "朝はミルクティー")
    created = row_of(world, new.id)
    assert created["confidence"] == 0.8  # a low confidence is raised to the user's word
    assert (created["state"], created["layer2_until"]) == ("active", None)  # Layer 1 now, not recent memory
    assert row_of(world, tea.id)["layer2_until"] is None
    assert "朝はミルクティー" in world.prompt() and "朝は紅茶" not in world.prompt()


def test_editing_a_memory_moves_the_reviews_about_it_and_editing_a_proposal_approves_it(world):
    _moved(world)
    sendai, kanazawa = world.mem(SENDAI), world.mem(KANAZAWA)
    [row] = open_queue(world)
    assert (row["memory_id"], row["target_id"]) == (kanazawa.id, sendai.id)

    new_target = world.memory.edit(sendai.id, "仙台市に住んでいた")
    [row] = open_queue(world)
    assert (row["memory_id"], row["target_id"]) == (kanazawa.id, new_target.id)
    assert (row["text"], row["old_text"]) == (KANAZAWA, "仙台市に住んでいた")

    new_proposal = world.memory.edit(kanazawa.id, "金沢市に住んでいる")  # the user's word is the approval
    assert open_queue(world) == []
    [answered] = [r for r in world.rows("review_queue") if r["id"] == row["id"]]
    assert (answered["status"], answered["memory_id"], answered["target_id"]) == \
        ("approved", new_proposal.id, new_target.id)
    assert new_proposal.state == "active"
    assert world.memory.get(new_target.id).superseded_by == new_proposal.id
    assert [m.text for m in world.store.live()] == ["金沢市に住んでいる"]


# ---- forget ---------------------------------------------------------------------------------------

def test_forgetting_a_memory_closes_its_reviews_and_returns_proposals_about_it_to_candidate(world):
    _moved(world)
    sendai, kanazawa = world.mem(SENDAI), world.mem(KANAZAWA)
    world.memory.pin(sendai.id)
    [row] = open_queue(world)
    world.clock.now = world.clock.now.replace(hour=23)
    forgotten = world.memory.forget(sendai.id)
    now = stamp(world)

    assert forgotten.state == "forgotten"
    sendai_row = row_of(world, sendai.id)
    assert (sendai_row["pinned"], sendai_row["layer2_until"], sendai_row["updated_at"]) == (0, None, now)
    [closed] = [r for r in world.rows("review_queue") if r["id"] == row["id"]]
    assert (closed["status"], closed["resolved_at"]) == ("rejected", now)
    assert open_queue(world) == []
    proposal = row_of(world, kanazawa.id)
    assert (proposal["state"], proposal["updated_at"]) == ("candidate", now)
    assert events(world, kanazawa.id)[-1] == ("review closed", {"queue": row["id"], "forgotten": sendai.id})
    assert events(world, sendai.id)[-1] == ("forgotten", {"was": "active", "pinned": 1, "layer2_until": None})
    assert SENDAI not in world.prompt()


def test_forgetting_a_proposal_closes_its_own_review_and_leaves_the_kept_memory(world):
    _moved(world)
    sendai, kanazawa = world.mem(SENDAI), world.mem(KANAZAWA)
    [row] = open_queue(world)
    world.memory.forget(kanazawa.id)
    [closed] = [r for r in world.rows("review_queue") if r["id"] == row["id"]]
    assert closed["status"] == "rejected"
    assert row_of(world, sendai.id)["state"] == "active"  # the kept memory it named is not touched
    assert [a for a, _ in events(world, sendai.id)][-1] != "review closed"
    assert events(world, kanazawa.id)[-1] == ("forgotten", {"was": "queued", "pinned": 0,
                                                          "layer2_until": kanazawa.layer2_until})
    assert kanazawa.layer2_until is None  # a waiting proposal is never recent memory (issue 45)


# ---- pin ------------------------------------------------------------------------------------------

def test_pinning_makes_a_recent_memory_lasting_and_unpinning_leaves_it_there(world):
    world.oracle.rules = [Rule("紅茶", "朝は紅茶", "drink/morning", "fact", 0.9)]
    world.say("2026-11-23T08:00:00+09:00", "朝は紅茶")
    world.flush("2026-11-23T22:00:00+09:00")
    tea = world.mem("朝は紅茶")
    assert tea.state == "candidate" and tea.layer2_until

    world.clock.now = world.clock.now.replace(hour=23)
    world.memory.pin(tea.id)
    pinned = row_of(world, tea.id)
    assert (pinned["pinned"], pinned["state"], pinned["layer2_until"], pinned["updated_at"]) == \
        (1, "active", None, stamp(world))
    assert events(world, tea.id)[-1] == ("pinned", {})

    world.clock.now = world.clock.now.replace(minute=30)
    world.memory.unpin(tea.id)
    unpinned = row_of(world, tea.id)
    assert (unpinned["pinned"], unpinned["state"], unpinned["updated_at"]) == (0, "active", stamp(world))
    assert events(world, tea.id)[-1] == ("unpinned", {})


# ---- approving an unsure judgement ------------------------------------------------------------------

GREEN, GREEN_AGAIN, MERGED = "毎食緑茶を飲む", "緑茶をよく飲んでいる", "毎食よく緑茶を飲んでいる"


def _unsure_green_tea(world, verdict: str, merged_text: str = "") -> dict:
    world.oracle.rules = [Rule("緑茶を飲", GREEN, "drink/daily", "fact", 0.9),
                          Rule("緑茶ばかり", GREEN_AGAIN, "drink/daily", "fact", 0.9)]
    world.oracle.judgements = {(GREEN, GREEN_AGAIN): Judgement(verdict, 0.3, merged_text)}
    world.say("2026-11-23T12:00:00+09:00", "毎食、緑茶を飲んでる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T12:00:00+09:00", "最近も緑茶ばかり")
    world.flush("2026-11-25T22:00:00+09:00")
    [row] = open_queue(world)
    assert row["action"] == "judge"
    world.clock.now = world.clock.now.replace(hour=23)
    return row


def test_a_statement_approved_as_the_same_lives_on_as_the_kept_memorys_evidence(world):
    row = _unsure_green_tea(world, "SAME")
    statement, kept = row["memory_id"], world.mem(GREEN)
    world.memory.approve(str(row["id"]))
    now = stamp(world)
    folded = row_of(world, statement)
    assert (folded["state"], folded["superseded_by"], folded["superseded_at"], folded["invalid_at"],
            folded["layer2_until"], folded["updated_at"]) == ("superseded", kept.id, now, now, None, now)
    assert ("folded into", {"target": kept.id, "verdict": "SAME"}) in events(world, statement)
    assert world.mem(GREEN).days == 2 and sorted(world.mem(GREEN).evidence) == sorted(world.said)


def test_a_statement_approved_as_a_contradiction_is_folded_in_as_counter_evidence(world):
    row = _unsure_green_tea(world, "CONTRADICT")
    statement, kept = row["memory_id"], world.mem(GREEN)
    world.memory.approve(str(row["id"]))
    assert row_of(world, statement)["superseded_by"] == kept.id
    assert ("folded into", {"target": kept.id, "verdict": "CONTRADICT"}) in events(world, statement)
    assert world.mem(GREEN).contradictions == 1


def test_a_merge_approved_takes_the_judges_wording_and_says_what_it_was(world):
    row = _unsure_green_tea(world, "MERGE", MERGED)
    statement = row["memory_id"]
    world.memory.approve(str(row["id"]))
    merged = world.memory.get(statement)
    assert merged.text == MERGED and merged.updated_at == stamp(world)
    assert ("reworded", {"old_text": GREEN_AGAIN}) in events(world, statement)


def test_a_merge_whose_wording_is_the_statements_own_is_not_a_rewording(world):
    row = _unsure_green_tea(world, "MERGE", GREEN_AGAIN)
    world.memory.approve(str(row["id"]))
    assert world.memory.get(row["memory_id"]).text == GREEN_AGAIN
    assert "reworded" not in [a for a, _ in events(world, row["memory_id"])]


# ---- refusing, and taking back what is lasting ---------------------------------------------------------

def test_a_rejected_proposal_never_enters_layer_2(world):
    _moved(world)
    kanazawa = world.mem(KANAZAWA)
    assert kanazawa.state == "queued" and kanazawa.layer2_until is None  # not recent while it waits (issue 45)
    [row] = open_queue(world)
    world.memory.reject(str(row["id"]))
    rejected = row_of(world, kanazawa.id)
    assert (rejected["state"], rejected["layer2_until"]) == ("rejected", None)
    assert KANAZAWA not in world.prompt() and SENDAI in world.prompt()


def test_a_retraction_of_two_lasting_memories_asks_about_each(world):
    quit_both = "ジムもランニングもやめた"
    world.oracle.rules = [Rule("ジムに", GYM, "exercise/routine", "explicit", 0.9),
                          Rule("毎朝ランニング", RUN, "exercise/routine", "explicit", 0.9),
                          Rule("やめた", quit_both, "exercise/routine", "retraction", 0.9)]
    world.oracle.judgements = {(GYM, quit_both): Judgement("SUPERSEDE", 0.9),
                               (RUN, quit_both): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.say("2026-11-23T07:10:00+09:00", "毎朝ランニングもしてる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T19:00:00+09:00", quit_both)
    world.flush("2026-11-25T22:00:00+09:00")
    rows = open_queue(world)
    assert sorted((r["action"], r["old_text"]) for r in rows) == [("retract", GYM), ("retract", RUN)]
    assert {r["reason"] for r in rows} == {"takes back an active Layer 1 memory"}
    assert world.mem(GYM).state == world.mem(RUN).state == "active"  # nothing lasting changes unasked


def test_approving_one_replacement_closes_the_other_reviews_about_the_replaced_memory(world):
    # Two proposals wait to replace the lasting Sendai: Kanazawa (sure) and Osaka (an unsure judgement).
    # Approving Kanazawa makes Sendai history; Osaka's review would now change history, so it closes
    # and Osaka returns to candidate, to be weighed at the next flush against what is live then.
    osaka = "大阪に住んでいる"
    _moved(world)
    world.oracle.rules.append(Rule("大阪", osaka, "home/city", "explicit", 0.9))
    world.oracle.judgements[(SENDAI, osaka)] = Judgement("SUPERSEDE", 0.3)
    world.say("2026-11-27T19:00:00+09:00", "大阪に住むかも")
    world.flush("2026-11-27T22:00:00+09:00")
    sendai, kanazawa, osaka_memory = world.mem(SENDAI), world.mem(KANAZAWA), world.mem(osaka)
    rows = {r["memory_id"]: r for r in open_queue(world)}
    assert set(rows) == {kanazawa.id, osaka_memory.id}
    assert rows[osaka_memory.id]["target_id"] == sendai.id and osaka_memory.state == "queued"

    world.memory.approve(str(rows[kanazawa.id]["id"]))
    assert world.mem(SENDAI).superseded_by == kanazawa.id
    assert open_queue(world) == []
    [closed] = [r for r in world.rows("review_queue") if r["id"] == rows[osaka_memory.id]["id"]]
    assert closed["status"] == "superseded"
    assert world.mem(osaka).state == "candidate"
    assert ("review closed", {"queue": closed["id"], "history": sendai.id}) in events(world, osaka_memory.id)
    assert [m.text for m in world.store.live() if m.state == "active"] == [KANAZAWA]
    [approved] = [r for r in world.rows("review_queue") if r["id"] == rows[kanazawa.id]["id"]]
    assert approved["status"] == "approved"


# ---- delete and restore ---------------------------------------------------------------------------

def test_deleting_a_memory_returns_the_proposal_to_replace_it_to_candidate(world):
    _moved(world)
    sendai, kanazawa = world.mem(SENDAI), world.mem(KANAZAWA)
    [row] = open_queue(world)
    assert row["memory_id"] == kanazawa.id and row["target_id"] == sendai.id
    world.clock.now = world.clock.now.replace(hour=23)
    assert world.memory.delete(sendai.id) == [sendai.id]
    now = stamp(world)

    assert [r["id"] for r in world.rows("memories")] == [kanazawa.id]
    assert world.rows("review_queue") == []  # its review went with the memory it named
    proposal = row_of(world, kanazawa.id)
    assert (proposal["state"], proposal["updated_at"]) == ("candidate", now)
    assert events(world, kanazawa.id)[-1] == ("review closed", {"queue": row["id"], "deleted": True})


def test_restoring_a_pinned_memory_brings_back_its_pin(world):
    _moved(world)
    sendai = world.mem(SENDAI)
    world.memory.pin(sendai.id)
    world.memory.forget(sendai.id)
    world.clock.now = world.clock.now.replace(hour=23)
    restored = world.memory.restore(sendai.id)
    now = stamp(world)

    assert (restored.state, restored.pinned) == ("active", 1)
    sendai_row = row_of(world, sendai.id)
    assert (sendai_row["state"], sendai_row["pinned"], sendai_row["layer2_until"], sendai_row["updated_at"]) \
        == ("active", 1, None, now)
    assert events(world, sendai.id)[-1] == ("restored", {"to": "active"})
    assert SENDAI in world.prompt()


def test_restoring_a_forgotten_proposal_brings_it_back_as_a_candidate(world):
    _moved(world)
    kanazawa = world.mem(KANAZAWA)
    assert kanazawa.state == "queued" and kanazawa.layer2_until is None
    world.memory.forget(kanazawa.id)
    world.clock.now = world.clock.now.replace(hour=23)
    world.memory.restore(kanazawa.id)
    now = stamp(world)

    proposal = row_of(world, kanazawa.id)
    assert (proposal["state"], proposal["pinned"], proposal["layer2_until"], proposal["updated_at"]) \
        == ("candidate", 0, kanazawa.layer2_until, now)  # its review was closed: a flush asks again
    assert events(world, kanazawa.id)[-1] == ("restored", {"to": "candidate"})
    assert open_queue(world) == []


def test_deleting_one_memory_a_retraction_names_leaves_the_retraction_waiting_on_the_other(world):
    quit_both = "ジムもランニングもやめた"
    world.oracle.rules = [Rule("ジムに", GYM, "exercise/routine", "explicit", 0.9),
                          Rule("毎朝ランニング", RUN, "exercise/routine", "explicit", 0.9),
                          Rule("やめた", quit_both, "exercise/routine", "retraction", 0.9)]
    world.oracle.judgements = {(GYM, quit_both): Judgement("SUPERSEDE", 0.9),
                               (RUN, quit_both): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.say("2026-11-23T07:10:00+09:00", "毎朝ランニングもしてる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T19:00:00+09:00", quit_both)
    world.flush("2026-11-25T22:00:00+09:00")
    retraction = world.mem(quit_both)
    before = row_of(world, retraction.id)
    [about_run] = [r for r in open_queue(world) if r["old_text"] == RUN]
    assert retraction.state == "retraction"
    world.clock.now = world.clock.now.replace(hour=23)
    world.memory.delete(world.mem(GYM).id)

    assert row_of(world, retraction.id) == before  # still waiting: its review of Run is open
    assert [r["id"] for r in open_queue(world)] == [about_run["id"]]
    assert "review closed" not in [a for a, _ in events(world, retraction.id)]


def test_forgetting_a_recent_memory_takes_it_out_of_layer_2(world):
    world.oracle.rules = [Rule("紅茶", "朝は紅茶", "drink/morning", "fact", 0.9)]
    world.say("2026-11-23T08:00:00+09:00", "朝は紅茶")
    world.flush("2026-11-23T22:00:00+09:00")
    tea = world.mem("朝は紅茶")
    assert tea.layer2_until
    world.memory.forget(tea.id)
    assert (row_of(world, tea.id)["state"], row_of(world, tea.id)["layer2_until"]) == ("forgotten", None)


def test_an_edited_proposal_is_answered_in_its_review_with_the_users_words(world):
    _moved(world)
    [row] = open_queue(world)
    new = world.memory.edit(world.mem(KANAZAWA).id, "金沢市に住んでいる")
    [answered] = [r for r in world.rows("review_queue") if r["id"] == row["id"]]
    assert (answered["memory_id"], answered["text"], answered["old_text"]) == (new.id, "金沢市に住んでいる", SENDAI)


def test_an_edit_of_a_memory_held_with_no_confidence_is_held_at_the_users_floor(world):
    world.oracle.rules = [Rule("ジムに", GYM, "exercise/routine", "habit", 0.0)]
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.mem(GYM).confidence == 0.0
    new = world.memory.edit(world.mem(GYM).id, "ジムに週一で通っている")
    assert row_of(world, new.id)["confidence"] == 0.8  # the user's word counts as 0.8 at least


def test_a_retraction_waiting_on_a_memory_that_another_approval_replaced_stays_a_retraction(world):
    # "I quit the gym" waits (the gym is lasting); so does "I swim now", which would replace it.
    # Approving the swim makes the gym history and closes the retraction's review, but a retraction
    # is never a memory of its own: it stays a retraction, out of every layer.
    quit_gym, pool = "ジムはやめた", "プールに通っている"
    world.oracle.rules = [Rule("ジムに", GYM, "exercise/routine", "explicit", 0.9),
                          Rule("やめた", quit_gym, "exercise/routine", "retraction", 0.9),
                          Rule("プール", pool, "exercise/routine", "explicit", 0.9)]
    world.oracle.judgements = {(GYM, quit_gym): Judgement("SUPERSEDE", 0.9), (GYM, pool): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T07:00:00+09:00", "ジムに通ってる")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-25T19:00:00+09:00", "ジムはやめた")
    world.say("2026-11-25T19:10:00+09:00", "今はプールに通ってる")
    world.flush("2026-11-25T22:00:00+09:00")
    rows = {r["action"]: r for r in open_queue(world)}
    assert set(rows) == {"retract", "supersede"}
    retraction = world.mem(quit_gym)
    assert retraction.state == "retraction"

    world.memory.approve(str(rows["supersede"]["id"]))
    assert world.mem(GYM).superseded_by == world.mem(pool).id
    assert open_queue(world) == []
    assert world.mem(quit_gym).state == "retraction"
    assert "review closed" not in [a for a, _ in events(world, retraction.id)]
    assert [m.text for m in world.store.live()] == [pool]


def test_a_change_is_one_transaction_then_the_views_and_the_prompt_and_an_error_changes_nothing(world):
    """``MemoryService.change()``: what every user action and a 👍/👎 go through."""
    import pytest

    _moved(world)
    sendai = world.mem(SENDAI)
    told, views = [], world.memory.on_change  # app.py's hook: the background's views
    world.memory.on_change = lambda now: (told.append(now), views(now))
    revision = world.memory.revision()
    with pytest.raises(RuntimeError), world.memory.change() as t:
        t.forget(sendai)
        raise RuntimeError("half-way")
    assert (row_of(world, sendai.id)["state"], told, world.memory.revision()) == ("active", [], revision)
    assert SENDAI in world.prompt()
    with world.memory.change() as t:
        t.forget(sendai)
    assert row_of(world, sendai.id)["state"] == "forgotten" and told == [world.clock.now]
    assert world.memory.revision() != revision and SENDAI not in world.prompt()
