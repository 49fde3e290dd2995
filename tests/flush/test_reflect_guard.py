"""Reflect's insights and suspected gaps are the model's reading of the statistics, never the request read back:
an entry that says nothing or echoes the reflect instructions is left out with a note, like one on an unshown slot.

SmolLM2 answered reflect with the prompt's own example ("The user is on the move."), "None" for a gap and one
syllable run; the oracle plays those answers here, each resting on a slot the statistics showed.
"""

from __future__ import annotations

import pytest

from tests.flush.conftest import Rule

SAID = {"en": ("I live in Fukuoka now.", Rule("Fukuoka", "I live in Fukuoka now.", "home/city", "explicit", 0.9)),
        "ja": ("今は福岡に住んでいる。", Rule("福岡", "今は福岡に住んでいる。", "home/city", "explicit", 0.9))}
KEPT = {"en": "Home comes up as Fukuoka", "ja": "福岡での暮らしが話題の中心"}
LEFT_OUT = {
    "said_nothing": {"en": ["1.", "hahahaha", "…", "None"], "ja": ["バルバババ", "ーーー", "２）", "なし。"]},
    "echoed": {"en": ["The user is on the move.", "Say only what the statistics show; invent nothing about the user."],
               "ja": ["The user is on the move.", "home/city changed twice in a month: the user is on the move"]},
}
NOTES = {"said_nothing": "they say nothing", "echoed": "they read the request's instructions back"}


def reflect_on(world, language: str, texts: list[str]):
    said, rule = SAID[language]
    world.oracle.rules = [rule]
    world.oracle.reflection = {"insights": [{"text": t, "slots": ["home/city"]} for t in [KEPT[language], *texts]],
                               "gaps": [{"text": t, "slots": ["home/city"]} for t in texts]}
    world.say("2026-11-23T21:00:00+09:00", said)
    return world.flush("2026-11-23T22:00:00+09:00")


@pytest.mark.parametrize("rule", sorted(LEFT_OUT))
@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_entry_that_says_nothing_or_echoes_the_instructions_is_left_out_with_a_note(world, capsys, language,
                                                                                       rule):
    texts = LEFT_OUT[rule][language]
    report = reflect_on(world, language, texts)

    shown = world.cli_json(capsys, "insights")
    assert [(i["kind"], i["text"]) for i in shown] == [("insight", KEPT[language])]
    assert report.background["reflect"]["dropped"] == 2 * len(texts)
    [note] = [n for n in report.notes if n.startswith("reflect:")]
    assert f"{2 * len(texts)} entr(ies) left out: {NOTES[rule]}" in note


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_insight_in_the_users_terms_is_kept(world, capsys, language):
    report = reflect_on(world, language, [])
    assert [i["text"] for i in world.cli_json(capsys, "insights")] == [KEPT[language]]
    assert report.background["reflect"]["dropped"] == 0
    assert not [n for n in report.notes if n.startswith("reflect:")]
