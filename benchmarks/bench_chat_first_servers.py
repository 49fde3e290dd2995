"""Chat goes first on every backend: a chat reply's time during a flush against the stand-in Ollama and
OpenAI-compatible servers, each serving one request at a time like the real ones by default (Ollama's
OLLAMA_NUM_PARALLEL 1, llama_cpp.server, llama-server --parallel 1), each request taking ``call_s``.

For each backend, in the same run:

- ``now``: the backend's own parallelism (``ollama.parallel`` 1; ``openai.parallel`` 0 → 1 for a local server);
- ``before``: the old one (Ollama 4 calls in flight, an OpenAI-compatible local server 2), the baseline.

``chat_during_flush_ratio_<backend>`` is the reply's time during the flush over a chat turn's with nothing else
running; ``flush_s_<backend>`` is the flush's wall time. A server that really answers 4 at once (OLLAMA_NUM_PARALLEL=4,
told in ``ollama.parallel``) is measured too: ``flush_s_four_slots`` now and before, and the flush's time there
when the user did not say so (``ollama.parallel`` left at 1).
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.backends.ollama import OllamaBackend
from monchat.core.backends.openai_compat import OpenAICompatBackend
from monchat.core.types import Message, content_message_id, format_ts
from tests.fakes.fake_openai import running_fake_openai
from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle, Rule

SIZES = {"smoke": (0.05, 4), "quick": (0.2, 8), "full": (0.4, 16)}  # (seconds a request, messages flushed)
RULES = [Rule("coffee", "likes coffee in the morning", "likes.drink")]
BEFORE = {"ollama": 4, "openai": 2}  # calls in flight before: Backend.PARALLEL_CALLS 4, a local OpenAI server 2


def _oracle_answer(oracle: Oracle):
    def answer(body: dict) -> str:
        messages = body.get("messages") or []
        system = "\n".join(m.get("content", "") for m in messages if m.get("role") == "system")
        user = "\n".join(m.get("content", "") for m in messages if m.get("role") == "user")
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
        return json.dumps(oracle.respond(system, user, schema), ensure_ascii=False)
    return answer


def _backend(kind: str, server, parallel: int):
    if kind == "ollama":
        return OllamaBackend("llama3.2", host=server.url, timeout_s=60, parallel=parallel)
    return OpenAICompatBackend("qwen2.5-7b-instruct", base_url=server.url, timeout_s=60, parallel=parallel)


def _server(kind: str):
    if kind == "ollama":
        return running_oracle_ollama(Oracle(RULES))
    return running_fake_openai()


def _timed_turn(app, text: str) -> float:
    started = time.perf_counter()
    app.chat.send(text, persona_id="hana")
    return time.perf_counter() - started


def run_once(kind: str, parallel: int, slots: int, call_s: float, messages: int, chat: bool = True) -> dict:
    """One home, one flush of ``messages`` against a server answering ``slots`` requests at once; with ``chat``,
    a chat turn half a request into the flush."""
    with tempfile.TemporaryDirectory(prefix="monchat-bench-chat-first-") as home, _server(kind) as server:
        if kind == "openai":
            server.models = ["qwen2.5-7b-instruct"]
            server.structured_reply = _oracle_answer(Oracle(RULES))
        server.model.size, server.model.seconds = slots, call_s
        backend = _backend(kind, server, parallel)
        app = build_app(home, pinned_backend=backend)
        try:
            start = datetime.now(timezone.utc) - timedelta(days=1)
            for n in range(messages):
                ts = format_ts(start + timedelta(minutes=10 * n))
                text = f"message {n}: coffee in the morning, a walk after lunch"
                app.logbook.append(Message(id=content_message_id(ts, "user", text, "hana"), ts=ts, role="user",
                                           text=text, persona="hana"))
            if chat:
                _timed_turn(app, "the first turn (reads and counts the window)")
            alone = _timed_turn(app, "a turn with nothing else running") if chat else 0.0
            served_before = len(server.model.order)
            started = time.perf_counter()
            flush = threading.Thread(target=app.flush.run)
            flush.start()
            during = 0.0
            if chat:
                while "json" not in server.model.order[served_before:]:
                    time.sleep(0.002)
                time.sleep(call_s / 2)
                during = _timed_turn(app, "a turn during the flush")
            flush.join(900)
            wall = time.perf_counter() - started
            order = server.model.order[served_before:]
            ahead = order.index("chat") - order.index("json") if chat else 0
            return {"alone_s": alone, "during_s": during, "flush_s": wall, "calls": order.count("json"),
                    "requests_before_the_chat_turn": ahead, "most_at_once": server.model.most}
        finally:
            app.close()
            backend.close()


def measure(size: str = "full") -> dict:
    call_s, messages = SIZES[size]
    out: dict = {"chat_first_servers_call_s": call_s, "chat_first_servers_messages": messages}
    for kind in ("ollama", "openai"):
        for label, parallel in (("now", 0 if kind == "openai" else 1), ("before", BEFORE[kind])):
            run = run_once(kind, parallel, 1, call_s, messages)
            out[f"{kind}_{label}"] = {k: round(v, 3) if isinstance(v, float) else v for k, v in run.items()}
        for label in ("now", "before"):
            run = out[f"{kind}_{label}"]
            out[f"chat_during_flush_ratio_{kind}_{label}"] = round(run["during_s"] / run["alone_s"], 2)
            out[f"flush_s_{kind}_{label}"] = run["flush_s"]
    # A server that answers four at once: told (ollama.parallel 4) it is sent four, as before; not told, one.
    for label, parallel in (("now", 4), ("before", BEFORE["ollama"]), ("untold", 1)):
        run = run_once("ollama", parallel, 4, call_s, messages, chat=False)
        out[f"flush_s_four_slots_{label}"] = round(run["flush_s"], 3)
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1] if len(sys.argv) > 1 else "quick"), indent=1))
