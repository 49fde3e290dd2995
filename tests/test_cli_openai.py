"""`monchat --backend openai` as a user runs it: a subprocess, the real ``openai`` client, a loopback server.

These are the issue's "done when": chat streams with one system prompt across turns, a flush
uses JSON-schema requests, a wrong key exits 4 with the message kept, and the automatic choice
never picks a cloud.
"""

from __future__ import annotations

import json

import pytest

from tests.fakes.fake_ollama import dead_url
from tests.fakes.fake_openai import running_fake_openai
from tests.support.oracle import Oracle, Rule
from tests.test_cli_backends import logged, run

MODEL = "qwen2.5-7b-instruct"


def answered_by(oracle: Oracle):
    """The fake's structured replies, worked out by the oracle from the request (as a model would)."""
    def reply(body: dict) -> str:
        messages = body["messages"]
        system = "\n".join(m["content"] for m in messages if m["role"] == "system")
        user = "\n".join(m["content"] for m in messages if m["role"] == "user")
        schema = (body["response_format"].get("json_schema") or {}).get("schema") or body["response_format"].get(
            "schema")  # json_object sends it too (llama.cpp servers constrain the answer to it)
        if schema is None:  # else it is stated in the system text, as a model reads it
            stated = system.rsplit("matching this schema: ", 1)[-1]
            schema = json.JSONDecoder().raw_decode(stated)[0] if stated != system else {}
        return json.dumps(oracle.respond(system, user, schema), ensure_ascii=False)
    return reply


@pytest.fixture
def server():
    with running_fake_openai() as fake:
        yield fake
        assert fake.errors == []


def test_chat_streams_through_the_server_with_one_system_prompt_across_turns(home, server):
    assert run(home, "settings", "set", "openai.base_url", server.url).returncode == 0
    done = run(home, "--backend", "openai", "--model", MODEL, "chat", stdin="おはよう\n元気？\n")

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Hello", "Hello"]
    chats = server.chat_requests()
    assert len(chats) == 2 and all(c["body"]["stream"] for c in chats)
    systems = [c["body"]["messages"][0] for c in chats]
    assert systems[0]["role"] == "system" and systems[0] == systems[1]
    assert [m["content"] for m in chats[1]["body"]["messages"][1:]] == ["おはよう", "Hello", "元気？"]
    lines = logged(home)
    assert [(m["role"], m["text"], m["backend"]) for m in lines] == [
        ("user", "おはよう", "openai"), ("assistant", "Hello", "openai"),
        ("user", "元気？", "openai"), ("assistant", "Hello", "openai")]
    assert lines[1]["usage"]["cached_tokens"] == 96  # prompt_tokens_details.cached_tokens is recorded


def test_the_base_url_comes_from_openai_base_url_in_the_environment(home, server):
    done = run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "hi",
               env={"OPENAI_BASE_URL": server.url})
    assert done.returncode == 0, done.stderr
    assert len(server.chat_requests()) == 1


def test_a_flush_through_the_server_uses_json_schema_requests(home, server):
    oracle = Oracle([Rule("すき焼き", "すき焼きをよく食べる", "food/sukiyaki", kind="explicit", score=0.9)])
    server.structured_reply = answered_by(oracle)
    run(home, "settings", "set", "openai.base_url", server.url)
    assert run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "覚えて：すき焼きが大好き").returncode == 0

    done = run(home, "--backend", "openai", "--model", MODEL, "flush", "--json")

    assert done.returncode == 0, done.stderr
    structured = [r["body"] for r in server.chat_requests() if "response_format" in r["body"]]
    assert structured and all(b["response_format"]["type"] == "json_schema" for b in structured)
    assert all(b["response_format"]["json_schema"]["schema"]["type"] == "object" for b in structured)
    listed = run(home, "--backend", "openai", "--model", MODEL, "memory", "list", "--json")
    assert "すき焼きをよく食べる" in listed.stdout


