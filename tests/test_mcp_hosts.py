"""``monchat mcp`` outlives its hosts: a raw JSON-RPC host that leaves before, during or after a call, closes
only its writing end, or is killed; and two hosts at once (the SDK's ``ClientSession`` over ``stdio_client``, two
server processes) whose proposals all queue, while only a real flush refuses one, and every refusal is logged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timezone
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation

from monchat.app import build_app
from monchat.cli import main as cli
from monchat.core.errors import FlushRunning, InputError
from monchat.core.paths import held_lock, running_mark
from monchat.core.transfer.mcp_server import BUSY, FLUSHING, MemoryPort, access_log
from monchat.core.transfer.mcp_stdio import CLOSED, LEFT_MID_ANSWER, STOPPED
from tests.support.memory_seed import seed

ROOT = Path(__file__).parents[1]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "search_history", "arguments": {"query": "tea"}}}


@pytest.fixture
def app(home):
    app = build_app(str(home), tz=timezone.utc)
    seed(app)
    yield app
    app.close()


def server_env(home: Path) -> dict[str, str]:
    return {**os.environ, "MONCHAT_HOME": str(home), "PYTHONPATH": str(ROOT),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}


def start_raw(home: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "monchat", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=server_env(home), cwd=ROOT)


def send(server: subprocess.Popen, *messages: dict) -> None:
    assert server.stdin is not None
    server.stdin.write(b"".join((json.dumps(m) + "\n").encode() for m in messages))
    server.stdin.flush()


def endings(home: Path) -> list[str]:
    return [e["what"] for e in access_log_entries(home) if e["event"] == "disconnected"]


def access_log_entries(home: Path) -> list[dict]:
    from monchat.core.paths import Paths
    return access_log(Paths.from_env(str(home))).read()


def no_crash(home: Path) -> bool:
    crash = home / "crash"
    return not crash.exists() or not any(crash.iterdir())


@pytest.mark.parametrize("moment", ["before a call", "during a call", "after a call", "half-close"])
def test_a_raw_host_that_leaves_at_any_moment_ends_the_server_with_exit_0_and_a_log_line(home, moment):
    server = start_raw(home)
    assert server.stdin is not None and server.stdout is not None
    send(server, INIT)
    assert b'"id":1' in server.stdout.readline()
    if moment == "before a call":
        server.stdin.close()
        server.stdout.close()
    elif moment == "during a call":
        send(server, INITIALIZED, CALL)
        server.stdin.close()
        server.stdout.close()  # the answer finds no reader: a broken pipe the SDK's own writer would raise
    elif moment == "after a call":
        send(server, INITIALIZED, CALL)
        assert b'"id":2' in server.stdout.readline()
        server.stdout.close()
        server.stdin.close()
    else:  # only the host's writing end closes: the call it made is still answered
        send(server, INITIALIZED, CALL)
        server.stdin.close()
        assert b'"id":2' in server.stdout.readline()
    assert server.wait(60) == 0, server.stderr.read().decode() if server.stderr else ""
    assert no_crash(home)
    assert len(endings(home)) == 1 and endings(home)[0] in {CLOSED, LEFT_MID_ANSWER}
    if moment == "half-close":
        assert endings(home) == [CLOSED]


def test_a_host_killed_mid_call_leaves_no_crash_report(home, tmp_path):
    """The host (a process of its own) is SIGKILLed while its call is answered; the server, left with two dead
    pipes, exits 0 (a shell beside it writes down the server's exit code)."""
    rc_file = tmp_path / "rc"
    host = textwrap_host(home, rc_file)
    proc = subprocess.Popen([sys.executable, "-c", host], stdout=subprocess.PIPE, env=server_env(home), cwd=ROOT)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"asked"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    deadline = time.monotonic() + 60
    while not rc_file.exists() or not rc_file.read_text().strip():
        assert time.monotonic() < deadline, "the server did not end when its host died"
        time.sleep(0.1)
    assert rc_file.read_text().strip() == "0"
    assert no_crash(home) and len(endings(home)) == 1


def textwrap_host(home: Path, rc_file: Path) -> str:
    """A host that starts ``monchat mcp`` (under a shell that records its exit code), asks, and waits to be killed."""
    return "\n".join([
        "import json, subprocess, sys, time",
        f"cmd = ['sh', '-c', '\"$0\" -m monchat mcp; echo $? > \"$1\"', sys.executable, {str(rc_file)!r}]",
        "p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)",
        f"p.stdin.write((json.dumps({INIT!r}) + '\\n').encode()); p.stdin.flush(); p.stdout.readline()",
        f"p.stdin.write((json.dumps({INITIALIZED!r}) + '\\n' + json.dumps({CALL!r}) + '\\n').encode())",
        "p.stdin.flush(); print('asked', flush=True); time.sleep(300)",
    ])


def test_a_host_that_stops_the_server_with_sigterm_gets_exit_0_and_a_log_line(home):
    server = start_raw(home)
    assert server.stdout is not None
    send(server, INIT)
    assert b'"id":1' in server.stdout.readline()
    server.send_signal(signal.SIGTERM)
    assert server.wait(60) == 0
    assert endings(home) == [STOPPED] and no_crash(home)


def test_two_sdk_hosts_at_once_get_answers_and_every_proposal_queues(app, home, capsys):
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    capsys.readouterr()
    results: dict[str, list] = {}

    async def host(name: str) -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "monchat", "mcp"],
                                       env=server_env(home), cwd=str(ROOT))
        async with stdio_client(params) as (read, write), ClientSession(
                read, write, client_info=Implementation(name=name, version="1")) as session:
            await session.initialize()
            found = await session.call_tool("search_memory", {"query": "tea"})
            proposals = []
            async with anyio.create_task_group() as tg:
                for n in range(4):
                    async def propose(n=n):
                        proposals.append(await session.call_tool(
                            "propose_memory", {"text": f"{name} says the user likes kite number {n}",
                                               "slot": f"hobby/kite{name[-1]}{n}"}))
                    tg.start_soon(propose)
            results[name] = [found, *proposals]

    async def main():
        with anyio.fail_after(120):
            async with anyio.create_task_group() as tg:
                tg.start_soon(host, "host-a")
                tg.start_soon(host, "host-b")
    anyio.run(main)
    for name in ("host-a", "host-b"):
        assert len(results[name]) == 5
        assert not any(r.is_error for r in results[name]), [r.content for r in results[name] if r.is_error]
    entries = access_log_entries(home)
    assert not [e for e in entries if "refused" in e["event"]]
    assert sum(e.get("results", 0) for e in entries if e["event"] == "propose_memory") == 8
    assert sorted(e["client"] for e in entries if e["event"] == "disconnected") == ["host-a 1", "host-b 1"]


