"""What real OpenAI-compatible servers do that a test cannot make them do on demand, through the real ``openai``
client against the loopback fake: a schema refused with a 500 (llama_cpp.server) or a 422, a stream ended by a
bare ``[DONE]`` (llama_cpp.server, interrupted by another request), 200 and an empty stream (a request over its
context), no usage, a long prompt before the first token. ``tests/test_llama_server.py`` meets the real server.
"""

from __future__ import annotations

import json
import threading

import pytest

from monchat.core.backends.base import parse_json_object
from monchat.core.backends.openai_compat import ONE_AT_A_TIME_KEY, OpenAICompatBackend
from monchat.core.backends.openai_json import JSON_MODE_KEY
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import BackendError, ReplyCutOff
from tests.fakes.fake_openai import running_fake_openai
from tests.test_backend_openai import MODEL, SCHEMA, SYSTEM, TURNS, MemoryState

LLAMA_CPP_500 = (500, "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
                      "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}\n\n  File "
                      "\"/site-packages/llama_cpp/server/app.py\", line 376, in create_chat_completion\n    POST")
STRICT_422 = (422, "Unprocessable Entity: body.response_format.json_schema is not supported")


@pytest.fixture
def fake():
    with running_fake_openai() as server:
        yield server
        assert server.errors == []


@pytest.fixture
def make(fake):
    built = []

    def build(**kwargs) -> OpenAICompatBackend:
        kwargs.setdefault("base_url", fake.url)
        kwargs.setdefault("timeout_s", 5.0)
        backend = OpenAICompatBackend(MODEL, **kwargs)
        built.append(backend)
        return backend

    yield build
    for backend in built:
        backend.close()


def waits() -> tuple[RetryPolicy, list[float]]:
    slept: list[float] = []
    return RetryPolicy(attempts=3, base_delay_s=0.5, jitter_s=0.0, sleep=slept.append), slept


# ---- the answer format ---------------------------------------------------------------
@pytest.mark.parametrize("refusal", [LLAMA_CPP_500, STRICT_422], ids=["500 llama_cpp.server", "422"])
def test_a_schema_refused_with_any_status_switches_to_json_object_at_once_and_is_remembered(make, fake, refusal):
    fake.schema_support, fake.schema_error = False, refusal
    fake.structured_content = '{"items": []}'
    state, (policy, slept) = MemoryState(), waits()

    assert make(state=state, retry=policy).complete_json(SYSTEM, TURNS, SCHEMA) == {"items": []}

    bodies = [r["body"] for r in fake.chat_requests()]
    assert [b["response_format"]["type"] for b in bodies] == ["json_schema", "json_object"]
    assert slept == []  # switched, not retried as a transient fault
    assert state.values[JSON_MODE_KEY.format(url=fake.url)] == "json_object"
    make(state=state).complete_json(SYSTEM, TURNS, SCHEMA)
    assert fake.chat_requests()[-1]["body"]["response_format"]["type"] == "json_object"


