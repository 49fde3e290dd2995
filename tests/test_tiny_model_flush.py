"""A flush against a model at its worst leaves no trace (issue 22, "Done when" 1), through the real CLI.

``python -m monchat`` runs as a subprocess against a loopback Ollama (``tests/fakes/fake_ollama.py``,
the real ``ollama`` client) that answers as SmolLM2-135M was seen answering: every filter item reads
back the request (the filter rules, the persona's name, talent and picks), fills a slot with a schema
placeholder (``id_of_a_user_line``, ``role_id_1``, ``skill_id_1``), or says nothing ("1.", "バルバババ…"),
each citing a real user line; every other call gets the schema filled with the same junk. Nothing of
it may reach a view of memory; every message is archived, the gate opens, and ``monchat flush`` (text
and ``--json``, dry run and real) lists each dropped proposal with its rule.

More views are asserted by adding them to ``VIEWS`` (a command's ``--json`` and what "no trace" means).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from tests.fakes.fake_ollama import running_fake_ollama
from tests.test_e2e_growing import User, history_file

EVENING = [  # (days ago, local time, role, text)
    (1, "20:00", "user", "I moved from Osaka to Fukuoka last month"),
    (1, "20:01", "assistant", "Fukuoka is lovely! How is the new place?"),
    (1, "20:05", "user", "今夜はギターを1時間練習した"),
    (1, "20:06", "assistant", "いいですね！何の曲を練習しましたか？"),
    (1, "20:10", "user", "覚えておいて、緑茶が好き"),
]
JUNK_SLOTS = ("id_of_a_user_line", "role_id_1", "skill_id_1", "evidence")
SAYS_NOTHING = ("1.", "2.", "バルバババババ…")


def log_lines(body: dict) -> list[dict]:
    return [json.loads(raw) for raw in body["messages"][-1]["content"].splitlines() if raw.startswith("{")]


def persona_part(body: dict) -> dict:
    """The persona a filter request plays, read back from its part as a tiny model copies it."""
    content = body["messages"][-1]["content"]
    name, talent = re.search(r'The part you play: "([^"]+)"\. Your talent: (.+?)\.\n', content).groups()
    picks = re.findall(r"^- (.+)$", content.split("Pick only:")[1].split("Ignore")[0], re.M)
    return {"name": name, "talent": talent, "pick": picks[0]}


def junk_items(body: dict) -> list[dict]:
    """Three items per persona (its limit), each citing a real user line, none the user's words."""
    users = [line for line in log_lines(body) if line["role"] == "user"]
    part = persona_part(body)
    said = users[0]["text"]
    items = {
        "Base": [("1.", "id_of_a_user_line"), (f"{part['name']}. Your talent is {part['talent']}.", "persona/talent"),
                 (said, "role_id_1")],
        "Lifestyle": [("2.", "skill_id_1"), ("バルバババババ…", "food/taste"),
                      ("Pick the few things worth remembering about the user that fit your talent.", "memory/rules")],
        "Project": [(f"{part['name']}. Your talent is {part['talent']}. Your mood is …", "project/mood"),
                    (said, "skill_id_1"), ("id of a user line", "memory/line")],
        "Emotional": [(part["pick"], "mood/swings"), ("3.", "role_id_1"), (said, "evidence")],
    }[part["name"]]
    return [{"reason": "the user said so", "text": text, "slot": slot, "kind": "fact", "score": 0.9,
             "evidence": [users[n % len(users)]["id"]]} for n, (text, slot) in enumerate(items)]


