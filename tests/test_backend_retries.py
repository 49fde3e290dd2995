"""Flush (structured) calls through the real clients: transient faults are retried, others are not;
Ollama flush calls send ``think: false``; Gemini flush calls carry the thinking budget.

The loopback fakes play a busy server (``server.faults``). The retry policy's ``sleep`` records the
waits instead of waiting, so nothing here depends on the clock.
"""

from __future__ import annotations

import pytest

from monchat.core.backends.gemini import GeminiBackend
from monchat.core.backends.ollama import OllamaBackend
from monchat.core.backends.registry import BackendRegistry
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import BackendError, BackendUnreachable, ModelNotFound, RateLimited
from monchat.core.privacy.secrets import SecretStore
from monchat.core.settings import Settings, settings_from_dict
from monchat.core.types import Turn
from tests.fakes.fake_gemini import start as start_gemini
from tests.fakes.fake_ollama import running_fake_ollama

SYSTEM = "Pick the facts."
TURNS = [Turn("user", "I drink green tea.")]
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
KEY = "test-key"
GEMINI_MODEL = "gemini-2.5-flash"


class Waits(list):
    """The policy's sleep: records each wait instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def policy(waits: Waits, attempts: int = 4) -> RetryPolicy:
    # No jitter: each wait is the plain doubling, so the order of waits can be checked.
    return RetryPolicy(attempts=attempts, base_delay_s=1.0, max_delay_s=30.0, jitter_s=0.0, sleep=waits)


# ---- the policy itself --------------------------------------------------------

def test_waits_double_up_to_the_cap_with_jitter_on_top():
    steady = RetryPolicy(base_delay_s=1.0, max_delay_s=5.0, jitter_s=0.5, random=lambda: 0.5)
    assert [steady.delay(n) for n in (1, 2, 3, 4)] == [1.25, 2.25, 4.25, 5.0]


# ---- Ollama -----------------------------------------------------------------

@pytest.fixture
def fake():
    with running_fake_ollama() as server:
        yield server


def ollama(fake, waits: Waits, attempts: int = 4, **kwargs) -> OllamaBackend:
    return OllamaBackend("llama3.2", host=fake.url, timeout_s=kwargs.pop("timeout_s", 5.0),
                         retry=policy(waits, attempts), **kwargs)


def test_ollama_503_twice_then_an_answer(fake):
    fake.faults = [("status", 503, "server busy"), ("status", 503, "server busy")]
    waits = Waits()
    backend = ollama(fake, waits)

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"answer": "yes"}
    assert len(fake.chat_requests()) == 3
    assert len(waits) == 2 and waits[0] < waits[1]  # backed off, longer the second time
    assert backend.calls == 3


@pytest.mark.parametrize("fault", [("status", 429, "too many requests"), ("status", 502, "bad gateway"),
                                   ("stall", 1.5), ("reset",)],
                         ids=["429", "502", "timeout", "connection-reset"])
def test_ollama_transient_faults_are_retried(fake, fault):
    fake.faults = [fault]
    waits = Waits()
    backend = ollama(fake, waits, timeout_s=0.4)

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"answer": "yes"}
    assert len(fake.chat_requests()) == 2 and len(waits) == 1


@pytest.mark.parametrize("status, error_type, words", [
    (400, BackendError, "invalid request"),
    (404, ModelNotFound, "'llama3.2' is not installed"),
])
def test_ollama_client_errors_are_not_retried(fake, status, error_type, words):
    fake.faults = [("status", status, "invalid request" if status == 400 else "model 'llama3.2' not found")]
    waits = Waits()

    with pytest.raises(error_type) as caught:
        ollama(fake, waits).complete_json(SYSTEM, TURNS, SCHEMA)

    assert words in caught.value.message and caught.value.hint
    assert not caught.value.transient
    assert len(fake.chat_requests()) == 1 and waits == []


def test_ollama_always_503_fails_after_the_policys_attempts(fake):
    fake.mode, fake.error_status, fake.error_message = "http_error", 503, "server busy"
    waits = Waits()

    with pytest.raises(BackendError) as caught:
        ollama(fake, waits, attempts=3).complete_json(SYSTEM, TURNS, SCHEMA)

    assert caught.value.message == "Ollama failed: server busy (tried 3 times)"
    assert caught.value.hint and caught.value.transient
    assert len(fake.chat_requests()) == 3 and len(waits) == 2


def test_a_stopped_ollama_is_not_retried():
    from tests.fakes.fake_ollama import dead_url
    waits = Waits()
    backend = OllamaBackend("llama3.2", host=dead_url(), timeout_s=2.0, retry=policy(waits))

    with pytest.raises(BackendUnreachable, match="not running"):
        backend.complete_json(SYSTEM, TURNS, SCHEMA)
    assert waits == []


def test_ollama_flush_calls_send_think_false_and_chat_leaves_it_unset(fake):
    backend = ollama(fake, Waits())
    backend.complete_json(SYSTEM, TURNS, SCHEMA)
    backend.complete_json(SYSTEM, [Turn("user", "and again")], SCHEMA)
    list(backend.stream(SYSTEM, TURNS))

    structured, chat = fake.chat_requests()[:2], fake.chat_requests()[2]
    assert [r["body"]["think"] for r in structured] == [False, False]
    assert "format" not in chat["body"] and "think" not in chat["body"]


def test_ollama_flush_usage_is_kept_on_the_backend(fake):
    fake.prompt_eval_count = 321
    backend = ollama(fake, Waits())
    backend.complete_json(SYSTEM, TURNS, SCHEMA)
    assert backend.last_usage.prompt_tokens == 321 and backend.last_usage.output_tokens == 1


# ---- Gemini -------------------------------------------------------------------

@pytest.fixture
def gfake():
    server = start_gemini()
    server.reply_chunks = ['{"answer": ', '"yes"}']
    yield server
    server.shutdown()
    server.server_close()


def gemini(gfake, waits: Waits, attempts: int = 4, *, model: str = GEMINI_MODEL, timeout_s: float = 5.0,
           **kwargs) -> GeminiBackend:
    # Zero delays: the SDK's own retry (tenacity) sleeps for real, so it gets nothing to wait.
    retry = RetryPolicy(attempts=attempts, base_delay_s=0.0, max_delay_s=0.0, jitter_s=0.0, sleep=waits)
    return GeminiBackend(model, api_key=lambda: KEY, base_url=f"http://127.0.0.1:{gfake.server_address[1]}",
                         timeout_s=timeout_s, retry=retry, **kwargs)


def generate_calls(gfake) -> list[dict]:
    return gfake.calls("POST", ":generateContent")


def thinking_budget(body: dict):
    """The thinking budget a request carries. google-genai 3.6.1 writes the inner field as
    ``thinking_budget`` (the API's JSON parser takes proto field names in either spelling)."""
    config = body["generationConfig"]["thinkingConfig"]
    return config.get("thinkingBudget", config.get("thinking_budget"))


def test_gemini_503_twice_then_an_answer_through_the_sdks_retry(gfake):
    gfake.faults = [("status", 503, "UNAVAILABLE"), ("status", 503, "UNAVAILABLE")]
    waits = Waits()
    backend = gemini(gfake, waits)

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"answer": "yes"}
    assert len(generate_calls(gfake)) == 3
    assert waits == []  # the SDK retried; our loop did not add attempts on top


