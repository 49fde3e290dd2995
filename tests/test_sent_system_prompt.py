"""What is *sent* as the system prompt: the bytes a loopback Ollama receives, turn after turn.

Between flushes every turn carries the same system prompt, so the backend's
prompt cache is hit (DESIGN §6). This test does not ask ``system_prompt()``; it
reads the requests the server got, across more than 20 turns with a clock that
moves, and across a restart a day later, and compares them with the prompt a
user can read off the persona file and the memory.
"""

from __future__ import annotations

import re
import tomllib
from datetime import timedelta
from pathlib import Path

from tests.flush.conftest import Oracle, Rule, World, at
from tests.flush.oracle_server import running_oracle_ollama

ROOT = Path(__file__).resolve().parents[1]
SENDAI = "仙台に住んでいる"
TURNS_BEFORE_RESTART, TURNS_AFTER_RESTART = 21, 4


def _expected_prompt() -> str:
    """hana's system text from her file, then the one memory under the Japanese heading."""
    hana = tomllib.loads((ROOT / "personas" / "surface" / "hana.toml").read_text(encoding="utf-8"))
    return f"{hana['system'].strip()}\n\n## ユーザーについて覚えていること\n- {SENDAI}\n"


def _chat_systems(server) -> list[str]:
    systems = []
    for request in server.chat_requests():
        body = request["body"]
        if "format" in body:  # a flush call, not a chat turn
            continue
        [system] = [m["content"] for m in body["messages"] if m["role"] == "system"]
        assert body["messages"][0]["role"] == "system"
        systems.append(system)
    return systems


def test_every_turn_sends_the_same_system_prompt_across_turns_and_a_restart(tmp_path):
    oracle = Oracle([Rule("仙台", SENDAI, "home/city", "explicit", 0.9)])
    with running_oracle_ollama(oracle) as server:
        server.installed |= {"small"}
        settings = {"backend.name": "ollama", "ollama.model": "small", "ollama.host": server.url}
        world = World(tmp_path / "home", oracle, settings=settings)
        world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
        world.flush("2026-11-23T22:00:00+09:00")
        assert world.mem(SENDAI).state == "active"

        start = at("2026-11-23T22:05:00+09:00")
        for n in range(TURNS_BEFORE_RESTART):
            world.clock.now = start + timedelta(minutes=7 * n)
            world.app.chat.send(f"{n}回目の話")

        again = World(tmp_path / "home", oracle, "2026-11-24T19:30:00+09:00", settings)  # a restart
        for n in range(TURNS_AFTER_RESTART):
            again.clock.now = at("2026-11-24T19:30:00+09:00") + timedelta(minutes=13 * n)
            again.app.chat.send(f"翌日の{n}回目")
        systems = _chat_systems(server)
        assert server.errors == []

    assert len(systems) == TURNS_BEFORE_RESTART + TURNS_AFTER_RESTART
    assert systems == [_expected_prompt()] * len(systems)  # byte for byte, every time
    assert not re.search(r"\d{1,2}:\d{2}|20\d\d", systems[0])  # no clock of any kind in it