def test_a_flush_through_a_server_without_schemas_falls_back_to_json_object(home, server):
    server.schema_support = False
    server.structured_reply = answered_by(Oracle([Rule("紅茶", "紅茶が好き", "drink/tea", kind="explicit")]))
    run(home, "settings", "set", "openai.base_url", server.url)
    run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "紅茶が好きなんだ")

    done = run(home, "--backend", "openai", "--model", MODEL, "flush")

    assert done.returncode == 0, done.stderr
    formats = [r["body"]["response_format"]["type"] for r in server.chat_requests() if "response_format" in r["body"]]
    assert formats.count("json_schema") == 1 and formats[1:] == ["json_object"] * (len(formats) - 1)
    assert "紅茶が好き" in run(home, "--backend", "openai", "--model", MODEL, "memory", "list").stdout


def test_a_wrong_key_exits_4_with_the_message_kept(home, server):
    server.api_key = "sk-right"
    run(home, "settings", "set", "openai.base_url", server.url)
    done = run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "聞こえる？",
               env={"OPENAI_API_KEY": "sk-wrong"})

    assert done.returncode == 4
    assert "did not accept the API key" in done.stderr and "OPENAI_API_KEY" in done.stderr
    assert "sk-wrong" not in done.stderr
    assert [(m["role"], m["text"]) for m in logged(home)] == [("user", "聞こえる？")]


def test_no_server_names_the_url_and_lm_studio_and_exits_4(home):
    url = dead_url() + "/v1"
    run(home, "settings", "set", "openai.base_url", url)
    done = run(home, "--backend", "openai", "--model", MODEL, "chat", "-m", "いる？")
    assert done.returncode == 4
    assert url in done.stderr and "is LM Studio's server running?" in done.stderr
    assert [(m["role"], m["text"]) for m in logged(home)] == [("user", "いる？")]


def test_a_missing_model_lists_the_models_the_server_has(home, server):
    run(home, "settings", "set", "openai.base_url", server.url)
    done = run(home, "--backend", "openai", "--model", "llama-3-70b", "chat", "-m", "hi")
    assert done.returncode == 4
    assert "llama-3-70b" in done.stderr and MODEL in done.stderr


def test_with_only_a_gemini_key_and_no_local_server_the_automatic_choice_is_not_gemini(home):
    nothing = {"GEMINI_API_KEY": "test-key", "OLLAMA_HOST": dead_url(), "OPENAI_BASE_URL": dead_url() + "/v1"}
    done = run(home, "status", "--json", env=nothing)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["backend"] == "embedded"
    assert status["memory_goes_to"]["local"] is True


def test_the_automatic_choice_takes_a_local_openai_server_when_ollama_is_down(home, server):
    done = run(home, "status", "--json", env={"OLLAMA_HOST": dead_url(), "OPENAI_BASE_URL": server.url})
    status = json.loads(done.stdout)
    assert status["backend"] == "openai"
    # with openai.model empty, the server's first chat model answers; status names it (found asking its size)
    assert status["memory_goes_to"] == {"backend": "openai", "model": MODEL, "where": server.url, "local": True,
                                        "contacted": True, "held": ""}


def test_status_and_doctor_say_a_chosen_cloud_is_not_local(home):
    env = {"GEMINI_API_KEY": "test-key"}
    status = run(home, "--backend", "gemini", "status", env=env)
    assert "privacy:   your memory is sent to gemini (gemini-2.5-flash) at https://generativelanguage" \
        in status.stdout and "NOT local" in status.stdout
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    doctor = run(home, "--backend", "gemini", "doctor", "--json",
                 env=dict(env, OLLAMA_HOST=dead_url(), OPENAI_BASE_URL=dead_url() + "/v1"))
    privacy = next(s for s in json.loads(doctor.stdout)["sections"] if s["title"] == "privacy")
    assert "NOT local" in privacy["checks"][0]["detail"]


def test_a_remote_openai_server_is_never_chosen_automatically(home, monkeypatch):
    from monchat.app import build_app
    monkeypatch.setenv("OPENAI_BASE_URL", "https://openrouter.ai/api/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-or-test")
    monkeypatch.setenv("OLLAMA_HOST", dead_url())
    app = build_app(str(home))
    try:
        assert app.backends.chosen_name() == "embedded"
        assert not app.backends.get("openai").is_local()
    finally:
        app.close()
