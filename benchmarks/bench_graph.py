"""How much CPU the graph takes inside a flush's transaction as memory grows (no LLM, no SQL).

Run: .venv/bin/python benchmarks/bench_graph.py [--quick|--smoke]

Memories as ``GraphStore.memories()`` returns them (slot, text with a quoted name and a katakana
word, 1–4 sessions out of 200) go through what ``graph.update`` computes: nodes, the five
signals of every candidate pair, clusters and discoveries, with the default ``graph.*`` settings
(``graph.max_nodes`` caps the nodes). Baseline in the same run: the interest profile
(``profile.compute``) over the same memories' evidence, the background work a flush already did.
CPU time of this process (``time.process_time``), so a loaded machine slows it less than wall time.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.core.background import graph, profile
from monchat.core.settings import GraphSettings

SIZES = {"smoke": (50,), "quick": (100, 1_000), "full": (100, 1_000, 5_000)}
TOPICS = ("drink", "hobby", "home", "work", "friend", "travel", "food", "study", "health", "music")
KATAKANA = ("ギター", "コーヒー", "カメラ", "ランニング", "パン", "ミラ", "ケン", "サウナ", "ピアノ", "ワイン")


def memories(n: int) -> list[dict]:
    found = []
    for i in range(n):
        sessions = {f"2026-11-{1 + (i * 7 + k * 13) % 28:02d}_{(k * 6) % 24:02d}" for k in range(1 + i % 4)}
        found.append({"id": f"m{i:05d}", "slot": f"{TOPICS[i % len(TOPICS)]}/{i % 37}", "kind": "fact",
                      "text": f"「名前{i % 150}」と{KATAKANA[i % len(KATAKANA)]}の話 {i}", "sessions": sessions})
    return found


def time_graph(rows: list[dict], settings: GraphSettings) -> tuple[float, int, int]:
    start = time.process_time()
    nodes = graph.build_nodes(rows, settings.max_nodes)
    edges = graph.score_edges(nodes, graph.weights_of(settings), settings.edge_threshold)
    cluster = graph.clusters(nodes, edges)
    graph.discover(nodes, edges, cluster, cluster, settings)
    return time.process_time() - start, len(nodes), len(edges)


def time_profile(rows: list[dict]) -> float:
    mentions = [(r["slot"], f"{r['id']}-{s}", 1_764_000_000.0 + n) for n, r in enumerate(rows) for s in r["sessions"]]
    start = time.process_time()
    profile.compute(mentions, 1_764_000_000.0 + len(mentions), 1_764_000_000.0, {})
    return time.process_time() - start


def run(size: str = "full") -> dict:
    settings = GraphSettings()
    out = {}
    for n in SIZES[size]:
        rows = memories(n)
        seconds, nodes, edges = time_graph(rows, settings)
        out[f"graph_ms_{n}"] = {"value": round(seconds * 1000, 1), "nodes": nodes, "edges": edges,
                                "baseline_profile_ms": round(time_profile(rows) * 1000, 1)}
    return out


if __name__ == "__main__":
    mode = "smoke" if "--smoke" in sys.argv else "quick" if "--quick" in sys.argv else "full"
    print(json.dumps({"load_before": Path("/proc/loadavg").read_text().split()[:3], **run(mode),
                      "load_after": Path("/proc/loadavg").read_text().split()[:3]}, indent=1))
