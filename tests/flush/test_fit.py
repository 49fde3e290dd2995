"""Flush requests fit the model's context, counted as sent (issue: the flush on real models, point 1).

The filters talk to the real ``ollama`` client and a loopback Ollama that counts
each prompt the way a model would (a tokenizer hungrier than our cl100k estimate,
template framing per message) and, like Ollama, cuts a prompt past ``num_ctx``
silently; it records every such request. A flush must never send one.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from monchat.core.asking.fit import RequestTooLarge, pack
from tests.flush.conftest import JST, World
from tests.flush.conftest import ollama_world as loopback_world

NUM_CTX = 4096

USER_LINES = [
    "Had ramen at the place near the station again, the miso one with extra corn.",
    "今日は仕事が長くて疲れた。明日は早めに寝ようと思う。",
    "Practised guitar for an hour after dinner; the F chord still buzzes.",
    "週末は金沢に行く予定。まだ宿は決めていない。",
    "My sister called about the New Year trip; we might go to Sendai.",
]
ASSISTANT_LINES = [
    "That sounds lovely. What did you like most about it?",
    "お疲れさまでした。ゆっくり休んでくださいね。",
]


def evening(world: World, count: int, start: datetime) -> None:
    """``count`` messages, user and assistant in turn, a minute apart, over as many days as needed."""
    for n in range(count):
        when = start + timedelta(days=n // 120, minutes=n % 120)
        lines = USER_LINES if n % 2 == 0 else ASSISTANT_LINES
        world.say(when.isoformat(), f"{lines[n % len(lines)]} (#{n})", role="user" if n % 2 == 0 else "assistant")


@pytest.fixture
def ollama_world(home):
    with loopback_world(home, NUM_CTX, background=True) as (world, server):
        server.count_prompts = True
        yield world, server


def structured_requests(server) -> list[dict]:
    return [r["body"] for r in server.requests if r["path"] == "/api/chat" and "format" in r["body"]]


def filter_requests(server) -> list[dict]:
    return [b for b in structured_requests(server) if "items" in b["format"].get("properties", {})]


def test_a_600_message_history_never_sends_a_request_over_the_context(ollama_world):
    world, server = ollama_world
    evening(world, 600, datetime(2026, 11, 16, 18, 0, tzinfo=JST))

    report = world.flush("2026-11-23T09:00:00+09:00")

    assert server.over_context == []
    assert report.messages_archived == 600
    assert world.app.chat.gate().state == "ok"
    sent = filter_requests(server)
    assert len(structured_requests(server)) == len(server.prompt_counts)  # the over_context check saw all
    assert len(sent) > 4  # chunked: more than one request per persona
    diary = [b for b in structured_requests(server) if "cited" in b["format"].get("properties", {})]
    assert len(diary) == 5  # one page a day of the evening's five days (the diary calls fit too)
    # Chunks are packed, not merely small: the fullest request uses most of what may be sent.
    limit = NUM_CTX - world.app.backends.default().json_answer_reserve()
    assert max(server.prompt_counts) > 0.6 * limit
    # Every line reached every filter: each persona's chunks together show all 600 messages.
    by_persona: dict[str, list[str]] = {}
    for request in sent:
        chunk = request["messages"][-1]["content"]
        by_persona.setdefault(chunk[chunk.index("The part you play"):], []).append(chunk)
    assert len(by_persona) == 4
    for parts in by_persona.values():
        assert sum(part.count("\n{\"id\": ") for part in parts) == 600


def test_the_schema_line_the_adapter_adds_is_counted(ollama_world):
    """Ollama's request carries the JSON schema in the system text; a count without it runs over."""
    world, server = ollama_world
    backend = world.app.backends.default()
    system, turns = "You are a filter.", []
    from monchat.core.types import Turn
    turns = [Turn("user", "hello")]
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string",
                                                                                   "enum": ["m1"] * 200}}}}
    with_schema = backend.count_json_request(system, turns, schema)
    assert with_schema > backend.count_json_request(system, turns, {}) + 200


