"""Shared fixtures: a private MONCHAT_HOME per test, a clean environment, Qt offscreen."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

for _name in ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_GENAI_API_VERSION",
              "GEMINI_API_KEY", "GOOGLE_API_KEY", "OLLAMA_HOST"):
    os.environ.pop(_name, None)
os.environ["NO_PROXY"] = "127.0.0.1,localhost"
os.environ["no_proxy"] = "127.0.0.1,localhost"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own data folder and no real keyring."""
    home = tmp_path / "monchat-home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OLLAMA_HOST"):
        monkeypatch.delenv(name, raising=False)
    yield home


@pytest.fixture
def home(_isolated_home):
    return _isolated_home


@pytest.fixture(autouse=True)
def _no_leftover_log_handlers():
    """`monchat.cli.main` run in-process adds a file handler under that test's home; drop it after."""
    import logging

    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)
