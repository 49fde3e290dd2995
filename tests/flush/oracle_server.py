"""The fake Ollama server with one more knob: structured calls answered by an oracle.

``tests/fakes/fake_ollama.py`` answers every ``format`` request with the same
``structured_content``. For a flush through the real ``ollama`` client the
filter and judge calls must be answered by what they ask, so this server hands
them to ``server.oracle`` (a ``tests.support.oracle.Oracle``): its ``respond``
reads the system prompt, the user turn and the schema of the request body.
Everything else (chat streams, /api/show, records of requests) is the fake's.

Two more knobs play a model that misbehaves in one kind of call only (``kind`` as
``tests.support.oracle.kind_of`` names it: filter, judge, reflect, diary, digest, lint):

    server.tamper[kind]       f(the oracle's answer) -> the content sent instead (malformed, forged,
                              over-long …), or (content, "length") for an answer cut off at its limit
    server.kind_faults[kind]  faults for the next requests of that kind only: ("status", CODE, MESSAGE)
                              or ("reset",), as in ``server.faults``
"""

from __future__ import annotations

import contextlib
import json
from typing import Iterator

from tests.fakes import http
from tests.fakes.fake_ollama import FakeOllamaServer, Handler, reset_connection
from tests.support.oracle import kind_of


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
        kind = kind_of(body.get("format") or {})
        with self.server.lock:
            faults = self.server.kind_faults.get(kind) or []
            fault = faults.pop(0) if faults else None
        if fault is not None and fault[0] == "status":
            return self._send_json(fault[1], {"error": fault[2]})
        if fault is not None and fault[0] == "reset":
            return reset_connection(self)
        try:
            answer = oracle.respond(system, user, body.get("format") or {})
        except Exception as exc:  # noqa: BLE001 (the oracle's own failure: recorded, answered as a server error)
            with self.server.lock:
                self.server.errors.append(exc)
            return self._send_json(500, {"error": f"oracle failed: {exc}"})
        content, done_reason = json.dumps(answer, ensure_ascii=False), "stop"
        tamper = self.server.tamper.get(kind)
        if tamper is not None:
            content = tamper(answer)
            if isinstance(content, tuple):
                content, done_reason = content
        line = {"model": model, "created_at": "2025-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": content}, "done": True, "done_reason": done_reason,
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
        self.tamper: dict = {}  # kind -> f(answer) -> content, or (content, done_reason)
        self.kind_faults: dict = {}  # kind -> faults for that kind's next requests


@contextlib.contextmanager
def running_oracle_ollama(oracle) -> Iterator[OracleOllamaServer]:
    """A loopback Ollama whose structured answers come from ``oracle``."""
    with http.serving(OracleOllamaServer(("127.0.0.1", 0), oracle)) as server:
        yield server