def test_the_json_object_fallback_sends_the_schema_and_states_it_in_the_prompt(make, fake):
    fake.schema_support, fake.schema_error = False, LLAMA_CPP_500
    fake.structured_content = '{"items": []}'
    make().complete_json(SYSTEM, TURNS, SCHEMA)
    fallback = fake.chat_requests()[-1]["body"]
    assert fallback["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert "Answer with one JSON object matching this schema" in fallback["messages"][0]["content"]


def test_openai_json_mode_json_object_never_asks_for_a_schema(make, fake):
    fake.structured_content = '{"items": []}'
    make(json_mode="json_object").complete_json(SYSTEM, TURNS, SCHEMA)
    assert [r["body"]["response_format"]["type"] for r in fake.chat_requests()] == ["json_object"]


def test_a_refusal_naming_response_format_is_never_retried_and_names_the_setting(make, fake):
    fake.fault_for = lambda body: ("status", 500, "response_format is not supported here")
    policy, slept = waits()
    with pytest.raises(BackendError) as caught:
        make(retry=policy).complete_json(SYSTEM, TURNS, SCHEMA)
    assert not caught.value.transient and slept == []
    assert "openai.json_mode" in caught.value.hint
    assert len(fake.chat_requests()) == 2  # the schema, then json_object once: never a third
    assert "File " not in caught.value.message


def test_json_mode_json_schema_does_not_fall_back(make, fake):
    fake.schema_support, fake.schema_error = False, LLAMA_CPP_500
    with pytest.raises(BackendError, match="answer format"):
        make(json_mode="json_schema").complete_json(SYSTEM, TURNS, SCHEMA)
    assert len(fake.chat_requests()) == 1


def test_a_raw_newline_inside_a_json_string_is_read():
    assert parse_json_object('{"page": "line one\nline two"}') == {"page": "line one\nline two"}


def test_flush_calls_send_max_tokens_of_the_answer_room(make, fake):
    fake.structured_content = '{"items": []}'
    backend = make(context_length=2048)
    backend.complete_json(SYSTEM, TURNS, SCHEMA)
    assert fake.chat_requests()[-1]["body"]["max_tokens"] == backend.json_answer_reserve() == 640
    assert make(context_length=8192).json_answer_reserve() == 1024


# ---- streams that end without a finish_reason --------------------------------------------
def test_a_bare_done_in_a_flush_call_is_asked_again_and_the_server_is_then_asked_one_call_at_a_time(make, fake):
    fake.structured_content = '{"items": []}'
    fake.stream_ends = ["bare_done"]
    state, (policy, slept) = MemoryState(), waits()
    backend = make(state=state, retry=policy, parallel=2)  # a server said to answer two at once
    assert backend.PARALLEL_CALLS == 2

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"items": []}

    assert len(fake.chat_requests()) == 2 and slept == [0.5]
    assert backend.PARALLEL_CALLS == 1
    assert state.values[ONE_AT_A_TIME_KEY.format(url=fake.url)] == "1"
    assert make(state=state, parallel=2).PARALLEL_CALLS == 1  # remembered for the address


def test_a_bare_done_ends_a_chat_reply_as_cut_off_with_its_text_kept(make, fake):
    fake.stream_end = "bare_done"
    reply = make().stream(SYSTEM, TURNS)
    with pytest.raises(ReplyCutOff, match="ended the reply before it finished"):
        list(reply)
    assert reply.text == "Hello"


def test_an_empty_stream_is_cut_off_and_names_openai_context_length(make, fake):
    fake.stream_end = "empty"
    reply = make().stream(SYSTEM, TURNS)
    with pytest.raises(ReplyCutOff) as caught:
        list(reply)
    assert reply.text == "" and "openai.context_length" in caught.value.hint


def test_a_stop_before_the_first_token_closes_the_stream_at_once(make, fake):
    fake.hold_first_chunk = threading.Event()
    stop = threading.Event()
    reply = make(timeout_s=30.0).stream(SYSTEM, TURNS, stop=stop)  # no read timeout ends it first
    threading.Timer(0.3, stop.set).start()
    try:
        assert list(reply) == []
        assert reply.stopped
        assert fake.events_sent == 0  # it ended while the server still held its first event
    finally:
        fake.hold_first_chunk.set()


def test_without_usage_from_the_server_the_prompt_is_estimated(make, fake):
    fake.usage = None
    reply = make().stream(SYSTEM, TURNS)
    list(reply)
    assert reply.usage.prompt_tokens is None and reply.usage.estimated_prompt_tokens > 0
    assert set(reply.usage.counts()) == {"estimated_prompt_tokens"}  # the log line says it is an estimate


@pytest.mark.parametrize("lang, persona", [("C.UTF-8", "mira"), ("ja_JP.UTF-8", "hana")])
def test_terminal_chat_talks_with_the_persona_of_the_terminals_language(home, fake, lang, persona):
    from tests.test_cli_backends import logged, run
    assert run(home, "settings", "set", "openai.base_url", fake.url).returncode == 0
    done = run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "hi",
               env={"LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""})
    assert done.returncode == 0, done.stderr
    assert logged(home)[-1]["persona"] == persona


# ---- as a user meets it ---------------------------------------------------------------------
def test_a_chat_reply_cut_off_by_the_server_is_logged_partial_and_exits_4(home, fake):
    from tests.test_cli_backends import logged, run
    fake.stream_end = "bare_done"
    assert run(home, "settings", "set", "openai.base_url", fake.url).returncode == 0
    done = run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "tell me a story")
    assert done.returncode == 4
    assert "ended the reply before it finished" in done.stderr
    assert [(m["role"], m["text"], m.get("status")) for m in logged(home)] == [
        ("user", "tell me a story", None), ("assistant", "Hello", "partial")]


