"""The background track through the real flush: interest profile, reflect's insights, diary, gaps.

The oracle plays every LLM call (filters, judge, reflect, diary); the program's rules are what is tested.
"""

from __future__ import annotations

from tests.flush.conftest import Judgement, Rule

TEA = Rule("緑茶", "緑茶を飲む", "drink/daily", "habit", 0.8, persona="lifestyle")
GUITAR = Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9)
SENDAI = Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9)
KANAZAWA = Rule("金沢", "金沢に住んでいる", "home/city", "explicit", 0.9)


def week(world) -> dict[str, list[str]]:
    """A week of history; returns the user message ids per local day."""
    days: dict[str, list[str]] = {}
    for when, text in [("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した"),
                       ("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる"),
                       ("2026-11-24T12:00:00+09:00", "ご飯のたびに緑茶を飲んでる"),
                       ("2026-11-25T20:30:00+09:00", "夕飯のあとまたギター"),
                       ("2026-11-27T08:00:00+09:00", "朝も緑茶"),
                       ("2026-11-28T10:00:00+09:00", "今日は朝ギター"),
                       ("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")]:
        days.setdefault(when[:10], []).append(world.say(when, text))
    world.say("2026-11-29T19:01:00+09:00", "金沢いいね！", role="assistant")
    return days


def by_topic(entries: list[dict]) -> dict[str, dict]:
    return {e["topic"]: e for e in entries}


# ---- the interest profile --------------------------------------------------------
def test_the_profile_has_three_windows_with_counts_weights_and_the_delta_of_the_day_before(world, capsys):
    world.oracle.rules = [TEA, GUITAR, SENDAI, KANAZAWA]
    world.oracle.judgements = {("仙台に住んでいる", "金沢に住んでいる"): Judgement("SUPERSEDE", 0.9)}
    week(world)
    world.flush("2026-11-29T22:00:00+09:00")
    # The move replaces a Layer 1 memory: it waits for review, and what waits is not counted yet.
    assert by_topic(world.cli_json(capsys, "profile")["windows"]["7"])["home"]["count"] == 1
    [move] = world.queue()
    world.memory.approve(str(move["id"]))
    profile = world.cli_json(capsys, "profile")
    assert set(profile["windows"]) == {"7", "30", "90"} and profile["cooling"] == []
    week_ = by_topic(profile["windows"]["7"])
    # Approved, it counts at once, with the Sendai line of the version it replaced.
    assert {t: e["count"] for t, e in week_.items()} == {"hobby": 3, "drink": 2, "home": 2}
    assert week_["hobby"]["weight"] == round(3 / 7, 4) and week_["hobby"]["delta"] == 3
    assert all(e["trend"] == "steady" for e in week_.values())  # a week of history has nothing earlier
    assert profile["windows"]["90"] == profile["windows"]["7"]

    world.say("2026-11-30T20:00:00+09:00", "ギターの弦を替えた")
    world.flush("2026-11-30T22:00:00+09:00")
    week_ = by_topic(world.cli_json(capsys, "profile")["windows"]["7"])
    # 11-23 has left the 7-day window: one guitar message out, one in; home lost the Sendai message.
    assert (week_["hobby"]["count"], week_["hobby"]["delta"]) == (3, 0)
    assert (week_["home"]["count"], week_["home"]["delta"]) == (1, -1)
    days = {r["day"] for r in world.rows("profile_snapshots")}
    assert days == {"2026-11-29", "2026-11-30"}  # one snapshot a day, kept


def test_a_topic_talked_about_earlier_and_not_now_cools_and_a_new_one_rises(world, capsys):
    world.oracle.rules = [TEA, GUITAR]
    for day in ("2026-10-20", "2026-10-22", "2026-10-25", "2026-10-28"):
        world.say(f"{day}T12:00:00+09:00", "今日も緑茶")
    world.flush("2026-10-28T22:00:00+09:00")
    for day in ("2026-11-25", "2026-11-27", "2026-11-29"):
        world.say(f"{day}T20:00:00+09:00", "ギターを弾いた")
    report = world.flush("2026-11-29T22:00:00+09:00")
    profile = world.cli_json(capsys, "profile")
    assert [e["topic"] for e in profile["cooling"]] == ["drink"]
    assert by_topic(profile["windows"]["7"])["hobby"]["trend"] == "rising"
    assert "drink" not in by_topic(profile["windows"]["7"])  # nothing this week: no bar in that window
    assert by_topic(profile["windows"]["90"])["drink"]["count"] == 4
    assert report.background["profile"]["rising"] == ["hobby"]
    assert "Topics rising: hobby" in world.oracle.reflect_calls[-1]["user"]  # reflect reads it
    assert "Topics cooling: drink" in world.oracle.reflect_calls[-1]["user"]


