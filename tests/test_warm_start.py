"""Warm start after a flush (core/chat/warm.py, Backend.warm): the backend is given the new system prompt
before the first turn, through the real clients and loopback servers (Ollama, Gemini) and the real
embedded model; a failure is logged and never an error."""

from __future__ import annotations

import json
import logging

import pytest

from monchat.app import build_app
from monchat.core.backends.base import chat_messages
from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.gemini import GeminiBackend
from monchat.core.backends.ollama import OllamaBackend
from monchat.core.privacy.cloud import CloudConsent, destination
from monchat.core.types import Turn
from monchat.core.chat.warm import warm
from tests.fakes.fake_gemini import start as start_gemini
from tests.fakes.fake_ollama import dead_url
from tests.flush.conftest import ollama_world
from tests.support.embedded import require_embedded

GEMINI_MODEL = "gemini-2.5-flash"


def items_from_user_lines(body: dict) -> str:
    """A filter answer: one memory citing the first user line the request shows."""
    lines = [json.loads(raw) for raw in body["messages"][-1]["content"].splitlines() if raw.startswith("{")]
    users = [line["id"] for line in lines if line["role"] == "user"]
    return json.dumps({"items": [{"reason": "x", "text": "I live in Sendai.", "slot": "home/city",
                                  "kind": "explicit", "score": 0.95, "evidence": users[:1]}]})


def warm_requests(server) -> list[dict]:
    return [r["body"] for r in server.chat_requests() if (r["body"].get("options") or {}).get("num_predict") == 1]


def test_monchat_flush_warm_loads_ollama_with_the_new_system_prompt_the_next_turn_sends(home, capsys):
    with ollama_world(home) as (world, server):
        server.structured_reply = items_from_user_lines
        world.say("2026-11-23T20:00:00+09:00", "I live in Sendai.")
        world.clock.now = world.clock.now.replace(day=24)
        out = world.cli(capsys, "flush", "--warm")
        assert "warm start: loaded llama3.2 with the new system prompt" in out
        [body] = warm_requests(server)
        system = world.prompt()
        assert "I live in Sendai." in system  # the prompt the flush just saved
        assert body["messages"] == [{"role": "system", "content": system}]
        assert body["stream"] is False and body["keep_alive"] == "30m" and body["options"]["num_ctx"] == 8192
        world.app.chat.send("hello")
        turn = server.chat_requests()[-1]["body"]
        assert turn["messages"][0] == body["messages"][0]  # the turn starts with the warmed prefix
        assert turn["options"]["num_ctx"] == body["options"]["num_ctx"]  # the same load, not a reload


def test_a_flush_without_warm_sends_no_warm_request(home, capsys):
    with ollama_world(home) as (world, server):
        server.structured_reply = items_from_user_lines
        world.say("2026-11-23T20:00:00+09:00", "I live in Sendai.")
        world.cli(capsys, "flush")
        assert warm_requests(server) == []


def test_a_failed_warm_up_is_logged_and_never_an_error(home, caplog):
    app = build_app(str(home), pinned_backend=OllamaBackend("llama3.2", host=dead_url(), timeout_s=2))
    try:
        with caplog.at_level(logging.WARNING, logger="monchat.core.chat.warm"):
            done = warm(app.chat, app.consent)
    finally:
        app.close()
    assert done.startswith("warm start failed:")
    assert any(r.message.startswith("warm start failed:") for r in caplog.records)


@pytest.fixture
def gemini():
    server = start_gemini()
    yield server
    server.shutdown()
    server.server_close()


def test_gemini_warm_creates_the_cache_of_the_new_prompt_and_the_next_turn_uses_it(home, gemini):
    backend = GeminiBackend(GEMINI_MODEL, api_key=lambda: "AIzaSy-test-key",
                            base_url=f"http://127.0.0.1:{gemini.server_address[1]}", timeout_s=5.0)
    app = build_app(str(home), pinned_backend=backend)
    try:
        backend.cache._threshold_estimate = 1  # this test's small prompt is cached like a large one
        assert warm(app.chat, app.consent).startswith("not warmed:")  # no consent to this cloud yet
        assert gemini.calls("POST", "/cachedContents") == []
        CloudConsent(app.store).grant(destination(backend))
        done = warm(app.chat, app.consent)
        [create] = gemini.calls("POST", "/cachedContents")
        system = app.chat.system_prompt(app.chat.persona())
        assert create["body"]["systemInstruction"]["parts"][0]["text"] == system
        name = next(iter(gemini.caches))
        assert done == f"cache {name} holds the new system prompt"
        "".join(backend.stream(system, [Turn("user", "hi")]))
        assert gemini.generate_bodies()[-1]["cachedContent"] == name  # the turn read the warmed cache
        assert len(gemini.calls("POST", "/cachedContents")) == 1
    finally:
        app.close()


def test_an_openai_compatible_server_has_nothing_to_warm(home):
    from monchat.core.backends.openai_compat import OpenAICompatBackend
    app = build_app(str(home), pinned_backend=OpenAICompatBackend("m", base_url=dead_url() + "/v1"))
    try:
        assert warm(app.chat, app.consent) == f"nothing to warm on {app.chat.backend_for(app.chat.persona()).describe()}"
    finally:
        app.close()


def test_the_embedded_turn_after_a_warm_up_reuses_the_prefix():
    backend = require_embedded(EmbeddedBackend(n_ctx=512, max_tokens=8))
    try:
        warmed = "You are Mira, a friendly companion. What you know about the user: they live in Sendai."
        cold = "You are Hana, a calm companion. What you know about the user: they play the guitar."
        turns = [Turn("user", "Hello!")]
        llama = backend.load()
        system_tokens = backend._count(llama, chat_messages(warmed, []))
        assert backend.warm(warmed).startswith("evaluated ")
        after_warm = backend.stream(warmed, turns, temperature=0.0)
        list(after_warm)
        backend.warm(warmed)  # the baseline: the other prompt, after the same warm-up of this one
        without = backend.stream(cold, turns, temperature=0.0)
        list(without)
        # llama.cpp's counters: the warmed system prompt was not evaluated again
        assert after_warm.usage.cached_tokens >= system_tokens - 4
        assert without.usage.cached_tokens < after_warm.usage.cached_tokens - 10
    finally:
        backend.close()
