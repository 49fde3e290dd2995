"""Issue 45: a review decision can be undone exactly, imported items do not teach the auto-approve rule, and
memories that say the same thing can be merged — each through the real flush with the oracle backend."""

from __future__ import annotations

import pytest

from monchat.core.memory import learning
from monchat.core.memory.merge import duplicate_groups, merge_duplicates
from monchat.core.memory.undo import NothingToUndo, UndoConflict, last_decision, undo_last
from monchat.core.transfer.memory_import import import_memory
from tests.flush.conftest import Judgement, Rule

OSAKA, FUKUOKA = "Lives in Osaka", "Moved from Osaka to Fukuoka"
TABLES = ("memories", "evidence", "review_queue", "ratings")


def _tables(world) -> dict:
    return {table: world.rows(table) for table in TABLES}


def _queued(world, n: int, text: str, slot: str = "health/sleep", score: float = 0.6) -> None:
    world.oracle.rules = [Rule(f"話{n}", text, slot, "explicit", score)]
    world.say(f"2026-11-2{3 + n}T21:00:00+09:00", f"話{n}。覚えておいて、{text}")
    world.flush(f"2026-11-2{3 + n}T22:00:00+09:00")


def test_undo_puts_back_a_batch_of_approvals_and_rejections_exactly(world, capsys):
    for n, text in enumerate(("よく眠れない", "朝はコーヒー", "夜は散歩")):
        _queued(world, n, text, slot=("health/sleep", "drink/morning", "habit/walk")[n])
    rows = world.queue()
    assert len(rows) == 3
    before = _tables(world)
    world.memory.decide_many([str(rows[0]["id"]), str(rows[1]["id"])], approve=True)
    world.memory.reject(str(rows[2]["id"]))  # the last decision is this one alone
    assert last_decision(world.app.store).rejected == 1
    undone = undo_last(world.memory)
    assert (undone.approved, undone.rejected) == (0, 1)
    assert len(world.queue()) == 1
    with pytest.raises(NothingToUndo):  # once
        undo_last(world.memory)

    world.memory.decide_many([str(r["id"]) for r in world.queue()] + [], approve=False)
    after_reject = _tables(world)
    assert after_reject != before
    decision = undo_last(world.memory)
    assert (decision.approved, decision.rejected) == (0, 1)


