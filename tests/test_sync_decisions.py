"""Decisions travel (issue 41, points 2 and 3): a flush runs once and is replayed on every device with no model
call; approvals, rejections, edits, pins and never-remember rules travel; two devices changing one memory become a
conflict item in the review queue, never the later writer's silently.

Two data folders share one folder in one test (``test_sync_journal.py``'s setup). Device A flushes with the oracle
(a scripted backend); device B's only backend is a ``ScriptedBackend`` with nothing queued, which fails the call if
anything asks it — and the test checks it was never asked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monchat.core.memory.undo import UndoConflict, undo_last
from monchat.core.store.sync_events import CONFLICT
from monchat.core.sync.folder import SyncFolder
from tests.flush.conftest import World, at
from tests.support.oracle import Oracle, Rule
from tests.support.scripted import ScriptedBackend

SUKIYAKI, GUITAR, TEA = "cooks sukiyaki", "plays the guitar", "drinks green tea"
RULES = [Rule("sukiyaki", SUKIYAKI, "food/cooking", "explicit", 0.9),
         Rule("guitar", GUITAR, "hobby/music", "explicit", 0.9, persona="lifestyle"),
         Rule("green tea", TEA, "drink/daily", "fact", 0.9, persona="lifestyle")]
NOW = at("2026-11-24T12:00:00+09:00").timestamp()


def device(tmp_path, shared: Path, name: str, backend=None) -> World:
    world = World(tmp_path / name, oracle=backend, start="2026-11-23T20:00:00+09:00")
    world.app.sync.setup(shared, name)
    return world


def pair(tmp_path, shared: Path, ask_first: bool = False) -> tuple[World, World]:
    """A (flushes with the oracle) and B (a backend that fails if called)."""
    a = device(tmp_path, shared, "laptop", Oracle(rules=list(RULES)))
    b = device(tmp_path, shared, "desktop", ScriptedBackend())
    if ask_first:  # every Layer 1 change waits for the user: review items to decide
        a.settings.ask_before_layer1 = True
    return a, b


def chat_and_flush(world: World, *texts: str) -> None:
    for n, text in enumerate(texts):
        world.say(f"2026-11-23T21:{n:02d}:00+09:00", text)
    world.flush("2026-11-23T23:30:00+09:00")


def sync(*worlds: World, rounds: int = 2) -> None:
    for _ in range(rounds):
        for world in worlds:
            world.app.sync.run()


def dump(world: World) -> dict:
    """What a device decided about memory: every memory (history too), its ledger, the review items about it."""
    memories = {}
    for m in world.store.all():
        ledger = tuple((r["message_id"], r["day"], r["kind"], r["contradicts"]) for r in world.ledger(m.id))
        memories[m.id] = (m.text, m.slot, m.kind, str(m.state), m.layer(NOW), m.pinned, m.superseded_by,
                          round(m.confidence, 6), round(m.score, 6), m.layer2_until, ledger)
    queue = sorted((r["memory_id"], r["action"], r["text"], r["status"], r["reason"])
                   for r in world.rows("review_queue") if r["held"] != CONFLICT)
    return {"memories": memories, "queue": queue}


def conflicts(world: World) -> list[dict]:
    return [item.as_dict() for item in world.memory.queue() if item.sync_conflict]


def pinned_on_a_forgotten_on_b(tmp_path, shared: Path) -> tuple[World, World]:
    """A pinned the memory and B forgot it while apart: a conflict item on each."""
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    mid = a.mem(SUKIYAKI).id
    a.memory.pin(mid)
    b.memory.forget(mid)
    sync(a, b)
    return a, b


def test_a_flush_on_a_is_replayed_on_b_with_no_model_call(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    assert a.has(SUKIYAKI) and a.has(GUITAR)
    first = a.app.sync.run()
    assert first.decisions_exported >= 2
    report = b.app.sync.run()
    assert report.imported == 2 and report.decisions_applied >= 2 and report.conflicts_opened == 0
    assert dump(b) == dump(a) and dump(b)["memories"]
    assert b.oracle.history == []  # no model call on B: the flush ran once, on A
    assert SUKIYAKI in b.prompt()  # the replayed memory is in B's prompt
    for world in (a, b):  # idempotent: a second sync changes nothing, on either side
        again = world.app.sync.run()
        assert again.nothing and again.decisions_applied == 0 and again.decisions_exported == 0
    assert dump(b) == dump(a)


def test_approve_on_b_and_reject_on_a_of_different_items_converge(tmp_path, shared):
    a, b = pair(tmp_path, shared, ask_first=True)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    items = {item.text: item for item in a.memory.queue()}
    assert set(items) >= {SUKIYAKI, GUITAR}
    sync(a, b)
    on_b = {item.text: item for item in b.memory.queue()}
    assert set(on_b) == set(items)  # B holds the same review items (numbered its own way)
    b.memory.approve(str(on_b[SUKIYAKI].id))
    a.memory.reject(str(items[GUITAR].id))
    sync(a, b)
    assert dump(a) == dump(b)
    assert a.layer(SUKIYAKI) == 1 and str(b.mem(GUITAR).state) == "rejected"
    assert not a.memory.queue() and not b.memory.queue() and not conflicts(a)
    assert b.oracle.history == []


def test_both_devices_edit_one_memory_a_conflict_item_on_both_and_the_choice_converges(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    mid = a.mem(SUKIYAKI).id
    a.memory.pin(mid)  # both change one memory from the same version while apart
    b.memory.forget(mid)
    sync(a, b)
    on_a, on_b = conflicts(a), conflicts(b)
    assert len(on_a) == 1 and len(on_b) == 1
    assert a.mem(SUKIYAKI).pinned and str(b.mem(SUKIYAKI).state) == "forgotten"  # each kept its own: none lost
    assert "forgotten" in on_a[0]["reason"] and "active, pinned" in on_a[0]["reason"]
    b.memory.approve(str(on_b[0]["id"]))  # B takes A's version: pinned
    sync(a, b)
    assert not conflicts(a) and not conflicts(b)
    assert dump(a) == dump(b) and b.mem(SUKIYAKI).pinned and str(b.mem(SUKIYAKI).state) == "active"
    assert b.oracle.history == []


def test_keeping_this_devices_version_converges_too(tmp_path, shared):
    a, b = pinned_on_a_forgotten_on_b(tmp_path, shared)
    a.memory.reject(str(conflicts(a)[0]["id"]))  # A keeps its own: pinned
    sync(a, b)
    assert not conflicts(a) and not conflicts(b)
    assert dump(a) == dump(b) and b.mem(SUKIYAKI).pinned


def test_an_edit_on_b_travels_to_a(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    b.memory.edit(b.mem(SUKIYAKI).id, "cooks sukiyaki with a sweet sauce")
    sync(a, b)
    assert a.layer("cooks sukiyaki with a sweet sauce") == 1 and str(a.mem(SUKIYAKI).state) == "superseded"
    assert dump(a) == dump(b) and not conflicts(a)


def test_a_never_remember_rule_added_on_a_forgets_on_b(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    sync(a, b)
    a.app.never.add("guitar")
    a.app.never.forget_matching()
    sync(a, b)
    assert "guitar" in b.app.never.texts()
    assert str(b.mem(GUITAR).state) == "forgotten" and GUITAR not in b.prompt()
    assert dump(a) == dump(b) and not conflicts(a) and not conflicts(b)
    a.app.never.remove("guitar")
    sync(a, b)
    assert b.app.never.texts() == []


def test_a_decision_whose_messages_have_not_arrived_waits_and_is_applied_later(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    journal = next(shared.rglob("journal/*.jsonl"))
    held = journal.read_bytes()
    journal.write_bytes(b"")  # the messages have not reached B yet (a sync tool copied the decisions first)
    report = b.app.sync.run()
    assert report.decisions_waiting >= 1 and not b.has(SUKIYAKI)
    journal.write_bytes(held)
    report = b.app.sync.run()
    assert report.decisions_applied >= 1 and dump(a) == dump(b)


def test_a_torn_decisions_line_is_read_once_whole(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    a.app.sync.run()
    [path] = list(shared.rglob("decisions/*.jsonl"))
    data = path.read_bytes()
    cut = len(data) - 40
    path.write_bytes(data[:cut])
    report = b.app.sync.run()
    assert report.torn and report.bad_lines == 0
    path.write_bytes(data)
    b.app.sync.run()
    assert dump(a) == dump(b)
    assert b.app.sync.run().decisions_read == 0  # each event read once


def test_a_deleted_message_leaves_the_decisions_that_quote_it(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    sync(a, b)
    said = next(m for m in a.app.archive.all() if "sukiyaki" in m.text)
    a.app.messages.delete(said.id)
    sync(a, b)
    for world in (a, b):
        rows = world.app.store.db.execute("SELECT body FROM sync_events").fetchall()
        assert not [r for r in rows if said.id in r[0] or "sukiyaki tonight" in r[0]]
    files = [p for p in shared.rglob("decisions/*.jsonl") if said.id.encode() in p.read_bytes()]
    assert files == []
    # both took the memory back on their own (each at its own time): the same decision, no conflict
    assert dump(a) == dump(b) and not conflicts(a) and not conflicts(b)


def test_decision_lines_are_events_with_a_clock_and_the_whole_state(tmp_path, shared):
    a, _b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    device_id = a.app.sync.device().id
    [path] = list((SyncFolder(shared).device_dir(device_id) / "decisions").glob("*.jsonl"))
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    flushed = [e for e in events if e["kind"] == "flush"]
    assert flushed and all(e["device"] == device_id and e["base"] is None for e in flushed)
    assert [e["hlc"] for e in events] == sorted(e["hlc"] for e in events)
    assert {e["after"]["row"]["text"] for e in flushed} == {SUKIYAKI}
    assert flushed[0]["after"]["evidence"] and flushed[0]["runs"]


def test_a_rule_from_a_forgets_a_memory_only_b_holds(tmp_path, shared):
    a = device(tmp_path, shared, "laptop", Oracle(rules=list(RULES)))
    b = device(tmp_path, shared, "desktop", Oracle(rules=list(RULES)))
    chat_and_flush(b, "then I played guitar")  # B's own memory, which A has not seen yet
    a.app.never.add("guitar")
    a.app.sync.run()
    b.app.sync.run()
    assert str(b.mem(GUITAR).state) == "forgotten" and GUITAR not in b.prompt()
    sync(a, b)
    assert str(a.mem(GUITAR).state) == "forgotten" and dump(a) == dump(b)


def test_choosing_differently_on_both_devices_is_a_conflict_again_not_a_swap(tmp_path, shared):
    a, b = pinned_on_a_forgotten_on_b(tmp_path, shared)
    a.memory.reject(str(conflicts(a)[0]["id"]))  # each keeps its own version, while apart
    b.memory.reject(str(conflicts(b)[0]["id"]))
    sync(a, b)
    assert a.mem(SUKIYAKI).pinned and str(b.mem(SUKIYAKI).state) == "forgotten"  # neither took the other's
    assert len(conflicts(a)) == 1 and len(conflicts(b)) == 1
    b.memory.approve(str(conflicts(b)[0]["id"]))
    sync(a, b)
    assert not conflicts(a) and not conflicts(b) and dump(a) == dump(b)


def test_a_decision_citing_a_message_deleted_here_is_never_kept(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    [decisions] = list(shared.rglob("decisions/*.jsonl"))
    held = decisions.read_bytes()
    decisions.unlink()  # the messages reach B before the decisions do
    b.app.sync.run()
    said = next(m for m in b.app.archive.all() if "sukiyaki" in m.text)
    b.app.messages.delete(said.id)  # B deletes A's message before A's flush outcome arrives
    b.app.sync.run()
    decisions.write_bytes(held)
    b.app.sync.run()
    rows = b.app.store.db.execute("SELECT body FROM sync_events WHERE own = 0").fetchall()
    assert not [r for r in rows if said.id in r[0]] and not b.has(SUKIYAKI)
    sync(a, b)
    assert dump(a)["memories"].keys() == dump(b)["memories"].keys()


def test_monchat_sync_says_what_travelled_and_status_counts_open_conflicts(tmp_path, shared, capsys):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    assert "decision(s) about memory for the other devices" in a.cli(capsys, "sync")
    report = b.cli_json(capsys, "sync")
    assert report["decisions_applied"] >= 1 and report["conflicts_opened"] == 0
    mid = a.mem(SUKIYAKI).id
    a.memory.pin(mid)
    b.memory.forget(mid)
    a.app.sync.run()
    assert "decide them in the review queue" in b.cli(capsys, "sync")
    status = b.cli_json(capsys, "sync", "status")
    assert status["conflicts_open"] == 1 and status["decisions_waiting"] == 0
    assert "wait in the review queue" in b.cli(capsys, "sync", "status")


def test_both_devices_edit_one_memory_no_words_are_lost_and_the_choice_converges(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    mid = a.mem(SUKIYAKI).id
    a.memory.edit(mid, "cooks sukiyaki on Sundays")
    b.memory.edit(mid, "cooks sukiyaki for friends")
    sync(a, b)
    for world in (a, b):  # each edit is a new version on both devices; the old one is the conflict
        assert world.has("cooks sukiyaki on Sundays") and world.has("cooks sukiyaki for friends")
        [item] = conflicts(world)
        assert item["memory_id"] == mid
    b.memory.reject(str(conflicts(b)[0]["id"]))  # B keeps its own: the old version superseded by B's edit
    sync(a, b)
    assert not conflicts(a) and not conflicts(b) and dump(a) == dump(b)
    assert a.mem(SUKIYAKI).superseded_by == b.mem("cooks sukiyaki for friends").id


def test_killed_after_appending_before_noting_the_rerun_writes_again_and_b_converges(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    a.app.sync.run()
    with a.app.store.atomic() as db:  # as if killed after the append, before monchat.db noted the events
        db.execute("DELETE FROM sync_events")
        db.execute("DELETE FROM sync_event_messages")
        db.execute("DELETE FROM sync_memory")
    [path] = list(shared.rglob("decisions/*.jsonl"))
    before = path.read_text(encoding="utf-8").splitlines()
    again = a.app.sync.run()
    assert again.decisions_exported == len(before)  # the same changes, written again under new ids
    report = b.app.sync.run()
    assert report.decisions_applied == len(before) and report.decisions_same == len(before)
    assert report.conflicts_opened == 0 and dump(a) == dump(b) and b.oracle.history == []


def test_a_memory_deleted_for_real_on_a_leaves_b_too(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    sync(a, b)
    b.memory.pin(b.mem(GUITAR).id)  # B's own decision about it: a line of B's file quoting its words
    sync(a, b)
    a.memory.delete(a.mem(GUITAR).id)
    sync(a, b)
    assert not b.has(GUITAR) and b.has(SUKIYAKI) and dump(a) == dump(b) and not conflicts(b)
    # its words left every decision, in both databases and in every file of the folder
    assert [p for p in shared.rglob("*") if p.is_file() and GUITAR.encode() in p.read_bytes()] == []
    for world in (a, b):
        assert not world.app.store.db.execute("SELECT 1 FROM sync_events WHERE instr(body, ?)", [GUITAR]).fetchall()


def test_a_later_decision_about_a_memory_waits_behind_its_earlier_one(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    a.memory.pin(a.mem(SUKIYAKI).id)
    a.app.sync.run()
    journal = next(shared.rglob("journal/*.jsonl"))
    held = journal.read_bytes()
    journal.write_bytes(b"")  # the flush's message has not reached B: its outcome waits, and so does the pin
    report = b.app.sync.run()
    assert report.decisions_waiting == 2 and not b.has(SUKIYAKI) and report.conflicts_opened == 0
    journal.write_bytes(held)
    b.app.sync.run()
    assert b.mem(SUKIYAKI).pinned and dump(a) == dump(b) and not conflicts(b)


def test_an_edit_of_an_item_waiting_for_review_takes_its_review_item_along_on_the_other_device(tmp_path, shared):
    a, b = pair(tmp_path, shared, ask_first=True)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    b.memory.edit(b.mem(SUKIYAKI).id, "cooks sukiyaki with a sweet sauce")  # the edit is the approval
    sync(a, b)
    assert not a.memory.queue() and a.layer("cooks sukiyaki with a sweet sauce") == 1
    assert dump(a) == dump(b)


def test_a_decision_waiting_for_its_evidence_holds_back_the_later_ones_about_the_same_memory(tmp_path, shared):
    """Forged by a third device (C): its first event cites a message that has not arrived, its second one cites
    only what has; applied out of order the second would find the memory missing and open a conflict."""
    from monchat.core.sync.decisions import digest
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    [flushed] = [e for e in (json.loads(x) for x in next(shared.rglob("decisions/*.jsonl")).read_text().splitlines())
                 if e["kind"] == "flush"]
    ghost = {**flushed["after"]["evidence"][0], "message_id": "g" * 20}
    first = {**flushed["after"], "evidence": [*flushed["after"]["evidence"], ghost]}
    second = {**flushed["after"], "row": {**flushed["after"]["row"], "pinned": 1}}
    c = "c" * 32
    folder = SyncFolder(shared).device_dir(c)
    (folder / "decisions").mkdir(parents=True)
    (folder / "device.json").write_text(json.dumps({"id": c, "name": "phone"}))
    events = [{"id": "e1", "hlc": f"{1:016d}-0000-{c}", "device": c, "kind": "flush", "memory_id": flushed["memory_id"],
               "base": None, "after": first},
              {"id": "e2", "hlc": f"{2:016d}-0000-{c}", "device": c, "kind": "pin", "memory_id": flushed["memory_id"],
               "base": digest(first), "after": second}]
    (folder / "decisions" / "2026-11.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    (SyncFolder(shared).device_dir(a.app.sync.device().id) / "decisions").rename(tmp_path / "a-decisions")
    report = b.app.sync.run()
    assert report.decisions_waiting == 2 and report.conflicts_opened == 0 and not b.has(SUKIYAKI)


def test_no_decision_is_made_while_a_flush_runs_here_they_wait_for_the_next_sync(tmp_path, shared):
    from monchat.core.paths import held_lock
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    with held_lock(b.app.paths.flush_lock) as held:  # a flush of B's holds it (another window, a terminal)
        assert held
        report = b.app.sync.run()
    assert report.decisions_deferred >= 1 and report.decisions_applied == 0 and not b.has(SUKIYAKI)
    assert report.imported == 1  # the messages came all the same
    assert b.app.sync.run().decisions_applied >= 1 and dump(a) == dump(b)


def test_two_devices_that_flush_while_apart_keep_both_flushes_and_read_no_message_twice(tmp_path, shared):
    a = device(tmp_path, shared, "laptop", Oracle(rules=list(RULES)))
    b = device(tmp_path, shared, "desktop", Oracle(rules=list(RULES)))
    chat_and_flush(a, "I made sukiyaki tonight")
    chat_and_flush(b, "then I played guitar")
    asked = {"a": len(a.oracle.history), "b": len(b.oracle.history)}
    sync(a, b)
    assert {"a": len(a.oracle.history), "b": len(b.oracle.history)} == asked  # no model call in any sync
    for world in (a, b):
        assert world.layer(SUKIYAKI) == 1 and world.layer(GUITAR) == 1 and not conflicts(world)
    assert dump(a) == dump(b)
    a.flush("2026-11-24T23:30:00+09:00")  # nothing new said on A: B's message is not A's to read
    assert "guitar" not in str([call for call in a.oracle.history[asked["a"]:]])


def test_a_decision_line_that_is_not_a_whole_event_is_skipped_and_counted_never_a_crash(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    a.app.sync.run()
    [path] = list(shared.rglob("decisions/*.jsonl"))
    device_id = a.app.sync.device().id
    hlc = f"{1:016d}-0000-{device_id}"
    broken = [{"id": "x1", "hlc": hlc, "device": device_id, "kind": "pin", "memory_id": "mem-x", "base": None,
               "after": {"row": {"text": "t", "slot": "s", "kind": "fact", "state": "no such state"},
                         "evidence": [], "reviews": []}},
              {"id": "x2", "hlc": hlc, "device": device_id, "kind": "pin", "memory_id": "mem-y", "base": None,
               "after": {"row": {"text": "t"}, "evidence": [], "reviews": []}},
              {"id": "x3", "hlc": "yesterday", "device": device_id, "kind": "pin", "memory_id": "mem-z"}]
    with path.open("a", encoding="utf-8") as out:
        out.writelines(json.dumps(e) + "\n" for e in broken)
    report = b.app.sync.run()
    assert report.bad_lines == 3 and report.conflicts_opened == 0 and dump(a) == dump(b)


def test_a_memory_deleted_for_real_on_a_while_b_pinned_it_is_gone_on_both_not_a_conflict(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    sync(a, b)
    a.memory.delete(a.mem(GUITAR).id)  # while apart: A takes the words back, B pins them
    b.memory.pin(b.mem(GUITAR).id)
    sync(b, a)  # B's pin reaches A after A deleted it; A's deletion reaches B after B pinned it
    assert not a.has(GUITAR) and not b.has(GUITAR) and not conflicts(a) and not conflicts(b)
    assert dump(a) == dump(b)
    assert [p for p in shared.rglob("*") if p.is_file() and GUITAR.encode() in p.read_bytes()] == []


def test_a_change_that_crossed_a_deletion_written_already_is_dropped_too(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight", "then I played guitar")
    sync(a, b)
    a.memory.delete(a.mem(GUITAR).id)
    b.memory.pin(b.mem(GUITAR).id)
    a.app.sync.run()  # A writes its deletion ...
    decisions = SyncFolder(shared).device_dir(a.app.sync.device().id) / "decisions"
    decisions.rename(tmp_path / "in-flight")  # ... which has not reached B when B writes its pin
    b.app.sync.run()
    (tmp_path / "in-flight").rename(decisions)
    sync(a, b)
    assert not a.has(GUITAR) and not b.has(GUITAR) and not conflicts(a) and not conflicts(b)
    assert dump(a) == dump(b)


def test_through_an_encrypted_folder_the_memory_travels_and_no_decision_is_readable(tmp_path, shared):
    """The decisions files are sealed like the journals (``core/sync/crypto.py``): the words of a memory and the
    ids it cites are in no readable form in the folder, and B still replays A's flush with no model call."""
    from tests.test_sync_crypto import PASSPHRASE, holding, opened
    a = World(tmp_path / "laptop", oracle=Oracle(rules=list(RULES)), start="2026-11-23T20:00:00+09:00")
    b = World(tmp_path / "desktop", oracle=ScriptedBackend(), start="2026-11-23T20:00:00+09:00")
    a.app.sync.setup(shared, "laptop", PASSPHRASE)
    b.app.sync.setup(shared, "desktop", PASSPHRASE)
    chat_and_flush(a, "I made sukiyaki tonight", "I practised the guitar")
    sync(a, b)
    assert b.has(SUKIYAKI) and b.has(GUITAR) and dump(a) == dump(b) and b.oracle.history == []
    files = sorted(p.relative_to(shared).parts[-2] for p in shared.rglob("*.jsonl"))
    assert files.count("decisions") == 1  # A's: B decided nothing
    memory_id = a.mem(SUKIYAKI).id
    assert holding(shared, "sukiyaki", "guitar", SUKIYAKI, GUITAR, memory_id, "approve", "flush") == []
    said = next(m for m in a.app.archive.all() if "sukiyaki" in m.text)
    [decisions] = shared.rglob("decisions/*.jsonl")
    assert [e for e in opened(shared, decisions) if said.id in json.dumps(e)]  # sealed, but there
    a.app.messages.delete(said.id)
    sync(a, b)
    assert not b.has(SUKIYAKI) and b.has(GUITAR)
    assert not [e for e in opened(shared, decisions) if said.id in json.dumps(e)]  # its writer removed those lines