def test_a_proposal_waits_for_another_writer_and_only_a_flush_refuses_it(app, capsys):
    """Another holder of the flush lock (another host's proposal) is waited out; a running flush is refused at once,
    and each refusal is in the log."""
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    port = MemoryPort(app)
    port.client = "test-host"
    taken, release = threading.Event(), threading.Event()

    def hold_lock():
        with held_lock(app.paths.flush_lock) as held:
            assert held
            taken.set()
            release.wait(10)

    holder = threading.Thread(target=hold_lock)
    holder.start()
    taken.wait(5)
    threading.Timer(0.3, release.set).start()
    assert port.propose("The user flies kites on Sundays", "hobby/kites")["queued"]
    holder.join()

    with running_mark(app.paths.flush_running), held_lock(app.paths.flush_lock):
        started = time.monotonic()
        with pytest.raises(FlushRunning, match="flushing"):
            port.propose("The user sails in summer", "hobby/sailing")
        assert time.monotonic() - started < 2

    port.wait = 0.2
    with held_lock(app.paths.flush_lock):
        with pytest.raises(FlushRunning, match="busy"):
            port.propose("The user sails in summer", "hobby/sailing")
    with pytest.raises(InputError):
        port.propose("ab")
    with pytest.raises(InputError):
        port.propose("The user sails in summer", "no slot at all !!")
    refusals = [e["what"] for e in access_log(app.paths).read() if e["event"] == "propose_memory refused"]
    assert refusals == [FLUSHING, BUSY, "a text of 3 to 2,000 characters is needed", "not a slot"]


def test_a_server_started_without_a_host_on_its_stdin_says_so_with_exit_2(home):
    done = subprocess.run([sys.executable, "-m", "monchat", "mcp"], capture_output=True, env=server_env(home),
                          cwd=ROOT, timeout=60,
                          preexec_fn=lambda: os.close(0))  # fd 0 closed, as `monchat mcp <&-`
    assert done.returncode == 2 and b"needs a host" in done.stderr and no_crash(home)


def test_a_host_leaving_is_not_counted_among_the_clients_that_asked(tmp_path):
    from monchat.core.transfer.mcp_server import ACCESS_LOG, AccessLog, recent_clients
    log = AccessLog(tmp_path / ACCESS_LOG)
    log.write("host-a 1", "connected")
    log.write("unnamed client", "disconnected", CLOSED)  # `monchat mcp < /dev/null`: nobody asked anything
    assert [client for client, _at in recent_clients(tmp_path)] == ["host-a 1"]
