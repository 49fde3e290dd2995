"""GeminiBackend against the real google-genai client and a fake API server on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest

from monchat.core.backends.gemini import GeminiBackend
from monchat.core.errors import (AuthFailed, BackendError, BackendUnreachable, ModelNotFound,
                                 RateLimited)
from monchat.core.privacy.secrets import SecretStore
from monchat.core.store import Store
from monchat.core.types import Turn
from tests.fakes.fake_gemini import start

KEY = "AIzaSy-test-SECRET-0123456789abcdef"
MODEL = "gemini-2.5-flash"
BIG_SYSTEM = "memory " * 1500  # about 1500 estimated tokens: above the default 1024 minimum
OTHER_BIG_SYSTEM = "persona " * 1500
SMALL_SYSTEM = "Be brief."
TURNS = [Turn("user", "hi"), Turn("assistant", "hello"), Turn("user", "how are you?")]
CACHE_STATE = f"gemini.cache.{MODEL}"
MIN_STATE = f"gemini.cache_min.{MODEL}"


@pytest.fixture
def fake():
    server = start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "t.db")
    yield s
    s.close()


def url(server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


def make(fake, store=None, *, model=MODEL, key=KEY, **kwargs) -> GeminiBackend:
    return GeminiBackend(model, api_key=lambda: key, base_url=url(fake), timeout_s=5.0,
                         state=store, **kwargs)


def chat(backend, system=SMALL_SYSTEM, turns=TURNS):
    reply = backend.stream(system, turns)
    text = "".join(reply)
    return text, reply


def creates(fake):
    return fake.calls("POST", "/cachedContents")


def dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- plain chat ------------------------------------------------------------

def test_stream_joins_text_one_call_per_turn_with_explicit_api_version(fake, store):
    backend = make(fake, store)
    text, reply = chat(backend)
    assert text == "Hello!"
    assert reply.usage.prompt_tokens == 1200 and reply.usage.output_tokens == 5
    assert reply.usage.estimated_prompt_tokens > 0
    chat(backend)
    streams = fake.calls("POST", ":streamGenerateContent")
    assert len(streams) == 2 and len(fake.generate_bodies()) == 2  # one HTTP call per turn
    first = streams[0]
    assert first["path"].startswith(f"/v1beta/models/{MODEL}:streamGenerateContent")
    assert first["headers"]["x-goog-api-key"] == KEY
    body = first["body"]
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    assert body["systemInstruction"]["parts"][0]["text"] == SMALL_SYSTEM
    assert "cachedContent" not in body


def test_api_version_is_sent_as_configured(fake):
    chat(make(fake, api_version="v1"))
    assert fake.requests[-1]["path"].startswith(f"/v1/models/{MODEL}:")


def test_constructing_and_probing_make_no_request(fake):
    backend = make(fake)
    assert backend.probe() is True
    assert backend.context_length() == 1_048_576
    assert fake.requests == []


def test_no_key_is_auth_failed_before_any_request(fake):
    backend = make(fake, key=None)
    assert backend.probe() is False
    with pytest.raises(AuthFailed, match="No Gemini API key"):
        chat(backend)
    with pytest.raises(AuthFailed):
        backend.complete_json("s", TURNS, {"type": "object"})
    assert fake.requests == []


def test_key_is_read_lazily_and_a_new_key_is_used(fake):
    keys = iter([None, "first-key", "second-key", "second-key"])
    backend = GeminiBackend(MODEL, api_key=lambda: next(keys), base_url=url(fake), timeout_s=5.0)
    with pytest.raises(AuthFailed):
        chat(backend)
    chat(backend)
    chat(backend)
    assert [r["headers"]["x-goog-api-key"] for r in fake.requests] == ["first-key", "second-key"]


# ---- explicit cache --------------------------------------------------------

def test_large_system_prompt_cached_once_and_used_on_two_turns(fake, store):
    backend = make(fake, store)
    _, first = chat(backend, BIG_SYSTEM)
    _, second = chat(backend, BIG_SYSTEM)

    assert len(creates(fake)) == 1
    create_body = creates(fake)[0]["body"]
    assert create_body["systemInstruction"]["parts"][0]["text"] == BIG_SYSTEM
    assert create_body["ttl"] == "3600s" and create_body["model"] == f"models/{MODEL}"
    assert create_body["displayName"].startswith("monchat-")
    (name,) = fake.caches
    bodies = fake.generate_bodies()
    assert len(bodies) == 2
    for body in bodies:
        assert body["cachedContent"] == name
        assert "systemInstruction" not in body
    cached = fake.caches[name]["usageMetadata"]["totalTokenCount"]
    assert first.usage.cached_tokens == cached and second.usage.cached_tokens == cached
    assert fake.calls("PATCH") == [] and fake.calls("DELETE") == []  # young cache: no renewal
    assert json.loads(store.get_state(CACHE_STATE))["name"] == name


def test_system_prompt_change_deletes_old_cache_and_creates_new(fake, store):
    backend = make(fake, store)
    chat(backend, BIG_SYSTEM)
    (old,) = fake.caches
    chat(backend, OTHER_BIG_SYSTEM)
    (new,) = fake.caches  # the old one was deleted
    assert new != old
    assert [r["path"] for r in fake.calls("DELETE")] == [f"/v1beta/{old}"]
    assert len(creates(fake)) == 2
    assert fake.generate_bodies()[-1]["cachedContent"] == new
    assert json.loads(store.get_state(CACHE_STATE))["name"] == new


def test_failed_delete_of_old_cache_is_logged_and_chat_goes_on(fake, store, caplog):
    backend = make(fake, store)
    chat(backend, BIG_SYSTEM)
    (old,) = fake.caches
    del fake.caches[old]  # already gone: DELETE answers 403
    with caplog.at_level(logging.WARNING, logger="monchat"):
        text, _ = chat(backend, OTHER_BIG_SYSTEM)
    assert text == "Hello!"
    assert len(fake.calls("DELETE")) == 1
    assert "could not be deleted" in caplog.text


def _age_stored_handle(store, seconds):
    handle = json.loads(store.get_state(CACHE_STATE))
    handle["refreshed"] = time.time() - seconds
    store.set_state(CACHE_STATE, json.dumps(handle))


def test_ttl_renewed_past_half_ttl(fake, store):
    chat(make(fake, store), BIG_SYSTEM)
    (name,) = fake.caches
    _age_stored_handle(store, 0.6 * 3600)
    renewing = make(fake, store)
    chat(renewing, BIG_SYSTEM)
    patches = fake.calls("PATCH")
    assert [(p["path"], p["body"]) for p in patches] == [(f"/v1beta/{name}", {"ttl": "3600s"})]
    assert len(creates(fake)) == 1
    assert fake.generate_bodies()[-1]["cachedContent"] == name
    assert json.loads(store.get_state(CACHE_STATE))["refreshed"] > time.time() - 60
    chat(renewing, BIG_SYSTEM)
    assert len(fake.calls("PATCH")) == 1  # renewed once, not on every turn


def test_cache_past_full_ttl_is_recreated_without_renewal(fake, store):
    chat(make(fake, store), BIG_SYSTEM)
    _age_stored_handle(store, 2 * 3600)
    chat(make(fake, store), BIG_SYSTEM)
    assert fake.calls("PATCH") == []
    assert len(creates(fake)) == 2


@pytest.mark.parametrize("code", [403, 404])
def test_unknown_cache_is_recreated_once_and_retried(fake, store, code):
    fake.missing_cache_code = code
    backend = make(fake, store)
    chat(backend, BIG_SYSTEM)
    fake.caches.clear()  # expired on the server
    text, reply = chat(backend, BIG_SYSTEM)
    assert text == "Hello!"
    (new,) = fake.caches
    assert len(creates(fake)) == 2
    assert [b["cachedContent"] for b in fake.generate_bodies()][-2:] == ["cachedContents/test-cache-1", new]
    assert reply.usage.cached_tokens


def test_new_backend_with_same_state_reuses_stored_cache(fake, store):
    chat(make(fake, store), BIG_SYSTEM)
    (name,) = fake.caches
    chat(make(fake, store), BIG_SYSTEM)
    assert len(creates(fake)) == 1
    assert fake.generate_bodies()[-1]["cachedContent"] == name


def test_too_small_falls_back_to_system_instruction_and_is_remembered(fake, store):
    fake.cache_min_tokens = 100_000
    backend = make(fake, store)
    text, _ = chat(backend, BIG_SYSTEM)
    assert text == "Hello!"
    chat(backend, BIG_SYSTEM)
    assert len(creates(fake)) == 1  # tried once, never again
    for body in fake.generate_bodies():
        assert body["systemInstruction"]["parts"][0]["text"] == BIG_SYSTEM
        assert "cachedContent" not in body
    remembered = json.loads(store.get_state(MIN_STATE))
    assert remembered["min_total_token_count"] == 100_000
    chat(make(fake, store), BIG_SYSTEM)  # a new process remembers too
    assert len(creates(fake)) == 1


def test_small_prompt_below_minimum_never_tries_a_cache(fake, store):
    backend = make(fake, store)
    chat(backend, SMALL_SYSTEM)
    assert creates(fake) == []
    store.set_state(MIN_STATE, json.dumps({"min_total_token_count": 4096, "threshold_estimate": 4096}))
    chat(make(fake, store), BIG_SYSTEM)  # large by default, small for this remembered minimum
    assert creates(fake) == []
    assert fake.generate_bodies()[-1]["systemInstruction"]["parts"][0]["text"] == BIG_SYSTEM


def test_model_without_cache_support_chats_uncached(fake, store):
    fake.no_cache_models.add(MODEL)
    backend = make(fake, store)
    assert chat(backend, BIG_SYSTEM)[0] == "Hello!"
    chat(backend, BIG_SYSTEM)
    assert len(creates(fake)) == 1
    assert all("systemInstruction" in b and "cachedContent" not in b for b in fake.generate_bodies())


# ---- structured output -----------------------------------------------------

def test_structured_output_returns_dict_with_json_mime_and_schema(fake, store):
    schema = {"type": "object", "properties": {"mood": {"type": "string"}, "score": {"type": "integer"}},
              "required": ["mood", "score"]}
    fake.reply_chunks = ['{"mood": "calm", ', '"score": 3}']
    backend = make(fake, store)
    assert backend.complete_json(BIG_SYSTEM, TURNS, schema) == {"mood": "calm", "score": 3}
    (call,) = fake.requests
    assert call["path"].startswith(f"/v1beta/models/{MODEL}:generateContent")
    config = call["body"]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == schema
    assert config["temperature"] == 0.0
    assert call["body"]["systemInstruction"]["parts"][0]["text"] == BIG_SYSTEM
    assert "cachedContent" not in call["body"]


# ---- errors ----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["stream", "structured"])
def test_rate_limit_is_RateLimited(fake, kind):  # noqa: N802 (names the error class)
    fake.error = (429, "RESOURCE_EXHAUSTED")
    backend = make(fake)
    with pytest.raises(RateLimited) as info:
        if kind == "stream":
            chat(backend)
        else:
            backend.complete_json("s", TURNS, {"type": "object"})
    assert "rate limit" in info.value.message and info.value.hint


def test_midstream_error_after_first_chunk(fake):
    fake.mode = "midstream_error"
    reply = make(fake).stream(SMALL_SYSTEM, TURNS)
    pieces = []
    with pytest.raises(BackendError, match="server error") as info:
        for piece in reply:
            pieces.append(piece)
    assert pieces == ["Hel"] and reply.text == "Hel"
    assert type(info.value) is BackendError


@pytest.mark.parametrize("error, expected", [
    ((403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers."), AuthFailed),
    ((400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."), AuthFailed),
    ((500, "INTERNAL", "boom"), BackendError),
    ((400, "INVALID_ARGUMENT", "Request contains an invalid argument."), BackendError),
])
def test_api_errors_are_mapped(fake, error, expected):
    fake.error = error
    with pytest.raises(expected) as info:
        chat(make(fake))
    if expected is BackendError:
        assert type(info.value) is BackendError
    assert info.value.hint


def test_unknown_model_is_ModelNotFound(fake):  # noqa: N802 (names the error class)
    with pytest.raises(ModelNotFound, match="gemini-nope") as info:
        chat(make(fake, model="gemini-nope"))
    assert "gemini.model" in info.value.hint


def test_dead_port_is_BackendUnreachable():  # noqa: N802 (names the error class)
    backend = GeminiBackend(MODEL, api_key=lambda: KEY, base_url=f"http://127.0.0.1:{dead_port()}",
                            timeout_s=2.0)
    with pytest.raises(BackendUnreachable):
        chat(backend)
    with pytest.raises(BackendUnreachable):
        backend.complete_json("s", TURNS, {"type": "object"})


def test_key_never_in_logs_errors_or_state(fake, store, caplog):
    caplog.set_level(logging.DEBUG)
    backend = make(fake, store)
    chat(backend, BIG_SYSTEM)
    chat(backend, OTHER_BIG_SYSTEM)
    fake.error = (400, "INVALID_ARGUMENT", f"API key not valid: {KEY}")  # even if echoed
    with pytest.raises(AuthFailed) as info:
        chat(backend, OTHER_BIG_SYSTEM)
    fake.error = None
    backend.doctor()
    assert fake.requests[0]["headers"]["x-goog-api-key"] == KEY  # the key was really used
    assert KEY not in caplog.text
    assert KEY not in str(info.value) and KEY not in info.value.hint
    values = [v for (v,) in store.db.execute("SELECT value FROM kv").fetchall()]
    assert values and not any(KEY in v for v in values)


# ---- doctor ----------------------------------------------------------------

def test_doctor_with_fake_running(fake, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    secrets = SecretStore()
    backend = GeminiBackend(MODEL, api_key=secrets.gemini_key, base_url=url(fake), timeout_s=5.0)
    report = backend.doctor()
    assert report.ok, report.checks
    assert report.context_length == 1_048_576
    key_check = report.checks[0]
    assert "GEMINI_API_KEY" in key_check.detail and KEY not in key_check.detail
    assert fake.calls("GET", f"/v1beta/models/{MODEL}")


def test_doctor_unknown_model_and_rejected_key(fake):
    report = make(fake, model="gemini-nope").doctor()
    assert not report.ok
    assert [c.name for c in report.checks if not c.ok] == ["model"]
    fake.error = (403, "PERMISSION_DENIED", "Your API key was reported as leaked.")
    report = make(fake).doctor()
    assert [c.name for c in report.checks if not c.ok] == ["key accepted"]


def test_doctor_never_raises_on_dead_port_or_without_key():
    backend = GeminiBackend(MODEL, api_key=lambda: KEY, base_url=f"http://127.0.0.1:{dead_port()}",
                            timeout_s=2.0)
    report = backend.doctor()
    assert not report.ok
    assert any(c.name == "connection" and not c.ok for c in report.checks)
    report = GeminiBackend(MODEL, api_key=lambda: None).doctor()
    assert not report.ok and report.checks[0].name == "api key"