def test_a_conflict_choice_undone_before_the_sync_is_not_sent_and_can_be_made_again(tmp_path, shared):
    a, b = pinned_on_a_forgotten_on_b(tmp_path, shared)
    [item] = conflicts(b)
    b.memory.approve(str(item["id"]))  # B takes A's version (pinned) ...
    assert b.mem(SUKIYAKI).pinned
    undo_last(b.memory)  # ... and takes it back before any sync
    assert str(b.mem(SUKIYAKI).state) == "forgotten" and [c["id"] for c in conflicts(b)] == [item["id"]]
    sync(a, b)
    assert len(conflicts(a)) == 1 and len(conflicts(b)) == 1  # nothing was chosen: both still ask
    assert a.mem(SUKIYAKI).pinned and str(b.mem(SUKIYAKI).state) == "forgotten"
    b.memory.approve(str(conflicts(b)[0]["id"]))  # chosen again, for good
    sync(a, b)
    assert not conflicts(a) and not conflicts(b)
    assert dump(a) == dump(b) and b.mem(SUKIYAKI).pinned


def test_taking_the_other_devices_version_with_fewer_ledger_lines_is_a_choice_not_a_crash(tmp_path, shared):
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    mid = a.mem(SUKIYAKI).id
    b.memory.forget(mid)  # B forgets it while A's next flush hears it again (one more line in its ledger)
    a.say("2026-11-24T21:00:00+09:00", "I made sukiyaki again")
    a.flush("2026-11-24T23:30:00+09:00")
    assert len(a.ledger(mid)) == 2
    sync(a, b)
    [item] = conflicts(a)
    a.memory.approve(str(item["id"]))  # A takes B's version: forgotten, with the one line B knew
    assert str(a.mem(SUKIYAKI).state) == "forgotten"
    undo_last(a.memory)
    assert str(a.mem(SUKIYAKI).state) == "active" and len(a.ledger(mid)) == 2
    a.memory.approve(str(conflicts(a)[0]["id"]))
    sync(a, b)
    assert not conflicts(a) and not conflicts(b) and dump(a) == dump(b)


def test_a_conflict_choice_a_sync_has_written_is_not_undone_here_alone(tmp_path, shared):
    a, b = pinned_on_a_forgotten_on_b(tmp_path, shared)
    b.memory.approve(str(conflicts(b)[0]["id"]))
    b.app.sync.run()  # the choice is written for A
    with pytest.raises(UndoConflict, match="already written for your other devices"):
        undo_last(b.memory)
    sync(a, b)
    assert not conflicts(a) and not conflicts(b) and dump(a) == dump(b) and b.mem(SUKIYAKI).pinned