@pytest.mark.parametrize("fault", [("status", 429, "RESOURCE_EXHAUSTED"), ("status", 500, "INTERNAL"),
                                   ("stall", 1.5), ("reset",)],
                         ids=["429", "500", "timeout", "connection-reset"])
def test_gemini_transient_faults_are_retried(gfake, fault):
    gfake.faults = [fault]
    waits = Waits()

    assert gemini(gfake, waits, timeout_s=0.4).complete_json(SYSTEM, TURNS, SCHEMA) == {"answer": "yes"}
    assert len(generate_calls(gfake)) == 2
    # The SDK does not retry a dropped connection; our loop does (and records its wait).
    assert len(waits) == (1 if fault[0] == "reset" else 0)


def test_gemini_400_is_not_retried(gfake):
    gfake.faults = [("status", 400, "INVALID_ARGUMENT")]
    waits = Waits()

    with pytest.raises(BackendError, match="rejected the request") as caught:
        gemini(gfake, waits).complete_json(SYSTEM, TURNS, SCHEMA)

    assert not caught.value.transient and caught.value.hint
    assert len(generate_calls(gfake)) == 1 and waits == []


def test_gemini_unknown_model_is_not_retried(gfake):
    with pytest.raises(ModelNotFound):
        gemini(gfake, Waits(), model="gemini-nope").complete_json(SYSTEM, TURNS, SCHEMA)
    assert len(gfake.calls("POST", "gemini-nope:generateContent")) == 1


