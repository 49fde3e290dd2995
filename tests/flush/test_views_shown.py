"""What the views are built from (issue 22, point 2; ``core/store/shown.py``).

The interest profile, the graph and its discoveries, skills, structural gaps and reflect's statistics read
only memories that are live or approved: never one waiting for review (a tiny model's placeholder slots, a
Layer 1 candidate not sure enough, a 👎), never a rejected one. An approved memory enters the profile, the
graph and the skills at once (the review rebuilds them); a flush's findings (gaps, reflect) at the next flush.
Everything is read through the CLI (``monchat profile|graph|skills|gaps|insights|discoveries|inbox --json``),
which reads the same ``Inbox`` service as the window's Memory → Inbox tabs.
"""

from __future__ import annotations

import json

from monchat.core.vocabulary.states import Action, State
from tests.flush.conftest import Rule

GUITAR = Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9)
# A tiny model's answers citing a real user line: the schema's field names as slots, a repeated syllable as
# a name. Today a flush queues them as "not found in your words" (the guard, issue 22 point 1, drops them).
# (A filter call keeps three items: the rules are spread over the flush's four personas.)
JUNK = [Rule("ギター", "id_of_a_user_line", "id_of_a_user_line", "fact", 0.8),
        Rule("ギター", "role_id_1", "role_id_1", "fact", 0.8),
        Rule("ギター", "skill_id_1", "skill_id_1", "skill", 0.8, persona="lifestyle"),
        Rule("ギター", "「バルバババババ」さん", "person/barubababa", "fact", 0.8, persona="lifestyle")]
JUNK_WORDS = ("id_of_a_user_line", "role_id_1", "skill_id_1", "バルバババババ", "barubababa")
# Said in the user's words, but not sure enough for Layer 1 (0.6 < flush.auto_approve_confidence 0.8):
# each waits for review as a Layer 1 promotion.
SURF = Rule("サーフィン", "サーフィンが好き", "sport/surfing", "explicit", 0.6, persona="lifestyle")
RUST = Rule("Rust", "Rust asyncでサーバを書く", "skill/rust_async", "skill", 0.6, persona="project")  # 2 days
DAUGHTER = Rule("娘", "娘と公園に行った", "family/daughter", "explicit", 0.6, persona="project")
WAITING_WORDS = ("sport", "surfing", "サーフィン", "rust", "Rust", "family", "daughter", "娘")


def evening(world) -> None:
    world.oracle.rules = [GUITAR, *JUNK, SURF, RUST, DAUGHTER]
    world.app.settings.background.structural_gap_after = 2  # two family lines would be "often"
    world.say("2026-11-22T20:00:00+09:00", "Rust asyncでサーバを書いた")
    world.say("2026-11-23T20:00:00+09:00", "今夜はギターを1時間練習した")
    world.say("2026-11-23T20:05:00+09:00", "サーフィンが好き")
    world.say("2026-11-23T20:10:00+09:00", "今日もRust asyncでサーバを書いた")
    world.say("2026-11-23T20:15:00+09:00", "娘と公園に行った")
    world.say("2026-11-23T20:20:00+09:00", "昼も娘と公園に行った")
    world.flush("2026-11-23T22:00:00+09:00")


def views(world, capsys) -> str:
    """Every view the user is shown as theirs, as the CLI prints it (``--json``), in one text.

    Not the inbox's knowledge-lint section: it names a bad memory to flag it ("slot 'role_id_1' is not
    subject/attribute"), not as the user's."""
    read = {name: world.cli_json(capsys, name)
            for name in ("profile", "graph", "skills", "gaps", "insights", "discoveries", "inbox")}
    del read["inbox"]["lint"]
    return json.dumps(read, ensure_ascii=False)


def reflected(world) -> str:
    """Everything reflect's statistics told the model, in every flush so far."""
    return "\n".join(call["user"] for call in world.oracle.reflect_calls)


def waiting(world, text: str) -> dict:
    [row] = [r for r in world.queue() if r["text"] == text]
    return row


def test_memories_waiting_for_review_are_in_no_view_and_no_reflect_statistic(world, capsys):
    evening(world)
    assert {waiting(world, rule.text)["action"] for rule in (SURF, RUST, DAUGHTER)} == {Action.LAYER1}
    assert not [m for m in world.store.all() if m.slot in {r.slot for r in JUNK}]  # the guard drops them

    shown = views(world, capsys)
    for word in JUNK_WORDS + WAITING_WORDS:
        assert word not in shown, word
        assert word not in reflected(world), word
    assert "hobby" in shown and "topic:hobby" in shown  # what is the user's is there
    assert "Known slots: hobby/guitar" in reflected(world)
    assert world.cli_json(capsys, "gaps") == []  # family "often" only through memories that wait: no gap