def fill(schema: dict):
    """Any other call: the schema filled with junk, as a model that only follows the grammar would."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {key: fill(value) for key, value in schema.get("properties", {}).items()}
    if kind == "array":
        return [fill(schema.get("items", {}))]
    if kind == "string":
        return "バルバババババ"
    return {"number": 0.9, "integer": 1, "boolean": True}.get(kind)


def is_filter(body: dict) -> bool:
    return "items" in (body.get("format") or {}).get("properties", {})


INVENTED_PAGE = "I'm a food blogger. I love eating sushi in Paris with my two dogs."


def is_diary(body: dict) -> bool:
    return set((body.get("format") or {}).get("properties", {})) == {"text", "cited"}


def tiny_model(body: dict) -> str:
    schema = body["format"]
    if is_filter(body):
        return json.dumps({"items": junk_items(body)})
    if is_diary(body):  # a page that invents a life and cites nothing
        return json.dumps({"text": INVENTED_PAGE, "cited": []})
    return json.dumps(fill(schema))


def expected_drops(server) -> set[tuple[str, str]]:
    """(text, rule) of every junk item the filters were sent back, by the guard's rules."""
    rules = {"1.": "no_statement", "2.": "no_statement", "3.": "no_statement", "バルバババババ…": "no_statement"}
    drops = set()
    for request in server.requests:
        body = request.get("body") or {}
        if request["path"] != "/api/chat" or not is_filter(body):
            continue
        for item in junk_items(body):
            if item["text"] in rules:
                rule = rules[item["text"]]
            elif item["slot"] in JUNK_SLOTS:
                rule = "bad_slot"
            else:
                rule = "echoes_instructions"
            drops.add((item["text"], rule))
    return drops


JUNK_WORDS = ("food blogger", "sushi", "Your talent", "id_of_a_user_line", "role_id_1", "skill_id_1", "バルバ", "Pick the few",
              "id of a user line")
# A view of memory: its command and what it must not hold after the flush (the junk, or anything at all).
VIEWS: dict[str, tuple[tuple[str, ...], Callable[[object], bool]]] = {
    "memory list --all": (("memory", "list", "--all"), lambda data: data == []),
    "memory queue": (("memory", "queue"), lambda data: data == []),
    # the views built on memory (issue 22 point 2): nothing was kept, so they hold nothing at all
    "profile": (("profile",), lambda data: not any(data["windows"].values()) and not data["cooling"]),
    "graph": (("graph",), lambda data: data["nodes"] == [] and data["edges"] == []),
    "skills": (("skills",), lambda data: data == []),
    "insights": (("insights",), lambda data: data == []),
    "gaps": (("gaps",), lambda data: data == []),
    "discoveries": (("discoveries",), lambda data: data == []),
    # the diary page the tiny model wrote rests on none of the day's words: refused (and owed)
    "diary": (("diary",), lambda data: data == []),
}


@pytest.fixture(scope="module")
def flushed(tmp_path_factory):
    home, cwd = tmp_path_factory.mktemp("tiny-home"), tmp_path_factory.mktemp("tiny-cwd")
    with running_fake_ollama() as server:
        server.structured_reply = tiny_model
        user = User(home, server, cwd)
        user.run("settings", "set", "backend.name", "ollama")
        user.run("settings", "set", "ollama.model", "llama3.2")
        user.run("import", str(history_file(cwd / "evening.jsonl", EVENING)))
        dry = user.run("flush", "--dry-run", "--seed", "7").stdout
        report = user.json("flush", "--seed", "7")
        yield user, dry, report, expected_drops(server)


def test_every_junk_proposal_is_dropped_with_its_rule(flushed):
    _, dry, report, expected = flushed
    assert {"echoes_instructions", "bad_slot", "no_statement"} == {rule for _, rule in expected}
    assert {(d["text"], d["rule"]) for d in report["dropped_items"]} == expected
    for text, rule in expected:  # the dry run says the same, in words
        assert f"[{rule}]: {text} — " in dry
    assert "lasting memory +0, recent memory +0, replaced 0, sent to review 0" in dry


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_no_view_holds_a_trace_of_it(flushed, view):
    user = flushed[0]
    argv, holds_nothing = VIEWS[view]
    data = user.json(*argv)
    assert holds_nothing(data), f"{view}: {data}"
    assert not [word for word in JUNK_WORDS if word in json.dumps(data, ensure_ascii=False)]


def test_the_invented_diary_page_is_refused_and_said_so(flushed):
    report = flushed[2]
    [refused] = [e for e in report["errors"] if e.startswith("diary ")]
    assert "cites none of the day's messages" in refused and "asks for that page again" in refused


def test_every_message_is_archived_and_the_gate_opens(flushed):
    user, _, report, _ = flushed
    assert report["messages_archived"] == len(EVENING) and report["gate"] == "ok"
    status = user.json("status")
    assert status["gate"] == "ok" and status["archived_messages"] == len(EVENING)
    assert report["promoted"] == {"layer1": 0, "layer2": 0} and report["queued"] == 0 and report["changes"] == []
