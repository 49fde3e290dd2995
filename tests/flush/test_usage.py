"""A flush's token figures are what the backend reported; estimates are counted apart and flagged.

Filter and judge calls both go through ``ask_json``; the loopback Ollama reports
``prompt_eval_count`` / ``eval_count`` as the real server does, the oracle reports nothing.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from tests.flush.conftest import JST, Judgement, Rule
from tests.flush.conftest import ollama_world as loopback_world
from tests.flush.test_fit import evening


@pytest.fixture
def ollama_world(home):
    with loopback_world(home, 4096) as (world, server):
        server.count_prompts = True  # the server reports the prompt as a model would count it
        yield world, server


def test_a_flush_reports_the_tokens_the_server_counted(ollama_world, capsys):
    world, server = ollama_world
    evening(world, 60, datetime(2026, 11, 22, 19, 0, tzinfo=JST))
    world.clock.now = datetime(2026, 11, 23, 9, 0, tzinfo=JST)
    report = world.flusher.run(seed=7)

    structured = [r for r in server.chat_requests() if "format" in r["body"]]
    usage = report.usage
    assert usage.calls == report.llm_calls == len(structured) > 1
    assert usage.prompt_tokens == sum(server.prompt_counts)  # the server's count, not our estimate
    assert usage.output_tokens == len(structured)  # the fake reports one eval token per answer line
    assert not usage.estimated and usage.estimated_tokens == 0
    assert report.tokens == usage.total == usage.prompt_tokens + usage.output_tokens
    stored = json.loads(world.app.store.db.execute("SELECT usage FROM flush_runs").fetchone()[0])
    assert stored["prompt_tokens"] == usage.prompt_tokens and stored["estimated"] is False
    assert world.app.store.db.execute("SELECT tokens FROM flush_runs").fetchone()[0] == usage.total


def test_a_backend_that_reports_nothing_gives_an_estimate_said_to_be_one(world, capsys):
    world.oracle.rules = [Rule("緑茶", "毎食緑茶を飲む", "drink/daily", "fact", 0.9)]
    world.oracle.judgements = {("毎食緑茶を飲む", "緑茶をよく飲んでいる"): Judgement("SAME", 0.9)}
    world.say("2026-11-23T12:00:00+09:00", "毎食、緑茶を飲んでる")
    world.clock.now = world.clock.now + timedelta(hours=12)
    out = world.cli(capsys, "flush", "--seed", "7")
    [run] = world.store.runs(1)
    usage = run["usage"]
    assert usage["estimated"] is True and usage["estimated_calls"] == usage["calls"] == run["llm_calls"] > 0
    assert usage["prompt_tokens"] == 0 and usage["estimated_tokens"] == usage["total"] == run["tokens"] > 0
    assert f"estimated for {usage['calls']} call(s) whose backend reported none" in out


def test_the_flush_dialog_says_about_for_an_estimate(qapp):
    from monchat.core.asking.ask import TokenUsage
    from monchat.gui.flush.words import FlushWords

    class Words:
        tr = staticmethod(lambda text: text)

    reported = TokenUsage(calls=2, prompt_tokens=1200, output_tokens=34, cached_tokens=1000)
    assert FlushWords.tokens_text(Words(), reported) == "1,234 (1,000 from the cache)"
    guessed = TokenUsage(calls=1, estimated_calls=1, estimated_tokens=500)
    assert FlushWords.tokens_text(Words(), guessed) == "about 500"
