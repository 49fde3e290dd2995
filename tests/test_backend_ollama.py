"""OllamaBackend: the real ``ollama`` client against a fake Ollama on 127.0.0.1."""

from __future__ import annotations

import threading
import time

import pytest
from ollama._client import _parse_host

from monchat.core.backends.ollama import OllamaBackend, normalise_host
from monchat.core.errors import (BackendError, BackendUnreachable, KnownError, MalformedReply, ModelNotFound,
                                 SettingsError)
from monchat.core.tokens import count_turns
from monchat.core.types import Turn
from tests.fakes.fake_ollama import dead_url, running_fake_ollama

SYSTEM = "You are Mon, a friendly companion."
TURNS = [Turn("user", "hi"), Turn("assistant", "hello!"), Turn("user", "how are you?")]


@pytest.fixture
def fake():
    with running_fake_ollama() as server:
        yield server
        assert server.errors == []  # the fake itself must not have failed


@pytest.fixture
def make(fake):
    """Build backends pointed at the fake (short timeout) and close them afterwards."""
    built = []

    def build(model: str = "llama3.2", **kwargs) -> OllamaBackend:
        kwargs.setdefault("host", fake.url)
        kwargs.setdefault("timeout_s", 5.0)
        backend = OllamaBackend(model, **kwargs)
        built.append(backend)
        return backend

    yield build
    for backend in built:
        backend.close()


@pytest.fixture
def dead():
    backend = OllamaBackend("llama3.2", host=dead_url(), timeout_s=2.0)
    yield backend
    backend.close()


# ---- streaming ------------------------------------------------------------
def test_stream_yields_the_chunks_and_fills_usage_from_the_last_one(make, fake):
    fake.reply_chunks = ["Hel", "lo", " there"]
    fake.prompt_eval_count = 31
    reply = make().stream(SYSTEM, TURNS)

    pieces = list(reply)

    assert pieces == ["Hel", "lo", " there"]
    assert reply.text == "Hello there"
    assert reply.usage.prompt_tokens == 31
    assert reply.usage.output_tokens == 3
    assert reply.usage.estimated_prompt_tokens == count_turns(SYSTEM, TURNS)
    assert reply.usage.warnings == []


def test_chat_request_carries_num_ctx_keep_alive_temperature_and_system_first(make, fake):
    backend = make(num_ctx=4096, keep_alive="10m")

    list(backend.stream(SYSTEM, TURNS, temperature=0.3))

    body = fake.chat_requests()[-1]["body"]
    assert body["model"] == "llama3.2"
    assert body["stream"] is True
    assert body["options"] == {"num_ctx": 4096, "temperature": 0.3}
    assert body["keep_alive"] == "10m"
    assert body["messages"][0] == {"role": "system", "content": SYSTEM}
    assert [(m["role"], m["content"]) for m in body["messages"][1:]] == [(t.role, t.content) for t in TURNS]


def test_without_temperature_only_num_ctx_is_sent_and_a_numeric_keep_alive_goes_as_seconds(make, fake):
    # Ollama parses a *string* keep_alive as a Go duration, where "-1" has no unit and fails.
    list(make(keep_alive="-1").stream(SYSTEM, TURNS))

    body = fake.chat_requests()[-1]["body"]
    assert body["options"] == {"num_ctx": 8192}
    assert body["keep_alive"] == -1


def test_empty_system_prompt_sends_no_system_message(make, fake):
    list(make().stream("", TURNS))

    assert [m["role"] for m in fake.chat_requests()[-1]["body"]["messages"]] == ["user", "assistant", "user"]


def test_one_http_chat_call_per_stream_and_none_before_iteration(make, fake):
    backend = make()
    reply = backend.stream(SYSTEM, TURNS)
    assert fake.chat_requests() == []  # constructing and starting do no I/O

    list(reply)
    assert len(fake.chat_requests()) == 1
    list(backend.stream(SYSTEM, TURNS))
    assert len(fake.chat_requests()) == 2
    assert backend.calls == 2


def test_stop_event_ends_the_stream_early_and_closes_the_http_stream(make, fake):
    fake.mode = "slow"
    fake.chunk_delay_s = 0.05
    fake.reply_chunks = [f"c{i} " for i in range(30)]  # 1.5 s if read to the end
    stop = threading.Event()
    reply = make().stream(SYSTEM, TURNS, stop=stop)

    pieces = []
    for piece in reply:
        pieces.append(piece)
        stop.set()

    assert pieces == ["c0 "]
    assert reply.stopped
    assert reply.usage.prompt_tokens is None  # no final chunk was read: the rest was never waited for
    for _ in range(500):  # the server notices at its next write; a guard, not a measured figure
        if fake.disconnects:
            break
        time.sleep(0.02)
    assert fake.disconnects == 1  # the server saw the client hang up before the stream's end