def test_an_approved_memory_enters_the_views_at_once_and_the_flush_findings_at_the_next_flush(world, capsys):
    evening(world)
    world.memory.approve(str(waiting(world, SURF.text)["id"]))
    profile = world.cli_json(capsys, "profile")
    assert {e["topic"]: e["count"] for e in profile["windows"]["7"]} == {"hobby": 1, "sport": 1}
    nodes = {n["id"] for n in world.cli_json(capsys, "graph")["nodes"]}
    assert {"topic:sport", "entity:サーフィン"} <= nodes
    assert world.cli_json(capsys, "skills") == []

    world.memory.approve(str(waiting(world, RUST.text)["id"]))
    [skill] = world.cli_json(capsys, "skills")
    assert (skill["name"], skill["level"], skill["uses"]) == (RUST.text, 1, 2)
    assert "- Rust asyncでサーバを書く: L1" in world.prompt()  # the prompt's level, rebuilt with it

    world.memory.approve(str(waiting(world, DAUGHTER.text)["id"]))
    assert world.cli_json(capsys, "gaps") == []  # a gap is a flush's finding: marked at the next flush
    still = len(world.queue())
    world.say("2026-11-24T20:00:00+09:00", "週末はギター")
    world.flush("2026-11-24T22:00:00+09:00")
    assert f"Waiting for the user's review: {still}\n" in world.oracle.reflect_calls[-1]["user"]  # never named
    assert "family/partner" in {g["slot"] for g in world.cli_json(capsys, "gaps")}
    assert "family/daughter" in world.oracle.reflect_calls[-1]["user"]
    shown = views(world, capsys)
    for word in JUNK_WORDS:  # what still waits stays out
        assert word not in shown and word not in reflected(world), word


def test_a_rejected_memory_leaves_the_views_at_once_and_stays_out(world, capsys):
    world.oracle.rules = [GUITAR, Rule("サーフィン", "サーフィンが好き", "sport/surfing", "explicit", 0.9)]
    world.say("2026-11-23T20:00:00+09:00", "今夜はギターを1時間練習した")
    world.say("2026-11-23T20:05:00+09:00", "サーフィンが好き")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.layer("サーフィンが好き") == 1 and "サーフィン" in views(world, capsys)

    review = world.memory.rate(world.mem("サーフィンが好き").id, "down")["review"]  # 👎: it waits for review
    assert "サーフィン" not in views(world, capsys) and "sport" not in views(world, capsys)
    world.memory.reject(str(review))
    assert world.mem("サーフィンが好き").state is State.REJECTED
    world.say("2026-11-24T20:00:00+09:00", "週末はギター")
    world.flush("2026-11-24T22:00:00+09:00")
    shown = views(world, capsys)
    assert "サーフィン" not in shown and "sport" not in shown and "hobby" in shown
    assert "sport" not in world.oracle.reflect_calls[-1]["user"]


def test_a_memory_not_found_in_the_users_words_stays_out_after_its_review_expires(world, capsys):
    """A database from before the guard holds "not found in your words" reviews (a flush now drops such an
    item): past its deadline the memory returns to candidate, and still never shows."""
    from dataclasses import replace
    from datetime import datetime
    from monchat.core.memory.transitions import Transitions
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T20:00:00+09:00", "今夜はギターを1時間練習した")
    world.flush("2026-11-23T22:00:00+09:00")
    guitar = world.mem(GUITAR.text)
    with world.app.store.atomic():  # what the old flush wrote for a tiny model's placeholder
        t = Transitions(world.store, world.app.settings.flush, datetime.fromisoformat("2026-11-23T22:00:00+09:00"))
        junk = t.create(replace(guitar, id="old-words-1", text="role_id_1", slot="role_id_1", kind="fact",
                                state=State.CANDIDATE, layer2_until=None),
                        world.store.ledger_rows(guitar.id))
        t.hold_for_review(junk, Action.WORDS, "not found in your words", 0.8)
    [row] = world.queue()
    assert (row["text"], row["action"]) == ("role_id_1", Action.WORDS)
    world.say("2026-12-01T20:00:00+09:00", "またギター")
    world.flush("2026-12-01T22:00:00+09:00")  # past the review's deadline: back to candidate, never confirmed
    assert world.mem("role_id_1").state is State.CANDIDATE and world.queue() == []
    shown = views(world, capsys)
    assert "role_id_1" not in shown and "hobby" in shown
    assert "role_id_1" not in world.oracle.reflect_calls[-1]["user"]


