"""One list of secrets, name by name and at its edges (issue 44: tests that bite).

Each test here kills a mutant of ``core/redact.py`` that every other test let live: one environment variable
dropped from the list, a key contained in a longer key (the shorter replaced first leaves the rest of the
longer showing), the length below which a value is no key, the environment's keys forgotten once another key
is registered, and the report and last-resort paths (``redact_tree``, ``redact_last_resort``).
"""

from __future__ import annotations

import logging

import pytest

from monchat.core import redact as redact_module
from monchat.core.redact import HIDDEN, MIN_KEY_CHARS, redact, redact_last_resort, redact_tree, register

# The variables docs/guarantees.md names, written out: a name dropped from SECRET_VARIABLES fails its own case.
DOCUMENTED = ["OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
              "MONCHAT_SYNC_PASSPHRASE"]


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    """No variable of the list set, and the registry as it was afterwards."""
    for name in DOCUMENTED:
        monkeypatch.delenv(name, raising=False)
    before = set(redact_module._registered)
    yield
    with redact_module._lock:
        redact_module._registered.clear()
        redact_module._registered.update(before)


@pytest.mark.parametrize("variable", DOCUMENTED)
def test_each_documented_variables_key_is_hidden(monkeypatch, variable):
    key = f"plain{variable.lower()}value"  # no key shape (sk-…, hf_…, AIza…): only the list can hide it
    monkeypatch.setenv(variable, key)
    said = redact(f"Incorrect API key provided: {key}. See the docs.")
    assert key not in said and HIDDEN in said


@pytest.mark.parametrize("variable", DOCUMENTED)
def test_the_environments_key_stays_hidden_once_another_key_is_registered(monkeypatch, variable):
    register("a-registered-keyring-value")
    key = f"envonly{variable.lower()}"
    monkeypatch.setenv(variable, key)
    assert redact(f"{key} and a-registered-keyring-value") == f"{HIDDEN} and {HIDDEN}"


@pytest.mark.parametrize("shorter, longer", [
    ("mysecretvalue1", "mysecretvalue1-and-more"),  # the shorter is the longer's start
    ("mysecretvalue2", "AAmysecretvalue2"),  # … its end (and sorts before it by its letters)
    ("mysecretvalue3", "Zmysecretvalue3Z"),  # … its middle
])
def test_a_key_contained_in_a_longer_key_leaves_nothing_of_the_longer_showing(monkeypatch, shorter, longer):
    monkeypatch.setenv("OPENAI_API_KEY", shorter)
    monkeypatch.setenv("GEMINI_API_KEY", longer)
    assert redact(f"sent {longer} then {shorter}.") == f"sent {HIDDEN} then {HIDDEN}."
    register(longer + "-registered")
    assert redact(f"[{longer}-registered]") == f"[{HIDDEN}]"


def test_a_value_of_the_minimum_length_is_a_key_and_one_shorter_is_not(monkeypatch):
    key = "k" * MIN_KEY_CHARS
    short = "q" * (MIN_KEY_CHARS - 1)
    monkeypatch.setenv("OPENAI_API_KEY", key)
    monkeypatch.setenv("GEMINI_API_KEY", short)
    assert redact(f"{key} {short}") == f"{HIDDEN} {short}"
    registered, too_short = "r" * MIN_KEY_CHARS, "s" * (MIN_KEY_CHARS - 1)
    register(registered)
    register(too_short)
    assert redact(f"{registered} {too_short}") == f"{HIDDEN} {too_short}"


def test_the_minimum_is_small_enough_for_any_real_key():
    assert 4 <= MIN_KEY_CHARS <= 16


@pytest.mark.parametrize("nothing", [None, "", "   "])
def test_registering_nothing_is_harmless(nothing):
    register(nothing)
    assert redact("none of it") == "none of it"


@pytest.mark.parametrize("value", [None, "", 0, 42])
def test_what_is_not_text_comes_back_as_it_was(value):
    assert redact(value) == value


def test_a_report_of_dicts_lists_and_tuples_is_hidden_throughout(monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "tokenvalue-in-a-report")
    report = {"error": "tokenvalue-in-a-report was refused", "checks": [
        {"name": "hub", "detail": ("ok", "Authorization: Bearer tokenvalue-in-a-report")}, 3, None]}
    hidden = redact_tree(report)
    assert "tokenvalue-in-a-report" not in repr(hidden)
    assert hidden["error"] == f"{HIDDEN} was refused"
    assert isinstance(hidden["checks"][0]["detail"], tuple) and hidden["checks"][1:] == [3, None]
    assert redact_tree("plain") == "plain" and redact_tree(7) == 7


def test_what_logging_prints_before_monchats_handler_hides_keys(monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "lastresortkeyvalue")
    handler = logging.lastResort
    assert handler is not None
    monkeypatch.setattr(handler, "formatter", None)
    redact_last_resort()
    formatter = handler.formatter
    redact_last_resort()  # again: the same formatter stays
    assert handler.formatter is formatter
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "key %s", ("lastresortkeyvalue",), None)
    assert handler.format(record) == f"key {HIDDEN}"


NEVER = "never-registered-credential-4711"


@pytest.mark.parametrize("name", ["key", "api_key", "access_token", "token"])
@pytest.mark.parametrize("joined_by", ["?", "&"])
def test_each_secret_query_parameter_is_hidden_by_its_own_name(name, joined_by):
    # A URL a server echoes in its error ("GET /v1/x?access_token=…"): each name of the list, first or later.
    url = f"GET /v1/models{'?page=2' if joined_by == '&' else ''}{joined_by}{name}={NEVER}&x=1 HTTP/1.1"
    assert redact(url) == url.replace(NEVER, HIDDEN)


@pytest.mark.parametrize("name", ["Authorization", "Proxy-Authorization", "api-key", "X-Api-Key", "x-goog-api-key"])
def test_each_secret_header_is_hidden_by_its_own_name(name):
    assert redact(f"{name}: {NEVER}") == f"{name}: {HIDDEN}"
    assert redact(f"{name}: Bearer {NEVER}") == f"{name}: Bearer {HIDDEN}"


def test_a_parameter_that_only_ends_like_a_secret_one_is_left_alone():
    assert redact("GET /search?monkey=banana&tokens=3 HTTP/1.1") == "GET /search?monkey=banana&tokens=3 HTTP/1.1"
