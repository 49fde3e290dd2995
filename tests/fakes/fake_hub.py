"""A loopback Hugging Face Hub for download tests (standard library only).

It serves one file of one repository the way huggingface.co serves an LFS file to
``huggingface_hub.hf_hub_download`` (huggingface_hub 2.x, ``file_download.get_hf_file_metadata``
and ``http_get``):

    HEAD /{repo}/resolve/{revision}/{file} -> 302, ``X-Repo-Commit`` (40 hex), ``X-Linked-Etag`` (the
                                              file's SHA-256, quoted), ``X-Linked-Size``, ``ETag`` and
                                              ``Location`` (the blob "on the CDN": /cdn/{sha256} at localhost)
    GET  /{repo}/resolve/{revision}/{file} -> the same redirect
    GET  /cdn/{sha256}                     -> the bytes; ``Range: bytes=N-`` answers 206 from N
    anything else                          -> 404 with ``X-Error-Code: EntryNotFound``

Knobs (set before the request):

    server.drop_after   bytes of the next GET of the blob after which the connection is dropped
                        (a network that breaks mid-download); it applies once, then resets to None
    server.served       the bytes served (defaults to the file's; replace them to serve "another file")
    server.extra_bytes  bytes served past the file by a GET of the blob, counted in its Content-Length (a mirror
                        whose blob is larger than the size it announced)
    server.endless      True: a GET of the blob sends the file, then more, without end and without a
                        Content-Length, until the client closes the connection (or ``ENDLESS_CAP`` bytes)
    server.refuse       None, or (status, "resolve" | "blob"): that request is answered ``status`` with every
                        request header it got echoed, in ``X-Error-Message`` and in a JSON body
                        {"error": "..."} (a mirror at its worst: ``Authorization: Bearer hf_…`` included)

Records: ``server.requests`` (list of (method, path, Range header)), ``server.headers`` (each request's
headers, a dict, in the same order) and ``server.blob_bytes_sent`` (bytes the blob GETs wrote).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import socket
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from tests.fakes import http

COMMIT = "0123456789abcdef0123456789abcdef01234567"
ENDLESS_CAP = 1024 * 1024 * 1024  # an endless blob stops here, so a client that never stops cannot fill the disk
ENDLESS_BLOCK = 64 * 1024


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def _refused(self, where: str) -> bool:
        """Answer the request with the status ``server.refuse`` names for ``where``, its headers echoed."""
        refuse = self.server.hub.refuse
        if refuse is None or refuse[1] != where:
            return False
        echoed = "; ".join(f"{name}: {value}" for name, value in self.headers.items())
        body = json.dumps({"error": f"refused; your request headers were {echoed}"}).encode()
        self.send_response(refuse[0])
        self.send_header("X-Error-Message", f"refused ({echoed})")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) if self.command != "HEAD" else 0))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return True

    def _resolve_headers(self) -> bool:
        hub = self.server.hub
        if self._refused("resolve"):
            return False
        if self.path != f"/{hub.repo}/resolve/{hub.revision}/{hub.file}":
            self.send_response(404)
            self.send_header("X-Error-Code", "EntryNotFound")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        self.send_response(302)
        self.send_header("X-Repo-Commit", COMMIT)
        self.send_header("X-Linked-Etag", f'"{hub.sha256}"')
        self.send_header("X-Linked-Size", str(len(hub.served)))
        self.send_header("ETag", f'"{hub.sha256}"')
        # Another host name for the same loopback server: like huggingface.co's redirect to its CDN,
        # huggingface_hub does not follow it with HEAD and takes the metadata from this answer.
        self.send_header("Location", f"{hub.url.replace('127.0.0.1', 'localhost')}/cdn/{hub.sha256}")
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

    def _record(self) -> None:
        hub = self.server.hub
        hub.requests.append((self.command, self.path, self.headers.get("Range")))
        hub.headers.append(dict(self.headers.items()))

    def do_HEAD(self) -> None:
        self._record()
        self._resolve_headers()

    def do_GET(self) -> None:
        hub = self.server.hub
        self._record()
        if not self.path.startswith("/cdn/"):
            self._resolve_headers()
            return
        if self._refused("blob"):
            return
        if hub.endless:
            self._endless()
            return
        data, start = hub.served, 0
        ranged = self.headers.get("Range", "")
        if ranged.startswith("bytes="):
            start = int(ranged[len("bytes="):].split("-")[0])
        data = data + b"\0" * hub.extra_bytes
        self.send_response(206 if start else 200)
        self.send_header("Content-Length", str(len(data) - start))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("ETag", f'"{hub.sha256}"')
        self.end_headers()
        drop, hub.drop_after = hub.drop_after, None
        body = data[start:start + drop] if drop is not None else data[start:]
        try:
            self.wfile.write(body)
            self.wfile.flush()
            hub.blob_bytes_sent += len(body)
        except (BrokenPipeError, ConnectionResetError):  # the client stopped reading (a cancelled pull)
            self.close_connection = True
            return
        if drop is not None:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)

    def _endless(self) -> None:
        """The file, then zeros without end: no Content-Length, so only closing the connection ends it."""
        hub = self.server.hub
        self.close_connection = True
        self.send_response(200)
        self.send_header("ETag", f'"{hub.sha256}"')
        self.send_header("Connection", "close")
        self.end_headers()
        block = hub.served
        try:
            while hub.blob_bytes_sent < ENDLESS_CAP:
                self.wfile.write(block)
                hub.blob_bytes_sent += len(block)
                block = b"\0" * ENDLESS_BLOCK
        except (BrokenPipeError, ConnectionResetError, OSError):  # the client stopped reading
            return


class FakeHub:
    def __init__(self, path: Path, repo: str, file: str, revision: str = "main") -> None:
        self.repo, self.file, self.revision = repo, file, revision
        self.served = path.read_bytes()
        self.sha256 = hashlib.sha256(self.served).hexdigest()
        self.drop_after: int | None = None
        self.extra_bytes = 0
        self.endless = False
        self.refuse: tuple[int, str] | None = None
        self.requests: list[tuple] = []
        self.headers: list[dict] = []
        self.blob_bytes_sent = 0
        self.url = ""


@contextlib.contextmanager
def running_fake_hub(path: Path, repo: str, file: str, revision: str = "main"):
    hub = FakeHub(path, repo, file, revision)
    server = http.LoopbackServer(_Handler)
    server.hub = hub
    hub.url = server.root_url
    with http.serving(server):
        yield hub