def test_a_topic_rests_on_user_lines_only(world, capsys):
    from monchat.core.store.shown import ShownStore
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T20:00:00+09:00", "今夜はギターを1時間練習した")
    reply = world.say("2026-11-23T20:01:00+09:00", "ギター、いいですね！", role="assistant")
    world.flush("2026-11-23T22:00:00+09:00")
    guitar = world.mem(GUITAR.text)
    with world.app.store.atomic():  # a ledger row on the assistant's line (no flush writes one: a guard)
        world.store.add_evidence(guitar.id, [{"message_id": reply, "day": "2026-11-23", "session": "",
                                              "kind": "habit", "contradicts": 0, "persona": "base"}], None)
    assert world.app.store.db.execute("SELECT COUNT(*) FROM evidence WHERE memory_id = ?",
                                      [guitar.id]).fetchone()[0] == 2
    world.say("2026-11-24T20:00:00+09:00", "天気がいい")
    world.flush("2026-11-24T22:00:00+09:00")
    assert {e["topic"]: e["count"] for e in world.cli_json(capsys, "profile")["windows"]["7"]} == {"hobby": 1}

    with world.app.store.atomic():  # and with only the assistant's line left, it is shown nowhere
        world.app.store.db.execute("DELETE FROM evidence WHERE memory_id = ? AND message_id != ?",
                                   [guitar.id, reply])
    assert guitar.id not in ShownStore(world.app.store).ids()


def test_a_kept_memory_knowledge_lint_sends_to_review_leaves_the_views_until_approved(world, capsys):
    from tests.flush.test_lint import contradicting_homes, next_flush, two_homes
    two_homes(world)  # Sendai and Kanazawa, both kept: two current homes
    labels = lambda: {n["label"] for n in world.cli_json(capsys, "graph")["nodes"]}  # noqa: E731
    assert {"仙台", "金沢"} <= labels()
    world.oracle.lint = contradicting_homes
    world.cli_json(capsys, "lint")  # marked
    next_flush(world, "2026-11-24T21:00:00+09:00")  # rechecked: Kanazawa waits to replace Sendai
    [row] = world.queue()
    assert row["action"] == Action.JUDGE and world.mem("金沢に住んでいる").state is State.ACTIVE
    assert "仙台" in labels() and "金沢" not in labels()  # kept, but waiting: in no view
    world.memory.approve(str(row["id"]))
    assert "金沢" in labels() and "仙台" not in labels()  # the approved move, at once


def test_reflect_reads_the_store_as_the_flush_leaves_it_so_what_it_sends_to_review_is_not_known(world):
    tea = Rule("緑茶", "緑茶を飲む", "drink/daily", "habit", 0.7, persona="lifestyle")  # 3 days, unsure: asks
    world.oracle.rules = [GUITAR, tea]
    world.say("2026-11-21T08:00:00+09:00", "朝は緑茶を飲む")
    world.say("2026-11-22T08:00:00+09:00", "今朝も緑茶")
    world.flush("2026-11-22T22:00:00+09:00")
    assert world.mem("緑茶を飲む").state is State.CANDIDATE  # two days: shown, reflect knew it
    assert "Known slots: drink/daily" in world.oracle.reflect_calls[-1]["user"]
    world.oracle.reflection = {"insights": [{"text": "お茶の習慣", "slots": ["drink/daily"]}], "gaps": []}
    world.say("2026-11-23T08:00:00+09:00", "また緑茶")
    world.say("2026-11-23T20:00:00+09:00", "今夜はギターを1時間練習した")
    world.flush("2026-11-23T22:00:00+09:00")
    assert waiting(world, "緑茶を飲む")["action"] == Action.LAYER1  # the third day: it now waits for review
    call = world.oracle.reflect_calls[-1]["user"]
    assert "drink" not in call and "Known slots: hobby/guitar\n" in call
    assert "Waiting for the user's review: 1\n" in call  # this flush's own proposal, counted


def test_an_insight_keeps_only_slots_shown_when_it_is_written():
    from monchat.core.background.track import resting
    from monchat.core.background.reflect import Reflection
    reflection = Reflection(insights=[{"text": "a", "slots": ["hobby/guitar", "role_id_1"]},
                                      {"text": "b", "slots": ["role_id_1"]}],
                            gaps=[{"text": "c", "slots": ["role_id_1"]}], dropped=1)
    kept = resting(reflection, {"hobby/guitar"})
    assert kept.insights == [{"text": "a", "slots": ["hobby/guitar"]}] and kept.gaps == [] and kept.dropped == 3
