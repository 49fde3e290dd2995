"""The MCP access log names clients, tools and counts only: after a proposal, a memory search and a history
search through the official SDK's own client, the log file's raw bytes hold no slot, text or query."""

from __future__ import annotations

from datetime import timezone

import pytest

from monchat.app import build_app
from monchat.cli import main as cli
from monchat.core.transfer.mcp_server import ACCESS_LOG, access_log
from tests.support.memory_seed import seed
from tests.test_mcp_server import session

WORDS = ["Collects Penny Black stamps every weekend", "hobby/stamps", "stamps", "Penny", "Zanzibarqueryword",
         "Kanazawa"]


@pytest.fixture
def app(home):
    app = build_app(str(home), tz=timezone.utc)
    seed(app)
    yield app
    app.close()


def test_the_access_log_holds_no_slot_text_or_query_after_a_proposal_and_searches(app, home, capsys):
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0

    async def steps(client):
        proposed = await client.call_tool("propose_memory", {"text": WORDS[0], "slot": WORDS[1]})
        await client.call_tool("search_memory", {"query": WORDS[4]})
        await client.call_tool("search_history", {"query": WORDS[5]})
        return proposed

    proposed = session(home, steps)
    assert not proposed.is_error
    raw = (app.paths.data_dir / ACCESS_LOG).read_bytes()
    events = [e["event"] for e in access_log(app.paths).read()]
    assert {"connected", "propose_memory", "search_memory", "search_history"} <= set(events)  # it still logs
    for word in WORDS:
        assert word.encode("utf-8") not in raw, word
    assert b"hobby" not in raw


def test_a_what_outside_the_log_vocabulary_is_never_written(tmp_path):
    """A caller that passes words (a slot, a query) as ``what`` gets an entry without them."""
    from monchat.core.transfer.mcp_server import PROFILE_URI, AccessLog
    log = AccessLog(tmp_path / ACCESS_LOG)
    log.write("host 1", "propose_memory", "hobby/stamps", 1)
    log.write("host 1", "read", PROFILE_URI, 2)
    raw = (tmp_path / ACCESS_LOG).read_bytes()
    assert b"hobby" not in raw and PROFILE_URI.encode() in raw
    assert [(e["event"], e["what"], e["results"]) for e in log.read()] == [("propose_memory", "", 1),
                                                                         ("read", PROFILE_URI, 2)]
