"""The automatic choice's plain-HTTP checks ask what the adapters' ``probe()`` asks, against the fake servers."""

from __future__ import annotations

from monchat.core.backends import autoprobe
from tests.fakes.fake_ollama import dead_url, running_fake_ollama
from tests.fakes.fake_openai import running_fake_openai


def test_ollama_answers_yes_only_when_it_has_the_model():
    with running_fake_ollama() as server:
        assert autoprobe.ollama_has_model(server.url, "llama3.2") is True
        assert autoprobe.ollama_has_model(server.url, "nope") is False
        shows = [r for r in server.requests if r["path"] == "/api/show"]
        assert [r["body"] for r in shows] == [{"model": "llama3.2"}, {"model": "nope"}]
    assert autoprobe.ollama_has_model(dead_url(), "llama3.2") is False


def test_an_openai_server_is_asked_for_its_models_and_the_key_only_when_it_wants_one():
    asked = []

    def key():
        asked.append(True)
        return "sk-right"

    with running_fake_openai() as server:
        model = server.models[0]
        assert autoprobe.openai_has_model(server.url, model, key) is True
        assert autoprobe.openai_has_model(server.url, "", key) is True  # no model set: any chat model
        assert autoprobe.openai_has_model(server.url, "nope", key) is False
        assert asked == []  # a server that wants no key never makes monchat read the keyring
        server.api_key = "sk-right"
        assert autoprobe.openai_has_model(server.url, model, key) is True
        assert asked == [True]
        assert autoprobe.openai_has_model(server.url, model, lambda: "sk-wrong") is False
        assert autoprobe.openai_has_model(server.url, model, lambda: None) is False


def test_a_server_that_answers_nonsense_is_not_chosen():
    with running_fake_ollama() as server:  # its /v1/models is a 404 with a JSON error, not a model list
        assert autoprobe.openai_has_model(server.url + "/v1", "", lambda: None) is False
