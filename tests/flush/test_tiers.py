"""Temperature tiers and one-way digests through the real flush (issue 14, point 1).

The oracle plays every LLM call (filters, judge, reflect, diary, digest); the tiers, the digest's
checks and its one-way rule are the program's and are what is tested. Default thresholds:
hot ≤ 14 idle days < warm ≤ 60 < cold ≤ 180 < frozen; each evidence day after the first stretches
them by 0.25 (at most 3×).
"""

from __future__ import annotations

from tests.flush.conftest import Judgement, Rule

RAMEN = Rule("ラーメン", "ラーメンが好き", "food/likes", "explicit", 0.9)
SUSHI = Rule("寿司", "寿司が好き", "food/likes", "explicit", 0.9)
TEA = Rule("緑茶", "緑茶を毎日飲む", "drink/daily", "explicit", 0.9)
CAT = Rule("猫", "猫を飼っている", "pet/cat", "explicit", 0.9)
BIKE = Rule("自転車", "自転車で通勤する", "commute/bike", "explicit", 0.9)
TENNIS = Rule("テニス", "テニスを始めた", "sport/tennis", "explicit", 0.9)


def tiers(world, capsys) -> dict[str, str]:
    return {m["text"]: m["tier"] for m in world.cli_json(capsys, "memory", "list", "--all")}


def food_goes_cold(world, digest=None):
    """Ramen and sushi said in June, a flush then; one in late September (about 100 idle days): cold."""
    world.oracle.rules = [RAMEN, SUSHI, TENNIS]
    world.oracle.digest = digest or (lambda slot, memories: {"text": "ラーメンと寿司が好き",
                                                           "covers": [mid for mid, _ in memories]})
    world.say("2026-06-01T12:00:00+09:00", "覚えておいて：ラーメンが好き")
    world.say("2026-06-01T12:05:00+09:00", "覚えておいて：寿司も好き")
    world.flush("2026-06-01T22:00:00+09:00")
    assert world.layer("ラーメンが好き") == 1 and world.layer("寿司が好き") == 1
    world.say("2026-09-10T12:00:00+09:00", "テニスを始めた")
    world.calls_before = world.oracle.json_calls
    return world.flush("2026-09-10T22:00:00+09:00")


# ---- the tier rule ----------------------------------------------------------------
def test_tiers_come_from_age_evidence_and_the_users_access(world, capsys):
    world.oracle.rules = [RAMEN, TEA, CAT, BIKE, TENNIS]
    world.say("2026-01-05T08:00:00+09:00", "覚えておいて：自転車で通勤してる")
    world.flush("2026-01-05T22:00:00+09:00")
    world.say("2026-06-01T12:00:00+09:00", "覚えておいて：ラーメンが好き")
    world.say("2026-06-01T12:10:00+09:00", "覚えておいて：猫を飼っている")
    for day in ("2026-06-01", "2026-06-10", "2026-06-19"):  # three days of evidence
        world.say(f"{day}T08:00:00+09:00", "朝は緑茶")
    world.flush("2026-06-19T22:00:00+09:00")
    assert tiers(world, capsys) == {"自転車で通勤する": "cold", "ラーメンが好き": "warm", "猫を飼っている": "warm",
                                    "緑茶を毎日飲む": "hot"}  # 165, 18, 18 and 0 idle days
    world.clock.now = world.clock.now.replace(month=9, day=1)
    cat = world.mem("猫を飼っている").id
    world.memory.pin(cat)
    world.memory.unpin(cat)  # the user's access on 09-01
    world.say("2026-09-10T12:00:00+09:00", "テニスを始めた")
    report = world.flush("2026-09-10T22:00:00+09:00")
    assert tiers(world, capsys) == {
        "テニスを始めた": "hot",  # new
        "猫を飼っている": "hot",  # 101 days since its evidence, 9 since the user touched it
        "緑茶を毎日飲む": "warm",  # 83 idle days ÷ 1.5 (three days of evidence) = 55
        "ラーメンが好き": "cold",  # 101 idle days, one day of evidence
        "自転車で通勤する": "frozen",  # 248 idle days
    }
    assert report.background["tiers"]["counts"] == {"hot": 2, "warm": 1, "cold": 1, "frozen": 1}
    assert world.oracle.digest_calls == []  # one cold memory in its slot: nothing to digest
    prompt = world.prompt()
    assert "- ラーメンが好き" in prompt and "- 緑茶を毎日飲む" in prompt  # warm and cold keep their text
    assert "- 自転車で通勤する" in prompt  # frozen: its headline, as the budget has room
    world.app.settings.tiers.cold_days = 400  # a setting moves the line
    world.say("2026-09-11T12:00:00+09:00", "テニスまた")
    world.flush("2026-09-11T22:00:00+09:00")
    assert tiers(world, capsys)["自転車で通勤する"] == "cold"


