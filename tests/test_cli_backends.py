"""`monchat chat` as a user runs it, in a subprocess, through each backend's real client.

Ollama and Gemini answer from loopback fakes (tests/fakes); the embedded model is real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.consent import agree_to_cloud
from tests.fakes import fake_gemini
from tests.fakes.fake_ollama import dead_url, running_fake_ollama


def run(home: Path, *args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, MONCHAT_HOME=str(home), TZ="UTC", **(env or {}))
    return subprocess.run([sys.executable, "-m", "monchat", *args], input=stdin, capture_output=True,
                          text=True, env=full_env, timeout=300)


def logged(home: Path) -> list[dict]:
    return [json.loads(line) for path in sorted((home / "logs").glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_ollama_two_turns_are_two_calls_with_the_same_system_prompt(home):
    with running_fake_ollama() as server:
        assert run(home, "settings", "set", "ollama.host", server.url).returncode == 0
        done = run(home, "--backend", "ollama", "--model", "llama3.2", "chat", stdin="おはよう\n元気？\n")
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ["Hello", "Hello"]
        chats = server.chat_requests()
    assert len(chats) == 2
    systems = [c["body"]["messages"][0] for c in chats]
    assert systems[0]["role"] == "system" and systems[0] == systems[1]
    assert all(c["body"]["options"]["num_ctx"] == 8192 and c["body"]["keep_alive"] == "30m" for c in chats)
    # the second call carries the first turn as history (Layer 3)
    assert [m["content"] for m in chats[1]["body"]["messages"][1:]] == ["おはよう", "Hello", "元気？"]
    assert [(m["role"], m["text"]) for m in logged(home)] == [
        ("user", "おはよう"), ("assistant", "Hello"), ("user", "元気？"), ("assistant", "Hello")]


def test_a_stopped_ollama_is_named_and_the_message_stays_logged(home):
    run(home, "settings", "set", "ollama.host", dead_url())
    done = run(home, "--backend", "ollama", "chat", "-m", "誰かいる？")
    assert done.returncode != 0
    assert "Ollama is not running" in done.stderr and "ollama serve" in done.stderr
    assert [(m["role"], m["text"]) for m in logged(home)] == [("user", "誰かいる？")]


def test_a_missing_ollama_model_says_how_to_pull_it(home):
    with running_fake_ollama() as server:
        run(home, "settings", "set", "ollama.host", server.url)
        done = run(home, "--backend", "ollama", "--model", "qwen3:8b", "chat", "-m", "hi")
    assert done.returncode != 0
    assert "ollama pull qwen3:8b" in done.stderr


def test_gemini_answers_with_the_key_from_the_environment(home):
    server = fake_gemini.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        run(home, "settings", "set", "gemini.base_url", base)
        agree_to_cloud(home, "gemini")  # Gemini is a cloud: the terminal asks once (tests/test_restore_consent.py)
        done = run(home, "--backend", "gemini", "chat", stdin="hello\nagain\n", env={"GEMINI_API_KEY": "test-key"})
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ["Hello!", "Hello!"]
        generates = [r for r in server.requests if ":streamGenerateContent" in r["path"]]
    finally:
        server.shutdown()
        server.server_close()
    assert len(generates) == 2
    assert all(r["path"].startswith("/v1beta/") for r in generates)  # api_version is explicit
    assert generates[0]["body"]["systemInstruction"] == generates[1]["body"]["systemInstruction"]
    assert "test-key" not in (home / "settings.toml").read_text(encoding="utf-8")


def test_gemini_without_a_key_says_where_to_put_one(home):
    agree_to_cloud(home, "gemini")
    done = run(home, "--backend", "gemini", "chat", "-m", "hi")
    assert done.returncode != 0
    assert "GEMINI_API_KEY" in done.stderr


def test_the_embedded_model_answers_with_no_server(home):
    pytest.importorskip("llama_cpp", reason="the embedded extra is not installed")
    run(home, "settings", "set", "embedded.max_tokens", "24")
    done = run(home, "--backend", "embedded", "chat", "--persona", "mira", "-m", "Hello! How are you?")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert [m["role"] for m in logged(home)] == ["user", "assistant"]
    assert logged(home)[1]["backend"] == "embedded"


def test_automatic_choice_takes_a_running_ollama_first(home):
    with running_fake_ollama() as server:
        run(home, "settings", "set", "ollama.host", server.url)
        run(home, "settings", "set", "ollama.model", "llama3.2")
        status = json.loads(run(home, "status", "--json").stdout)
    assert status["backend"] == "ollama" and status["model"] == "llama3.2"


def test_automatic_choice_falls_back_to_the_embedded_model(home):
    pytest.importorskip("llama_cpp", reason="the embedded extra is not installed")
    run(home, "settings", "set", "ollama.host", dead_url())
    status = json.loads(run(home, "status", "--json").stdout)
    assert status["backend"] == "embedded"


def test_a_changed_ollama_host_takes_effect_after_the_registry_is_reset(home):
    from monchat.app import build_app

    app = build_app(str(home))
    with running_fake_ollama() as first, running_fake_ollama() as second:
        app.settings.ollama.host = first.url
        before = app.backends.get("ollama", "llama3.2")
        app.settings.ollama.host = second.url
        assert app.backends.get("ollama", "llama3.2") is before  # built once, kept
        app.backends.reset()
        after = app.backends.get("ollama", "llama3.2")
        assert after is not before and after.host == second.url
    app.close()


def test_gemini_caches_a_large_system_prompt_and_logs_the_cached_tokens(home):
    folder = home / "personas" / "surface"
    folder.mkdir(parents=True, exist_ok=True)
    long_text = "You are a patient tutor who explains things step by step. " * 200
    (folder / "tutor.toml").write_text(f'id = "tutor"\nname = "Tutor"\nlanguage = "en"\nsystem = """{long_text}"""\n',
                                       encoding="utf-8")
    server = fake_gemini.start()
    try:
        run(home, "settings", "set", "gemini.base_url", f"http://127.0.0.1:{server.server_address[1]}")
        agree_to_cloud(home, "gemini", "tutor")
        done = run(home, "--backend", "gemini", "chat", "--persona", "tutor", stdin="one\ntwo\n",
                   env={"GEMINI_API_KEY": "test-key"})
        assert done.returncode == 0, done.stderr
        creates = [r for r in server.requests if r["method"] == "POST" and r["path"].endswith("/cachedContents")]
        generates = [r for r in server.requests if ":streamGenerateContent" in r["path"]]
    finally:
        server.shutdown()
        server.server_close()
    assert len(creates) == 1 and len(generates) == 2
    assert all("cachedContent" in g["body"] and "systemInstruction" not in g["body"] for g in generates)
    replies = [m for m in logged(home) if m["role"] == "assistant"]
    assert len(replies) == 2 and all(r["usage"]["cached_tokens"] > 0 for r in replies)
