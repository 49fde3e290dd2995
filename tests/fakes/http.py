"""The loopback HTTP plumbing the fake servers share (Ollama, OpenAI-compatible, Gemini, the Hub, the oracle's).

``LoopbackServer`` is a threading HTTP server on 127.0.0.1 (a free port unless told) that

- sets ``TCP_NODELAY`` on every accepted connection: small request/answer pairs must not wait for Nagle's
  algorithm (40 ms a round trip on loopback otherwise);
- serves on a daemon thread with a 0.02 s poll, so ``shutdown()`` (every test's teardown) returns at once
  where the standard 0.5 s poll would make it wait;
- keeps ``requests`` and ``lock`` for the fake's records, and ``errors``: the fake's own failures (a client
  that hung up, ``ClientWentAway``, broken pipes and resets, is expected and not one).

``serving(server)`` runs one for a ``with`` block; ``dead_url()`` is an address where nothing listens.
``ModelSlots`` plays a model server's request slots (Ollama's OLLAMA_NUM_PARALLEL, llama-server's --parallel):
at most ``size`` requests answered at once, the rest waiting in the order they arrived.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator, TypeVar

POLL_S = 0.02


class ClientWentAway(Exception):
    """The client closed the connection mid-answer (a stopped stream, a timed-out test)."""


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler], address: tuple[str, int] = ("127.0.0.1", 0)) -> None:
        super().__init__(address, handler)
        self.lock = threading.Lock()
        self.requests: list = []
        self.errors: list[BaseException] = []

    def get_request(self):
        conn, address = super().get_request()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, address

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ClientWentAway, BrokenPipeError, ConnectionResetError)):
            return
        with self.lock:
            self.errors.append(exc)
        super().handle_error(request, client_address)


class ModelSlots:
    """A model's request slots: at most ``size`` requests answered at once (0: as many as arrive), each held
    ``seconds``; the others wait in arrival order (a server's queue). ``order`` records the kind of each request
    as it got its slot ("chat" or "json"), ``most`` the most answered at once."""

    def __init__(self) -> None:
        self.size = 0
        self.seconds = 0.0
        self.order: list[str] = []
        self.most = 0
        self._changed = threading.Condition()
        self._next = 0  # the next arrival's ticket
        self._admitted = 0  # tickets below this have their slot (or had it)
        self._busy = 0

    @property
    def busy(self) -> int:
        """Requests being answered now."""
        return self._busy

    @contextlib.contextmanager
    def serving(self, kind: str) -> Iterator[None]:
        with self._changed:
            ticket, self._next = self._next, self._next + 1
            while ticket != self._admitted or (self.size and self._busy >= self.size):
                self._changed.wait()
            self._admitted += 1
            self._busy += 1
            self.most = max(self.most, self._busy)
            self.order.append(kind)
            self._changed.notify_all()
        try:
            if self.seconds:
                time.sleep(self.seconds)
            yield
        finally:
            with self._changed:
                self._busy -= 1
                self._changed.notify_all()


Server = TypeVar("Server", bound=ThreadingHTTPServer)


def start(server: Server) -> Server:
    """Serve ``server`` on a daemon thread; stop it with ``stop(server)``."""
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
    return server


def stop(server: ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()


@contextlib.contextmanager
def serving(server: Server) -> Iterator[Server]:
    start(server)
    try:
        yield server
    finally:
        stop(server)


def reset_connection(handler: BaseHTTPRequestHandler) -> None:
    """Drop the connection without an answer: SO_LINGER 0 makes close() send a TCP RST."""
    handler.close_connection = True
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.connection.close()


def dead_url() -> str:
    """An address on 127.0.0.1 where nothing listens (a stopped server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"
