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

Records: ``server.requests`` (list of (method, path, Range header)).
"""

from __future__ import annotations

import contextlib
import hashlib
import socket
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from tests.fakes import http

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def _resolve_headers(self) -> bool:
        hub = self.server.hub
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

    def do_HEAD(self) -> None:
        self.server.hub.requests.append(("HEAD", self.path, self.headers.get("Range")))
        self._resolve_headers()

    def do_GET(self) -> None:
        hub = self.server.hub
        hub.requests.append(("GET", self.path, self.headers.get("Range")))
        if not self.path.startswith("/cdn/"):
            self._resolve_headers()
            return
        data, start = hub.served, 0
        ranged = self.headers.get("Range", "")
        if ranged.startswith("bytes="):
            start = int(ranged[len("bytes="):].split("-")[0])
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
        except (BrokenPipeError, ConnectionResetError):  # the client stopped reading (a cancelled pull)
            self.close_connection = True
            return
        if drop is not None:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)


class FakeHub:
    def __init__(self, path: Path, repo: str, file: str, revision: str = "main") -> None:
        self.repo, self.file, self.revision = repo, file, revision
        self.served = path.read_bytes()
        self.sha256 = hashlib.sha256(self.served).hexdigest()
        self.drop_after: int | None = None
        self.requests: list[tuple] = []
        self.url = ""


@contextlib.contextmanager
def running_fake_hub(path: Path, repo: str, file: str, revision: str = "main"):
    hub = FakeHub(path, repo, file, revision)
    server = http.LoopbackServer(_Handler)
    server.hub = hub
    hub.url = server.root_url
    with http.serving(server):
        yield hub
