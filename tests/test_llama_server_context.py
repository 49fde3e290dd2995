"""The real ``llama_cpp.server``, started as a new user starts it (no ``--model_alias``: the model id is the GGUF's
path), at n_ctx 2,048 and 8,192: a fresh backend learns the server's own figure (8,192 is 8,192, not the 4,096 it
was capped at) from one probe it refuses without evaluating, and calls the 135M model small from its id. Timings
are ``benchmarks/run --only context`` figures, not asserted here."""

from __future__ import annotations

import httpx
import pytest

from monchat.core.backends.openai_compat import OpenAICompatBackend
from tests.support.llama_server import running_llama_server
from tests.test_backend_openai import MemoryState

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.mark.parametrize("n_ctx", [2048, 8192])
def test_a_new_users_llama_cpp_server_is_learned_at_its_own_context_and_its_model_called_small(n_ctx):
    with running_llama_server(n_ctx, alias=None) as server:
        model = httpx.get(server.url + "/models", timeout=10).json()["data"][0]["id"]
        assert model.endswith("SmolLM2-135M-Instruct.Q4_1.gguf")  # the path: nothing states a size or context
        backend = OpenAICompatBackend(model, base_url=server.url, state=MemoryState())
        try:
            assert backend.context_length() == n_ctx and not backend.context_assumed()
            size = backend.model_size()
            assert size is not None and size.small and size.label == "135M"
        finally:
            backend.close()
