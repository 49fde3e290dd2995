"""OpenAICompatBackend: the real ``openai`` client against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import threading

import pytest

from monchat.core.backends.openai_compat import (DEFAULT_BASE_URL, DEFAULT_CONTEXT_LENGTH, OpenAICompatBackend,
                                                 resolve_base_url)
from monchat.core.backends.openai_json import JSON_MODE_KEY
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import AuthFailed, BackendError, BackendUnreachable, MalformedReply, ModelNotFound
from monchat.core.types import Turn
from tests.fakes.fake_ollama import dead_url
from tests.fakes.fake_openai import running_fake_openai

SYSTEM = "You are Mon, a friendly companion."
TURNS = [Turn("user", "hi"), Turn("assistant", "hello!"), Turn("user", "how are you?")]
SCHEMA = {"type": "object", "properties": {"items": {"type": "array", "items": {
    "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}}, "required": ["items"]}
MODEL = "qwen2.5-7b-instruct"


class MemoryState:
    """The store's get_state/set_state, in memory."""

    def __init__(self):
        self.values: dict[str, str] = {}

    def get_state(self, key):
        return self.values.get(key)

    def set_state(self, key, value):
        if value is None:
            self.values.pop(key, None)
        else:
            self.values[key] = value


@pytest.fixture
def fake():
    with running_fake_openai() as server:
        yield server
        assert server.errors == []


@pytest.fixture
def make(fake):
    built = []

    def build(model: str = MODEL, **kwargs) -> OpenAICompatBackend:
        kwargs.setdefault("base_url", fake.url)
        kwargs.setdefault("timeout_s", 5.0)
        backend = OpenAICompatBackend(model, **kwargs)
        built.append(backend)
        return backend

    yield build
    for backend in built:
        backend.close()


def waits() -> tuple[RetryPolicy, list[float]]:
    slept: list[float] = []
    return RetryPolicy(attempts=3, base_delay_s=0.5, jitter_s=0.0, sleep=slept.append), slept


# ---- chat -------------------------------------------------------------------
def test_stream_yields_the_pieces_and_records_usage_with_cached_tokens(make, fake):
    fake.reply_chunks = ["Hel", "lo", " there"]
    reply = make().stream(SYSTEM, TURNS, temperature=0.3)

    assert list(reply) == ["Hel", "lo", " there"]

    assert reply.text == "Hello there"
    assert (reply.usage.prompt_tokens, reply.usage.output_tokens, reply.usage.cached_tokens) == (120, 3, 96)
    assert reply.usage.counts()["cached_tokens"] == 96
    body = fake.chat_requests()[-1]["body"]
    assert body["model"] == MODEL and body["stream"] is True and body["temperature"] == 0.3
    assert body["stream_options"] == {"include_usage": True}
    assert body["messages"][0] == {"role": "system", "content": SYSTEM}
    assert [(m["role"], m["content"]) for m in body["messages"][1:]] == [(t.role, t.content) for t in TURNS]


def test_no_http_call_before_the_reply_is_read_and_one_per_reply(make, fake):
    backend = make()
    reply = backend.stream(SYSTEM, TURNS)
    assert fake.chat_requests() == []
    list(reply)
    list(backend.stream(SYSTEM, TURNS))
    assert len(fake.chat_requests()) == 2 and backend.calls == 2


def test_stop_ends_the_reply_and_closes_the_stream(make, fake):
    fake.mode = "slow"
    fake.reply_chunks = [f"c{i} " for i in range(40)]
    stop = threading.Event()
    reply = make().stream(SYSTEM, TURNS, stop=stop)
    pieces = []
    for piece in reply:
        pieces.append(piece)
        stop.set()
    assert pieces == ["c0 "] and reply.stopped


def test_a_reply_cut_at_the_length_limit_says_so(make, fake):
    fake.finish_reason = "length"
    reply = make().stream(SYSTEM, TURNS)
    list(reply)
    assert any("length limit" in w for w in reply.usage.warnings)


def test_an_error_event_mid_stream_keeps_the_text_so_far(make, fake):
    fake.mode = "midstream_error"
    reply = make().stream(SYSTEM, TURNS)
    with pytest.raises(BackendError, match="mid-answer"):
        list(reply)
    assert reply.text == "Hel"


def test_without_a_model_the_first_chat_model_of_the_server_is_used(make, fake):
    fake.models = ["text-embedding-nomic-embed-text-v1.5", "gemma-3-4b-it"]
    backend = make(model="")
    list(backend.stream(SYSTEM, TURNS))
    assert fake.chat_requests()[-1]["body"]["model"] == "gemma-3-4b-it"
    assert backend.model == "gemma-3-4b-it"