def test_doctor_checks_the_model_given_with_model(home, fake):
    from tests.test_cli_backends import run
    assert run(home, "settings", "set", "openai.base_url", fake.url).returncode == 0
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    done = run(home, "--backend", "openai", "--model", "nosuch", "doctor", "--json")
    section = next(s for s in json.loads(done.stdout)["sections"] if s.get("backend") == "openai")
    assert section["title"] == "backend openai (nosuch)"
    model = next(c for c in section["checks"] if c["name"] == "model")
    assert not model["ok"] and "'nosuch' is not among" in model["detail"]
    assert done.returncode == 1  # the backend asked for does not work, whatever else does


def test_doctor_with_backend_openai_and_the_server_down_exits_1_and_names_no_empty_model(home):
    from tests.fakes.fake_ollama import dead_url
    from tests.test_cli_backends import run
    assert run(home, "settings", "set", "openai.base_url", dead_url() + "/v1").returncode == 0
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    done = run(home, "--backend", "openai", "doctor")
    assert done.returncode == 1
    assert "backend openai (no model set: the server's first)" in done.stdout and "openai ()" not in done.stdout


def test_status_with_no_openai_model_set_names_the_servers_first_not_an_empty_model(home):
    from tests.fakes.fake_ollama import dead_url
    from tests.test_cli_backends import run
    assert run(home, "settings", "set", "openai.base_url", dead_url() + "/v1").returncode == 0
    done = run(home, "--backend", "openai", "status")
    assert "backend:   openai (no model set: the server's first)" in done.stdout and "openai ()" not in done.stdout


def test_doctor_learns_that_the_server_takes_no_schema_with_one_tiny_request(make, fake):
    fake.schema_support, fake.schema_error = False, LLAMA_CPP_500
    state = MemoryState()
    report = make(state=state).doctor()
    check = next(c for c in report.checks if c.name == "answer format")
    assert check.ok and check.detail.startswith("json_object")
    assert fake.chat_requests()[0]["body"]["max_tokens"] == 1
    assert state.values[JSON_MODE_KEY.format(url=fake.url)] == "json_object"


# ---- small contexts --------------------------------------------------------------------------
def test_a_flush_at_openai_context_length_2048_fits_its_requests_and_answers(home, fake):
    from monchat.core.tokens import count_tokens
    from tests.support.oracle import Oracle, Rule
    from tests.test_cli_backends import run
    from tests.test_cli_openai import answered_by
    fake.structured_reply = answered_by(Oracle([Rule("green tea", "drinks green tea", "drink/tea", kind="explicit")]))
    for key, value in (("openai.base_url", fake.url), ("openai.context_length", "2048")):
        assert run(home, "settings", "set", key, value).returncode == 0
    assert run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "I drink green tea every morning").returncode == 0

    done = run(home, "--backend", "openai", "--model", MODEL, "flush", "--json")

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["messages_archived"] == 2
    structured = [r["body"] for r in fake.chat_requests() if "response_format" in r["body"]]
    assert structured and all(b["max_tokens"] == 640 for b in structured)
    for body in structured:  # cl100k counts of what was sent, with room for the answer, inside the context
        sent = sum(count_tokens(m["content"]) for m in body["messages"])
        assert sent + body["max_tokens"] <= 2048
    assert "drinks green tea" in run(home, "--backend", "openai", "--model", MODEL, "memory", "list").stdout


def test_a_context_too_small_for_a_flush_names_openai_context_length(home, fake):
    from tests.test_cli_backends import run
    for key, value in (("openai.base_url", fake.url), ("openai.context_length", "1024")):
        assert run(home, "settings", "set", key, value).returncode == 0
    assert run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "I drink green tea").returncode == 0
    done = run(home, "--backend", "openai", "--model", MODEL, "flush")
    assert done.returncode == 4
    assert "set openai.context_length" in done.stderr and "2,048" in done.stderr
    assert "embedded.n_ctx" not in done.stderr