def test_a_frozen_memory_gives_its_headline_only_when_the_budget_has_room(world, capsys):
    long_text = "冬は毎朝五時に起きて近所の川沿いを自転車で十キロ走ってから駅まで行き電車に乗り換えて会社へ通勤していて帰りも同じ道を自転車で走って帰る"
    assert len(long_text) > 60
    world.oracle.rules = [Rule("自転車", long_text, "commute/bike", "explicit", 0.9), TENNIS]
    world.say("2026-01-05T08:00:00+09:00", "覚えておいて：" + long_text)
    world.flush("2026-01-05T22:00:00+09:00")
    world.say("2026-09-10T12:00:00+09:00", "テニスを始めた")
    world.flush("2026-09-10T22:00:00+09:00")
    assert tiers(world, capsys)[long_text] == "frozen"
    prompt = world.prompt()
    assert long_text not in prompt and f"- {long_text[:59]}…" in prompt  # one line of at most 60 characters
    budget = world.memory.budget_report()
    assert budget["headlines"] == 1
    world.app.settings.flush.memory_token_budget = 25  # no room after the hot memory: left out, said why
    world.say("2026-09-11T12:00:00+09:00", "今日は雨")
    world.flush("2026-09-11T22:00:00+09:00")
    assert long_text[:20] not in world.prompt() and "- テニスを始めた" in world.prompt()
    budget = world.memory.budget_report()
    assert budget["headlines"] == 0
    assert [(x["text"][:5], x["reason"][:7]) for x in budget["left_out"]] == [(long_text[:5], "frozen:")]


# ---- cold slot → digest -------------------------------------------------------------
def test_a_cold_slot_becomes_one_digest_in_the_prompt_and_its_originals_stay(world, capsys):
    report = food_goes_cold(world)
    [call] = world.oracle.digest_calls
    ramen, sushi = world.mem("ラーメンが好き"), world.mem("寿司が好き")
    assert call["slot"] == "food/likes" and sorted(mid for mid, _ in call["memories"]) == sorted([ramen.id, sushi.id])
    [digest] = world.rows("digests")
    assert digest["text"] == "ラーメンと寿司が好き" and report.background["tiers"]["digests"][0]["id"] == digest["id"]
    prompt = world.prompt()
    assert "- ラーメンと寿司が好き" in prompt
    assert "- ラーメンが好き" not in prompt and "- 寿司が好き" not in prompt
    # The originals stay in SQLite as they were, pointing to their digest.
    assert world.mem("ラーメンが好き").state == "active" and world.mem("寿司が好き").text == "寿司が好き"
    shown = world.cli_json(capsys, "memory", "show", ramen.id)
    assert shown["tier"] == "cold" and shown["digest"]["id"] == digest["id"]
    assert sorted(shown["digest"]["covers"]) == sorted([ramen.id, sushi.id])
    assert any(e["action"] == "digested" for e in shown["events"])
    history = world.cli(capsys, "memory", "history", ramen.id)
    assert f"in digest {digest['id']}: ラーメンと寿司が好き" in history
    assert report.usage.calls == world.oracle.json_calls - world.calls_before  # the digest call is counted in the run's usage
    assert any("ラーメンと寿司が好き" in row["answer"] for row in world.rows("flush_answers"))  # kept answer
    readable = world.app.paths.memory_md.read_text(encoding="utf-8")
    assert f"] ラーメンと寿司が好き ^{digest['id']}" in readable and ramen.id in readable.split("## Digests")[1]


