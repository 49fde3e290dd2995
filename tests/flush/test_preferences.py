"""Preferences as their own layer, through the real flush: versions coexist, decay, review first.

A preference item's slot is ``<category>/<what>``; a newer preference in the same slot (or one the
judge says SUPERSEDEs) is a new version: the old one stays, superseded, with half the weight. The
change waits for review unless ``flush.auto_approve_preferences``. Without evidence a preference's
confidence halves every ``flush.preference_half_life_days`` (60) and it goes dormant below 0.1.
"""

from __future__ import annotations

from monchat.core.vocabulary.states import State
from tests.flush.conftest import Judgement, Rule

CONCISE = Rule("簡潔", "簡潔な答えが好き", "communication/answer-length", "preference", 0.9)
DETAIL = Rule("詳しく", "コードについては詳しい説明が好き", "communication/answer-length", "preference", 0.9)


def preferences(world, capsys) -> dict[str, dict]:
    return {m["text"]: m for m in world.cli_json(capsys, "memory", "list", "--all") if m["kind"] == "preference"}


def two_versions(world, capsys):
    world.oracle.rules = [CONCISE, DETAIL]
    world.say("2026-11-01T20:00:00+09:00", "答えは簡潔なのが好き")
    world.flush("2026-11-01T22:00:00+09:00")
    assert world.layer("簡潔な答えが好き") == 1  # stated: one day is enough
    world.say("2026-11-20T20:00:00+09:00", "でもコードは詳しく説明してほしい")
    return world.flush("2026-11-20T22:00:00+09:00")


def test_a_new_version_waits_for_review_and_then_both_versions_coexist(world, capsys):
    two_versions(world, capsys)  # the judge says COEXIST: the program sees the same slot
    old, new = world.mem("簡潔な答えが好き"), world.mem("コードについては詳しい説明が好き")
    [row] = world.queue()
    assert (row["action"], row["memory_id"], row["target_id"]) == ("supersede", new.id, old.id)
    assert "new version of a preference" in row["reason"]
    assert new.state is State.QUEUED and world.layer("簡潔な答えが好き") == 1
    assert "詳しい説明" not in world.prompt()  # out of the prompt until approved: the old version speaks

    world.memory.approve(str(row["id"]))
    prefs = preferences(world, capsys)
    older, newer = prefs["簡潔な答えが好き"], prefs["コードについては詳しい説明が好き"]
    assert older["superseded_by"] == new.id and older["state"] == "superseded"  # kept, marked
    assert (older["category"], older["version"], older["weight"]) == ("communication", 1, 0.5)
    assert (newer["category"], newer["version"], newer["weight"]) == ("communication", 2, 1.0)
    assert newer["older_versions"] == [{"id": old.id, "text": "簡潔な答えが好き", "version": 1, "weight": 0.5}]
    assert newer["layer"] == 1
    [listed] = [m for m in world.cli_json(capsys, "memory", "list") if m["kind"] == "preference"]
    assert listed["id"] == new.id and listed["older_versions"][0]["id"] == old.id  # the live list shows the chain
    history = world.cli_json(capsys, "memory", "history", old.id)
    assert [(h["id"], h["version"]) for h in history] == [(old.id, 1), (new.id, 2)]
    assert "- now: コードについては詳しい説明が好き; before: 簡潔な答えが好き" in world.prompt()
    out = world.cli(capsys, "memory", "history", new.id)
    assert f"   {old.id} [replaced v1 weight 0.50] 簡潔な答えが好き" in out
    assert f"→  {new.id} [active v2 weight 1.00] コードについては詳しい説明が好き" in out


def test_a_third_version_halves_the_older_weights_again(world, capsys):
    world.settings.auto_approve_preferences = True
    two_versions(world, capsys)
    world.oracle.rules = [Rule("短く", "やっぱり短い答えが好き", "communication/answer-length", "preference", 0.9)]
    world.say("2026-11-25T20:00:00+09:00", "やっぱり短くていい")
    world.flush("2026-11-25T22:00:00+09:00")
    assert world.queue() == []  # auto-approved: the user said so
    weights = {text: (p["version"], p["weight"]) for text, p in preferences(world, capsys).items()}
    assert weights == {"簡潔な答えが好き": (1, 0.25), "コードについては詳しい説明が好き": (2, 0.5),
                       "やっぱり短い答えが好き": (3, 1.0)}
    prompt = world.prompt()
    assert "now: やっぱり短い答えが好き; before: コードについては詳しい説明が好き" in prompt
    assert "- 簡潔な答えが好き" not in prompt