def test_a_second_flush_the_same_day_replaces_its_snapshot_and_a_dry_run_writes_none(world):
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T21:00:00+09:00", "ギターを練習した")
    report = world.flush("2026-11-23T22:00:00+09:00", dry_run=True)
    assert report.background["stages"] == ["reflect", "profile", "diary"]
    assert world.rows("profile_snapshots") == [] and world.rows("insights") == [] and world.rows("diary") == []
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-23T22:30:00+09:00", "またギター")
    world.flush("2026-11-23T23:00:00+09:00")
    rows = world.rows("profile_snapshots")
    assert {(r["window"], r["count"], r["run_id"]) for r in rows} == {(7, 2, 2), (30, 2, 2), (90, 2, 2)}


def test_a_forgotten_memory_leaves_the_profile(world, capsys):
    world.oracle.rules = [GUITAR, TEA]
    world.say("2026-11-23T21:00:00+09:00", "ギターを練習した")
    world.say("2026-11-23T21:05:00+09:00", "緑茶を飲んだ")
    world.flush("2026-11-23T22:00:00+09:00")
    world.memory.forget(world.mem("緑茶を飲む").id)
    world.say("2026-11-24T21:00:00+09:00", "ギターまた")
    world.flush("2026-11-24T22:00:00+09:00")
    assert set(by_topic(world.cli_json(capsys, "profile")["windows"]["7"])) == {"hobby"}


# ---- the reflect stage --------------------------------------------------------------
def test_reflect_reads_the_statistics_and_keeps_insights_resting_on_known_slots(world, capsys):
    # Facts, not explicit statements: Sendai stays a candidate, so the move replaces it at once (replacing a
    # Layer 1 memory would wait for review, and reflect reads nothing that waits).
    world.oracle.rules = [TEA, GUITAR, Rule("仙台", "仙台に住んでいる", "home/city", "fact", 0.9),
                          Rule("金沢", "金沢に住んでいる", "home/city", "fact", 0.9)]
    world.oracle.judgements = {("仙台に住んでいる", "金沢に住んでいる"): Judgement("SUPERSEDE", 0.9)}
    world.oracle.reflection = {
        "insights": [{"text": "引っ越したばかり", "slots": ["home/city", "made/up"]},
                     {"text": "根拠のない話", "slots": ["made/up"]}],
        "gaps": [{"text": "ギターで何を弾くかは話に出ない", "slots": ["hobby/guitar"]}]}
    week(world)
    report = world.flush("2026-11-29T22:00:00+09:00")
    [call] = world.oracle.reflect_calls
    assert "- home/city: 2 new, 0 reinforced" in call["user"] and "- hobby/guitar: 1 new" in call["user"]
    assert '"仙台に住んでいる" → "金沢に住んでいる"' in call["user"]  # the superseded chain, by its texts
    assert "Known slots: drink/daily, hobby/guitar, home/city" in call["user"]
    assert report.background["stages"][0] == "reflect"
    assert report.background["reflect"]["dropped"] == 1  # the entry naming no known slot
    insights = world.cli_json(capsys, "insights")
    assert [(i["kind"], i["text"], i["slots"], i["run_id"]) for i in insights] == [
        ("gap", "ギターで何を弾くかは話に出ない", ["hobby/guitar"], 1),
        ("insight", "引っ越したばかり", ["home/city"], 1)]


def test_the_flush_summary_names_the_reflect_stage_and_a_dry_run_stores_no_insight(world, capsys):
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T21:00:00+09:00", "ギターを練習した")
    out = world.cli(capsys, "flush", "--dry-run")
    assert "reflect: 1 insight(s), 0 suspected gap(s)" in out and "hobby/guitar came up often" in out
    assert "diary: 2026-11-23" in out
    assert world.cli_json(capsys, "insights") == [] and world.cli_json(capsys, "diary") == []


def test_no_reflect_call_when_nothing_was_found(world):
    world.say("2026-11-23T21:00:00+09:00", "こんばんは")
    report = world.flush("2026-11-23T22:00:00+09:00")
    assert world.oracle.reflect_calls == [] and report.background["reflect"] is None
    assert len(world.oracle.diary_calls) == 1  # the day is still written


