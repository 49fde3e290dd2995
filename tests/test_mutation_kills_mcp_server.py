"""The MCP server as a host meets it, in process and fast (issue 44): the mutmut run of
``core/transfer/mcp_server.py`` found ``build_server``, the middleware that names clients, ``client_name``,
``recent_clients`` and ``serve`` reached only by tests that start ``monchat mcp`` (``subprocess``, left out of it).

The official SDK's own ``Client`` talks to ``build_server`` in memory, with the initialize handshake today's hosts
use and without it; ``serve`` runs over fd 0 and fd 1 made regular files for the test. What is checked is what a
host and the user see: the server's name, version and instructions, a refusal's words, each client named once in
the access log and named on every entry after, Settings' recent clients, and why a session ended.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from datetime import timezone
from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest
from mcp import Client
from mcp.types import Implementation

from monchat import __version__
from monchat.core.errors import InputError
from monchat.core.transfer.mcp_server import (ACCESS_LOG, INSTRUCTIONS, PROFILE_URI, UNNAMED, MemoryPort, _Recorder,
                                              build_server, client_name, recent_clients, serve)
from monchat.core.transfer.mcp_stdio import CLOSED
from tests.support.memory_seed import seed, seeded_app  # noqa: F401 (seeded_app: the app fixture)

UTC = timezone.utc
HOST = Implementation(name="test-host", version="1.2")


def logged(app) -> list[tuple[str, str]]:
    return [(e["client"], e["event"]) for e in MemoryPort(app).log.read()]


def talk(app, steps, mode: str):
    """``steps(client)`` against ``build_server(app)`` in this process; what it returns."""
    out = {}

    async def in_memory():
        with anyio.fail_after(30):
            async with Client(build_server(app), client_info=HOST, mode=mode) as client:
                out["value"] = await steps(client)
    anyio.run(in_memory)
    return out["value"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_host_reads_and_searches_and_is_named_once_then_on_each_entry(app, mode):
    async def steps(client):
        profile = await client.read_resource(PROFILE_URI)
        found = await client.call_tool("search_memory", {"query": "Kanazawa"})
        history = await client.call_tool("search_history", {"query": "Kanazawa"})
        return profile, found, history

    profile, found, history = talk(app, steps, mode)
    assert "- Lives in Kanazawa" in profile.contents[0].text
    assert [m["text"] for m in found.structured_content["result"]] == ["Lives in Kanazawa"]
    assert [m["id"] for m in history.structured_content["result"]] == ["u-kanazawa"]
    assert logged(app) == [("test-host 1.2", "connected"), ("test-host 1.2", "read"),
                           ("test-host 1.2", "search_memory"), ("test-host 1.2", "search_history")]


def test_the_handshake_tells_a_host_the_servers_name_version_and_what_it_offers(app):
    async def steps(client):
        return client.server_info, client.instructions

    info, instructions = talk(app, steps, "legacy")
    assert (info.name, info.version, instructions) == ("monchat", __version__, INSTRUCTIONS)
    assert logged(app) == [("test-host 1.2", "connected")]  # a host that only connects is named too


def test_a_refused_proposal_reaches_the_host_in_the_refusals_own_words(app):
    async def steps(client):
        return await client.call_tool("propose_memory", {"text": "Plays the guitar on Saturdays",
                                                         "slot": "hobby/guitar"})

    result = talk(app, steps, "legacy")
    text = " ".join(c.text for c in result.content)
    assert result.is_error
    assert text.endswith("monchat does not take proposals from other apps: its user has not allowed it. "
                         "The user can allow it in monchat: Settings → Memory, or "
                         "`monchat settings set mcp.allow_propose true`.")
    assert logged(app) == [("test-host 1.2", "connected"), ("test-host 1.2", "propose_memory refused")]


def test_a_client_that_gives_no_name_is_logged_once_when_it_asks(app):
    port = MemoryPort(app)
    recorder = _Recorder(port)
    nameless = SimpleNamespace(client_params=None)

    async def answered(_ctx):
        return "ok"

    async def requests():
        assert await recorder(SimpleNamespace(session=nameless, method="initialize"), answered) == "ok"
        assert logged(app) == []  # the handshake may name it only later
        for _ in range(2):
            assert await recorder(SimpleNamespace(session=nameless, method="tools/call"), answered) == "ok"
    anyio.run(requests)
    assert logged(app) == [(UNNAMED, "connected")]
    assert port.client == UNNAMED


def info(**fields) -> SimpleNamespace:
    return SimpleNamespace(client_params=SimpleNamespace(client_info=SimpleNamespace(**fields)))


def test_a_clients_name_is_its_name_and_version_in_single_spaces_cut_to_80_and_40(app):
    assert client_name(info(name="  Claude \n Desktop ", version=" 0.9 \t beta ")) == "Claude Desktop 0.9 beta"
    assert client_name(info(name="n" * 100, version="v" * 50)) == "n" * 80 + " " + "v" * 40
    assert client_name(info(name="Zed", version=None)) == "Zed"
    assert client_name(info(name="Zed")) == "Zed"
    for nameless in (info(name=None, version="1.0"), info(name=" ", version="1.0"), info(version="1.0"),
                     SimpleNamespace(client_params=SimpleNamespace()), SimpleNamespace()):
        assert client_name(nameless) == UNNAMED


def write_log(folder: Path, *entries: tuple[str, str, str]) -> None:
    with open(folder / ACCESS_LOG, "w", encoding="utf-8") as log:
        for at, client, event in entries:
            log.write(json.dumps({"at": at, "client": client, "event": event, "what": ""}) + "\n")


def test_recent_clients_are_the_last_three_that_asked_newest_first_with_when(tmp_path):
    assert recent_clients(tmp_path) == []
    write_log(tmp_path, ("2026-12-01T10:00", "Alpha 1", "connected"), ("2026-12-01T11:00", "Delta 1", "connected"),
              ("2026-12-01T12:00", "Beta 1", "connected"), ("2026-12-01T13:00", "Alpha 1", "read"),
              ("2026-12-01T14:00", "Gamma 1", "connected"), ("2026-12-01T15:00", "Beta 1", "disconnected"),
              ("2026-12-01T16:00", UNNAMED, "disconnected"))  # leaving asks nothing: neither is newer for it
    assert recent_clients(tmp_path) == [("Gamma 1", "2026-12-01T14:00"), ("Alpha 1", "2026-12-01T13:00"),
                                        ("Beta 1", "2026-12-01T12:00")]
    assert recent_clients(tmp_path, count=4)[3] == ("Delta 1", "2026-12-01T11:00")


@contextlib.contextmanager
def stdio(folder: Path, *requests: dict):
    """fd 0 reads ``requests`` (then its end: the host closed the connection); fd 1 writes to a file. Yields that
    file's path."""
    given, answers = folder / "host-writes.jsonl", folder / "host-reads.jsonl"
    given.write_text("".join(json.dumps(r) + "\n" for r in requests), encoding="utf-8")
    kept = os.dup(0), os.dup(1)
    wire_in, wire_out = os.open(given, os.O_RDONLY), os.open(answers, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        yield answers
    finally:
        for fd, original in ((0, kept[0]), (1, kept[1])):
            os.dup2(original, fd)
            os.close(original)
        os.close(wire_in)
        os.close(wire_out)


def test_serve_names_the_host_and_logs_why_the_session_ended(app, tmp_path):
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "test-host", "version": "1.2"}}}
    read = {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": PROFILE_URI}}
    with stdio(tmp_path, hello, {"jsonrpc": "2.0", "method": "notifications/initialized"}, read) as answers:
        why = serve(app)
    assert why == CLOSED
    [greeting, *_] = [json.loads(line) for line in answers.read_text(encoding="utf-8").splitlines()]
    assert greeting["result"]["serverInfo"]["name"] == "monchat"
    entries = MemoryPort(app).log.read()
    assert [(e["client"], e["event"]) for e in entries] == [("test-host 1.2", "connected"), ("test-host 1.2", "read"),
                                                            ("test-host 1.2", "disconnected")]
    assert entries[-1]["what"] == CLOSED


@pytest.mark.parametrize("closed", ["stdin", "stdout"])
def test_serve_without_a_host_on_either_end_says_so(app, tmp_path, monkeypatch, closed):
    with stdio(tmp_path):  # were the refusal gone, the server would meet an empty input and end, not hang
        monkeypatch.setattr(sys, closed, None)
        with pytest.raises(InputError) as caught:
            serve(app)
    assert " ".join(caught.value.message.split()) == ("monchat mcp needs a host (an MCP client) on its standard input "
                                                      "and output, and one of them is closed.")
    assert caught.value.hint == "Let an MCP client start it: see the README's MCP section."
    assert logged(app) == []