def test_the_judges_supersede_of_a_dormant_preference_asks_too(world, capsys):
    world.oracle.rules = [Rule("ゆっくり", "ゆっくり進めたい", "pace/projects", "preference", 0.9),
                          Rule("急いで", "急いで終わらせたい", "pace/projects", "preference", 0.9)]
    world.oracle.judgements = {("ゆっくり進めたい", "急いで終わらせたい"): Judgement("SUPERSEDE", 0.95)}
    world.say("2026-01-01T20:00:00+09:00", "プロジェクトはゆっくり進めたい")
    world.flush("2026-01-01T22:00:00+09:00")
    world.say("2026-07-20T20:00:00+09:00", "今日は雨")
    world.flush("2026-07-20T22:00:00+09:00")
    assert world.mem("ゆっくり進めたい").state is State.DORMANT  # not Layer 1, not pinned: still asked
    world.say("2026-07-21T20:00:00+09:00", "やっぱり急いで終わらせたい")
    world.flush("2026-07-21T22:00:00+09:00")
    [pair] = [p for call in world.oracle.judge_calls for p in call["pairs"]]
    assert (pair.old, pair.new, pair.verdict) == ("ゆっくり進めたい", "急いで終わらせたい", "SUPERSEDE")
    [row] = world.queue()
    assert row["action"] == "supersede" and row["old_text"] == "ゆっくり進めたい"
    world.memory.reject(str(row["id"]))
    assert world.mem("ゆっくり進めたい").state is State.DORMANT
    assert world.mem("急いで終わらせたい").state is State.REJECTED


def test_auto_approve_is_the_users_choice_and_asking_before_layer1_still_asks(world, capsys):
    world.settings.auto_approve_preferences = True
    world.settings.ask_before_layer1 = True  # asks before every Layer 1 change: a new version too
    world.oracle.rules = [CONCISE, DETAIL]
    world.say("2026-11-01T20:00:00+09:00", "答えは簡潔なのが好き")
    world.flush("2026-11-01T22:00:00+09:00")
    [first] = world.queue()
    world.memory.approve(str(first["id"]))
    world.say("2026-11-20T20:00:00+09:00", "でもコードは詳しく説明してほしい")
    world.flush("2026-11-20T22:00:00+09:00")
    [row] = world.queue()
    assert row["action"] == "supersede" and row["old_text"] == "簡潔な答えが好き"


def test_a_preference_stated_once_fades_to_dormant_and_new_evidence_wakes_it(world, capsys):
    world.oracle.rules = [CONCISE]
    world.oracle.judgements = {("簡潔な答えが好き", "簡潔な答えが好き"): "SAME"}
    world.say("2026-01-01T20:00:00+09:00", "答えは簡潔なのが好き")
    world.flush("2026-01-01T22:00:00+09:00")
    world.say("2026-05-31T20:00:00+09:00", "今日は雨")  # 150 days: 0.9 × 0.5^2.5 = 0.16, still held
    world.flush("2026-05-31T22:00:00+09:00")
    assert world.layer("簡潔な答えが好き") == 1
    assert 0.15 < preferences(world, capsys)["簡潔な答えが好き"]["confidence_now"] < 0.17
    world.say("2026-07-20T20:00:00+09:00", "今日も雨")  # 200 days: 0.09, below 0.1
    world.flush("2026-07-20T22:00:00+09:00")
    pref = world.mem("簡潔な答えが好き")
    assert pref.state is State.DORMANT and "簡潔" not in world.prompt()  # faded, not deleted
    assert preferences(world, capsys)["簡潔な答えが好き"]["state"] == "dormant"
    world.say("2026-07-21T20:00:00+09:00", "やっぱり答えは簡潔なのが好き")
    world.flush("2026-07-21T22:00:00+09:00")
    assert world.mem("簡潔な答えが好き").state is State.ACTIVE and "- 簡潔な答えが好き" in world.prompt()


def test_the_half_life_is_a_setting(make_world, capsys):
    world = make_world("short")
    world.settings.preference_half_life_days = 20.0  # 0.9 × 0.5^(70/20) = 0.08
    world.oracle.rules = [CONCISE]
    world.say("2026-01-01T20:00:00+09:00", "答えは簡潔なのが好き")
    world.flush("2026-01-01T22:00:00+09:00")
    world.say("2026-03-12T20:00:00+09:00", "今日は雨")
    world.flush("2026-03-12T22:00:00+09:00")
    assert world.mem("簡潔な答えが好き").state is State.DORMANT


