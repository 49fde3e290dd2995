"""``monchat mcp`` driven by the official SDK's own client over stdio: the profile, the searches, proposing
only into the review queue and only when the user allows it, and the access log naming the client."""

from __future__ import annotations

import os
import sys
from datetime import timezone
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import Implementation

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.transfer import mcp_server
from monchat.core.errors import InputError
from monchat.core.transfer.mcp_server import PROFILE_URI, MemoryPort, access_log
from tests.support.memory_seed import seed, seeded_app  # noqa: F401 (seeded_app: the app fixture)

UTC = timezone.utc
ROOT = Path(__file__).parents[1]


def params(home: Path) -> StdioServerParameters:
    env = {"MONCHAT_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
           "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT)}
    return StdioServerParameters(command=sys.executable, args=["-m", "monchat", "mcp"], env=env, cwd=str(ROOT))


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def structured(result):
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


def session(home: Path, steps, mode: str = "auto"):
    """Run ``steps(client)`` against a real ``monchat mcp`` process; return what it returns.

    ``mode`` "legacy": the initialize handshake today's hosts (Claude Desktop, LM Studio) use."""
    out = {}

    async def main():
        with anyio.fail_after(120):
            await run()

    async def run():
        async with Client(params(home), client_info=Implementation(name="test-host", version="1.2"),
                          read_timeout_seconds=60, mode=mode) as client:
            out["value"] = await steps(client)
    anyio.run(main)
    return out["value"]


def test_a_client_lists_reads_searches_and_is_named_in_the_log(app, home):
    async def steps(client):
        resources = await client.list_resources()
        tools = await client.list_tools()
        profile = await client.read_resource(PROFILE_URI)
        memory = await client.call_tool("search_memory", {"query": "Kanazawa Sendai tea"})
        history = await client.call_tool("search_history", {"query": "Kanazawa"})
        return resources, tools, profile, memory, history

    resources, tools, profile, memory, history = session(home, steps)
    assert [str(r.uri) for r in resources.resources] == [PROFILE_URI]
    assert {t.name for t in tools.tools} == {"search_memory", "search_history", "propose_memory"}
    text = profile.contents[0].text
    assert "- Lives in Kanazawa" in text
    assert "Sendai" not in text and "green tea" not in text  # history and what waits for review stay out
    assert [m["text"] for m in structured(memory)] == ["Lives in Kanazawa"]  # never the replaced or unreviewed one
    assert [m["text"] for m in structured(history)] == ["moved last week, I'm in Kanazawa now"]
    log = access_log(app.paths).read()
    assert {e["client"] for e in log} == {"test-host 1.2"}
    assert [e["event"] for e in log][:1] == ["connected"]
    assert {"read", "search_memory", "search_history"} <= {e["event"] for e in log}


def test_proposing_is_refused_until_the_user_allows_it_and_then_only_queues(app, home, capsys):
    async def steps(client):
        refused = await client.call_tool("propose_memory", {"text": "Plays the guitar on Saturdays",
                                                            "slot": "hobby/guitar"})
        assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0  # while the server runs
        accepted = await client.call_tool("propose_memory", {"text": "Plays the guitar on Saturdays",
                                                             "slot": "hobby/guitar"})
        again = await client.call_tool("propose_memory", {"text": "Plays the guitar on Saturdays",
                                                          "slot": "hobby/guitar"})
        bad = await client.call_tool("propose_memory", {"text": "x", "slot": "hobby/guitar"})
        return refused, accepted, again, bad

    refused, accepted, again, bad = session(home, steps)
    assert refused.is_error and "not allowed" in text_of(refused) and "mcp.allow_propose" in text_of(refused)
    assert not accepted.is_error and structured(accepted)["queued"] is True
    assert structured(again) == {**structured(accepted), "queued": False, "already_known": True}
    assert bad.is_error
    app.memory.store.close()
    rows = [r for r in app.memory.queue() if r.text == "Plays the guitar on Saturdays"]
    assert len(rows) == 1 and rows[0].held == "mcp" and rows[0].proposers == ["test-host 1.2"]
    proposal = app.memory.get(rows[0].memory_id)
    assert (proposal.state, proposal.slot, proposal.kind) == ("queued", "hobby/guitar", "explicit")
    assert app.memory.prompt_items()[0] == [i for i in app.memory.prompt_items()[0] if "guitar" not in i.text]
    events = [e["event"] for e in access_log(app.paths).read()]
    assert "propose_memory refused" in events and "propose_memory" in events
    assert cli.main(["mcp", "log"]) == 0
    assert "test-host 1.2: propose_memory refused" in capsys.readouterr().out


def test_the_settings_switch_is_off_by_default_and_set_from_the_cli(home, capsys):
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    app = build_app(str(home), tz=UTC)
    try:
        assert app.settings.mcp.allow_propose is True
    finally:
        app.close()
    from monchat.core.settings import Settings
    assert Settings().mcp.allow_propose is False


def test_every_result_passes_the_one_hook(app, monkeypatch):
    """Off-the-record messages and never-remember topics are hidden in ``visible_to_clients`` (issue 28):
    the profile, both searches and a proposal all ask it."""
    asked = []

    def hide_kanazawa(_app, kind, record):
        asked.append(kind)
        return "kanazawa" not in record["text"].casefold()
    monkeypatch.setattr(mcp_server, "visible_to_clients", hide_kanazawa)
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    port = MemoryPort(app)
    assert "Kanazawa" not in port.profile()
    assert port.search_memory("Kanazawa") == []
    assert port.search_history("Kanazawa") == []
    with pytest.raises(InputError, match="keeps this topic out"):
        port.propose("Moved to Kanazawa again", "home/city")
    assert set(asked) == {"profile", "memory", "message", "proposal"}


def test_the_stdio_channel_carries_nothing_but_the_protocol(home):
    """A stray print on stdout would break every client: the server writes its banner to stderr."""
    import subprocess
    env = {**os.environ, "MONCHAT_HOME": str(home), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "monchat", "mcp"], input=b"", capture_output=True, env=env,
                          cwd=ROOT, timeout=60)
    assert done.stdout == b""
    assert b"MCP server on stdio" in done.stderr and done.returncode == 0