# ---- errors -----------------------------------------------------------------
def test_a_wrong_key_is_an_auth_error_that_says_where_the_key_goes(make, fake):
    fake.api_key = "right"
    backend = make(api_key=lambda: "wrong")
    with pytest.raises(AuthFailed) as caught:
        list(backend.stream(SYSTEM, TURNS))
    assert "OPENAI_API_KEY" in caught.value.hint and "keyring" in caught.value.hint
    assert not caught.value.transient
    assert fake.chat_requests()[-1]["headers"]["authorization"] == "Bearer wrong"


def test_the_key_is_sent_as_a_bearer_token(make, fake):
    fake.api_key = "sk-local"
    assert list(make(api_key=lambda: "sk-local").stream(SYSTEM, TURNS)) == ["Hel", "lo"]


def test_a_missing_model_names_the_models_the_server_has(make, fake):
    with pytest.raises(ModelNotFound) as caught:
        list(make(model="llama-70b").stream(SYSTEM, TURNS))
    assert "llama-70b" in caught.value.message
    assert MODEL in caught.value.message and "text-embedding" in caught.value.message


def test_nothing_listening_names_the_url_and_lm_studio():
    url = dead_url() + "/v1"
    backend = OpenAICompatBackend(MODEL, base_url=url, timeout_s=2.0)
    try:
        with pytest.raises(BackendUnreachable) as caught:
            list(backend.stream(SYSTEM, TURNS))
    finally:
        backend.close()
    assert url in caught.value.message and "is LM Studio's server running?" in caught.value.message
    assert "openai.base_url" in caught.value.hint
    assert not caught.value.transient  # no server: asking again at once will not help


@pytest.mark.parametrize("status, transient", [(429, True), (500, True), (503, True), (400, False)])
def test_http_errors_are_transient_only_when_asking_again_can_help(make, fake, status, transient):
    fake.faults = [("status", status, "busy")]
    with pytest.raises(BackendError) as caught:
        list(make().stream(SYSTEM, TURNS))
    assert caught.value.transient is transient


def test_a_dropped_connection_is_transient(make, fake):
    fake.faults = [("reset",)]
    with pytest.raises(BackendUnreachable) as caught:
        list(make().stream(SYSTEM, TURNS))
    assert caught.value.transient


def test_a_timeout_is_transient(make, fake):
    fake.faults = [("stall", 3.0)]
    with pytest.raises(BackendUnreachable, match="did not answer") as caught:
        make(timeout_s=0.3).complete_json(SYSTEM, TURNS, SCHEMA)
    assert caught.value.transient


def test_structured_calls_retry_429_and_503_under_the_flush_policy(make, fake):
    policy, slept = waits()
    fake.faults = [("status", 429, "rate limited"), ("status", 503, "loading model")]
    fake.structured_content = '{"items": [{"text": "likes tea"}]}'
    backend = make(retry=policy)

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"items": [{"text": "likes tea"}]}

    assert slept == [0.5, 1.0] and len(fake.chat_requests()) == 3 and backend.calls == 3


def test_a_bad_request_is_not_retried(make, fake):
    policy, slept = waits()
    fake.faults = [("status", 400, "bad temperature")]
    with pytest.raises(BackendError):
        make(retry=policy).complete_json(SYSTEM, TURNS, SCHEMA)
    assert slept == [] and len(fake.chat_requests()) == 1


# ---- structured output ---------------------------------------------------------
def test_structured_output_sends_the_json_schema_and_records_usage(make, fake):
    fake.structured_content = '{"items": [{"text": "likes tea"}]}'
    backend = make()

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"items": [{"text": "likes tea"}]}

    body = fake.chat_requests()[-1]["body"]
    assert body["stream"] is True and body["temperature"] == 0.0  # streamed: a flush shows its tokens
    assert body["stream_options"] == {"include_usage": True}
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert body["messages"][0] == {"role": "system", "content": SYSTEM}  # the schema travels as the format
    assert backend.last_usage.cached_tokens == 96 and backend.last_usage.prompt_tokens == 120


def test_a_structured_answer_tells_its_tokens_as_they_arrive(make, fake):
    fake.structured_content = '{"items": [{"text": "likes tea"}]}'  # 34 characters
    fake.structured_piece_chars = 5
    heard = []

    assert make().complete_json(SYSTEM, TURNS, SCHEMA, on_tokens=heard.append) == {"items": [{"text": "likes tea"}]}

    assert heard == [1, 2, 3, 4, 5, 6, 7]


