"""Chat goes first on a server too: a flush sends a local server no more calls than it answers at once, so a
chat turn asked during the flush is the server's next request, not one behind the flush's queued calls.

The stand-in servers (``tests/fakes``) play a model with one request slot (``server.model.size = 1``: Ollama's
default OLLAMA_NUM_PARALLEL, llama_cpp.server, llama-server --parallel 1), each request taking a fixed time;
``server.model.order`` says which request got the slot, in order. With ``PARALLEL_CALLS`` 4 (before), three
flush calls waited at the server ahead of the chat turn.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

from monchat.core.backends.ollama import OllamaBackend
from monchat.core.backends.openai_compat import OpenAICompatBackend
from monchat.core.backends.turns import call_turns
from monchat.core.flush.stages import calls_at_once
from tests.fakes.fake_openai import running_fake_openai
from tests.flush.conftest import World
from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle, Rule

CALL_S = 0.15
RULES = [Rule("コーヒー", "コーヒーが好き", "likes.drink")]


def oracle_answer(oracle: Oracle):
    """The fake OpenAI server's ``structured_reply``: the oracle reads the request as the Ollama one does."""
    def answer(body: dict) -> str:
        messages = body.get("messages") or []
        system = "\n".join(m.get("content", "") for m in messages if m.get("role") == "system")
        user = "\n".join(m.get("content", "") for m in messages if m.get("role") == "user")
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
        return json.dumps(oracle.respond(system, user, schema), ensure_ascii=False)
    return answer


def chat_during_flush(world: World, server) -> tuple[int, int]:
    """A flush runs; once its first call is at the model, a chat turn is sent. Returns how many requests the
    server had given its slot when the chat turn was asked, and the place the chat turn got."""
    for hour in range(8, 20):
        world.say(f"2026-11-23T{hour:02d}:00:00+09:00", f"朝はコーヒーを飲む、昼は散歩 ({hour})")
    flush = threading.Thread(target=lambda: world.flush("2026-11-23T21:00:00+09:00"))
    flush.start()
    deadline = time.monotonic() + 20
    while "json" not in server.model.order and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(CALL_S / 3)  # the flush's other calls are sent meanwhile (to the server, or into our line)
    line = call_turns(world.app.chat.backend_for(world.app.chat.persona("hana")))
    settled = time.monotonic() + 5  # a moment when the one call let through is at the model, none on its way
    while time.monotonic() < settled and not (server.model.busy == 1 and len(line._running) == 1):
        time.sleep(0.001)
    asked_at = len(server.model.order)
    world.app.chat.send("今なにしてる？", persona_id="hana")
    flush.join(60)
    assert not flush.is_alive()
    return asked_at, server.model.order.index("chat")


@pytest.fixture
def ollama_one_slot(home):
    with running_oracle_ollama(Oracle(RULES)) as server:
        server.model.size, server.model.seconds = 1, CALL_S
        backend = OllamaBackend("llama3.2", host=server.url, timeout_s=10)  # ollama.parallel's default: 1
        world = World(home, oracle=backend)
        try:
            yield world, server
        finally:
            backend.close()


@pytest.fixture
def openai_one_slot(home):
    with running_fake_openai() as server:
        server.models = ["qwen2.5-7b-instruct"]
        server.structured_reply = oracle_answer(Oracle(RULES))
        server.model.size, server.model.seconds = 1, CALL_S
        backend = OpenAICompatBackend("qwen2.5-7b-instruct", base_url=server.url, timeout_s=10)
        world = World(home, oracle=backend)
        try:
            yield world, server
        finally:
            backend.close()


@pytest.mark.parametrize("fixture", ["ollama_one_slot", "openai_one_slot"])
def test_a_chat_turn_is_the_one_slot_servers_next_request(fixture, request):
    world, server = request.getfixturevalue(fixture)
    world.app.settings.flush.parallel = 4  # asked for, but a local server is sent what it answers at once
    asked_at, served_at = chat_during_flush(world, server)
    assert server.model.most == 1
    assert served_at <= asked_at, server.model.order  # right after the call running when it was asked
    assert server.model.order.count("json") > served_at, "the flush had calls left when the chat turn came"


def test_a_local_backend_is_sent_what_it_answers_at_once_and_a_flushs_other_calls_wait_in_our_line():
    local = OllamaBackend("m", host="http://127.0.0.1:11434")
    assert local.PARALLEL_CALLS == 1 and call_turns(local).size == 1  # Ollama's default OLLAMA_NUM_PARALLEL
    assert calls_at_once(0, local) == 4  # ready at once, in our line, where a chat turn goes first
    wide = OllamaBackend("m", host="http://127.0.0.1:11434", parallel=4)  # OLLAMA_NUM_PARALLEL=4, told
    assert call_turns(wide).size == 4 and calls_at_once(2, wide) == 2
    assert OpenAICompatBackend("m", base_url="http://127.0.0.1:8080/v1").PARALLEL_CALLS == 1
    assert OpenAICompatBackend("m", base_url="http://127.0.0.1:8080/v1", parallel=3).PARALLEL_CALLS == 3
    assert OpenAICompatBackend("m", base_url="https://openrouter.ai/api/v1").PARALLEL_CALLS == 4