# ---- truncation warning ---------------------------------------------------
LONG_SYSTEM = "The user likes sukiyaki with a slightly sweet warishita. " * 60  # ~900 tokens


def test_truncation_warning_when_ollama_read_far_fewer_tokens_than_we_sent(make, fake, caplog):
    estimate = count_turns(LONG_SYSTEM, TURNS)
    assert 512 < estimate < 1024 - 32
    fake.prompt_eval_count = 300
    reply = make(num_ctx=1024).stream(LONG_SYSTEM, TURNS)

    list(reply)

    assert reply.usage.warnings == [
        f"Ollama may have cut the conversation to fit num_ctx=1024 (it read 300 tokens, we sent about "
        f"{estimate}). Raise ollama.num_ctx in settings."
    ]
    assert "may have cut the conversation" in caplog.text


def test_truncation_warning_when_ollama_filled_num_ctx(make, fake):
    fake.prompt_eval_count = 4090
    reply = make(num_ctx=4096).stream(SYSTEM, TURNS)

    list(reply)

    assert len(reply.usage.warnings) == 1
    assert "num_ctx=4096" in reply.usage.warnings[0]


@pytest.mark.parametrize("num_ctx, ratio", [
    (1024, 0.95),  # close to our estimate: nothing was cut
    (8192, 0.5),   # far below, but the estimate is far below num_ctx: a tokenizer difference
])
def test_no_truncation_warning_otherwise(make, fake, num_ctx, ratio):
    fake.prompt_eval_count = int(count_turns(LONG_SYSTEM, TURNS) * ratio)
    reply = make(num_ctx=num_ctx).stream(LONG_SYSTEM, TURNS)

    list(reply)

    assert reply.usage.prompt_tokens == fake.prompt_eval_count
    assert reply.usage.warnings == []


# ---- errors ---------------------------------------------------------------
def test_stopped_server_is_backend_unreachable_for_stream_and_json(dead):
    with pytest.raises(BackendUnreachable) as streamed:
        list(dead.stream(SYSTEM, TURNS))
    with pytest.raises(BackendUnreachable) as structured:
        dead.complete_json(SYSTEM, TURNS, {"type": "object"})

    for error in (streamed.value, structured.value):
        assert dead.host in error.message
        assert "not running" in error.message
        assert "`ollama serve`" in error.hint


def test_missing_model_is_model_not_found_with_pull_hint(make):
    backend = make("nope:7b")

    with pytest.raises(ModelNotFound) as streamed:
        list(backend.stream(SYSTEM, TURNS))
    with pytest.raises(ModelNotFound) as structured:
        backend.complete_json(SYSTEM, TURNS, {"type": "object"})

    for error in (streamed.value, structured.value):
        assert "'nope:7b'" in error.message
        assert "`ollama pull nope:7b`" in error.hint


def test_midstream_error_comes_after_the_earlier_chunk(make, fake):
    fake.mode = "midstream_error"
    pieces = []

    with pytest.raises(BackendError) as caught:
        for piece in make().stream(SYSTEM, TURNS):
            pieces.append(piece)

    assert pieces == ["Hel"]
    assert isinstance(caught.value, KnownError)
    assert not isinstance(caught.value, (BackendUnreachable, ModelNotFound))
    assert caught.value.message == "Ollama failed: an error was encountered while running the model"
    assert caught.value.hint


def test_412_asks_to_update_ollama(make, fake):
    fake.mode = "http_error"
    fake.error_status, fake.error_message = 412, "this model requires a newer version of Ollama"

    with pytest.raises(BackendError) as caught:
        list(make().stream(SYSTEM, TURNS))

    assert "newer version" in caught.value.message
    assert "Update Ollama" in caught.value.hint


def test_other_http_error_is_backend_error_with_the_servers_text(make, fake):
    fake.mode = "http_error"
    fake.error_status, fake.error_message = 500, "out of memory"

    with pytest.raises(BackendError) as caught:
        make().complete_json(SYSTEM, TURNS, {"type": "object"})

    assert type(caught.value) is BackendError
    assert caught.value.message == "Ollama failed: out of memory"


def test_timeout_is_backend_unreachable_saying_how_long(make, fake):
    fake.mode = "stall"
    fake.stall_s = 1.0
    backend = make(timeout_s=0.2)

    with pytest.raises(BackendUnreachable) as caught:  # the stalled server would answer after 1 s
        list(backend.stream(SYSTEM, TURNS))

    assert "timed out after 0.2 s" in caught.value.message
    assert fake.url in caught.value.message
    assert "`ollama serve`" in caught.value.hint


# ---- structured output ----------------------------------------------------
SCHEMA = {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}


