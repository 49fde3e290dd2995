"""How fast monchat learns the context of a real ``llama_cpp.server``, and what that context buys a flush.

For n_ctx 2,048 and 8,192, llama-cpp-python's own server with the bundled SmolLM2-135M is started as a new user
starts it (no ``--model_alias``: the model id is the GGUF's path). A fresh ``OpenAICompatBackend`` (nothing
remembered) is asked ``context_length()``: the seconds from first contact to the figure are
``context_learn_s_2048`` / ``_8192``; the baseline is one 1-token chat request to the same server. Then a flush of
150 messages is planned (``plan_chunks``, the filters' parts; planning only, nothing is sent) at the context learned
at 8,192, against the 4,096 monchat used for that server before issue 39. ``--smoke`` starts no server.
"""

from __future__ import annotations

import tempfile
import time
from datetime import datetime, timedelta, timezone

FLUSH_MESSAGES = 150
TOPICS = ["green tea in the garden", "a long walk by the river", "the stamp club on Saturday",
          "a rainy commute and a late train", "reading a novel about the sea"]


class _State:
    """The store's get_state/set_state, in memory: nothing remembered from an earlier run."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def get_state(self, key):
        return self.values.get(key)

    def set_state(self, key, value):
        self.values[key] = value


def _messages(count: int):
    from monchat.core.types import Message
    start = datetime(2026, 11, 20, 18, 0, tzinfo=timezone.utc)
    return [Message(id=f"m{n}", ts=(start + timedelta(minutes=n)).isoformat(), role="user" if n % 2 == 0 else
                    "assistant", text=f"Today I thought about {TOPICS[n % len(TOPICS)]}, and it took most of the "
                                      f"afternoon, number {n}.", persona="hana", backend="openai")
            for n in range(count)]


def planned_parts(context: int) -> int:
    """The filters' parts a flush of ``FLUSH_MESSAGES`` messages is planned into at ``context`` tokens."""
    from monchat.app import build_app
    from monchat.core.backends.openai_compat import OpenAICompatBackend
    from monchat.core.flush.orient import select_personas
    from monchat.core.flush.score import build_lines, plan_chunks
    with tempfile.TemporaryDirectory() as home:
        app = build_app(home)
        try:
            personas = [p for p, _ in select_personas(app.personas, app.settings.flush.fixed_personas, 1)]
            backend = OpenAICompatBackend("smollm2", base_url="http://127.0.0.1:9/v1", context_length=context)
            chunks, _notes = plan_chunks(backend, app.prompts, personas,
                                         build_lines(_messages(FLUSH_MESSAGES), timezone.utc))
            return len(chunks)
        finally:
            app.close()


def learn(n_ctx: int) -> dict:
    """Start the real server at ``n_ctx``; the seconds a fresh backend takes to learn its context."""
    import httpx

    from monchat.core.backends.openai_compat import OpenAICompatBackend
    from tests.support.llama_server import running_llama_server
    with running_llama_server(n_ctx, alias=None) as server:
        model = httpx.get(server.url + "/models", timeout=10).json()["data"][0]["id"]
        backend = OpenAICompatBackend(model, base_url=server.url, state=_State())
        started = time.perf_counter()
        context = backend.context_length()
        seconds = time.perf_counter() - started
        source = backend.context_source()
        started = time.perf_counter()
        httpx.post(server.url + "/chat/completions", timeout=120, json={
            "model": model, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1})
        baseline = time.perf_counter() - started
        backend.close()
    return {"context": context, "seconds": round(seconds, 2), "source": source,
            "one_token_request_s": round(baseline, 2), "model_id": model}


def measure(size: str = "full") -> dict:
    out: dict = {"flush_parts_8192": planned_parts(8192), "flush_parts_before_4096": planned_parts(4096),
                 "flush_parts_2048": planned_parts(2048), "flush_messages": FLUSH_MESSAGES}
    if size == "smoke":
        out["context_learn_s_2048"] = out["context_learn_s_8192"] = "skipped in --smoke (it starts no server)"
        return out
    for n_ctx in (2048, 8192):
        found = learn(n_ctx)
        out[f"context_learn_s_{n_ctx}"] = found["seconds"]
        out[f"context_learned_{n_ctx}"] = found["context"]
        out[f"context_source_{n_ctx}"] = found["source"]
        out[f"context_learn_baseline_one_token_s_{n_ctx}"] = found["one_token_request_s"]
        out["model_id"] = found["model_id"]
    return out
