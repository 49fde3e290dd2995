"""A tiny fake Ollama server for tests (standard library only).

Extended from ``/work/shared/reference/examples/fake_ollama.py``. It imitates
the parts of the Ollama REST API (ollama/ollama, docs/api.md) that the official
Python client (``ollama`` 0.6.x) uses:

    GET  /               -> "Ollama is running" (text/plain)
    GET  /api/version    -> {"version": server.version}
    GET  /api/tags       -> the models in server.installed
    GET  /api/ps         -> {"models": []}
    POST /api/show       -> model details; 404 {"error": ...} for unknown models
    POST /api/pull       -> NDJSON progress stream, or one {"status": "success"}
    POST /api/chat       -> NDJSON stream (default) or one JSON object when
                            "stream": false; 404 {"error": ...} for unknown models

Every HTTP error body is {"error": "<message>"}, which the client turns into
``ollama.ResponseError(error, status_code)``. Streaming replies use chunked
transfer encoding with one JSON object per line; the statistics
(prompt_eval_count, eval_count, ...) appear only on the final ``done: true`` line.

Use from a test:

    with running_fake_ollama() as server:
        client = ollama.Client(host=server.url, timeout=5)
        ...
        assert server.chat_requests()[-1]["body"]["options"]["num_ctx"] == 8192

Knobs on the server object (set them before the request):

    server.installed           set of model names /api/show, /api/tags and /api/chat know
    server.reply_chunks        content strings streamed by /api/chat
    server.structured_content  content of the reply when the request has "format"
    server.structured_reply    f(request body) -> that content, when set (a model that reads)
    server.structured_piece_chars  0: a streamed structured reply is one chunk; N: chunks of N
                               characters (a model writing token by token; "slow" spaces them)
    server.latency_s           seconds each structured reply takes; ``server.max_in_flight`` records
                               how many were being answered at once
    server.model               a ``http.ModelSlots``: set ``model.size`` to serve that many /api/chat requests at
                               once (Ollama's default OLLAMA_NUM_PARALLEL is 1), each taking ``model.seconds``;
                               ``model.order`` says which kind ("chat", "json") got a slot, in order
    server.prompt_eval_count   value reported on the final chat line
    server.context_length      "<arch>.context_length" reported by /api/show
    server.parameter_size      the model's ``details.parameter_size`` in /api/show and /api/tags ("3.2B",
                               "135M"), with ``model_info["general.parameter_count"]`` to match, as Ollama states them
    server.version             reported by /api/version
    server.mode                "ok" | "midstream_error" (one chunk, then an {"error": ...}
                               line with HTTP status 200) | "slow" (sleep chunk_delay_s
                               before each chunk) | "stall" (sleep stall_s before answering)
                               | "http_error" (answer /api/chat with error_status/error_message)
    server.chunk_delay_s, server.stall_s, server.error_status, server.error_message
    server.pull_delay_s        seconds before each /api/pull progress line
    server.faults              a script for the next /api/chat requests, one entry each, consumed in
                               order before ``mode`` applies: None (answer normally), ("status", CODE,
                               MESSAGE) (an HTTP error), ("stall", SECONDS) (wait, then answer) or
                               ("reset",) (drop the connection with a TCP RST, no answer)
    server.count_prompts       True: count each chat request's prompt the way a model would (a
                               tokenizer ~10 % hungrier than cl100k, plus template framing per
                               message); past options.num_ctx the prompt is cut as Ollama cuts it
                               and the reported prompt_eval_count says num_ctx, and the request is
                               recorded in ``server.over_context``

Records: ``server.prompt_counts`` (with count_prompts), ``server.requests`` (list of {"method", "path", "body"}) and
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
from tests.fakes.http import ClientWentAway, dead_url, reset_connection  # noqa: F401 (imported from here too)

INSTALLED = {"llama3.2", "llama3.2:latest"}

DETAILS = {
    "parent_model": "",
    "format": "gguf",
    "family": "llama",
    "families": ["llama"],
    "parameter_size": "3.2B",
    "quantization_level": "Q4_K_M",
}

PULL_PROGRESS = [
    {"status": "pulling manifest"},
    {"status": "pulling abc", "digest": "sha256:abc", "total": 100, "completed": 50},
    {"status": "verifying sha256 digest"},
    {"status": "writing manifest"},
    {"status": "success"},
]


PARAMETER_COUNTS = {"3.2B": 3212749888, "135M": 134515008, "4.3B": 4300079472, "270M": 268098176}


def _details(parameter_size: str) -> dict:
    return {**DETAILS, "parameter_size": parameter_size}


def _tags(installed: set[str], parameter_size: str = "3.2B") -> dict:
    names = sorted(n for n in installed if ":" in n) or sorted(installed)
    return {
        "models": [
            {
                "name": name,
                "model": name,
                "modified_at": "2025-05-04T17:37:44.706015396-07:00",
                "size": 2019393189,
                "digest": "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
                "details": _details(parameter_size),
            }
            for name in names
        ]
    }


def _show(context_length: int | None, parameter_size: str = "3.2B") -> dict:
    model_info = {"general.architecture": "llama"}
    if parameter_size in PARAMETER_COUNTS:
        model_info["general.parameter_count"] = PARAMETER_COUNTS[parameter_size]
    if context_length is not None:
        model_info["llama.context_length"] = context_length
    return {
        "modelfile": "FROM llama3.2",
        "parameters": 'num_ctx 4096\nstop "<|eot_id|>"',
        "template": "{{ .Prompt }}",
        "details": _details(parameter_size),
        "model_info": model_info,
        "capabilities": ["completion", "tools"],
        "modified_at": "2025-05-04T17:37:44.706015396-07:00",
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # needed for chunked streaming

    def log_message(self, *args):  # keep test output quiet
        pass

    # ---- request and response plumbing ---------------------------------
    def _read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length)) if length else None

    def _send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_text(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_ndjson(self, objs, delay_s=0.0):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for obj in objs:
                if delay_s:
                    time.sleep(delay_s)
                line = (json.dumps(obj) + "\n").encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError) as exc:
            with self.server.lock:
                self.server.disconnects += 1
            self.close_connection = True
            raise ClientWentAway() from exc

    def _not_found(self, model):
        self._send_json(404, {"error": f"model '{model}' not found"})

    def _record(self, method, body):
        with self.server.lock:
            self.server.requests.append({"method": method, "path": self.path, "body": body})

    # ---- routes --------------------------------------------------------
    def do_GET(self):
        self._record("GET", None)
        srv = self.server
        if self.path == "/":
            return self._send_text(200, "Ollama is running")
        if self.path == "/api/version":
            return self._send_json(200, {"version": srv.version})
        if self.path == "/api/tags":
            return self._send_json(200, _tags(srv.installed, srv.parameter_size))
        if self.path == "/api/ps":
            return self._send_json(200, {"models": []})
        self._send_json(404, {"error": "not found"})

    def do_POST(self):
        body = self._read_json() or {}
        self._record("POST", body)
        srv = self.server
        model = body.get("model", "")
        streaming = body.get("stream", True)  # Ollama streams unless told not to

        if self.path == "/api/show":
            if model not in srv.installed:
                return self._not_found(model)
            return self._send_json(200, _show(srv.context_length, srv.parameter_size))

        if self.path == "/api/pull":
            if not streaming:
                return self._send_json(200, {"status": "success"})
            return self._send_ndjson(PULL_PROGRESS, delay_s=srv.pull_delay_s)

        if self.path == "/api/chat":
            with srv.lock:
                fault = srv.faults.pop(0) if srv.faults else None
            if fault is not None:
                if fault[0] == "status":
                    return self._send_json(fault[1], {"error": fault[2]})
                if fault[0] == "stall":
                    time.sleep(fault[1])
                elif fault[0] == "reset":
                    return reset_connection(self)
            if srv.mode == "stall":
                time.sleep(srv.stall_s)
            if srv.mode == "http_error":
                return self._send_json(srv.error_status, {"error": srv.error_message})
            if model not in srv.installed:
                return self._not_found(model)
            self.body = body
            with srv.model.serving("json" if "format" in body else "chat"):
                return self._chat(model, streaming, structured="format" in body)

        self._send_json(404, {"error": "not found"})

    def _chat(self, model, streaming, structured):
        srv = self.server
        base = {"model": model, "created_at": "2025-01-01T00:00:00Z"}
        if structured and srv.latency_s:
            with srv.lock:
                srv.in_flight += 1
                srv.max_in_flight = max(srv.max_in_flight, srv.in_flight)
            time.sleep(srv.latency_s)  # a model thinking; other requests may arrive meanwhile
            with srv.lock:
                srv.in_flight -= 1
        if structured and srv.structured_reply is not None:
            chunks = [srv.structured_reply(self.body)]
        else:
            chunks = [srv.structured_content] if structured else list(srv.reply_chunks)
        if structured and srv.structured_piece_chars:
            size = srv.structured_piece_chars
            chunks = [piece[i:i + size] for piece in chunks for i in range(0, len(piece), size)]
        prompt_eval_count = srv.prompt_eval_count
        if srv.count_prompts:
            prompt_eval_count = model_prompt_tokens(self.body.get("messages") or [])
            num_ctx = (self.body.get("options") or {}).get("num_ctx") or 2048
            with srv.lock:
                srv.prompt_counts.append(prompt_eval_count)
                if prompt_eval_count > num_ctx:
                    srv.over_context.append({"tokens": prompt_eval_count, "num_ctx": num_ctx})
            prompt_eval_count = min(prompt_eval_count, num_ctx)  # the start was cut, silently

        def line(content, done, **extra):
            return dict(base, message={"role": "assistant", "content": content}, done=done, **extra)

        final_stats = {
            "done_reason": "stop",
            "total_duration": 4883583458,
            "load_duration": 1334875,
            "prompt_eval_count": prompt_eval_count,
            "prompt_eval_duration": 342546000,
            "eval_count": len(chunks),
            "eval_duration": 4535599000,
        }
        if srv.mode == "midstream_error":
            return self._send_ndjson(
                [line(chunks[0], False),
                 {"error": "an error was encountered while running the model"}]
            )
        if not streaming:
            return self._send_json(200, line("".join(chunks), True, **final_stats))
        lines = [line(chunk, False) for chunk in chunks]
        lines.append(line("", True, **final_stats))
        self._send_ndjson(lines, delay_s=srv.chunk_delay_s if srv.mode == "slow" else 0.0)


def model_prompt_tokens(messages: list[dict]) -> int:
    """A model's count of a chat prompt: its tokenizer takes ~10 % more than cl100k, and its
    template frames each message (``<start_of_turn>user\n … <end_of_turn>\n``)."""
    from monchat.core.tokens import count_tokens
    return sum(int(count_tokens(m.get("content") or "") * 1.1) + 6 for m in messages) + 2


class FakeOllamaServer(http.LoopbackServer):
    def __init__(self, address):
        super().__init__(Handler, address)
        self.disconnects = 0
        self.installed = set(INSTALLED)
        self.reply_chunks = ["Hel", "lo"]
        self.structured_content = '{"answer": "yes"}'
        self.prompt_eval_count: int | None = 26
        self.context_length: int | None = 131072
        self.parameter_size = "3.2B"
        self.version = "0.12.3"
        self.mode = "ok"
        self.count_prompts = False
        self.structured_reply = None  # f(request body) -> content of a structured reply
        self.structured_piece_chars = 0  # stream a structured reply in pieces of this many characters
        self.latency_s = 0.0  # each structured reply takes this long; overlap is recorded
        self.in_flight = 0
        self.max_in_flight = 0
        self.model = http.ModelSlots()  # the model's request slots (no limit unless ``model.size`` is set)
        self.prompt_counts: list[int] = []
        self.over_context: list[dict] = []
        self.chunk_delay_s = 0.05
        self.stall_s = 1.0
        self.error_status = 500
        self.error_message = "internal error"
        self.faults: list = []
        self.pull_delay_s = 0.0  # before each /api/pull progress line (a download that takes a while)

    @property
    def url(self) -> str:
        return self.root_url

    def chat_requests(self) -> list[dict]:
        with self.lock:
            return [r for r in self.requests if r["path"] == "/api/chat"]


def start(host="127.0.0.1", port=0) -> FakeOllamaServer:
    """Start the fake server on a daemon thread and return it.

    The bound port is ``server.server_address[1]`` (``server.url`` is the full
    address). Call ``server.shutdown()`` and ``server.server_close()`` when done.
    """
    return http.start(FakeOllamaServer((host, port)))


@contextlib.contextmanager
def running_fake_ollama() -> Iterator[FakeOllamaServer]:
    """A fake Ollama for the duration of a ``with`` block."""
    with http.serving(FakeOllamaServer(("127.0.0.1", 0))) as server:
        yield server


if __name__ == "__main__":  # manual use: python -m tests.fakes.fake_ollama
    s = start()
    print(f"fake Ollama on {s.url} (Ctrl+C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        s.shutdown()