# ---- the diary ------------------------------------------------------------------------
def test_every_day_with_user_messages_gets_a_page_citing_its_messages(world, capsys):
    world.oracle.rules = [TEA, GUITAR, SENDAI, KANAZAWA]
    days = week(world)
    world.flush("2026-11-29T22:00:00+09:00")
    pages = world.cli_json(capsys, "diary")
    assert [p["date"] for p in pages] == sorted(days)
    for page in pages:
        assert page["messages"] == days[page["date"]]
        assert set(page) >= {"date", "text", "messages", "topics"}
    assert by_date(pages)["2026-11-23"]["topics"] == ["hobby", "home"]
    assert "金沢いいね" not in by_date(pages)["2026-11-29"]["text"]  # the user's messages only
    files = sorted(p.name for p in (world.app.paths.data_dir / "diary").glob("*.md"))
    assert files == [f"{d}.md" for d in sorted(days)]
    text = (world.app.paths.data_dir / "diary" / "2026-11-24.md").read_text(encoding="utf-8")
    assert text.startswith("# 2026-11-24\n") and "ご飯のたびに緑茶を飲んでる" in text
    [one] = world.cli_json(capsys, "diary", "2026-11-25")
    assert one["messages"] == days["2026-11-25"]


def by_date(pages: list[dict]) -> dict[str, dict]:
    return {p["date"]: p for p in pages}


def test_a_later_flush_adding_to_a_day_rewrites_that_page_only(world, capsys):
    first = world.say("2026-11-23T09:00:00+09:00", "朝から雨")
    world.say("2026-11-22T21:00:00+09:00", "昨日の話")
    world.flush("2026-11-23T12:00:00+09:00")
    assert [c["day"] for c in world.oracle.diary_calls] == ["2026-11-22", "2026-11-23"]
    later = world.say("2026-11-23T20:00:00+09:00", "夜は晴れた")
    world.flush("2026-11-23T22:00:00+09:00")
    assert [c["day"] for c in world.oracle.diary_calls][2:] == ["2026-11-23"]  # the 22nd is not asked again
    assert [line["text"] for line in world.oracle.diary_calls[-1]["lines"]] == ["朝から雨", "夜は晴れた"]
    page = by_date(world.cli_json(capsys, "diary"))["2026-11-23"]
    assert page["messages"] == [first, later] and page["run_id"] == 2
    assert "夜は晴れた" in (world.app.paths.data_dir / "diary" / "2026-11-23.md").read_text(encoding="utf-8")
    assert len(world.rows("diary")) == 2


def test_a_page_cites_only_the_messages_it_was_shown(world, capsys):
    mid = world.say("2026-11-23T09:00:00+09:00", "朝から雨")
    world.oracle.diary = lambda day, lines: {"text": "雨の日。", "cited": ["d1", "d7", mid, "d1"]}
    world.flush("2026-11-23T12:00:00+09:00")
    [page] = world.cli_json(capsys, "diary")
    assert page["messages"] == [mid] and page["text"] == "雨の日。"


def test_a_diary_call_that_writes_no_page_is_an_error_not_an_empty_page(world, capsys):
    world.say("2026-11-23T09:00:00+09:00", "朝から雨")
    world.oracle.diary = lambda day, lines: {"text": "  ", "cited": []}
    report = world.flush("2026-11-23T12:00:00+09:00")
    assert any("diary 2026-11-23" in e for e in report.errors)
    assert world.cli_json(capsys, "diary") == [] and report.run_id == 1


def test_role_play_is_not_in_the_diary(world, capsys):
    from dataclasses import replace
    card = replace(world.app.personas.surface["hana"], id="knight", read_at_flush=False)
    world.app.personas.surface["knight"] = card
    world.say("2026-11-23T09:00:00+09:00", "剣を抜く", persona="knight")
    world.say("2026-11-24T09:00:00+09:00", "朝から雨")
    world.flush("2026-11-24T12:00:00+09:00")
    assert [p["date"] for p in world.cli_json(capsys, "diary")] == ["2026-11-24"]


# ---- knowledge gaps ---------------------------------------------------------------------
CORRECTION = Rule("違うよ", "コーヒーは飲まない", "drink/coffee", "correction", 0.9)


