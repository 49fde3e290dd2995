"""No message is archived unread (the flush on real models, point 5).

A loopback Ollama whose "model" cuts its answer off or ignores the schema for
one persona. The chunk is read again in two halves; lines still unread stop the
flush with nothing changed, unless the user accepts a partial flush.
"""

from __future__ import annotations

import json

import pytest

from monchat.core.flush.records import FlushIncomplete
from monchat.cli.main import build_parser
from monchat.cli.flush import cmd_flush
from tests.flush.conftest import World, ollama_world

CUT_OFF = '{"items": [{"reason": "the user talked about'
NO_ITEMS = json.dumps({"items": []})


@pytest.fixture
def world_and_server(home):
    with ollama_world(home) as (world, server):
        for n in range(6):
            world.say(f"2026-11-22T20:0{n}:00+09:00", f"Remember: I walked by the river today ({n}).")
        yield world, server


def persona_of(body) -> str:
    user = body["messages"][-1]["content"]
    return user[user.index('The part you play: "'):].split("\n")[0]


def lines_in(body) -> int:
    return sum(1 for raw in body["messages"][-1]["content"].splitlines() if raw.startswith('{"id": '))


def test_a_cut_off_answer_is_read_again_in_two_halves(world_and_server):
    world, server = world_and_server
    seen: dict[str, int] = {}

    def first_answer_cut_off(body):
        who = persona_of(body)
        seen[who] = seen.get(who, 0) + 1
        return CUT_OFF if '"Lifestyle"' in who and seen[who] == 1 else NO_ITEMS
    server.structured_reply = first_answer_cut_off

    report = world.flush("2026-11-23T09:00:00+09:00")

    lifestyle = [b for b in server.requests if b["path"] == "/api/chat" and '"Lifestyle"' in persona_of(b["body"])]
    assert [lines_in(r["body"]) for r in lifestyle] == [6, 3, 3]
    assert report.messages_archived == 6 and report.unread == {}
    assert any("Read again in two halves" in note for note in report.notes)
    assert world.log_files() == []


def test_a_persona_that_cannot_read_stops_the_flush_with_nothing_changed(world_and_server):
    world, server = world_and_server
    server.structured_reply = lambda body: "not json at all" if '"Lifestyle"' in persona_of(body) else NO_ITEMS

    with pytest.raises(FlushIncomplete) as stopped:
        world.flush("2026-11-23T09:00:00+09:00")

    assert "could not read 6 message(s) from 2026-11-22 Sun 20:00 to 2026-11-22 Sun 20:05" in stopped.value.message
    assert "--accept-partial" in stopped.value.hint
    assert world.rows("flush_runs") == [] and world.rows("messages") == []
    assert len(world.log_files()) == 1


def test_the_cli_says_which_and_accept_partial_records_it(world_and_server, capsys):
    world, server = world_and_server
    server.structured_reply = lambda body: "not json at all" if '"Lifestyle"' in persona_of(body) else NO_ITEMS
    world.clock.now = world.clock.now.replace(day=23, hour=9)

    code = cmd_flush_exit(world, "flush")
    err = capsys.readouterr().err
    assert code == 7 and "could not read 6 message(s)" in err and "--accept-partial" in err

    out = world.cli(capsys, "flush", "--accept-partial", "--seed", "7")
    assert "A partial flush, accepted" in out
    [run] = world.flusher.runs(1)
    assert any("A partial flush, accepted" in note for note in run["notes"])
    assert len(run["errors"]) == 2  # the whole chunk, then each half: lifestyle part 1
    assert world.log_files() == [] and len(world.rows("messages")) == 6


def cmd_flush_exit(world: World, *argv: str) -> int:
    from monchat.cli.output import print_error
    from monchat.core.errors import KnownError
    args = build_parser().parse_args(list(argv))
    try:
        return cmd_flush(world.app, args)
    except KnownError as exc:
        print_error(exc)
        return exc.exit_code