def test_new_evidence_after_a_digest_warms_the_memory_but_never_re_expands_the_digest(world, capsys):
    food_goes_cold(world)
    [before] = world.rows("digests")
    ramen = world.mem("ラーメンが好き").id
    world.oracle.judgements = {("ラーメンが好き", "ラーメンが好き"): Judgement("SAME", 0.95)}
    world.say("2026-09-20T12:00:00+09:00", "昨日もラーメン食べた")
    world.flush("2026-09-20T22:00:00+09:00")
    assert len(world.ledger(ramen)) == 2  # the new evidence went to the original memory
    assert world.cli_json(capsys, "memory", "show", ramen)["tier"] == "hot"  # it went back up
    assert world.rows("digests") == [before]  # the digest is the same row, the same words
    assert world.cli_json(capsys, "memory", "show", ramen)["digest"]["id"] == before["id"]
    prompt = world.prompt()
    assert "- ラーメンと寿司が好き" in prompt and "- ラーメンが好き" not in prompt
    assert len(world.oracle.digest_calls) == 1  # never asked again for what is covered
    world.say("2026-12-30T12:00:00+09:00", "テニスの試合")
    world.flush("2026-12-30T22:00:00+09:00")
    assert world.rows("digests") == [before] and len(world.oracle.digest_calls) == 1


def test_forgetting_a_covered_memory_retires_the_digest_from_the_prompt(world, capsys):
    food_goes_cold(world)
    world.memory.forget(world.mem("ラーメンが好き").id)
    prompt = world.prompt()
    assert "ラーメン" not in prompt and "- 寿司が好き" in prompt  # the other original, by its own tier
    world.memory.delete(world.mem("ラーメンが好き").id)
    assert world.rows("digests") == []  # deleted for real: the digest quoting it goes too


# ---- the digest's checks: a bad answer is no digest ---------------------------------------
def test_a_digest_over_400_characters_is_no_digest_and_nothing_is_written(world):
    report = food_goes_cold(world, lambda slot, memories: {"text": "ラーメンと寿司が好き。" * 40,
                                                          "covers": [m for m, _ in memories]})
    assert len(world.oracle.digest_calls) == 1
    assert world.rows("digests") == [] and all(r["digest_id"] is None for r in world.rows("memory_tiers"))
    assert any("no digest for food/likes" in str(n) and "440 characters" in str(n) for n in report.notes)
    prompt = world.prompt()
    assert "- ラーメンが好き" in prompt and "- 寿司が好き" in prompt  # the memories stay as they are


def test_a_digest_citing_an_id_it_was_not_shown_is_no_digest(world):
    def answer(slot, memories):
        tennis = world.mem("テニスを始めた").id if world.has("テニスを始めた") else "mem-made-up"
        return {"text": "ラーメンと寿司が好き", "covers": [memories[0][0], tennis]}
    report = food_goes_cold(world, answer)
    assert world.rows("digests") == []
    assert any("cites id(s) it was not shown" in str(n) for n in report.notes)


def test_a_digest_whose_words_are_not_in_the_memories_is_no_digest(world):
    report = food_goes_cold(world, lambda slot, memories: {"text": "辛いカレーが大好物",
                                                          "covers": [m for m, _ in memories]})
    assert world.rows("digests") == []
    assert any("not found in the memories it covers" in str(n) for n in report.notes)


