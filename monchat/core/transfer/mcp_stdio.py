"""The stdio channel of ``monchat mcp``, made to outlive its host.

A host (Claude Desktop, LM Studio, an editor) may go away at any moment: quit between calls, close its end while
an answer is on its way, close only its writing end (a half-close), or die by SIGKILL. None of that is monchat's
bug, so none of it may end in a crash report: the server stops, says why in the access log, and exits 0.

Why not the SDK's ``stdio_server`` as it is: its writer lets a ``BrokenPipeError`` escape its task group (an
``ExceptionGroup`` the CLI must read as our bug), and its reader blocks a worker thread that cancelling cannot
free. Here the wire is read and written without threads (non-blocking descriptors and ``anyio.wait_readable`` /
``wait_writable``), so stopping is always a plain cancel; the SDK still parses and frames the messages
(``stdio_server`` given these two streams). As in the SDK, fd 0 and fd 1 are taken for the protocol alone while
serving: fd 0 reads the null device and fd 1 goes to stderr, so a stray print never corrupts the wire.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import anyio

# Why a session ended, as the access log words it (each is in mcp_server.LOGGED_WHAT).
CLOSED = "the host closed the connection"
LEFT_MID_ANSWER = "the host went away before an answer reached it"
STOPPED = "the host stopped the server"
ENDINGS = frozenset({CLOSED, LEFT_MID_ANSWER, STOPPED})


@dataclass
class Ending:
    """How the session ends: set once, by whichever side noticed first."""

    why: str = ""
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)

    def end(self, why: str) -> None:
        if not self.why:
            self.why = why
        self.scope.cancel()


class WireIn:
    """The host's lines, read from ``fd`` without a thread (a regular file or /dev/null is read directly)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = b""
        self.at_end = False
        self.pollable = not stat.S_ISREG(os.fstat(fd).st_mode) and not _is_null(fd)
        if self.pollable:
            os.set_blocking(fd, False)

    def __aiter__(self) -> "WireIn":
        return self

    async def __anext__(self) -> str:
        while b"\n" not in self.pending and not self.at_end:
            chunk = await self._read()
            if not chunk:
                self.at_end = True
            self.pending += chunk
        if not self.pending:
            raise StopAsyncIteration
        line, sep, self.pending = self.pending.partition(b"\n")
        return (line + sep).decode("utf-8", errors="replace")

    async def _read(self) -> bytes:
        while True:
            if self.pollable:
                await anyio.wait_readable(self.fd)
            try:
                return os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            except OSError:  # a reset socket pair, a descriptor gone bad: the host is gone, as at an end of input
                return b""


class WireOut:
    """Writes to the host; a host that is gone ends the session instead of raising out of the SDK's writer."""

    def __init__(self, fd: int, ending: Ending) -> None:
        self.fd = fd
        self.ending = ending
        os.set_blocking(fd, False)

    async def write(self, text: str) -> None:
        view = memoryview(text.encode("utf-8"))
        while view and not self.ending.why:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                await anyio.wait_writable(self.fd)
                continue
            except OSError:  # EPIPE, ECONNRESET, or a descriptor gone bad: nobody reads any more
                self.ending.end(LEFT_MID_ANSWER)
                return
            view = view[written:]

    async def flush(self) -> None:
        await anyio.lowlevel.checkpoint()


def _is_null(fd: int) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(os.devnull))
    except OSError:
        return False


@contextlib.contextmanager
def claimed_stdio() -> Iterator[tuple[int, int]]:
    """Private duplicates of fd 0 and fd 1 for the wire; fd 0 reads /dev/null and fd 1 writes to stderr meanwhile."""
    wire_in = os.dup(0)
    wire_out = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        yield wire_in, wire_out
    finally:
        with contextlib.suppress(OSError, ValueError):
            import sys
            sys.stdout.flush()  # whatever a stray print left went to stderr, never to the host
        for fd, wire in ((0, wire_in), (1, wire_out)):
            with contextlib.suppress(OSError):
                os.dup2(wire, fd)
            os.close(wire)
        with contextlib.suppress(OSError):
            os.set_blocking(0, True)
            os.set_blocking(1, True)


async def serve_stdio(lowlevel: Any, wire_in: int, wire_out: int) -> str:
    """Serve the MCP ``lowlevel`` server over the two descriptors until the host goes; return why it ended."""
    from mcp.server.stdio import stdio_server

    ending = Ending()
    with ending.scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_stop_on_signal, ending)
            async with stdio_server(stdin=cast(Any, WireIn(wire_in)), stdout=cast(Any, WireOut(wire_out, ending))) as (
                    read_stream, write_stream):
                await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
            ending.end(CLOSED)
    return ending.why or CLOSED


async def _stop_on_signal(ending: Ending) -> None:
    """SIGTERM or SIGHUP (a host quitting, a closed terminal): stop as when the host closes the connection."""
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
        async for _signum in signals:
            ending.end(STOPPED)
            return