def test_a_recall_failure_becomes_a_gap_at_the_second_one(world, capsys):
    world.oracle.rules = [CORRECTION]
    world.say("2026-11-23T21:00:00+09:00", "コーヒー好きだよね？", role="assistant")
    world.say("2026-11-23T21:01:00+09:00", "違うよ、コーヒーは飲まない")
    world.flush("2026-11-23T22:00:00+09:00")
    assert world.cli_json(capsys, "gaps") == [] and len(world.rows("recall_failures")) == 1
    world.say("2026-11-25T21:00:00+09:00", "またコーヒー？", role="assistant")
    world.say("2026-11-25T21:01:00+09:00", "違うよ、飲まないって言ったよね")
    report = world.flush("2026-11-25T22:00:00+09:00")
    [gap] = world.cli_json(capsys, "gaps")
    assert (gap["kind"], gap["slot"], gap["failures"], gap["status"]) == ("recall", "drink/coffee", 2, "open")
    assert report.background["gaps"][0]["failures"] == 2
    world.say("2026-11-27T21:01:00+09:00", "違うよ、飲まないって三回目")
    world.flush("2026-11-27T22:00:00+09:00")
    [gap] = world.cli_json(capsys, "gaps")  # the same mark, counting on
    assert gap["failures"] == 3


def test_a_structural_gap_is_marked_once_and_never_filled(world, capsys):
    world.oracle.rules = [GUITAR]
    world.oracle.reflection = {"insights": [],
                               "gaps": [{"text": "どんな曲を弾くかは話に出ない", "slots": ["hobby/guitar"]}]}
    world.say("2026-11-23T21:00:00+09:00", "ギターを練習した")
    world.flush("2026-11-23T22:00:00+09:00")
    world.say("2026-11-24T21:00:00+09:00", "ギターまた")
    world.flush("2026-11-24T22:00:00+09:00")
    [gap] = world.cli_json(capsys, "gaps")
    assert (gap["kind"], gap["slot"], gap["text"]) == ("structural", "hobby/guitar", "どんな曲を弾くかは話に出ない")
    assert [m.text for m in world.store.all()] == ["ギターを練習する"]  # no memory invented for it


def test_the_prompt_may_ask_about_the_newest_gap_within_the_budget(world):
    world.oracle.rules = [GUITAR]
    world.oracle.reflection = {"insights": [],
                               "gaps": [{"text": "どんな曲を弾くかは話に出ない", "slots": ["hobby/guitar"]}]}
    world.say("2026-11-23T21:00:00+09:00", "ギターを練習した")
    before = world.prompt()
    assert "聞いてみて" not in before
    world.flush("2026-11-23T22:00:00+09:00")
    assert "（話題に出たら、さりげなく聞いてみて：どんな曲を弾くかは話に出ない）" in world.prompt()
    assert world.memory.budget_report()["hint_tokens"] > 0

    world.app.settings.flush.memory_token_budget = 30  # room for the memory, not for the hint too
    world.say("2026-11-24T21:00:00+09:00", "ギターまた")
    world.flush("2026-11-24T22:00:00+09:00")
    assert "聞いてみて" not in world.prompt() and "ギターを練習する" in world.prompt()
    assert world.memory.budget_report()["hint_left_out"] == "どんな曲を弾くかは話に出ない"

    world.app.settings.flush.memory_token_budget = 1500
    world.app.settings.background.gap_hint = False
    world.say("2026-11-25T21:00:00+09:00", "ギター三日目")
    world.flush("2026-11-25T22:00:00+09:00")
    assert "聞いてみて" not in world.prompt()


def test_reflect_statistics_are_cut_to_fit_the_context_and_said_so(world):
    from monchat.core.background.reflect import REFLECT_SCHEMA, fitted
    from monchat.core.types import Turn
    from tests.support.oracle import Oracle
    small = Oracle(context=1200)
    slots = [f"topic{n:02d}/detail-with-a-longer-name" for n in range(40)]
    stats = {"slots": [{"slot": s, "new": 1, "reinforced": 0} for s in slots], "contradictions": [],
             "superseded": [], "rising": [], "cooling": [], "pending": [], "known": slots, "language_texts": []}
    system = world.app.prompts.render("reflect.md.j2", most=5, language="English")
    notes: list[str] = []
    user = fitted(small, world.app.prompts, system, stats, notes)
    assert small.count_json_request(system, [Turn("user", user)], REFLECT_SCHEMA) <= small.json_prompt_limit()
    assert "topic00/" in user and "topic39/" not in user
    assert len(notes) == 1 and "first" in notes[0]
    assert fitted(world.oracle, world.app.prompts, system, stats, []) .count("topic") == 80  # all, when it fits


def test_the_run_record_keeps_what_the_background_did(world):
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T21:00:00+09:00", "ギターを練習した")
    report = world.flush("2026-11-23T22:00:00+09:00")
    [run] = world.flusher.runs(1)
    assert run["background"] == report.background and run["background"]["stages"] == ["reflect", "profile", "diary"]
    assert run["background"]["reflect"]["insights"] == [{"text": "hobby/guitar came up often",
                                                         "slots": ["hobby/guitar"]}]
