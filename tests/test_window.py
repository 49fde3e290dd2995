"""The window sent each turn fits the backend's context, and its start changes in steps.

A loopback Ollama counts each prompt as a model would (more than our cl100k estimate, with template
framing) and records any request over ``num_ctx`` — a real server would cut its start silently.
Over 60 long turns no request may be over, and the history's first message (the prefix a backend
caches) may change on at most a quarter of the turns.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from monchat.core.types import Message, format_ts
from monchat.core.chat.window import fit_window, window_start
from tests.fakes.fake_ollama import running_fake_ollama
from tests.flush.conftest import JST, World, at

LONG = ("I spent the evening rewriting the importer again, and this time I kept notes on every decision: "
        "why the parser reads line by line, why errors are collected instead of raised, and why the "
        "progress bar counts bytes rather than messages. ") * 4  # ~200 tokens


def _history(body: dict) -> list[dict]:
    messages = [m for m in body["messages"] if m["role"] != "system"]
    return messages[:-1]  # the last is the new message


def test_sixty_long_turns_fit_the_context_and_keep_their_prefix(tmp_path):
    with running_fake_ollama() as server:
        server.count_prompts = True
        server.chunk_delay_s = 0.0
        server.reply_chunks = [LONG]
        settings = {"backend.name": "ollama", "ollama.host": server.url, "ollama.model": "llama3.2",
                    "ollama.num_ctx": "8192"}
        world = World(tmp_path / "home", settings=settings)
        start = at("2026-11-24T09:00:00+09:00")
        results = []
        for n in range(60):
            world.clock.now = start + timedelta(minutes=5 * n)
            results.append(world.app.chat.send(f"Turn {n}. {LONG}"))
        requests = [r["body"] for r in server.chat_requests()]
        assert server.errors == []

    assert len(requests) == 60
    assert server.over_context == []  # no request a real Ollama would have cut
    firsts = [_history(body)[0]["content"] if _history(body) else None for body in requests]
    changes = sum(1 for before, after in zip(firsts, firsts[1:]) if before is not None and before != after)
    assert changes <= 60 // 4, f"the history prefix changed on {changes} of 60 turns"
    assert results[-1].left_out > 0  # the window really was trimmed
    for body in requests:  # never cut inside a turn: the history starts with a user message
        history = _history(body)
        assert not history or history[0]["role"] == "user"
    meter = world.app.chat.context_meter()
    assert meter.left_out > 0 and meter.total <= meter.context_length


def _messages(costs: list[int]) -> list[Message]:
    base = datetime(2026, 11, 24, 9, 0, tzinfo=JST)
    return [Message(id=f"m{i}", ts=format_ts(base + timedelta(minutes=i)), role="user" if i % 2 == 0 else "assistant",
                    text="x" * cost) for i, cost in enumerate(costs)]


def test_fit_window_keeps_everything_that_fits_and_trims_in_steps():
    count = len  # one token per character, to make the arithmetic visible
    history = _messages([100] * 10)  # 10 messages of 108 tokens with their frame
    assert fit_window(history, count, 2000).left_out == []
    fitted = fit_window(history, count, 800, new_tokens=100)
    assert fitted.sent_tokens + 100 <= 800 and fitted.sent[0].role == "user"
    # Adding messages does not move the start until the budget is used up again.
    starts = []
    for extra in range(1, 5):
        longer = _messages([100] * (10 + extra))
        starts.append(fit_window(longer, count, 800, new_tokens=100).sent[0].id)
    assert len(set(starts)) < len(starts), starts
    assert fit_window(history, count, 50).sent == []  # nothing fits: no history, never a cut message


def test_the_window_start_moves_in_quarter_steps():
    a = window_start(at("2026-11-24T21:00:00+09:00"), 12)
    assert window_start(at("2026-11-24T21:59:00+09:00"), 12) == a  # an hour later: the same start
    assert a <= at("2026-11-24T09:00:00+09:00").timestamp()  # never less than 12 hours back
    assert at("2026-11-24T09:00:00+09:00").timestamp() - a < 3 * 3600