def test_a_server_without_schemas_gets_json_object_once_detected_and_remembered(make, fake):
    fake.schema_support = False
    fake.structured_content = '{"items": []}'
    state = MemoryState()
    backend = make(state=state)

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"items": []}
    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"items": []}

    formats = [r["body"]["response_format"]["type"] for r in fake.chat_requests()]
    assert formats == ["json_schema", "json_object", "json_object"]  # asked with a schema once, never again
    fallback = fake.chat_requests()[1]["body"]
    assert "Answer with one JSON object matching this schema" in fallback["messages"][0]["content"]
    assert state.values[JSON_MODE_KEY.format(url=fake.url)] == "json_object"

    make(state=state).complete_json(SYSTEM, TURNS, SCHEMA)  # a new process remembers it too
    assert fake.chat_requests()[-1]["body"]["response_format"]["type"] == "json_object"
    assert len(fake.chat_requests()) == 4


def test_an_answer_that_ignores_the_schema_is_malformed(make, fake):
    fake.structured_content = '{"answer": "sure, here are the items"}'
    with pytest.raises(MalformedReply, match="schema"):
        make().complete_json(SYSTEM, TURNS, SCHEMA)


def test_an_answer_that_is_not_json_is_malformed(make, fake):
    fake.schema_support = False
    fake.structured_content = "Sure! The user likes tea."
    with pytest.raises(MalformedReply):
        make().complete_json(SYSTEM, TURNS, SCHEMA)


def test_the_request_count_includes_the_schema_line_of_the_fallback(make):
    backend = make()
    assert backend.count_json_request(SYSTEM, TURNS, SCHEMA) > backend.count_json_request(SYSTEM, TURNS, {})


# ---- context, models, doctor ---------------------------------------------------
def test_the_context_length_setting_wins(make, fake):
    fake.model_extra = {"max_model_len": 32768}
    assert make(context_length=16384).context_length() == 16384


def test_the_context_length_comes_from_the_server_where_it_says(make, fake):
    fake.model_extra = {"max_model_len": 32768}
    backend = make()
    assert backend.context_length() == 32768
    assert backend.json_prompt_limit() == 32768 - backend.json_answer_reserve()


def test_a_server_that_does_not_say_gets_a_safe_context(make):
    assert make().context_length() == DEFAULT_CONTEXT_LENGTH


def test_list_models_reads_v1_models(make, fake):
    assert make().list_models() == fake.models


def test_doctor_reports_server_model_and_context(make, fake):
    report = make().doctor()
    assert report.ok, report.checks
    names = [c.name for c in report.checks]
    assert names == ["server", "api key", "model", "context", "answer format"]
    assert report.context_length == DEFAULT_CONTEXT_LENGTH


def test_doctor_says_which_models_exist_when_the_model_is_missing(make, fake):
    report = make(model="nope").doctor()
    assert not report.ok
    model = next(c for c in report.checks if c.name == "model")
    assert MODEL in model.hint


def test_doctor_on_a_dead_server_never_raises():
    backend = OpenAICompatBackend(MODEL, base_url=dead_url() + "/v1", timeout_s=2.0)
    report = backend.doctor()
    assert not report.ok and "LM Studio" in report.checks[0].detail


def test_doctor_with_a_wrong_key(make, fake):
    fake.api_key = "right"
    report = make(api_key=lambda: "wrong").doctor()
    assert [(c.name, c.ok) for c in report.checks] == [("server", True), ("api key", False)]


def test_probe_needs_the_server_and_the_model(make, fake):
    assert make().probe()
    assert not make(model="nope").probe()
    assert not OpenAICompatBackend(MODEL, base_url=dead_url() + "/v1").probe()


def test_base_url_from_settings_else_the_environment_else_lm_studio(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert resolve_base_url("") == DEFAULT_BASE_URL == "http://127.0.0.1:1234/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://10.0.0.5:8080/v1/")
    assert resolve_base_url("") == "http://10.0.0.5:8080/v1"
    assert resolve_base_url("http://box:1234/v1") == "http://box:1234/v1"


def test_where_and_locality(make, fake):
    assert make().where() == fake.url and make().is_local()
    assert not OpenAICompatBackend("m", base_url="https://openrouter.ai/api/v1").is_local()
