"""What counts as local, the cloud question's memory, and which links a click may open."""

from __future__ import annotations

import pytest

from monchat.app import build_app
from monchat.core.chat.links import openable_link
from monchat.core.privacy.cloud import CloudConsent, Destination, is_local_url
from monchat.core.settings import set_value


@pytest.mark.parametrize("url, local", [
    ("http://127.0.0.1:1234/v1", True), ("http://localhost:11434", True), ("http://[::1]:8080/v1", True),
    ("http://192.168.1.20:1234/v1", True), ("http://10.0.0.5:8000/v1", True), ("http://172.16.3.1/v1", True),
    ("http://169.254.10.1/v1", True), ("http://[fd00::5]:1234/v1", True), ("http://gpu-box:1234/v1", True),
    ("http://studio.local:1234/v1", True), ("http://nas.home.arpa/v1", True), ("127.0.0.1:11434", True),
    ("https://openrouter.ai/api/v1", False), ("https://api.openai.com/v1", False), ("http://8.8.8.8/v1", False),
    ("https://generativelanguage.googleapis.com", False), ("", False), ("http://[::ffff:8.8.8.8]/", False),
])
def test_local_means_this_computer_or_the_local_network(url, local):
    assert is_local_url(url) is local


class State(dict):
    def get_state(self, key):
        return self.get(key)

    def set_state(self, key, value):
        if value is None:
            self.pop(key, None)
        else:
            self[key] = value


def test_consent_is_asked_once_per_cloud_destination_and_never_for_a_local_one():
    consent = CloudConsent(State())
    gemini = Destination("gemini", "gemini-2.5-flash", "https://generativelanguage.googleapis.com", False)
    router = Destination("openai", "x", "https://openrouter.ai/api/v1", False)
    local = Destination("ollama", "gemma3:4b", "http://127.0.0.1:11434", True)
    assert consent.needed(gemini) and consent.needed(router) and not consent.needed(local)
    consent.grant(gemini)
    assert not consent.needed(gemini) and consent.needed(router)
    consent.revoke(gemini)
    assert consent.needed(gemini)


def test_the_planned_destination_needs_no_request(home):
    app = build_app(str(home))
    try:
        assert app.backends.planned_destination() is None  # automatic: always local
        set_value(app.settings, "backend.name", "gemini")
        app.backends.reset()
        planned = app.backends.planned_destination()
        assert planned.backend == "gemini" and planned.local is False
        hana = app.personas.surface_persona("hana")
        hana.backend, hana.model = "openai", "m"
        set_value(app.settings, "openai.base_url", "http://192.168.0.9:1234/v1")
        app.backends.reset()
        assert app.backends.planned_destination(hana).to_dict() == {
            "backend": "openai", "model": "m", "where": "http://192.168.0.9:1234/v1", "local": True}
    finally:
        app.close()


@pytest.mark.parametrize("url, opens", [
    ("https://example.com/a?b=1", True), ("http://example.com", True), ("HTTPS://EXAMPLE.COM/", True),
    ("file:///etc/passwd", False), ("javascript:alert(1)", False), ("ftp://example.com/x", False),
    ("smb://server/share", False), ("data:text/html,hi", False), ("http://", False), ("mailto:a@b.c", False),
    ("", False), ("/relative/path", False),
])
def test_only_http_and_https_links_with_a_host_may_open(url, opens):
    target = openable_link(url)
    assert (target is not None) is opens
    if target:
        assert target.url == url and target.host.lower() == "example.com"
