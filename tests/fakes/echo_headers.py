"""A loopback server at its worst: every request is refused with its own headers echoed in the error.

Some OpenAI-compatible servers, proxies and mirrors put the request they got into their error body, the
``Authorization`` or ``x-goog-api-key`` header included. This one answers every request (any method, any
path) with ``server.status`` and a body in the error shape of ``server.dialect``:

    "openai"   {"error": {"message": "...", "type": "invalid_request_error", "code": null}}
    "gemini"   {"error": {"code": STATUS, "message": "...", "status": "INVALID_ARGUMENT"}}

where the message holds every request header, as JSON (``{"Authorization": "Bearer sk-…", …}``). Records:
``server.requests`` (list of (method, path, headers dict with lower-cased names)).
"""

from __future__ import annotations

import contextlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def _refuse(self) -> None:
        server = self.server
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        headers = dict(self.headers.items())
        server.requests.append((self.command, self.path, {k.lower(): v for k, v in headers.items()}))
        message = f"Request refused; the headers you sent were {json.dumps(headers)}"
        if server.dialect == "gemini":
            error = {"code": server.status, "message": message, "status": "INVALID_ARGUMENT"}
        else:
            error = {"message": message, "type": "invalid_request_error", "code": None}
        body = json.dumps({"error": error}).encode()
        self.send_response(server.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_HEAD = do_PATCH = do_DELETE = _refuse


class EchoServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, dialect: str, status: int) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.dialect, self.status = dialect, status
        self.requests: list[tuple[str, str, dict]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@contextlib.contextmanager
def running_echo_server(dialect: str = "openai", status: int = 400) -> Iterator[EchoServer]:
    server = EchoServer(dialect, status)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
