"""A busy or failing server does not throw the flush away.

The real FlushService runs through the real ``ollama`` client against a loopback Ollama whose
structured answers come from the oracle (``oracle_server.py``) and whose ``faults`` script plays a
busy server. The retry policy's sleep records its waits, so no test waits or reads a clock.
"""

from __future__ import annotations

import threading

import pytest

from monchat.core.backends.ollama import OllamaBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import BackendError
from monchat.core.flush.records import FlushCancelled
from monchat.core.store.answers import AnswerStore
from tests.flush.conftest import SEED, World
from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle, Rule

MEMORY_TABLES = ("messages", "memories", "evidence", "review_queue", "flush_runs", "verdicts", "memory_events")
SENDAI, GUITAR, TEA = "仙台に住んでいる", "ギターをよく練習する", "毎朝緑茶を飲む"
BUSY = ("status", 503, "server busy")


class Waits(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def server():
    oracle = Oracle([Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                     Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.85, persona="lifestyle"),
                     Rule("緑茶", TEA, "drink/daily", "habit", 0.7, persona="lifestyle")])
    with running_oracle_ollama(oracle) as srv:
        yield srv


def make_world(tmp_path, server, name: str, attempts: int = 4, parallel: int = 1) -> tuple[World, Waits]:
    """A home whose only backend is the real Ollama adapter on the loopback server, with a day of logs.

    One filter call at a time by default, so the server's ``faults`` meet the calls in a known order.
    """
    waits = Waits()
    backend = OllamaBackend("llama3.2", host=server.url, timeout_s=5.0, parallel=parallel,
                            retry=RetryPolicy(attempts=attempts, base_delay_s=1.0, jitter_s=0.0, sleep=waits))
    world = World(tmp_path / name, oracle=backend)
    world.app.settings.flush.parallel = parallel
    world.say("2026-11-23T08:10:00+09:00", "今朝も緑茶を飲んでから出かけた")
    world.say("2026-11-23T21:00:00+09:00", "覚えておいて：仙台に住んでる")
    world.say("2026-11-23T21:05:00+09:00", "今夜はギターを1時間練習した")
    world.clock.now = world.clock.now.replace(hour=22)
    return world, waits


def structured(server) -> list[dict]:
    """The flush's (schema) requests the server received, in order."""
    return [r["body"] for r in server.chat_requests() if "format" in r["body"]]


def memory_state(world) -> dict:
    db = world.app.store.db
    state = {t: [tuple(r) for r in db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()]
             for t in MEMORY_TABLES}
    state["logs"] = world.log_files()
    return state


def memories(world) -> list[tuple]:
    return sorted((m.text, m.slot, m.state) for m in world.store.all())


@pytest.fixture
def reference(tmp_path, server):
    """An uninterrupted flush of the same logs: its memories and how many requests it made."""
    world, _ = make_world(tmp_path, server, "reference")
    world.flush()
    sent = structured(server)
    assert len(sent) >= 3 and memories(world)  # enough calls to fail between, and something remembered
    return {"memories": memories(world), "requests": len(sent)}


def test_a_flush_rides_out_a_server_that_answers_503_twice(tmp_path, server, reference):
    world, waits = make_world(tmp_path, server, "busy")
    before = len(structured(server))
    server.faults = [None, BUSY, BUSY]  # the second call is refused twice, then answered

    report = world.flush()

    assert len(structured(server)) - before == reference["requests"] + 2
    assert len(waits) == 2
    assert memories(world) == reference["memories"]
    assert report.run_id and world.log_files() == []


@pytest.mark.parametrize("parallel", [1, 4])
def test_a_server_that_always_answers_503_fails_the_flush_clearly_and_changes_nothing(tmp_path, server,
                                                                                      parallel):
    world, waits = make_world(tmp_path, server, f"down-{parallel}", attempts=3, parallel=parallel)
    before = memory_state(world)
    server.mode, server.error_status, server.error_message = "http_error", 503, "server busy"

    with pytest.raises(BackendError) as raised:
        world.flush()

    assert raised.value.message == "Ollama failed: server busy (tried 3 times)" and raised.value.hint
    # Bounded: every call that was started was tried exactly 3 times (a call may start while the
    # first failure is reported, so there can be a few), never more.
    sent = len(structured(server))
    assert sent % 3 == 0 and 3 <= sent <= 3 * max(parallel, 2)
    assert len(waits) == 2 * (sent // 3)
    assert memory_state(world) == before and before["logs"]


def test_a_failed_flush_run_again_does_not_re_ask_what_was_answered(tmp_path, server, reference):
    world, _ = make_world(tmp_path, server, "rerun", attempts=2)
    start = len(structured(server))
    server.faults = [None, None, BUSY, BUSY]  # two answers, then the third call fails for good
    before = memory_state(world)

    with pytest.raises(BackendError):
        world.flush()
    first = structured(server)[start:]
    # Calls go one at a time: the third request is the one refused twice; another may have started
    # (and been answered) while the failure was reported.
    answered = [body for n, body in enumerate(first) if n not in (2, 3)]
    assert first[2] == first[3] and len(answered) in (2, 3)
    assert memory_state(world) == before
    assert AnswerStore(world.app.store).count() == len(answered)  # kept, though the flush rolled back

    world.flush()  # the server is well again
    second = structured(server)[start + len(first):]

    assert len(second) == reference["requests"] - len(answered)
    assert not [body for body in second if body in answered]
    assert memories(world) == reference["memories"]


def test_a_cancelled_flush_run_again_does_not_re_ask_what_was_answered(tmp_path, server, reference):
    world, _ = make_world(tmp_path, server, "cancelled")
    start = len(structured(server))
    cancel = threading.Event()

    def progress(p):
        if p.stage == "score" and p.done == 1:  # the first persona has read the logs
            cancel.set()

    with pytest.raises(FlushCancelled):
        world.flusher.run(seed=SEED, cancel=cancel, progress=progress)
    answered = structured(server)[start:]
    assert answered and not world.store.all()

    world.flush()
    second = structured(server)[start + len(answered):]

    assert len(second) == reference["requests"] - len(answered)
    assert not [body for body in second if body in answered]
    assert memories(world) == reference["memories"]


def test_every_ollama_flush_request_turns_thinking_off(tmp_path, server, reference):
    sent = structured(server)
    assert len(sent) == reference["requests"]
    assert all(body["think"] is False for body in sent)


def test_old_answers_are_pruned_when_a_flush_starts(tmp_path, server, reference):
    world, _ = make_world(tmp_path, server, "old")
    world.flush()
    kept = AnswerStore(world.app.store)
    assert kept.count() == reference["requests"]

    world.say("2026-11-27T21:00:00+09:00", "ギターの弦を替えた")
    world.clock.now = world.clock.now.replace(day=27, hour=22)  # four days later
    before = len(structured(server))
    world.flush()

    assert kept.count() == len(structured(server)) - before  # the old ones went, this flush's are kept


def test_a_dry_run_keeps_no_answers_but_uses_those_kept(tmp_path, server, reference):
    world, _ = make_world(tmp_path, server, "dry")
    kept = AnswerStore(world.app.store)
    start = len(structured(server))
    server.faults = [None, BUSY, BUSY, BUSY, BUSY]  # a real run that fails after one answer (or two)

    with pytest.raises(BackendError):
        world.flush()
    paid = kept.count()
    assert paid in (1, 2)
    first = len(structured(server)) - start
    report = world.flush(dry_run=True)  # writes nothing, not even answers

    assert report.dry_run and kept.count() == paid
    dry = structured(server)[start + first:]
    assert len(dry) == reference["requests"] - paid  # the kept answers served it
