"""The oracle reads what the flush sends, the way a model would, and answers the same way every time."""

from __future__ import annotations

from monchat.core.flush.judge import JUDGE_SCHEMA
from monchat.core.flush.answer import item_schema
from monchat.core.paths import resource_dir
from monchat.core.prompts import PromptLibrary
from tests.support.oracle import Judgement, Oracle, Rule, parse_log, parse_pairs, persona_of

PROMPTS = PromptLibrary(resource_dir("prompts"))


class Line:
    def __init__(self, local_id, role, text):
        self.local_id, self.role, self.text, self.when = local_id, role, text, "2026-11-23 Mon 21:12"


def test_it_reads_log_lines_including_texts_over_several_lines():
    user = PROMPTS.render("filter_log.md.j2", part=1, parts=1, first_day="2026-11-23", last_day="2026-11-23",
                          persona=None,
                          lines=[Line("m1", "assistant", "犬を飼ってる？"), Line("m2", "user", "一行目\n[二行目]"),
                                 Line("m3", "user", "{{ 7*7 }}")])
    lines = parse_log(user)
    assert [(x.local_id, x.role, x.text) for x in lines] == [
        ("m1", "assistant", "犬を飼ってる？"), ("m2", "user", "一行目\n[二行目]"), ("m3", "user", "{{ 7*7 }}")]


def test_it_reads_judge_pairs_and_answers_from_its_table():
    def pair(pid, old, new):
        return {"id": pid, "old": {"text": old, "kind": "fact", "slot": "a/b", "since": "x"},
                "new": {"text": new, "kind": "fact", "slot": "a/b", "when": "y"}}

    user = PROMPTS.render("judge_pairs.md.j2", pairs=[pair("p1", "仙台", "金沢"), pair("p2", "緑茶", "茶道")])
    assert parse_pairs(user) == [("p1", "仙台", "金沢"), ("p2", "緑茶", "茶道")]
    oracle = Oracle(judgements={("仙台", "金沢"): ("SUPERSEDE", 0.8)}, default=Judgement("COEXIST", 0.9))
    answer = oracle.respond(PROMPTS.render("judge.md.j2"), user, JUDGE_SCHEMA)
    assert [(v["pair"], v["verdict"], v["confidence"]) for v in answer["verdicts"]] == [
        ("p1", "SUPERSEDE", 0.8), ("p2", "COEXIST", 0.9)]


def test_filter_answers_are_per_persona_and_deterministic(world):
    base, lifestyle = world.app.personas.filters["base"], world.app.personas.filters["lifestyle"]
    system = PROMPTS.render("filter.md.j2")
    lines = [Line("m1", "user", "緑茶を飲んだ"), Line("m2", "user", "また緑茶")]
    users = {p.id: PROMPTS.render("filter_log.md.j2", part=1, parts=1, first_day="d", last_day="d", lines=lines,
                                  persona=p) for p in (base, lifestyle)}
    assert {pid: persona_of(text) for pid, text in users.items()} == {"base": "base", "lifestyle": "lifestyle"}
    oracle = Oracle([Rule("緑茶", "緑茶を飲む", "drink/daily", "habit", 0.7, persona="lifestyle")])
    first = oracle.respond(system, users["lifestyle"], item_schema(3))
    assert first == {"items": [{"reason": "oracle rule", "text": "緑茶を飲む", "slot": "drink/daily",
                                "kind": "habit", "score": 0.7, "evidence": ["m1", "m2"]}]}
    assert oracle.respond(system, users["lifestyle"], item_schema(3)) == first
    assert oracle.respond(system, users["base"], item_schema(3)) == {"items": []}
