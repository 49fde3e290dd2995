"""Personas read side by side, share a cacheable prefix, and report each part (the flush on real models, 6).

A loopback Ollama with a fixed latency records how many filter requests it was
answering at once; the requests themselves show what a prompt cache could reuse.
No wall-clock figure is asserted: overlap is counted by the server.
"""

from __future__ import annotations

import json
import threading

import pytest

from monchat.core.flush.records import FlushCancelled
from tests.flush.conftest import World, ollama_world

PART = "The part you play"


@pytest.fixture
def slow_world(home):
    with ollama_world(home, 4096) as (world, server):
        server.latency_s = 0.3
        yield world, server


def say_an_evening(world: World, count: int) -> None:
    for n in range(count):
        world.say(f"2026-11-22T{18 + n // 60:02d}:{n % 60:02d}:00+09:00",
                  f"Today I walked to the river and back, then cooked rice and miso soup ({n}).")


def filter_bodies(server) -> list[dict]:
    return [r["body"] for r in server.requests if r["path"] == "/api/chat" and "format" in r["body"]]


def test_four_personas_are_asked_at_once(slow_world):
    world, server = slow_world
    say_an_evening(world, 10)
    world.flush("2026-11-23T09:00:00+09:00")
    assert len(filter_bodies(server)) == 4
    assert server.max_in_flight == 4


def test_the_setting_bounds_how_many_at_once(slow_world):
    world, server = slow_world
    world.app.settings.flush.parallel = 2
    say_an_evening(world, 10)
    world.flush("2026-11-23T09:00:00+09:00")
    assert len(filter_bodies(server)) == 4 and server.max_in_flight == 2


def test_requests_for_one_chunk_share_everything_before_the_persona_part(slow_world):
    world, server = slow_world
    server.latency_s = 0.0
    say_an_evening(world, 120)  # more than one chunk in a 4,096 context
    world.flush("2026-11-23T09:00:00+09:00")
    bodies = filter_bodies(server)
    starts: dict[str, set[str]] = {}
    for body in bodies:
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        assert PART in user and user.index(PART) > user.rindex('{"id": ')  # the persona comes last
        starts.setdefault(user[:user.index(PART)], set()).add(system + json.dumps(body["format"]))
    assert len(starts) > 1  # several chunks
    for _prefix, heads in starts.items():
        assert len(heads) == 1  # one system text and one schema for every persona on a chunk
    assert len(bodies) == 4 * len(starts)


def test_progress_moves_with_each_part_and_cancel_still_stops(slow_world):
    world, server = slow_world
    server.latency_s = 0.0
    say_an_evening(world, 120)
    events = []
    world.flush("2026-11-23T09:00:00+09:00", dry_run=True, progress=events.append)
    parts = [(e.persona, e.done, e.total) for e in events if e.stage == "score" and not e.tokens]
    total = parts[0][2]
    assert total > 1
    for persona in ("base", "lifestyle", "project", "emotional"):
        assert [done for p, done, _ in parts if p == persona] == list(range(total + 1))

    cancel = threading.Event()

    def stop_after_first_part(progress):
        if progress.stage == "score" and progress.done == 1:
            cancel.set()
    with pytest.raises(FlushCancelled):
        world.flush("2026-11-23T09:00:00+09:00", progress=stop_after_first_part, cancel=cancel)
    assert world.rows("flush_runs") == [] and world.log_files()


def test_progress_carries_each_answers_tokens_as_they_arrive(slow_world):
    world, server = slow_world
    server.latency_s = 0.0
    server.mode, server.chunk_delay_s = "slow", 0.01
    server.structured_content = json.dumps({"items": []}, indent=1)  # 18 characters
    server.structured_piece_chars = 3  # six chunks, a token each, as a slow model writes them
    say_an_evening(world, 10)
    events = []

    world.flush("2026-11-23T09:00:00+09:00", progress=events.append)

    for persona in ("base", "lifestyle", "project", "emotional"):
        arriving = [(e.part, e.tokens, e.done) for e in events
                    if e.stage == "score" and e.persona == persona and e.tokens]
        assert arriving == [(1, n, 0) for n in range(1, 7)]  # growing, while part 1 is still unread
        read = [e.done for e in events if e.stage == "score" and e.persona == persona and not e.tokens]
        assert read == [0, 1]