def test_complete_json_sends_the_schema_as_format_and_returns_the_dict(make, fake):
    fake.structured_content = '{"age": 42}'

    result = make().complete_json(SYSTEM, TURNS, SCHEMA, temperature=0.0)

    assert result == {"age": 42}
    body = fake.chat_requests()[-1]["body"]
    assert body["format"] == SCHEMA
    assert body["stream"] is True  # streamed, so a flush can show the answer's tokens as they arrive
    assert body["options"] == {"num_ctx": 8192, "temperature": 0.0}
    assert body["keep_alive"] == "30m"
    system = body["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith(SYSTEM)
    assert "Answer with JSON matching this schema" in system["content"]
    assert '"required": ["age"]' in system["content"]


def test_a_structured_answer_tells_its_tokens_as_they_arrive(make, fake):
    fake.structured_content = '{"age": 42, "name": "Hana"}'
    fake.structured_piece_chars = 4  # seven chunks, as a model writes them
    heard = []

    result = make().complete_json(SYSTEM, TURNS, {"type": "object"}, on_tokens=heard.append)

    assert result == {"age": 42, "name": "Hana"}
    assert heard == [1, 2, 3, 4, 5, 6, 7]


def test_an_error_midway_through_a_structured_answer_fails_the_call(make, fake):
    fake.mode = "midstream_error"

    with pytest.raises(BackendError) as caught:
        make().complete_json(SYSTEM, TURNS, SCHEMA)

    assert caught.value.message == "Ollama failed: an error was encountered while running the model"


def test_complete_json_with_non_json_content_is_malformed_reply(make, fake):
    fake.structured_content = "I am thirty-two."

    with pytest.raises(MalformedReply):
        make().complete_json(SYSTEM, TURNS, SCHEMA)


# ---- doctor and probe -----------------------------------------------------
def test_doctor_on_a_running_server_is_ok_with_context_length(make, fake):
    report = make(num_ctx=8192).doctor()

    assert report.ok, report.checks
    assert [c.name for c in report.checks] == ["server", "model", "context", "keep_alive"]
    assert "0.12.3" in report.checks[0].detail
    assert "131072" in report.checks[2].detail
    assert report.context_length == 8192


def test_doctor_notes_num_ctx_above_the_trained_context(make, fake):
    fake.context_length = 4096

    report = make(num_ctx=8192).doctor()

    context = next(c for c in report.checks if c.name == "context")
    assert "4096" in context.detail and "8192" in context.detail
    assert "ollama.num_ctx" in context.hint
    assert report.context_length == 4096  # what Ollama will really use


def test_doctor_reports_a_missing_model_with_pull_hint(make):
    report = make("nope").doctor()

    assert not report.ok
    model = next(c for c in report.checks if c.name == "model")
    assert not model.ok
    assert "`ollama pull nope`" in model.hint


def test_doctor_reports_a_bad_keep_alive(make):
    report = make(keep_alive="forever").doctor()

    keep_alive = next(c for c in report.checks if c.name == "keep_alive")
    assert not keep_alive.ok
    assert "30m" in keep_alive.hint


def test_doctor_on_a_dead_port_reports_failed_checks_without_raising(dead):
    report = dead.doctor()

    assert not report.ok
    server = report.checks[0]
    assert server.name == "server" and not server.ok
    assert dead.host in server.detail
    assert "`ollama serve`" in server.hint


def test_probe(make, dead):
    assert make().probe() is True
    assert make("nope").probe() is False
    assert dead.probe() is False


# ---- host and construction ------------------------------------------------
def test_ollama_host_env_is_used_when_host_is_empty(monkeypatch, fake):
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{fake.server_address[1]}")
    backend = OllamaBackend("llama3.2", timeout_s=5.0)
    try:
        assert backend.host == fake.url
        assert "".join(backend.stream(SYSTEM, TURNS)) == "Hello"
    finally:
        backend.close()
    assert len(fake.chat_requests()) == 1


def test_explicit_host_wins_over_env_and_default_is_local(monkeypatch, fake):
    monkeypatch.setenv("OLLAMA_HOST", dead_url())
    assert OllamaBackend("m", host=fake.url).host == fake.url
    monkeypatch.delenv("OLLAMA_HOST")
    assert OllamaBackend("m").host == "http://127.0.0.1:11434"


@pytest.mark.parametrize("text", [
    "", ":56789", "1.2.3.4", "1.2.3.4:56789", "http://1.2.3.4", "https://example.com",
    "example.com:56789/path/", "[0001:002:003:0004::1]:56789", "https://[::1]/x",
])
def test_host_is_normalised_like_the_client(text):
    assert normalise_host(text) == _parse_host(text)


def test_an_invalid_host_is_a_settings_error():
    with pytest.raises(SettingsError) as caught:
        OllamaBackend("m", host="127.0.0.1:notaport")
    assert "ollama.host" in caught.value.hint


def test_context_length_is_num_ctx():
    assert OllamaBackend("m", num_ctx=16384).context_length() == 16384