def test_undoing_a_supersession_brings_back_the_replaced_memory_and_the_waiting_item(world, capsys):
    world.oracle.rules = [Rule("I live in Osaka", OSAKA, "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I live in Osaka")
    world.flush("2026-11-23T22:00:00+09:00")
    world.oracle.rules = [Rule("Fukuoka", FUKUOKA, "home/city", "explicit", 0.95)]
    world.oracle.judgements = {(OSAKA, None): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-25T20:00:00+09:00", "I moved from Osaka to Fukuoka last week")
    world.flush("2026-11-25T21:00:00+09:00")
    [row] = world.queue()
    before = _tables(world)
    prompt = world.prompt()
    world.memory.approve(str(row["id"]))
    assert world.mem(OSAKA).superseded_by == world.mem(FUKUOKA).id
    assert "\n0 approved" not in world.cli(capsys, "memory", "undo")  # the CLI says what it undid
    assert _tables(world) == before  # every row as it was: the kept memory, the proposal, the queue item
    assert world.prompt() == prompt
    assert [e["action"] for e in world.memory.events(world.mem(OSAKA).id)][-1] == "undone"


def test_undo_refuses_when_a_flush_changed_the_same_memory_since(world):
    _queued(world, 0, "よく眠れない")
    [row] = world.queue()
    world.memory.approve(str(row["id"]))
    world.oracle.rules = [Rule("眠れない", "よく眠れない", "health/sleep", "explicit", 0.6)]
    world.say("2026-11-24T21:00:00+09:00", "やっぱりよく眠れない")
    world.flush("2026-11-24T22:00:00+09:00")  # reinforces the approved memory
    with pytest.raises(UndoConflict):
        undo_last(world.memory)
    assert world.mem("よく眠れない").state == "active"


def test_an_undone_approval_teaches_nothing_and_imported_approvals_never_do(world, tmp_path):
    for n in range(3):
        _queued(world, n, f"健康の話{n}", slot=f"health/{('sleep', 'diet', 'eyes')[n]}")
    ids = [str(r["id"]) for r in world.queue()]
    world.memory.decide_many(ids, approve=True)
    assert learning.summary(world.app.store, 0.8)[0]["approved"] == 3
    undo_last(world.memory)
    assert learning.summary(world.app.store, 0.8) == []  # the items wait again: nothing learned from them
    world.memory.decide_many(ids, approve=True)  # decided again: counted once
    assert learning.summary(world.app.store, 0.8)[0]["approved"] == 3

    path = tmp_path / "chatgpt.txt"
    path.write_text("- Has a cat named Mochi.\n- Is learning to play the guitar.\n- Lives in Kanazawa.\n",
                    encoding="utf-8")
    assert import_memory(world.app, path, source="chatgpt").queued == 3
    world.memory.decide_many([str(r["id"]) for r in world.queue()], approve=True)
    assert [e["topic"] for e in learning.summary(world.app.store, 0.8)] == ["health"]  # no "imported" topic


def test_memories_that_say_the_same_thing_merge_into_one_with_their_evidence(world):
    world.oracle.rules = [Rule("猫", "Has two cats", "pets/cats", "explicit", 0.9)]
    first = world.say("2026-11-23T21:00:00+09:00", "Remember: I have two cats 猫")
    world.flush("2026-11-23T22:00:00+09:00")
    kept = world.mem("Has two cats")
    # One sentence stored twice (as before proposals were folded): a second memory in another wording.
    world.oracle.rules = [Rule("猫", "The user has two cats.", "Pets/Cats", "explicit", 0.9)]
    world.oracle.judgements = {("Has two cats", None): Judgement("COEXIST", 0.9)}
    second = world.say("2026-11-24T21:00:00+09:00", "My two cats woke me up 猫")
    world.flush("2026-11-24T22:00:00+09:00")
    assert world.has("The user has two cats."), "the setup stores one sentence in two wordings (COEXIST)"
    assert [len(g) for g in duplicate_groups(world.memory)] == [2]
    merged = merge_duplicates(world.memory)
    assert [m.kept for m in merged] == [kept.id]
    assert sorted(world.mem("Has two cats").evidence) == sorted([first, second])
    gone = world.mem("The user has two cats.")
    assert gone.superseded_by == kept.id
    assert gone.invalid_at == "2026-11-24T22:00:00.000+09:00" >= gone.valid_at  # history from the merge, not before it
    assert duplicate_groups(world.memory) == [] and merge_duplicates(world.memory) == []


def test_the_markdown_export_says_where_a_memory_is_in_plain_words_and_old_files_still_read(world):
    from monchat.core.transfer.memory_export import export_markdown
    from monchat.core.transfer.memory_import import _from_markdown
    world.oracle.rules = [Rule("I live in Osaka", OSAKA, "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I live in Osaka")
    world.flush("2026-11-23T22:00:00+09:00")
    text = export_markdown(world.store, world.clock())
    assert "- in lasting memory · said outright · about home / city" in text.splitlines()
    assert not [line for line in text.splitlines() if line.startswith("- state:")]  # the fields only in a comment
    [proposal], left_out = _from_markdown(text)
    assert (proposal.text, proposal.slot, str(proposal.kind), left_out) == (OSAKA, "home/city", "explicit", 0)
    old = "## Lives in Osaka\n\n- state: active · slot: home/city · kind: explicit · layer: 1\n"
    assert [p.text for p in _from_markdown(old)[0]] == [OSAKA]  # an export from before issue 45


def test_the_cli_says_when_there_is_nothing_to_undo_and_exits_2(home, capsys):
    import logging

    from monchat.cli.main import main
    before = list(logging.getLogger().handlers)
    try:
        assert main(["memory", "undo"]) == 2
        assert "There is no review decision to undo." in capsys.readouterr().err
        assert main(["memory", "merge-duplicates"]) == 0
        assert "nothing to merge" in capsys.readouterr().out
    finally:
        for handler in [h for h in logging.getLogger().handlers if h not in before]:
            logging.getLogger().removeHandler(handler)
            handler.close()


def test_undoing_an_unsure_same_takes_back_the_evidence_it_carried_over(world):
    world.oracle.rules = [Rule("I live in Osaka", OSAKA, "home/city", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I live in Osaka")
    world.flush("2026-11-23T22:00:00+09:00")
    again = "Still lives in Osaka"
    world.oracle.rules = [Rule("still in Osaka", again, "home/city", "explicit", 0.9)]
    world.oracle.judgements = {(OSAKA, None): Judgement("SAME", 0.3)}
    world.say("2026-11-25T20:00:00+09:00", "I am still in Osaka, by the way")
    world.flush("2026-11-25T21:00:00+09:00")
    [row] = [r for r in world.queue() if r["action"] == "judge"]
    before = _tables(world)
    evidence = len(world.ledger(world.mem(OSAKA).id))
    world.memory.approve(str(row["id"]))
    assert len(world.ledger(world.mem(OSAKA).id)) == evidence + 1  # the statement's line, now the kept memory's
    undo_last(world.memory)
    assert _tables(world) == before


def _two_wordings_kept(world) -> None:
    world.oracle.rules = [Rule("猫", "Has two cats", "pets/cats", "explicit", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "Remember: I have two cats 猫")
    world.flush("2026-11-23T22:00:00+09:00")
    world.oracle.rules = [Rule("猫", "The user has two cats.", "Pets/Cats", "explicit", 0.9)]
    world.oracle.judgements = {("Has two cats", None): Judgement("COEXIST", 0.9)}
    world.say("2026-11-24T21:00:00+09:00", "My two cats woke me up 猫")
    world.flush("2026-11-24T22:00:00+09:00")
    assert world.has("The user has two cats."), "the setup stores one sentence in two wordings (COEXIST)"


def test_a_merge_of_duplicates_is_undone_exactly_through_the_cli(world, capsys):
    _two_wordings_kept(world)
    before, prompt = _tables(world), world.prompt()
    [merged] = merge_duplicates(world.memory)
    assert last_decision(world.app.store).merged == merged.merged
    out = world.cli(capsys, "memory", "undo")
    assert "the merge of 1 memories" in out and merged.merged[0] in out
    assert _tables(world) == before  # both memories as they were, the kept one without the evidence it took
    assert world.prompt() == prompt
    assert [e["action"] for e in world.memory.events(merged.merged[0])][-1] == "undone"
    with pytest.raises(NothingToUndo):
        undo_last(world.memory)


def test_a_merge_is_not_undone_when_a_flush_changed_a_merged_memory_since(world, capsys):
    _two_wordings_kept(world)
    [merged] = merge_duplicates(world.memory)
    world.oracle.rules = [Rule("猫", "Has two cats", "pets/cats", "explicit", 0.9)]
    world.say("2026-11-26T21:00:00+09:00", "My two cats again 猫")
    world.flush("2026-11-26T22:00:00+09:00")  # reinforces the kept memory
    with pytest.raises(UndoConflict, match="changed since that merge"):
        undo_last(world.memory)
    assert world.mem("The user has two cats.").superseded_by == merged.kept  # nothing changed
    from monchat.cli.main import main
    capsys.readouterr()
    assert main(["memory", "undo"]) == 2  # the terminal: refused in words, bad input, not our bug
    assert "Memory changed since that merge" in capsys.readouterr().err


def test_finding_nothing_to_merge_keeps_the_last_decision_to_undo(world):
    _queued(world, 0, "よく眠れない")
    [row] = world.queue()
    world.memory.approve(str(row["id"]))
    assert merge_duplicates(world.memory) == []
    assert last_decision(world.app.store).approved == 1
