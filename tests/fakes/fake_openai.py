"""A small fake OpenAI-compatible server for tests (standard library only).

It imitates what the official ``openai`` client uses of LM Studio, llama.cpp's
``llama-server``, vLLM and OpenRouter, and how they behave at their worst:

    GET  /v1/models             {"object": "list", "data": [{"id": ..., "object": "model", ...}]}
    POST /v1/chat/completions   one JSON object, or with "stream": true server-sent events
                                (``data: {chunk}`` lines, a final chunk with ``usage`` when
                                ``stream_options.include_usage`` is set, then ``data: [DONE]``)

Every HTTP error body is ``{"error": {"message", "type", "code"}}``, which the client turns
into ``APIStatusError`` subclasses (401 AuthenticationError, 404 NotFoundError, 429
RateLimitError, 5xx InternalServerError).

Knobs on the server object (set them before the request):

    server.models              model ids /v1/models lists; a chat naming another gets a 404
    server.model_extra         extra fields for every model entry (e.g. {"max_model_len": 32768})
    server.api_key             when set, requests without "Authorization: Bearer <it>" get a 401
    server.echo_key            True: that 401 says "Incorrect API key provided: <the key sent>." (as
                               OpenAI-compatible servers do, some unmasked)
    server.reply_chunks        content pieces streamed by a chat reply
    server.structured_content  content of a reply when the request has "response_format"
    server.structured_reply    f(request body) -> that content, when set; or (content, finish_reason)
                               for that reply alone (e.g. "length": cut off)
    server.structured_piece_chars  0: a streamed structured reply is one piece; N: pieces of N characters
    server.schema_support      True: json_schema accepted; False: ``schema_error`` for response_format
                               json_schema, as servers without schemas answer (json_object works)
    server.schema_error        (status, message) of that refusal: 400 (LM Studio) by default; 500 with a
                               pydantic message (llama_cpp.server) or 422 (a strict validator)
    server.stream_end          "finish" (a chunk with finish_reason, usage, [DONE]) | "bare_done" (the
                               pieces, then [DONE] alone: llama_cpp.server interrupted by another request)
                               | "empty" (200 and not one event: llama_cpp.server over its context)
    server.stream_ends         one entry per streamed reply, consumed first (else ``stream_end``)
    server.hold_first_chunk    when set to a threading.Event: a stream's headers go out at once and its
                               first event waits for the event (at most 10 s), as a server evaluating a
                               long prompt; ``server.events_sent`` counts the events streams wrote
    server.usage               the usage object reported (prompt_tokens_details.cached_tokens incl.);
                               None: none, as a server ignoring stream_options.include_usage
    server.finish_reason       of the last chunk ("stop", or "length" for a cut-off reply)
    server.mode                "ok" | "slow" (chunk_delay_s before each chunk) | "midstream_error"
                               (one chunk, then an error event)
    server.faults              one entry per chat request, consumed first: None (answer),
                               ("status", CODE, MESSAGE), ("stall", SECONDS) or ("reset",)
    server.fault_for           f(request body) -> a fault as above or None, asked when ``faults`` is empty
                               (a server that fails one kind of request only)
    server.n_ctx               0: no context; N: as llama_cpp.server loaded with N tokens (prompts counted with
                               cl100k): a prompt of N or more gets 200 and an empty stream, or without
                               streaming a 400 naming N ("This model's maximum context length is N tokens");
                               an answer gets what the context has left (cut at "length", a piece a token)
    server.context_error       that 400's message, "{n_ctx}" filled in (a server naming no number)
    server.props               when set, ``GET /props`` answers it (llama-server: {"default_generation_settings":
                               {"n_ctx": N}}); else a 404
    server.model               a ``http.ModelSlots``: set ``model.size`` to answer that many chat requests at once
                               (llama-server --parallel 1, llama_cpp.server), each taking ``model.seconds``
    server.routes              {path: JSON}: ``GET`` (or ``POST``) of that path answers it (LM Studio's ``/api/v1/models``,
                               Ollama's ``/api/version``, ``/api/show``, ``/api/ps``, as their documentation shows)
    server.openapi_title       when set, ``GET /openapi.json`` answers {"info": {"title": it}} (llama_cpp.server:
                               "🦙 llama.cpp Python API")

Records: ``server.requests`` (list of {"method", "path", "body", "headers" (lower-cased names)}) and
``server.disconnects`` (streams the client closed before they ended).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler
from typing import Iterator

from tests.fakes import http
from tests.fakes.http import ClientWentAway, reset_connection

USAGE = {"prompt_tokens": 120, "completion_tokens": 3, "total_tokens": 123,
         "prompt_tokens_details": {"cached_tokens": 96}}


def prompt_tokens(body: dict) -> int:
    """A request's prompt as a server counts it: its messages' texts (cl100k) and a few tokens each."""
    from monchat.core.tokens import count_tokens
    return sum(count_tokens(str(m.get("content") or "")) + 4 for m in body.get("messages") or [])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length)) if length else None

    def _send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status, message, code=None, kind="invalid_request_error"):
        self._send_json(status, {"error": {"message": message, "type": kind, "code": code, "param": None}})

    def _record(self, method, body):
        with self.server.lock:
            self.server.requests.append({"method": method, "path": self.path, "body": body,
                                         "headers": {k.lower(): v for k, v in self.headers.items()}})

    def _authorised(self) -> bool:
        key = self.server.api_key
        sent = self.headers.get("Authorization") or ""
        if key and sent != f"Bearer {key}":
            echoed = f": {sent.removeprefix('Bearer ')}" if self.server.echo_key else ""
            self._error(401, f"Incorrect API key provided{echoed}.", "invalid_api_key", "authentication_error")
            return False
        return True

    def do_GET(self):
        self._record("GET", None)
        if not self._authorised():
            return
        if self.path == "/openapi.json" and self.server.openapi_title is not None:
            return self._send_json(200, {"openapi": "3.1.0", "info": {"title": self.server.openapi_title}})
        if self.path in self.server.routes:
            return self._send_json(200, self.server.routes[self.path])
        if self.path == "/props" and self.server.props is not None:
            return self._send_json(200, self.server.props)
        if self.path.rstrip("/") == "/v1/models":
            data = [{"id": m, "object": "model", "owned_by": "organization_owner", **self.server.model_extra}
                    for m in self.server.models]
            return self._send_json(200, {"object": "list", "data": data})
        self._error(404, f"Unexpected endpoint or method. (GET {self.path})")

    def do_POST(self):
        body = self._read_json() or {}
        self._record("POST", body)
        srv = self.server
        if self.path in srv.routes:
            return self._send_json(200, srv.routes[self.path])
        if self.path != "/v1/chat/completions":
            return self._error(404, f"Unexpected endpoint or method. (POST {self.path})")
        with srv.lock:
            fault = srv.faults.pop(0) if srv.faults else None
        if fault is None and srv.fault_for is not None:
            fault = srv.fault_for(body)
        if fault is not None:
            if fault[0] == "status":
                return self._error(fault[1], fault[2])
            if fault[0] == "stall":
                time.sleep(fault[1])
            elif fault[0] == "reset":
                return reset_connection(self)
        if not self._authorised():
            return
        model = body.get("model", "")
        if model not in srv.models:
            return self._error(404, f'Model "{model}" not found. Please load it first.', "model_not_found")
        response_format = body.get("response_format")
        if response_format and response_format.get("type") == "json_schema" and not srv.schema_support:
            return self._error(*srv.schema_error)
        prompt = prompt_tokens(body)
        if srv.n_ctx and prompt >= srv.n_ctx:  # llama_cpp.server: refused before any evaluation
            if body.get("stream"):
                return self._stream(model, [], body, None, end="empty")
            return self._error(400, srv.context_error.format(n_ctx=srv.n_ctx), "context_length_exceeded")
        finish = srv.finish_reason
        if response_format:
            content = [srv.structured_reply(body) if srv.structured_reply else srv.structured_content]
            if isinstance(content[0], tuple):
                content, finish = [content[0][0]], content[0][1]
            if srv.structured_piece_chars:  # a model writing it token by token
                size = srv.structured_piece_chars
                content = [content[0][i:i + size] for i in range(0, len(content[0]), size)]
        else:
            content = list(srv.reply_chunks)
        room = srv.n_ctx - prompt if srv.n_ctx else None
        if room is not None and len(content) > room:  # the answer gets what the context has left
            content, finish = content[:room], "length"
        with srv.model.serving("json" if response_format else "chat"):
            self._answer(model, content, body, finish)

    def _answer(self, model, content, body, finish):
        srv = self.server
        if body.get("stream"):
            return self._stream(model, content, body, finish)
        self._send_json(200, {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "".join(content)},
                         "finish_reason": finish}],
            "usage": srv.usage})

    def _stream(self, model, pieces, body, finish, end=None):
        srv = self.server
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(delta, finish=None, usage=None):
            data = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}] if delta is not None else []}
            if usage is not None:
                data["usage"] = usage
            return f"data: {json.dumps(data)}\n\n"

        with srv.lock:
            if end is None:
                end = srv.stream_ends.pop(0) if srv.stream_ends else srv.stream_end
        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": piece}) for piece in pieces]
        if end == "empty":
            events = []
        elif end == "bare_done":
            events.append("data: [DONE]\n\n")
        elif srv.mode == "midstream_error":
            events = events[:2] + ['data: {"error": {"message": "the model crashed", "type": "server_error"}}\n\n']
        else:
            events.append(chunk({}, finish))
            if (body.get("stream_options") or {}).get("include_usage") and srv.usage is not None:
                events.append(chunk(None, usage=srv.usage))
            events.append("data: [DONE]\n\n")
        try:
            self.wfile.flush()
            if srv.hold_first_chunk is not None:
                srv.hold_first_chunk.wait(10)
            for event in events:
                if srv.mode == "slow":
                    time.sleep(srv.chunk_delay_s)
                data = event.encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
                with srv.lock:
                    srv.events_sent += 1
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError) as exc:
            with srv.lock:
                srv.disconnects += 1
            self.close_connection = True
            raise ClientWentAway() from exc


class FakeOpenAIServer(http.LoopbackServer):
    def __init__(self, address):
        super().__init__(Handler, address)
        self.disconnects = 0
        self.models = ["qwen2.5-7b-instruct", "text-embedding-nomic-embed-text-v1.5"]
        self.model_extra: dict = {}
        self.api_key = ""
        self.echo_key = False
        self.reply_chunks = ["Hel", "lo"]
        self.structured_content = '{"answer": "yes"}'
        self.structured_reply = None
        self.structured_piece_chars = 0
        self.schema_support = True
        self.schema_error = (400, "'response_format.type' must be 'json_object' or 'text'")
        self.stream_end = "finish"
        self.stream_ends: list[str] = []
        self.hold_first_chunk: threading.Event | None = None
        self.events_sent = 0
        self.usage = dict(USAGE)
        self.finish_reason = "stop"
        self.mode = "ok"
        self.chunk_delay_s = 0.05
        self.faults: list = []
        self.fault_for = None  # f(request body) -> a fault or None
        self.n_ctx = 0
        self.context_error = ("This model's maximum context length is {n_ctx} tokens. However, you requested more "
                              "tokens. Please reduce the length of the messages or completion.")
        self.props: dict | None = None
        self.openapi_title: str | None = None
        self.routes: dict[str, dict] = {}
        self.model = http.ModelSlots()  # the model's request slots (no limit unless ``model.size`` is set)

    @property
    def url(self) -> str:
        """The base URL a client is given (with /v1, as LM Studio shows it)."""
        return f"{self.root_url}/v1"

    def chat_requests(self) -> list[dict]:
        with self.lock:
            return [r for r in self.requests if r["path"] == "/v1/chat/completions"]


def start() -> FakeOpenAIServer:
    return http.start(FakeOpenAIServer(("127.0.0.1", 0)))


@contextlib.contextmanager
def running_fake_openai() -> Iterator[FakeOpenAIServer]:
    with http.serving(FakeOpenAIServer(("127.0.0.1", 0))) as server:
        yield server


if __name__ == "__main__":  # manual use: python -m tests.fakes.fake_openai
    s = start()
    print(f"fake OpenAI-compatible server on {s.url} (Ctrl+C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        s.shutdown()
