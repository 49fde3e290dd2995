"""``backend.escalation`` is read from the settings and names the model a doubtful pair is re-asked with.

Nothing is pinned or patched: the app builds its backends from ``settings.toml``,
and the real ``ollama`` client talks to a loopback server whose structured
answers come from one oracle per model.
"""

from __future__ import annotations

import pytest

from tests.flush.conftest import Judgement, Oracle, Rule
from tests.flush.oracle_server import running_oracle_ollama

SENDAI, HOMETOWN = "仙台に住んでいる", "仙台の実家に帰省した"


def _rules() -> list[Rule]:
    return [Rule("覚えておいて", SENDAI, "home/city", "explicit", 0.9),
            Rule("帰省", HOMETOWN, "home/city", "fact", 0.8)]


@pytest.mark.parametrize("escalation", ["ollama:big", ""])
def test_the_escalation_setting_names_the_model_that_is_asked_again(make_world, escalation):
    main = Oracle(_rules(), {(SENDAI, HOMETOWN): Judgement("SUPERSEDE", 0.5)})
    big = Oracle(default=Judgement("COEXIST", 0.9))
    with running_oracle_ollama(main) as server:
        server.installed |= {"small", "big"}
        server.oracles = {"big": big}
        world = make_world("escalation", main, settings={
            "backend.name": "ollama", "ollama.model": "small", "ollama.host": server.url,
            "backend.escalation": escalation})
        assert world.app.settings.backend.escalation == escalation  # read back from settings.toml
        world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
        world.flush("2026-11-23T22:00:00+09:00")
        world.say("2026-11-28T12:00:00+09:00", "週末は仙台の実家に帰省してた")
        world.flush("2026-11-28T22:00:00+09:00")
        judge_models = [r["body"]["model"] for r in server.chat_requests()
                        if "verdicts" in (r["body"].get("format") or {}).get("properties", {})]
        assert server.errors == []

    assert [(p.old, p.new) for p in main.judged] == [(SENDAI, HOMETOWN)]
    [verdict] = [v for v in world.rows("verdicts") if v["target_id"] == world.mem(SENDAI).id]
    sendai, hometown = world.mem(SENDAI), world.mem(HOMETOWN)
    assert sendai.state == "active" and sendai.superseded_by is None
    if escalation:
        assert judge_models == ["small", "big"]
        assert [(p.old, p.new) for p in big.judged] == [(SENDAI, HOMETOWN)]
        assert (verdict["escalated"], verdict["model"], verdict["verdict"]) == (1, "ollama:big", "COEXIST")
        assert verdict["applied"] == "yes"
        assert world.queue() == [] and hometown.state == "candidate"
    else:  # no escalation model: the doubtful pair goes to review, nobody else is asked
        assert judge_models == ["small"]
        assert big.judged == []
        assert (verdict["escalated"], verdict["model"]) == (0, "ollama:small")
        [row] = world.queue()
        assert (row["action"], row["memory_id"]) == ("judge", hometown.id)
