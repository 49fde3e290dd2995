"""Ollama from the app: the installed models (/api/tags) and `monchat pull` with progress and cancel."""

from __future__ import annotations

import threading

import pytest

from monchat.core.backends.ollama import OllamaBackend
from monchat.core.errors import BackendUnreachable
from tests.fakes.fake_ollama import dead_url, running_fake_ollama
from tests.test_cli_backends import run


@pytest.fixture
def fake():
    with running_fake_ollama() as server:
        yield server


def test_the_installed_models_come_from_api_tags(fake):
    fake.installed = {"gemma3:4b", "qwen3:8b"}
    backend = OllamaBackend("gemma3:4b", host=fake.url, timeout_s=5)
    try:
        assert backend.list_models() == ["gemma3:4b", "qwen3:8b"]
    finally:
        backend.close()
    assert any(r["path"] == "/api/tags" for r in fake.requests)


def test_listing_a_stopped_ollama_says_it_is_not_running():
    backend = OllamaBackend("gemma3:4b", host=dead_url(), timeout_s=2)
    with pytest.raises(BackendUnreachable, match="not running"):
        backend.list_models()


def test_pull_reports_each_step_and_ends_installed(fake):
    backend = OllamaBackend("gemma3:4b", host=fake.url, timeout_s=5)
    steps = []
    try:
        assert backend.pull("gemma3:4b", progress=steps.append) is True
    finally:
        backend.close()
    assert [s.status for s in steps] == ["pulling manifest", "pulling abc", "verifying sha256 digest",
                                         "writing manifest", "success"]
    assert steps[1].fraction == 0.5
    pulls = [r for r in fake.requests if r["path"] == "/api/pull"]
    assert pulls[0]["body"]["model"] == "gemma3:4b" and pulls[0]["body"]["stream"] is True


def test_a_cancelled_pull_stops_reading_and_says_so(fake):
    backend = OllamaBackend("gemma3:4b", host=fake.url, timeout_s=5)
    cancel = threading.Event()
    steps = []

    def step(progress):
        steps.append(progress)
        cancel.set()  # the user pressed Cancel after the first step

    try:
        assert backend.pull("gemma3:4b", progress=step, cancel=cancel) is False
    finally:
        backend.close()
    assert len(steps) == 1


def test_monchat_pull_shows_progress_and_says_where_the_model_is(home, fake):
    run(home, "settings", "set", "ollama.host", fake.url)
    done = run(home, "pull", "qwen3:8b")
    assert done.returncode == 0, done.stderr
    assert "pulling abc: 50%" in done.stderr and "writing manifest" in done.stderr
    assert f"qwen3:8b is installed in Ollama at {fake.url}" in done.stdout


def test_monchat_pull_with_ollama_stopped_exits_4(home):
    run(home, "settings", "set", "ollama.host", dead_url())
    done = run(home, "pull", "qwen3:8b")
    assert done.returncode == 4 and "ollama serve" in done.stderr
