"""The fake Ollama server with one more knob: structured calls answered by an oracle.

``tests/fakes/fake_ollama.py`` answers every ``format`` request with the same
``structured_content``. For a flush through the real ``ollama`` client the
filter and judge calls must be answered by what they ask, so this server hands
them to ``server.oracle`` (a ``tests.support.oracle.Oracle``): its ``respond``
reads the system prompt, the user turn and the schema of the request body.
Everything else (chat streams, /api/show, records of requests) is the fake's.
"""

from __future__ import annotations

import contextlib
import json
import threading
from typing import Iterator

from tests.fakes.fake_ollama import FakeOllamaServer, Handler


class OracleHandler(Handler):
    def _read_json(self):
        self._body = super()._read_json()
        return self._body

    def _chat(self, model, streaming, structured):
        oracle = self.server.oracles.get(model, self.server.oracle)
        if not structured or oracle is None:
            return super()._chat(model, streaming, structured)
        body = self._body or {}
        messages = body.get("messages") or []
        system = "\n".join(m.get("content", "") for m in messages if m.get("role") == "system")
        user = "\n".join(m.get("content", "") for m in messages if m.get("role") == "user")
        try:
            answer = oracle.respond(system, user, body.get("format") or {})
        except Exception as exc:  # the oracle's own failure: recorded, answered as a server error
            with self.server.lock:
                self.server.errors.append(exc)
            return self._send_json(500, {"error": f"oracle failed: {exc}"})
        content = json.dumps(answer, ensure_ascii=False)
        line = {"model": model, "created_at": "2025-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": content}, "done": True, "done_reason": "stop",
                "prompt_eval_count": self.server.prompt_eval_count, "eval_count": 1}
        if streaming:
            return self._send_ndjson([line])
        return self._send_json(200, line)


class OracleOllamaServer(FakeOllamaServer):
    """``oracle`` answers every model's structured calls, unless ``oracles[model]`` names another."""

    def __init__(self, address, oracle=None):
        super().__init__(address)
        self.RequestHandlerClass = OracleHandler
        self.oracle = oracle
        self.oracles: dict = {}


@contextlib.contextmanager
def running_oracle_ollama(oracle) -> Iterator[OracleOllamaServer]:
    """A loopback Ollama whose structured answers come from ``oracle``."""
    server = OracleOllamaServer(("127.0.0.1", 0), oracle)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