def test_a_message_too_long_for_any_request_is_cut_with_a_note(ollama_world):
    world, server = ollama_world
    long_text = "I keep a diary of every meal. " * 1400  # ~10,000 tokens: more than a 4,096 context
    long_id = world.say("2026-11-22T20:00:00+09:00", long_text)
    world.say("2026-11-22T20:01:00+09:00", "Short one after it.")

    report = world.flush("2026-11-23T09:00:00+09:00")

    assert server.over_context == []
    assert report.messages_archived == 2
    assert world.app.archive.get_many([long_id])[long_id]["text"] == long_text  # the archive keeps every word
    assert len(report.notes) == 1 and "too long for one request" in report.notes[0]
    assert "2026-11-22" in report.notes[0]
    cut = [r for r in filter_requests(server) if "[…]" in r["messages"][-1]["content"]]
    assert cut, "the cut message is marked as cut where the filter reads it"
    assert world.app.store.db.execute("SELECT notes FROM flush_runs").fetchone()[0] == json.dumps(
        report.notes, ensure_ascii=False)


def test_the_cli_flush_prints_the_note(ollama_world, capsys):
    world, server = ollama_world
    world.say("2026-11-22T20:00:00+09:00", "word " * 9000)
    world.clock.now = datetime(2026, 11, 23, 9, 0, tzinfo=JST)
    out = world.cli(capsys, "flush", "--seed", "7")
    assert "note: The message of 2026-11-22" in out and "too long for one request" in out


def test_judge_requests_fit_too(ollama_world):
    """A long hand-edited memory and a new item in its slot: the judge request stays within the context."""
    world, server = ollama_world
    world.say("2026-11-21T20:00:00+09:00", "Remember: I drink green tea every morning.")
    server.structured_content = json.dumps({"items": [
        {"reason": "said so", "text": "drinks green tea every morning", "slot": "drink/morning",
         "kind": "explicit", "score": 0.9, "evidence": [world.line_aliases()["m1"]]}]})
    world.flush("2026-11-21T23:00:00+09:00")
    memory = [m for m in world.store.all() if m.slot == "drink/morning"][0]
    world.memory.edit(memory.id, "green tea, " * 1500)  # the user pastes a very long note into it
    world.say("2026-11-22T20:00:00+09:00", "Remember: I switched to barley tea in the mornings.")
    server.structured_content = json.dumps({"items": [
        {"reason": "said so", "text": "switched to barley tea in the mornings", "slot": "drink/morning",
         "kind": "explicit", "score": 0.9, "evidence": [world.line_aliases()["m2"]]}]})
    server.over_context.clear()

    world.flush("2026-11-23T09:00:00+09:00")

    assert server.over_context == []
    judged = [r for r in structured_requests(server) if "existing (" in r["messages"][-1]["content"]]
    assert judged, "the judge was asked"


def test_pack_keeps_order_and_fits_by_the_exact_count():
    """The per-unit guess is too low; the exact count of the whole request decides."""
    units = list(range(40))

    def request_cost(group):
        return 100 + 30 * len(group)  # the guess below says 20 a unit: the real cost is higher

    groups = pack(units, request_cost=request_cost, unit_cost=lambda u: 20, limit=400, shorten=lambda u, o: u)
    assert [u for g in groups for u in g] == units
    assert all(request_cost(g) <= 400 - 16 for g in groups)
    assert max(len(g) for g in groups) == (400 - 16 - 100) // 30


def test_pack_says_clearly_when_the_instructions_alone_do_not_fit():
    with pytest.raises(RequestTooLarge) as caught:
        pack([1], request_cost=lambda g: 500, unit_cost=lambda u: 1, limit=400, shorten=lambda u, o: u,
             setting="embedded.n_ctx")
    assert "context" in caught.value.message and "Raise embedded.n_ctx" in caught.value.hint
