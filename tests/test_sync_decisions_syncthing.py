"""Decisions through two real Syncthing instances (issue 41, Tests): a flush on A replayed on B with no model call,
an approval on B travelling back, and both memories alike — with ``python -m monchat`` as a script would run it.

The harness is ``test_sync_syncthing.py``'s (two Syncthing instances on loopback, each with its own config and a
shared folder; an oracle behind a loopback Ollama that counts every request). Slow as a whole (~40 s): full run only.
"""

from __future__ import annotations

import pytest

from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle
from tests.support.syncthing import MISSING, installed, running_syncthing_pair
from tests.test_sync_syncthing import CHAT_A, RULES, TEA, Device, both, converge

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not installed(), reason=MISSING)]


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    root = tmp_path_factory.mktemp("sync-decisions")
    seen: dict = {}
    with running_oracle_ollama(Oracle(RULES)) as server, running_syncthing_pair(root, ("A", "B")) as pair:
        a = Device("A", root / "home-a", pair.a.folder, server, root)
        b = Device("B", root / "home-b", pair.b.folder, server, root)

        def prepare(device: Device) -> None:  # B has a backend too: a model call during sync would be counted
            device.run("settings", "set", "backend.name", "ollama")
            device.run("settings", "set", "ollama.model", "llama3.2")
            device.run("sync", "setup", str(device.folder), "--name", device.name)

        both(lambda: prepare(a), lambda: prepare(b))
        a.chats(CHAT_A, "chat")
        a.json("flush", "--seed", "7")
        calls = len(server.requests)
        converge(pair, a, b)
        seen["after_flush"] = both(a.memory, b.memory)
        seen["queue_b"] = b.json("memory", "queue")
        [tea] = [item for item in seen["queue_b"] if item["text"] == TEA]
        b.run("memory", "approve", str(tea["id"]))
        converge(pair, a, b)
        seen["calls_in_sync"] = len(server.requests) - calls
        seen["after_approval"] = both(a.memory, b.memory)
        seen["queue_after"] = both(lambda: a.json("memory", "queue"), lambda: b.json("memory", "queue"))
        yield seen


def test_a_flush_on_a_is_replayed_on_b_and_both_memories_are_alike(seen):
    memories = seen["after_flush"]
    assert memories["a"] and memories["a"] == memories["b"]
    assert any(m[0] == TEA and m[3] == "queued" for m in memories["b"].values())  # its review item is on B


def test_an_approval_on_b_travels_to_a(seen):
    memories = seen["after_approval"]
    assert memories["a"] == memories["b"]
    assert any(m[0] == TEA and m[4] == 1 for m in memories["a"].values())  # lasting memory on A now
    assert seen["queue_after"]["a"] == [] and seen["queue_after"]["b"] == []


def test_no_model_call_during_any_sync(seen):
    assert seen["calls_in_sync"] == 0
