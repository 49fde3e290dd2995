"""The context of an OpenAI-compatible server, learned from what it says (``backends/openai_context.py``), and a
flush that fits a 2,048 context with default settings: through the real ``openai`` client against the loopback
fake, which imitates llama_cpp.server's answers to a request over its context (200 and an empty stream when
streamed, a 400 naming the context when not, an answer cut at "length" when only the answer does not fit) and
llama-server's ``/props``. ``tests/test_llama_server.py`` meets the real server.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from monchat.core.backends.openai_compat import OpenAICompatBackend
from monchat.core.backends.openai_context import CONTEXT_KEY, context_in_text
from monchat.core.errors import ContextShrank, ReplyCutOff
from monchat.core.paths import resource_dir
from monchat.core.prompts import PromptLibrary
from monchat.core.types import Message, Turn
from tests.fakes.fake_openai import prompt_tokens
from tests.test_backend_openai import MODEL, SCHEMA, SYSTEM, MemoryState
from tests.test_openai_server_faults import fake, make  # noqa: F401 (the loopback server and its backends)




def long_turns(tokens: int) -> list[Turn]:
    return [Turn("user", "tea " * tokens)]


def test_a_request_over_the_servers_context_teaches_it_with_one_cheap_request_remembered_for_the_address(make, fake):  # noqa: F811 (a fixture)
    fake.n_ctx, fake.structured_content = 2048, '{"items": []}'
    state = MemoryState()
    backend = make(state=state)
    assert backend.context_length() == 4096  # the fake states nothing, as llama_cpp.server

    with pytest.raises(ContextShrank) as caught:
        backend.complete_json(SYSTEM, long_turns(2500), SCHEMA)

    assert caught.value.context == 2048 and not caught.value.transient  # the same request would fail again
    assert "2048 tokens" in caught.value.message
    bodies = [r["body"] for r in fake.chat_requests()]
    assert [b.get("stream", False) for b in bodies] == [True, False]  # then the same request, not streamed:
    assert bodies[1]["max_tokens"] == 1 and bodies[1]["messages"] == bodies[0]["messages"]  # refused at once
    assert state.values[CONTEXT_KEY.format(url=fake.url)] == "2048"
    again = make(state=state)
    assert again.context_length() == 2048 and again.json_answer_reserve() == 640
    assert "learned" in again.context_source()


def test_a_refusal_naming_no_number_halves_the_assumed_context(make, fake):  # noqa: F811 (a fixture)
    fake.n_ctx, fake.context_error = 2048, "The prompt is too long for the model's context."
    with pytest.raises(ContextShrank) as caught:
        make(state=MemoryState()).complete_json(SYSTEM, long_turns(2500), SCHEMA)
    assert caught.value.context == 2048  # half of 4096


def test_an_answer_cut_at_length_long_before_max_tokens_teaches_the_context(make, fake):  # noqa: F811 (a fixture)
    # the prompt fits, its answer does not: llama_cpp.server gives the answer what its context has left
    fake.n_ctx, fake.structured_piece_chars = 2048, 1
    fake.structured_content = '{"items": [], "note": "' + "x" * 900 + '"}'
    backend = make(state=MemoryState())
    with pytest.raises(ContextShrank) as caught:
        backend.complete_json(SYSTEM, long_turns(1500), SCHEMA)
    assert caught.value.context == 2048
    probe = fake.chat_requests()[-1]["body"]  # a request of the assumed context's size, refused at once
    assert not probe.get("stream") and prompt_tokens(probe) >= 4096 and probe["max_tokens"] == 1


def test_an_answer_cut_at_max_tokens_teaches_nothing(make, fake):  # noqa: F811 (a fixture)
    fake.finish_reason, fake.structured_content = "length", '{"items": []}'
    fake.usage = dict(fake.usage, completion_tokens=1024)  # it used all it was given
    with pytest.raises(Exception, match="length limit"):
        make(state=MemoryState()).complete_json(SYSTEM, long_turns(50), SCHEMA)
    assert len(fake.chat_requests()) == 1


def test_llama_servers_props_state_the_context(make, fake):  # noqa: F811 (a fixture)
    fake.props = {"default_generation_settings": {"n_ctx": 2048, "params": {}}, "total_slots": 1}
    backend = make()
    assert backend.context_length() == 2048
    report = backend.doctor()
    assert next(c for c in report.checks if c.name == "context").detail == "2048 tokens (as the server's /props says)"


def test_llama_cpp_server_is_asked_its_context_once_per_address_with_one_request_it_refuses(make, fake):  # noqa: F811 (a fixture)
    fake.n_ctx, fake.openapi_title = 2048, "🦙 llama.cpp Python API"
    state = MemoryState()
    assert make(state=state).context_length() == 2048
    probe = [r["body"] for r in fake.chat_requests()]
    assert len(probe) == 1 and not probe[0].get("stream") and prompt_tokens(probe[0]) >= 4096
    assert make(state=state).context_length() == 2048 and len(fake.chat_requests()) == 1  # remembered


def test_openai_context_length_stands_and_an_empty_stream_names_it(make, fake):  # noqa: F811 (a fixture)
    fake.n_ctx = 2048
    with pytest.raises(ReplyCutOff) as caught:
        make(context_length=4096, state=MemoryState()).complete_json(SYSTEM, long_turns(2500), SCHEMA)
    assert not isinstance(caught.value, ContextShrank) and "openai.context_length" in caught.value.hint
    assert len(fake.chat_requests()) == 1  # no probe: the user's setting is not second-guessed


def test_a_chat_turn_over_the_context_teaches_it_for_the_next_turn(make, fake):  # noqa: F811 (a fixture)
    fake.n_ctx = 2048
    backend = make(state=MemoryState())
    with pytest.raises(ContextShrank):
        list(backend.stream(SYSTEM, long_turns(2500)))
    assert backend.context_length() == 2048


@pytest.mark.parametrize("text, context", [
    ("This model's maximum context length is 2048 tokens. However, you requested 2100 tokens", 2048),
    ("request (2100 tokens) exceeds the available context size (2048 tokens), try increasing it", 2048),
    ("Requested tokens (2100) exceed context window of 2048", 2048),
    ("Input should be 'text' or 'json_object'", None)])
def test_the_context_a_refusal_names(text, context):
    assert context_in_text(text) == context


# ---- a flush at 2,048 ---------------------------------------------------------------------------
def _messages(count: int) -> list[Message]:
    start = datetime(2026, 11, 16, 8, 0, tzinfo=timezone.utc)
    topics = ["green tea before work", "a long walk by the river", "fixing the bike's brakes", "my sister's visit",
              "a rainy commute and a late train", "reading a novel about the sea"]
    return [Message(id=f"m{n}", ts=(start + timedelta(minutes=n)).isoformat(), role="user" if n % 2 == 0 else
                    "assistant", text=f"Today I thought about {topics[n % len(topics)]}, and it took most of the "
                                      f"afternoon, number {n}.", persona="hana", backend="openai")
            for n in range(count)]


def test_at_a_2048_context_the_filters_get_short_instructions_and_a_chunk_holds_most_of_an_evening(app_env):
    from monchat.core.flush.score import build_lines, filter_system, plan_chunks
    prompts, personas = app_env
    small = OpenAICompatBackend(MODEL, base_url="http://127.0.0.1:9/v1", context_length=2048)
    large = OpenAICompatBackend(MODEL, base_url="http://127.0.0.1:9/v1", context_length=4096)
    assert filter_system(large, prompts) == prompts.render("filter.md.j2")
    assert filter_system(small, prompts) == prompts.render("filter_short.md.j2")

    chunks, notes = plan_chunks(small, prompts, personas, build_lines(_messages(40), timezone.utc))

    assert notes == [] and len(chunks) <= 4  # the full instructions and schema left room for ~5 lines a request


@pytest.fixture
def app_env(tmp_path):
    from monchat.app import build_app
    from monchat.core.flush.orient import select_personas
    app = build_app(str(tmp_path / "home"))
    try:
        chosen = select_personas(app.personas, app.settings.flush.fixed_personas, 1)
        yield app.prompts, [p for p, _ in chosen]
    finally:
        app.close()


def test_a_flush_with_default_settings_against_a_2048_server_learns_its_context_and_completes(home, fake):  # noqa: F811 (a fixture)
    from tests.support.oracle import Oracle, Rule
    from tests.test_cli_backends import run
    from tests.test_cli_openai import answered_by
    fake.n_ctx, fake.schema_support = 2048, False  # as llama_cpp.server: no JSON schema, a 2,048 context
    fake.structured_reply = answered_by(Oracle([Rule("green tea", "drinks green tea", "drink/tea", kind="explicit")]))
    source = home.parent / "evening.jsonl"
    source.write_text("".join(json.dumps({"ts": m.ts, "role": m.role, "text": m.text}) + "\n"
                              for m in _messages(60)), encoding="utf-8")
    assert run(home, "settings", "set", "openai.base_url", fake.url).returncode == 0
    assert run(home, "import", str(source)).returncode == 0

    done = run(home, "--backend", "openai", "--model", MODEL, "flush", "--json")

    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["messages_archived"] == 60 and report["gate"] == "ok"
    assert any("has a context of 2048 tokens" in str(note) for note in report["notes"])
    bodies = [r["body"] for r in fake.chat_requests()]
    over = [b for b in bodies if b.get("stream") and prompt_tokens(b) >= 2048]
    assert len(over) >= 1  # planned for 4,096 at first: refused, learned, planned again
    probes = [n for n, b in enumerate(bodies) if not b.get("stream")]
    # One for each call planned before the first refusal taught the context: a flush readies up to FLUSH_LINE
    # calls at once (a local server is sent one at a time, issue 38); none planned after it is refused.
    from monchat.core.backends.openai_compat import OpenAICompatBackend
    assert len(probes) <= OpenAICompatBackend.FLUSH_LINE
    after = bodies[probes[-1] + 1:]  # planned for what the probe named
    assert after and all(prompt_tokens(b) + b["max_tokens"] <= 2048 for b in after)
    assert "drinks green tea" in run(home, "--backend", "openai", "--model", MODEL, "memory", "list").stdout


# ---- lint and the diary at a small context --------------------------------------------------------
class _Rows:
    """``LintStore.memories()`` for Lint.ask: six live memories of one slot family (15 candidate pairs)."""

    def memories(self) -> list[dict]:
        return [{"id": f"mem-{n}", "state": "active", "kind": "fact", "slot": f"home/place{n}", "text": f"lives in {n}",
                 "confidence": 0.9, "score": 0.9, "valid_at": "2026-11-20", "created_at": "2026-11-20"}
                for n in range(6)]


@pytest.mark.parametrize("context, pairs, reason_max", [(2048, 3, 100), (8192, 8, 200)])
def test_lint_asks_about_fewer_pairs_with_shorter_reasons_on_a_small_answer_room(fake, context, pairs, reason_max):  # noqa: F811 (a fixture)
    from monchat.core.background.lint import Lint
    from monchat.core.asking.ask import TokenUsage
    fake.structured_content = '{"contradictions": []}'
    backend = OpenAICompatBackend(MODEL, base_url=fake.url, context_length=context)
    lint = Lint(None, PromptLibrary(resource_dir("prompts")))
    lint.store = _Rows()
    try:
        answer = lint.ask(backend, TokenUsage(), "flush 1")
    finally:
        backend.close()
    schema = fake.chat_requests()[-1]["body"]["response_format"]["json_schema"]["schema"]
    found = schema["properties"]["contradictions"]
    assert len(answer.shown) == pairs and found["maxItems"] == pairs
    assert found["items"]["properties"]["reason"]["maxLength"] == reason_max


def test_a_diary_day_too_long_for_the_context_names_the_backends_setting():
    from monchat.core.background.diary import _ask_day
    from monchat.core.asking.fit import RequestTooLarge
    backend = OpenAICompatBackend(MODEL, base_url="http://127.0.0.1:9/v1", context_length=400)
    messages = [{"id": "m1", "ts": "2026-11-16T08:00:00+00:00", "ts_epoch": 0.0, "text": "tea"}]
    with pytest.raises(RequestTooLarge) as caught:
        _ask_day(backend, PromptLibrary(resource_dir("prompts")), "2026-11-16", messages, [], {"rising": [], "cooling": [], "week": []},
                 "English", None)
    assert "openai.context_length" in caught.value.hint