def test_gemini_always_503_fails_after_the_policys_attempts(gfake):
    gfake.error = (503, "UNAVAILABLE", "The model is overloaded.")
    waits = Waits()

    with pytest.raises(BackendError, match="server error") as caught:
        gemini(gfake, waits, attempts=3).complete_json(SYSTEM, TURNS, SCHEMA)

    assert caught.value.message == "Gemini had a server error (503 UNAVAILABLE) (tried 3 times)."
    assert caught.value.transient and caught.value.hint
    assert len(generate_calls(gfake)) == 3 and waits == []


def test_gemini_always_429_is_rate_limited_after_the_policys_attempts(gfake):
    gfake.error = (429, "RESOURCE_EXHAUSTED")
    with pytest.raises(RateLimited):
        gemini(gfake, Waits(), attempts=2).complete_json(SYSTEM, TURNS, SCHEMA)
    assert len(generate_calls(gfake)) == 2


def test_gemini_flush_calls_carry_the_thinking_budget_from_settings_and_record_thoughts(gfake, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    settings = Settings()
    settings.gemini.base_url = f"http://127.0.0.1:{gfake.server_address[1]}"
    settings.gemini.flush_thinking_budget = 128
    settings.flush.retries = 0
    registry = BackendRegistry(settings, SecretStore(), state=None)
    backend = registry.build("gemini")
    gfake.thoughts_tokens = 42

    assert backend.complete_json(SYSTEM, TURNS, SCHEMA) == {"answer": "yes"}
    assert backend.last_usage.thinking_tokens == 42
    assert backend.last_usage.prompt_tokens == 1200
    body = generate_calls(gfake)[-1]["body"]
    assert thinking_budget(body) == 128

    reply = backend.stream(SYSTEM, TURNS)  # chat: the model's own thinking default
    list(reply)
    stream_body = gfake.calls("POST", ":streamGenerateContent")[-1]["body"]
    assert "thinkingConfig" not in stream_body.get("generationConfig", {})
    assert reply.usage.thinking_tokens == 42 and reply.usage.counts()["thinking_tokens"] == 42


def test_gemini_default_budget_turns_thinking_off(gfake):
    gemini(gfake, Waits()).complete_json(SYSTEM, TURNS, SCHEMA)
    assert thinking_budget(generate_calls(gfake)[-1]["body"]) == 0


def test_minus_one_sends_no_thinking_setting(gfake):
    gemini(gfake, Waits(), flush_thinking_budget=-1).complete_json(SYSTEM, TURNS, SCHEMA)
    assert "thinkingConfig" not in generate_calls(gfake)[-1]["body"]["generationConfig"]


@pytest.mark.parametrize("refusal", [
    "Budget 0 is invalid. This model only works in thinking mode.",  # 2.5 Pro
    "Unable to submit request because thinking is not supported by this model.",  # 2.0 Flash
])
def test_a_thinking_setting_the_model_refuses_says_which_setting_to_change(gfake, refusal):
    gfake.error = (400, "INVALID_ARGUMENT", refusal)
    with pytest.raises(BackendError) as caught:
        gemini(gfake, Waits(), model="gemini-2.5-pro").complete_json(SYSTEM, TURNS, SCHEMA)
    assert "gemini.flush_thinking_budget" in caught.value.hint and not caught.value.transient
    assert len(generate_calls(gfake)) == 1


def test_retry_and_thinking_settings_are_range_checked():
    settings, warnings = settings_from_dict({"flush": {"retries": 11, "retry_delay_s": -1.0},
                                             "gemini": {"flush_thinking_budget": -2}})
    assert len(warnings) == 3
    flush, gemini = settings.flush, settings.gemini
    assert (flush.retries, flush.retry_delay_s, gemini.flush_thinking_budget) == (3, 1.0, 0)
    settings, warnings = settings_from_dict({"flush": {"retries": 0}, "gemini": {"flush_thinking_budget": -1}})
    assert warnings == []
    assert BackendRegistry(settings, SecretStore(), state=None).retry_policy().attempts == 1