def test_a_dry_run_asks_for_the_digest_and_writes_no_tier_or_digest(world, capsys):
    world.oracle.rules = [RAMEN, SUSHI, TENNIS]
    world.say("2026-06-01T12:00:00+09:00", "覚えておいて：ラーメンが好き")
    world.say("2026-06-01T12:05:00+09:00", "覚えておいて：寿司も好き")
    world.flush("2026-06-01T22:00:00+09:00")
    tiers_before, days_before = world.rows("memory_tiers"), world.rows("day_tiers")
    world.say("2026-09-10T12:00:00+09:00", "テニスを始めた")
    report = world.flush("2026-09-10T22:00:00+09:00", dry_run=True)
    assert len(world.oracle.digest_calls) == 1 and report.background["tiers"]["digests"]
    assert world.rows("digests") == [] and world.rows("memory_tiers") == tiers_before
    assert world.rows("day_tiers") == days_before
    assert "- ラーメンが好き" in world.prompt()


# ---- archive days ------------------------------------------------------------------------
def test_archive_days_get_tiers_shown_by_search_days(world, capsys):
    world.oracle.rules = [BIKE, TENNIS]
    world.say("2026-01-05T08:00:00+09:00", "覚えておいて：自転車で通勤してる")
    world.say("2026-05-20T08:00:00+09:00", "今日は雨")
    world.say("2026-09-10T12:00:00+09:00", "テニスを始めた")
    world.flush("2026-09-10T22:00:00+09:00")
    days = {d["day"]: d for d in world.cli_json(capsys, "search", "--days")}
    assert {day: d["tier"] for day, d in days.items()} == {
        "2026-01-05": "frozen", "2026-05-20": "cold", "2026-09-10": "hot"}
    assert days["2026-01-05"]["messages"] == 1
    assert "2026-01-05  1  frozen" in world.cli(capsys, "search", "--days")


# ---- on the boundaries -------------------------------------------------------------------
def test_each_tier_ends_exactly_on_its_number_of_idle_days(world, capsys):
    world.oracle.rules = [CAT, TENNIS]
    world.say("2026-01-05T12:00:00+09:00", "覚えておいて：猫を飼っている")
    world.flush("2026-01-05T22:00:00+09:00")
    seen = []
    for n, when in enumerate(["2026-01-19T12:00:00+09:00", "2026-01-19T12:00:01+09:00",  # 14 days, and a second
                              "2026-03-06T12:00:00+09:00", "2026-03-06T12:00:01+09:00",  # 60
                              "2026-07-04T12:00:00+09:00", "2026-07-04T12:00:01+09:00"]):  # 180
        world.say(when, f"テニス{n}")
        world.flush(when)
        seen.append(world.cli_json(capsys, "memory", "show", world.mem("猫を飼っている").id)["tier"])
    assert seen == ["hot", "warm", "warm", "cold", "cold", "frozen"]


def test_a_digest_of_exactly_400_characters_is_kept_and_of_401_is_not(make_world):
    base = "ラーメンと寿司が好き"
    for size, kept in ((400, True), (401, False)):
        world = make_world(f"w{size}")
        text = (base * 41)[:size]
        food_goes_cold(world, lambda slot, memories, text=text: {"text": text, "covers": [m for m, _ in memories]})
        assert [len(r["text"]) for r in world.rows("digests")] == ([400] if kept else [])


def test_a_slot_this_flush_talks_about_is_not_digested_and_memory_list_json_has_every_tier(world, capsys):
    world.oracle.rules = [RAMEN, SUSHI, TENNIS]
    world.say("2026-06-01T12:00:00+09:00", "覚えておいて：ラーメンが好き")
    world.say("2026-06-01T12:05:00+09:00", "覚えておいて：寿司も好き")
    world.flush("2026-06-01T22:00:00+09:00")
    world.oracle.judgements = {("寿司が好き", "寿司が好き"): Judgement("SAME", 0.95)}
    world.say("2026-09-10T12:00:00+09:00", "寿司の話をまた")  # food/likes is talked about: not cold now
    world.flush("2026-09-10T22:00:00+09:00")
    assert world.oracle.digest_calls == [] and world.rows("digests") == []
    listed = world.cli_json(capsys, "memory", "list")
    assert {m["text"]: m["tier"] for m in listed} == {"ラーメンが好き": "cold", "寿司が好き": "hot"}
    assert all(m["digest"] is None for m in listed)
