"""The README's MCP snippet works as written for the README's install: its command is the ``.venv/bin/monchat``
that ``scripts/setup`` makes (here: the one beside the Python running the tests), started by the SDK's own client
with a host's minimal environment (the SDK passes HOME, PATH, USER … and the entry's ``env``), as Claude Desktop
and LM Studio start it."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from monchat.core.transfer.mcp_server import PROFILE_URI

ROOT = Path(__file__).parents[1]


def mcp_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Your memory in other apps (MCP)")
    return text[start:text.index("\n## ", start + 1)]


def snippet() -> dict:
    block = re.search(r"```json\n(.*?)```", mcp_section(), re.DOTALL)
    assert block is not None
    return json.loads(block.group(1))["mcpServers"]["monchat"]


def test_the_snippet_names_the_setups_monchat_and_the_hosts_config_files_on_macos_and_linux():
    entry, section = snippet(), mcp_section()
    assert entry["command"].endswith("/.venv/bin/monchat") and entry["args"] == ["mcp"]
    assert "realpath .venv/bin/monchat" in section and "which monchat" not in section
    assert "~/Library/Application Support/Claude/claude_desktop_config.json" in section
    assert "~/.config/Claude/claude_desktop_config.json" in section and "mcp.json" in section
    assert "Windows" not in section and "APPDATA" not in section


def test_the_snippets_command_serves_a_host_started_with_a_minimal_environment(home):
    entry = snippet()
    command = Path(sys.executable).parent / Path(entry["command"]).name  # <checkout>/.venv/bin/monchat
    assert command.exists(), f"{command}: installing monchat puts its command beside the Python that runs the tests"
    params = StdioServerParameters(command=str(command), args=entry["args"], env={"MONCHAT_HOME": str(home)})
    out = {}

    async def main():
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                out["tools"] = {t.name for t in (await session.list_tools()).tools}
                out["profile"] = (await session.read_resource(PROFILE_URI)).contents[0].text
    anyio.run(main)
    assert out["tools"] == {"search_memory", "search_history", "propose_memory"}
    assert "What monchat remembers" in out["profile"]
