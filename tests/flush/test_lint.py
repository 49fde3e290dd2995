"""Knowledge lint through the real flush and ``monchat lint``: structure, grounding, the LLM check,
and mark → recheck → apply across two runs (the oracle plays every LLM call).

The structure rules look for damage no flush makes (a crash, a manual edit, an old bug): those tests
damage the database on purpose, then let the next flush find it.
"""

from __future__ import annotations

import re

from monchat.core.background.lint import Lint
from monchat.core.vocabulary.states import Action, State
from tests.flush.conftest import Rule

SENDAI = Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9)
KANAZAWA = Rule("金沢", "金沢に住んでいる", "home/city", "explicit", 0.9)
GUITAR = Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9)
IDS = re.compile(r"^- (mem-\w+) \(slot ", re.M)


def two_homes(world) -> None:
    """Two kept memories of one slot family that the judge let coexist (its default)."""
    world.oracle.rules = [SENDAI, KANAZAWA, GUITAR]
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：仙台に住んでる")
    world.say("2026-11-23T21:05:00+09:00", "覚えておいて：金沢に住んでる")
    world.say("2026-11-23T21:10:00+09:00", "ギターを練習した")
    world.flush("2026-11-23T22:00:00+09:00")


def contradicting_homes(user_turn: str) -> dict:
    """A lint answer: the two homes contradict (by the ids the call showed)."""
    shown = IDS.findall(user_turn)
    return {"contradictions": [{"ids": shown[:2], "reason": "two current homes"}]}


def by_kind(findings: list[dict]) -> dict[str, list[dict]]:
    kinds: dict[str, list[dict]] = {}
    for f in findings:
        kinds.setdefault(f["kind"], []).append(f)
    return kinds


def next_flush(world, when: str):
    world.say(when, "今日は晴れ")
    return world.flush(when.replace("T21", "T22"))


# ---- step 1: structure -------------------------------------------------------------
def test_each_structure_rule_finds_its_damage_and_nothing_in_a_healthy_store(world):
    two_homes(world)
    assert world.rows("lint_findings") == []  # a flush's own writes are healthy
    sendai, kanazawa, guitar = (world.mem(t) for t in ("仙台に住んでいる", "金沢に住んでいる", "ギターを練習する"))
    db = world.app.store.db
    with world.app.store.atomic():
        db.execute("UPDATE memories SET superseded_by = 'mem-gone', state = ? WHERE id = ?",
                   [State.SUPERSEDED, guitar.id])
        db.execute("UPDATE memories SET superseded_by = ? WHERE id = ?", [kanazawa.id, sendai.id])
        db.execute("UPDATE memories SET superseded_by = ? WHERE id = ?", [sendai.id, kanazawa.id])
        db.execute("INSERT INTO memories (id, text, slot, kind, state, confidence) VALUES "
                   "('mem-bad1', '  ', 'Home City', 'fact', ?, 1.5)", [State.CANDIDATE])
        db.execute("INSERT INTO evidence (memory_id, message_id, day) VALUES ('mem-bad1', 'msg-nowhere', "
                   "'2026-11-23')")
    next_flush(world, "2026-11-24T21:00:00+09:00")
    kinds = by_kind(Lint(world.app.store).findings())
    assert [f["memory_ids"] for f in kinds["orphan_successor"]] == [[guitar.id]]
    assert kinds["orphan_successor"][0]["detail"] == {"successor": "mem-gone"}
    assert [sorted(f["memory_ids"]) for f in kinds["cycle"]] == [sorted([sendai.id, kanazawa.id])]
    assert [(f["memory_ids"], f["detail"]["messages"]) for f in kinds["orphan_evidence"]] == [
        (["mem-bad1"], ["msg-nowhere"])]
    [bad] = kinds["malformed"]
    assert bad["memory_ids"] == ["mem-bad1"] and bad["step"] == "structure" and bad["status"] == "marked"
    assert bad["detail"]["problems"] == ["empty text", "slot 'Home City' is not subject/attribute",
                                         "confidence 1.5 is outside 0…1"]
    assert "grounding" not in {f["step"] for f in kinds.get("value", []) + kinds.get("slot_name", [])}


def test_a_slot_of_one_part_from_a_filter_never_becomes_a_memory(world):
    """It used to become a memory lint marked malformed; the guard drops it at the flush (issue 22)."""
    world.oracle.rules = [Rule("紅茶", "紅茶が好き", "Tea", "fact", 0.9)]  # normalised to "tea": no attribute
    world.say("2026-11-23T21:00:00+09:00", "紅茶が好き")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert not world.has("紅茶が好き") and Lint(world.app.store).findings() == []
    assert {(d["text"], d["rule"]) for d in report.dropped_items} == {("紅茶が好き", "bad_slot")}


