"""A fake Ollama that proposes nothing, set as this test's backend, and a helper that reads a command's ``--json``.

Shared by the CLI tests that chat and flush in-process (``monchat.cli.main``) but are not about what a flush
proposes: the filter answers ``{"items": []}``, and the diary, reflect and the lint's LLM check are off, so a flush
asks the model only what the test is about.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from monchat.cli import main as cli
from tests.fakes.fake_ollama import FakeOllamaServer, running_fake_ollama


def quiet_ollama() -> Iterator[FakeOllamaServer]:
    """For a fixture to ``yield from``: the fake Ollama, already the test's home's ``ollama.host`` (the home is
    ``MONCHAT_HOME``, which tests/conftest.py sets per test); its filter proposes nothing."""
    with running_fake_ollama() as server:
        server.structured_content = json.dumps({"items": []})
        for key, value in (("ollama.host", server.url), ("background.diary", "false"),
                           ("background.reflect", "false"), ("background.lint_llm", "false")):
            assert cli.main(["settings", "set", key, value]) == 0
        yield server


def run_json(capsys, *argv) -> dict | list:
    """``monchat ARGV --json`` in this process: exit 0 and its output parsed."""
    capsys.readouterr()
    assert cli.main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)
