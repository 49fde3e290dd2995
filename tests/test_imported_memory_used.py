"""Issue 39 item 5 and issue 45 item 4: an imported memory, once approved, is memory like any other.

Through the CLI as a user runs it: ``import --memory`` (a pasted ChatGPT list, and a monchat export whose file says
0.9), ``memory approve --all``, then a chat turn and a flush against the loopback fake Ollama (which records every
request), ``status``, and the MCP port's profile and ``search_memory``. Before: the imported rows had confidence 0,
so the first flush's prune set each approved one dormant ("0 lasting", "(Nothing remembered yet.)", ``[]``).
"""

from __future__ import annotations

import json

import pytest

from monchat.app import build_app
from monchat.cli import main as cli
from monchat.core.memory.review_item import ReviewItem
from monchat.core.transfer.mcp_server import MemoryPort
from monchat.core.vocabulary.states import Origin
from tests.support.quiet_ollama import quiet_ollama, run_json

OLLAMA = ["--backend", "ollama", "--model", "llama3.2"]
CHATGPT = "- Has two cats named Miso and Kinako\n- Works as a nurse in Sapporo\n"
EXPORT = {"format": "monchat-memory", "version": 1, "exported_at": "2026-11-01T10:00:00+00:00", "memories": [
    {"id": "mem-1", "text": "Plays the guitar on Sundays", "slot": "hobby/guitar", "kind": "explicit",
     "state": "active", "layer": 1, "pinned": False, "confidence": 0.9, "valid_at": "2026-10-01T10:00:00+00:00",
     "invalid_at": None, "superseded_by": None, "superseded_at": None, "created_at": "2026-10-01T10:00:00+00:00",
     "updated_at": "2026-10-01T10:00:00+00:00", "evidence": []}]}


@pytest.fixture
def ollama(home):
    yield from quiet_ollama()


def test_imported_rows_say_where_they_came_from_and_keep_the_files_confidence(home, tmp_path, capsys):
    pasted, export = tmp_path / "saved.txt", tmp_path / "export.json"
    pasted.write_text(CHATGPT, encoding="utf-8")
    export.write_text(json.dumps(EXPORT), encoding="utf-8")
    assert cli.main(["import", "--memory", "--source", "chatgpt", str(pasted)]) == 0
    assert cli.main(["import", "--memory", str(export)]) == 0
    rows = {r["text"]: r for r in run_json(capsys, "memory", "queue")}
    guitar, cats = rows["Plays the guitar on Sundays"], rows["Has two cats named Miso and Kinako"]
    assert guitar["confidence"] == 0.9 and guitar["origin"] == Origin.MONCHAT_EXPORT
    assert cats["confidence"] is None and cats["origin"] == Origin.CHATGPT  # the list gives no number: none shown
    shown = run_json(capsys, "memory", "show", guitar["memory_id"])
    assert shown["confidence"] == 0.9


def test_approved_imports_are_lasting_counted_in_the_prompt_and_found_by_mcp(ollama, home, tmp_path, capsys):
    pasted, export = tmp_path / "saved.txt", tmp_path / "export.json"
    pasted.write_text(CHATGPT, encoding="utf-8")
    export.write_text(json.dumps(EXPORT), encoding="utf-8")
    assert cli.main(["import", "--memory", "--source", "chatgpt", str(pasted)]) == 0
    assert cli.main(["import", "--memory", str(export)]) == 0
    assert len(run_json(capsys, "memory", "approve", "--all")) == 3
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "-m", "What should I cook tonight?"]) == 0
    assert cli.main([*OLLAMA, "flush"]) == 0  # prune runs: nothing approved may decay out
    assert cli.main([*OLLAMA, "chat", "--persona", "hana", "-m", "And for dessert?"]) == 0
    sent = json.dumps(ollama.chat_requests()[-1]["body"], ensure_ascii=False)
    for words in ("Miso and Kinako", "nurse in Sapporo", "guitar on Sundays"):
        assert words in sent
    status = run_json(capsys, *OLLAMA, "status")
    assert status["layers"]["layer1"] == 3, status["layers"]
    records = {m["text"]: m for m in run_json(capsys, "memory", "list")}
    assert {m["state"] for m in records.values()} == {"active"}
    assert records["Plays the guitar on Sundays"]["confidence"] == 0.9
    app = build_app(str(home))
    try:
        port = MemoryPort(app)
        assert "Miso and Kinako" in port.profile() and "guitar on Sundays" in port.profile()
        assert [m["text"] for m in port.search_memory("nurse")] == ["Works as a nurse in Sapporo"]
    finally:
        app.close()


def test_an_origin_is_read_from_the_row():
    row = {"id": 1, "memory_id": "m", "action": "layer1", "held": "imported", "proposers": '["Claude"]'}
    assert ReviewItem.of(row).origin is Origin.CLAUDE
    assert ReviewItem.of({**row, "held": None, "proposers": None}).origin is Origin.CHAT
    assert ReviewItem.of({**row, "held": "mcp"}).origin is Origin.MCP