def test_the_category_comes_from_the_slot_and_outside_the_ten_it_is_a_fact(world, capsys):
    world.oracle.rules = [Rule("コーヒー", "ブラックコーヒーが好き", "drink/coffee", "preference", 0.9),
                          Rule("ギター", "ギターの音が好き", "hobby/guitar", "preference", 0.9)]
    world.say("2026-11-01T20:00:00+09:00", "コーヒーはブラック、ギターの音も好き")
    world.flush("2026-11-01T22:00:00+09:00")
    coffee, guitar = world.mem("ブラックコーヒーが好き"), world.mem("ギターの音が好き")
    assert (coffee.kind, coffee.slot) == ("preference", "food/coffee")  # "drink" is read as food and drink
    assert preferences(world, capsys)["ブラックコーヒーが好き"]["category"] == "food"
    assert (guitar.kind, guitar.slot) == ("fact", "hobby/guitar")


def test_a_merge_of_a_preference_waits_too_and_approved_is_the_next_version(world, capsys):
    world.oracle.rules = [CONCISE, DETAIL]
    world.oracle.judgements = {("簡潔な答えが好き", "コードについては詳しい説明が好き"):
                               Judgement("MERGE", 0.95, "普段は簡潔、コードは詳しく")}
    two_versions(world, capsys)
    [row] = world.queue()
    assert row["action"] == "merge" and "new version of a preference" in row["reason"]
    assert world.layer("簡潔な答えが好き") == 1  # unchanged until the user says yes
    world.memory.approve(str(row["id"]))
    prefs = preferences(world, capsys)
    assert (prefs["普段は簡潔、コードは詳しく"]["version"], prefs["簡潔な答えが好き"]["weight"]) == (2, 0.5)
    assert prefs["簡潔な答えが好き"]["superseded_by"] == world.mem("普段は簡潔、コードは詳しく").id


def test_the_users_edit_of_a_preference_is_its_next_version(world, capsys):
    world.oracle.rules = [CONCISE]
    world.say("2026-11-01T20:00:00+09:00", "答えは簡潔なのが好き")
    world.flush("2026-11-01T22:00:00+09:00")
    edited = world.memory.edit(world.mem("簡潔な答えが好き").id, "とても簡潔な答えが好き")
    assert [(h["text"], h["version"], h["weight"]) for h in world.cli_json(capsys, "memory", "history", edited.id)] \
        == [("簡潔な答えが好き", 1, 0.5), ("とても簡潔な答えが好き", 2, 1.0)]
    assert "- now: とても簡潔な答えが好き; before: 簡潔な答えが好き" in world.prompt()


def test_the_older_version_is_mentioned_only_when_the_budget_allows(world, capsys):
    from monchat.core.memory.prompt import SECTION_OVERHEAD, memory_line_tokens
    world.settings.auto_approve_preferences = True
    world.settings.memory_token_budget = SECTION_OVERHEAD + memory_line_tokens("コードについては詳しい説明が好き")
    two_versions(world, capsys)
    prompt = world.prompt()
    assert "- コードについては詳しい説明が好き" in prompt and "before:" not in prompt  # the newest, alone
    assert world.memory.budget_report()["left_out"] == []


def test_the_flush_report_has_a_preference_layer_saying_what_changed(world, capsys):
    from monchat.cli.flush import layer_lines
    world.oracle.rules = [CONCISE, DETAIL]
    world.say("2026-11-01T20:00:00+09:00", "答えは簡潔なのが好き")
    first_layers = world.flush("2026-11-01T22:00:00+09:00").background["layers"]
    assert ("new", "簡潔な答えが好き") in {(c["change"], c["text"]) for c in first_layers["preferences"]["changes"]}
    world.say("2026-11-20T20:00:00+09:00", "でもコードは詳しく説明してほしい")
    report = world.flush("2026-11-20T22:00:00+09:00")
    changes = report.background["layers"]["preferences"]["changes"]
    new = world.mem("コードについては詳しい説明が好き")
    assert {c["memory_id"] for c in changes} == {new.id}  # the older version itself did not change yet
    assert "queued" in {c["change"] for c in changes}
    assert any(line.startswith("preferences: ") and "queued コードについては詳しい説明が好き" in line
               for line in layer_lines(report.background))
    [run] = world.flusher.runs(1)
    assert run["background"]["layers"]["preferences"]["changes"] == changes  # the run's record