def test_a_message_the_user_took_back_is_not_handed_out(app):
    from monchat.core.types import Message
    edited = Message(id="u-kanazawa-2", ts="2026-11-29T19:01:00.000+09:00", role="user",
                     text="moved last month, I'm in Kanazawa now", persona="mira", replaces="u-kanazawa")
    app.archive.archive([edited])
    assert [h["id"] for h in MemoryPort(app).search_history("Kanazawa")] == ["u-kanazawa-2"]


def test_a_host_using_the_initialize_handshake_is_named_too(app, home):
    async def steps(client):
        return await client.read_resource(PROFILE_URI)

    profile = session(home, steps, mode="legacy")
    assert "- Lives in Kanazawa" in profile.contents[0].text
    assert [(e["client"], e["event"]) for e in access_log(app.paths).read()] == [
        ("test-host 1.2", "connected"), ("test-host 1.2", "read"), ("test-host 1.2", "disconnected")]


def test_proposals_stop_while_too_many_wait_for_review(app, monkeypatch):
    monkeypatch.setattr(mcp_server, "MAX_OPEN_PROPOSALS", 2)
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    port = MemoryPort(app)
    port.propose("Plays the guitar on Saturdays", "hobby/guitar")
    port.propose("Runs along the river in the morning", "sport/running")
    with pytest.raises(InputError, match="already wait for the user's review"):
        port.propose("Reads mysteries before bed", "reading/genre")
    app.memory.reject(str(app.memory.queue()[-1].id))  # the user goes through one: room again
    assert port.propose("Reads mysteries before bed", "reading/genre")["queued"] is True


def test_a_client_that_gives_no_name_is_logged_when_it_asks(app):
    from types import SimpleNamespace

    port = MemoryPort(app)
    recorder = mcp_server._Recorder(port)
    nameless = SimpleNamespace(client_params=None)

    async def answer(_ctx):
        return "ok"

    async def run():
        await recorder(SimpleNamespace(session=nameless, method="initialize"), answer)
        assert access_log(app.paths).read() == []  # the handshake may name it only later
        await recorder(SimpleNamespace(session=nameless, method="tools/call"), answer)
        await recorder(SimpleNamespace(session=nameless, method="tools/call"), answer)
    anyio.run(run)
    assert [(e["client"], e["event"]) for e in access_log(app.paths).read()] == [("unnamed client", "connected")]


def test_off_the_record_words_and_never_remember_topics_never_reach_another_app(app):
    """The hook for real (issue 28): a message said off the record is found by monchat's own search but
    not handed out, and a topic the user keeps out of memory is neither shown nor taken as a proposal."""
    from monchat.core.logs.search import SearchService
    from monchat.core.types import Message
    said = Message(id="u-off-1", ts="2026-11-29T20:00:00.000+09:00", role="user",
                   text="off the record: my salary is a secret", persona="mira", off_record=True)
    app.logbook.off_record.append(said)
    assert [h.id for h in SearchService(app.logbook, app.archive).search("salary", 10)] == ["u-off-1"]
    port = MemoryPort(app)
    assert port.search_history("salary") == []
    assert "Kanazawa" in port.profile() and port.search_memory("Kanazawa")
    app.never.add("kanazawa")
    assert "Kanazawa" not in port.profile()
    assert port.search_memory("Kanazawa") == [] and port.search_history("Kanazawa") == []
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    with pytest.raises(InputError, match="keeps this topic out"):
        port.propose("Moved to Kanazawa again", "home/city")


def test_the_access_log_keeps_its_newest_entries_within_its_bound(tmp_path):
    """A client that asks all day long does not fill the disk: past its bound the log keeps its newest half."""
    from monchat.core.transfer.mcp_server import AccessLog
    log = AccessLog(tmp_path / "mcp-access.jsonl", max_bytes=2000)
    for n in range(200):
        log.write("busy-client", "search_memory", "", n)
    entries = log.read()
    assert (tmp_path / "mcp-access.jsonl").stat().st_size <= 2000
    assert entries[-1]["results"] == 199 and 0 < len(entries) < 200
    assert [e["results"] for e in entries] == list(range(200 - len(entries), 200))  # the newest, in order
    assert (tmp_path / "mcp-access.jsonl").stat().st_mode & 0o777 == 0o600