def kept_then_damaged(world) -> None:
    """A memory kept in "drink/tea", then damaged into the one-part slot "tea" (an older version, a hand edit):
    the guard drops such a slot from a filter, so a flush no longer makes one."""
    world.oracle.rules = [Rule("紅茶", "紅茶が好き", "drink/tea", "fact", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "紅茶が好き")
    world.flush("2026-11-23T22:00:00+09:00")
    with world.app.store.atomic():
        world.app.store.db.execute("UPDATE memories SET slot = 'tea' WHERE text = '紅茶が好き'")
    world.say("2026-11-24T21:00:00+09:00", "今日は晴れ")


def damaged_slot(world):
    kept_then_damaged(world)
    report = world.flush("2026-11-24T22:00:00+09:00")
    return world.mem("紅茶が好き").id, report


def test_a_slot_of_one_part_is_malformed(world):
    memory_id, report = damaged_slot(world)
    [finding] = Lint(world.app.store).findings()
    assert (finding["kind"], finding["memory_ids"]) == ("malformed", [memory_id])
    assert report.background["lint"]["marked"] == 1


def test_the_inbox_lists_lint_findings_in_their_section(world, capsys):
    memory_id, _ = damaged_slot(world)
    [finding] = world.cli_json(capsys, "inbox")["lint"]
    assert (finding["kind"], finding["status"], finding["memory_ids"]) == ("malformed", "marked", [memory_id])


# ---- step 2: grounding -----------------------------------------------------------------
def test_grounding_checks_slot_names_and_values_against_the_table(world):
    world.oracle.rules = [Rule("誕生日は夏", "誕生日は夏", "profile/birthday", "explicit"),
                          Rule("記念日", "記念日は5月3日", "wedding/anniversary", "explicit"),
                          Rule("町", "川越に住んでいる", "home/town", "explicit"),
                          Rule("年齢", "年齢は三十", "profile/age", "explicit", persona="lifestyle"),
                          Rule("歳", "32歳", "me/age", "explicit", persona="lifestyle")]  # at most 3 a persona
    for n, text in enumerate(["誕生日は夏", "記念日は5月3日", "町は川越", "年齢は三十", "いま32歳"]):
        world.say(f"2026-11-23T21:0{n}:00+09:00", text)
    world.flush("2026-11-23T22:00:00+09:00")
    found = {(f["kind"], world.store.get(f["memory_ids"][0]).text): f for f in Lint(world.app.store).findings()}
    assert set(found) == {("value", "誕生日は夏"), ("slot_name", "川越に住んでいる"), ("value", "年齢は三十")}
    assert found[("value", "誕生日は夏")]["detail"] == {"family": "date", "slot": "profile/birthday"}
    assert found[("slot_name", "川越に住んでいる")]["detail"]["canonical"] == "home/city"
    assert all(f["step"] == "grounding" for f in found.values())


# ---- step 3: the LLM check ----------------------------------------------------------------
def test_the_llm_reads_same_family_pairs_and_its_contradiction_is_marked_not_applied(world, capsys):
    two_homes(world)
    sendai, kanazawa = world.mem("仙台に住んでいる"), world.mem("金沢に住んでいる")
    assert world.oracle.lint_calls == []  # the first flush had no kept memories to compare
    world.oracle.lint = contradicting_homes
    report = world.cli_json(capsys, "lint")
    [call] = world.oracle.lint_calls
    assert sorted(IDS.findall(call["user"])) == sorted([sendai.id, kanazawa.id])  # the guitar is another family
    assert '"仙台に住んでいる"' in call["user"] and "ギター" not in call["user"]
    assert report["steps"] == ["structure", "grounding", "llm"] and report["pairs"] == 1
    assert report["usage"]["calls"] == 1
    [finding] = report["findings"]
    assert (finding["kind"], finding["step"], finding["status"]) == ("contradiction", "llm", "marked")
    assert finding["memory_ids"] == [sendai.id, kanazawa.id]  # older first
    assert world.queue() == [] and world.mem("仙台に住んでいる").state == sendai.state


def test_a_hostile_answer_naming_pairs_it_was_not_shown_is_ignored(world, capsys):
    two_homes(world)
    guitar, sendai = world.mem("ギターを練習する"), world.mem("仙台に住んでいる")
    world.oracle.lint = {"contradictions": [{"ids": [guitar.id, sendai.id], "reason": "made up"},
                                            {"ids": ["mem-00000000", sendai.id], "reason": "made up"},
                                            {"ids": [sendai.id], "reason": "one id"}]}
    report = world.cli_json(capsys, "lint")
    assert report["dropped"] == 3 and report["findings"] == [] and world.rows("lint_findings") == []


def test_no_llm_makes_no_call_and_the_setting_turns_lint_off_at_the_flush(world, capsys):
    two_homes(world)
    world.oracle.lint = contradicting_homes
    report = world.cli_json(capsys, "lint", "--no-llm")
    assert world.oracle.lint_calls == [] and report["steps"] == ["structure", "grounding"]
    world.app.settings.background.lint = False
    flushed = next_flush(world, "2026-11-24T21:00:00+09:00")
    assert world.oracle.lint_calls == [] and "lint" not in flushed.background


# ---- step 4: mark → recheck → apply ---------------------------------------------------------
def test_a_contradiction_is_marked_then_rechecked_and_applied_only_through_the_review_queue(world, capsys):
    two_homes(world)
    sendai, kanazawa = world.mem("仙台に住んでいる"), world.mem("金沢に住んでいる")
    world.oracle.lint = contradicting_homes
    world.cli_json(capsys, "lint")  # run 1: marked
    assert world.queue() == []
    calls = world.oracle.json_calls
    report = next_flush(world, "2026-11-24T21:00:00+09:00")  # run 2: rechecked, still holds
    assert report.background["lint"]["applied"] == 1
    assert report.llm_calls == world.oracle.json_calls - calls  # the lint call counts in the flush's usage
    assert world.oracle.lint_calls[-1]["user"].startswith(f"Check: flush {report.run_id}")  # asked again
    [finding] = Lint(world.app.store).findings()
    assert finding["status"] == "applied" and finding["checked_run"] == report.run_id
    [row] = world.queue()
    assert (row["id"], row["memory_id"], row["target_id"], row["action"], row["verdict"]) == (
        finding["review_id"], kanazawa.id, sendai.id, Action.JUDGE, "SUPERSEDE")
    assert row["reason"].startswith("knowledge lint: two current homes")
    # applying changed no memory: both are as they were until the user decides
    assert (world.mem("仙台に住んでいる").state, world.mem("金沢に住んでいる").state) == (sendai.state, kanazawa.state)
    world.memory.approve(str(row["id"]))
    assert world.mem("仙台に住んでいる").superseded_by == kanazawa.id
    third = next_flush(world, "2026-11-25T21:00:00+09:00")
    assert third.background["lint"]["applied"] == 0 and world.queue() == []  # applied once, never again


def test_a_marked_finding_that_no_longer_holds_at_the_recheck_is_resolved_and_nothing_is_queued(world, capsys):
    two_homes(world)
    world.oracle.lint = contradicting_homes
    world.cli_json(capsys, "lint")
    world.oracle.lint = None  # the next check finds no contradiction
    report = next_flush(world, "2026-11-24T21:00:00+09:00")
    assert report.background["lint"]["resolved"] == 1 and world.queue() == []
    assert Lint(world.app.store).findings() == []
    assert [f["status"] for f in Lint(world.app.store).findings(all=True)] == ["resolved"]


def test_a_marked_contradiction_waits_while_the_llm_step_is_off(world, capsys):
    two_homes(world)
    world.oracle.lint = contradicting_homes
    world.cli_json(capsys, "lint")
    world.app.settings.background.lint_llm = False  # the step cannot recheck it: neither resolved nor applied
    report = next_flush(world, "2026-11-24T21:00:00+09:00")
    assert report.background["lint"]["steps"] == ["structure", "grounding"] and world.queue() == []
    assert [f["status"] for f in Lint(world.app.store).findings()] == ["marked"]


def test_a_dry_run_writes_no_finding(world, capsys):
    kept_then_damaged(world)
    report = world.flush("2026-11-24T22:00:00+09:00", dry_run=True)
    assert report.background["lint"]["marked"] == 1 and world.rows("lint_findings") == []


def test_monchat_lint_prints_the_findings(world, capsys):
    kept_then_damaged(world)
    world.clock.now = world.clock.now.replace(day=24, hour=22)
    assert "lint: 1 new, 0 rechecked" in world.cli(capsys, "flush")
    out = world.cli(capsys, "lint")
    assert "1 rechecked" in out and "confirmed" in out and "malformed" in out
