"""The graph of what the user talks about, computed by the program at each flush (no LLM).

**Nodes.** A *topic* per slot prefix (``drink/daily`` → ``drink``, as in the profile) and an
*entity* per name found in memory texts, without any model (``entities()``):

- quoted names: 「…」, 『…』, "…", “…” (1–30 characters);
- katakana runs of two or more characters (``ギター``, ``ミラ・ノヴァ``);
- capitalised words and runs of them (``Sendai``, ``Mira Nova``, ``New York``); the first word of a
  sentence is capitalised by grammar and skipped ("Met Mira" → Mira, "The Beatles" → Beatles; so a
  text that starts with a name loses it — a rule, not a model);
- in a memory of a place topic (home, travel, …) only: a run of 2–6 kanji followed by に, で, から,
  へ or の (仙台に住んでいる → 仙台, 金沢の近江町市場の近く → 金沢, 近江町市場).

An entity's type is read off the topics of the memories it is named in: ``place`` (home, travel,
city, …), ``person`` (family, friend, partner, …) or ``thing``; most memories win, ties by name.
The memories counted are those the views may show (``store/shown.py``: live or approved, never waiting
for review, forgotten, refused or replaced).
A node's **sessions** are the 6-hour log files (``messages.session``; the local day for a row
without one) of the user lines its memories' supporting evidence cites.

**Edges.** Every pair of nodes that share a session or a neighbour is scored by five signals:

- ``co_occurrence`` = ln(1 + n) / ln(1 + S): n sessions where both appear, S sessions in the graph;
- ``session_overlap`` = n / |sessions(a) ∪ sessions(b)| (Jaccard);
- ``adamic_adar`` = Σ 1 / ln(deg z) over the common neighbours z of a and b, where neighbours share
  a session (deg z ≥ 2, so ln > 0); the composite takes it as AA / (1 + AA);
- ``type_affinity`` = ``AFFINITY`` below by the two nodes' types (person–place is not person–person);
- ``similarity`` = the character n-gram TF-IDF cosine (``similarity.py``) of the two nodes' texts
  (a node's text: a topic's name and the texts of its first ``TEXTS_PER_NODE`` memories, by id).

The weight is Σ wᵢ·sᵢ / Σ wᵢ with the ``graph.weight_*`` settings. An edge at or above
``graph.edge_threshold`` is drawn; below it the edge is *held*: stored with its signals, not drawn.
**Clusters** are the connected parts of the drawn graph (largest first, numbered from 1).

**Discoveries** (queued once each, shown only in the inbox):

- ``bridge``: a drawn edge joining two clusters of the previous flush's graph that had no link,
  queued when its weight ≥ ``graph.bridge_threshold`` (the strongest per pair of old clusters);
- ``two_hop``: two nodes never in one session whose Adamic–Adar ≥ ``graph.two_hop_threshold``;
- ``missing``: a node outside a cluster of three or more that shares sessions (through held edges) with
  at least the share ``graph.missing_threshold`` of its members, and at least two: it seems to belong there.

At most ``PER_FLUSH`` of each kind a flush, strongest first.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from ..store.graph import SIGNALS, GraphStore
from .profile import topic_of
from .similarity import TfIdf

TOPIC, PERSON, PLACE, THING = "topic", "person", "place", "thing"
PLACE_TOPICS = frozenset({"home", "place", "places", "travel", "trip", "city", "location", "address", "commute"})
PERSON_TOPICS = frozenset({"person", "people", "family", "friend", "friends", "partner", "relationship",
                           "relationships", "colleague", "colleagues", "social"})
_PRIOR = {(TOPIC, TOPIC): 0.5, (TOPIC, PERSON): 0.7, (TOPIC, PLACE): 0.7, (TOPIC, THING): 0.8,
          (PERSON, PERSON): 0.6, (PERSON, PLACE): 0.9, (PERSON, THING): 0.6,
          (PLACE, PLACE): 0.4, (PLACE, THING): 0.6, (THING, THING): 0.5}
AFFINITY = {**_PRIOR, **{(b, a): v for (a, b), v in _PRIOR.items()}}
PER_FLUSH = 5
TEXTS_PER_NODE = 40  # a node's text for the similarity: its first memories' texts (a topic may have hundreds)
ROUND = 4

QUOTED = re.compile(r"「([^「」\n]{1,30})」|『([^『』\n]{1,30})』|\"([^\"\n]{1,30})\"|“([^”\n]{1,30})”")
KATAKANA = re.compile(r"[ァ-ヺ][ァ-ヺー・]+")
CAPITALISED = re.compile(r"[A-Z][A-Za-z0-9'’\-]*(?:[ \t]+[A-Z][A-Za-z0-9'’\-]*)*")
KANJI_PLACE = re.compile(r"(?<![一-龯々])[一-龯々]{2,6}(?=に|で|から|へ|の)")
SENTENCE_END = re.compile(r"(^|[.!?:;。！？]\s*)$")
KATAKANA_STOP = frozenset({"ユーザー", "ユーザ"})  # "the user" in a memory text is not a name


def entities(text: str, place: bool = False) -> list[str]:
    """The names in one memory text, in order, each once (see the module's rules; ``place``: of a place topic)."""
    found: list[str] = []
    for m in QUOTED.finditer(text):
        found.append(next(g for g in m.groups() if g is not None).strip())
    found += [m.group(0).rstrip("・") for m in KATAKANA.finditer(text) if m.group(0) not in KATAKANA_STOP]
    if place:
        found += [m.group(0) for m in KANJI_PLACE.finditer(text)]
    for m in CAPITALISED.finditer(text):
        words = m.group(0).split()
        if SENTENCE_END.search(text[:m.start()]):
            words = words[1:]  # capitalised by grammar: "Met Mira" is Mira, "The Beatles" Beatles
        if words and words != ["I"]:
            found.append(" ".join(words))
    seen: dict[str, str] = {}
    for name in found:
        if len(name) >= 2 and name.casefold() not in seen:
            seen[name.casefold()] = name
    return list(seen.values())


def type_of_topic(topic: str) -> str:
    return PLACE if topic in PLACE_TOPICS else PERSON if topic in PERSON_TOPICS else THING


@dataclass
class Node:
    id: str
    label: str
    type: str
    sessions: set = field(default_factory=set)
    memories: set = field(default_factory=set)
    texts: list = field(default_factory=list)
    topics: Counter = field(default_factory=Counter)


def build_nodes(memories: list[dict], max_nodes: int) -> dict[str, Node]:
    """Topic and entity nodes of these memories; the ``max_nodes`` with the most sessions (then memories)."""
    nodes: dict[str, Node] = {}
    for memory in memories:
        topic = topic_of(memory["slot"])
        keys = [(f"topic:{topic}", topic, TOPIC)] + [(f"entity:{name.casefold()}", name, None)
                                                     for name in entities(memory["text"],
                                                                          type_of_topic(topic) == PLACE)]
        for key, label, kind in keys:
            node = nodes.setdefault(key, Node(key, label, kind or THING))
            node.sessions |= memory["sessions"]
            node.memories.add(memory["id"])
            node.texts.append(memory["text"])
            node.topics[topic] += 1
    for node in nodes.values():
        if node.id.startswith("entity:"):
            votes: Counter[str] = Counter()
            for topic, n in node.topics.items():
                votes[type_of_topic(topic)] += n
            node.type = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        else:
            node.texts.insert(0, node.label)
    kept = sorted(nodes.values(), key=lambda n: (-len(n.sessions), -len(n.memories), n.id))[:max_nodes]
    return {n.id: n for n in kept}


def neighbours(nodes: dict[str, Node]) -> dict[str, set[str]]:
    """Who shares at least one session with whom (the graph Adamic–Adar counts degrees in)."""
    by_session: dict[str, set[str]] = {}
    for node in nodes.values():
        for s in node.sessions:
            by_session.setdefault(s, set()).add(node.id)
    near: dict[str, set[str]] = {key: set() for key in nodes}
    for members in by_session.values():
        for key in members:
            near[key] |= members - {key}
    return near


def score_edges(nodes: dict[str, Node], weights: dict[str, float], threshold: float) -> list[dict]:
    """Every pair sharing a session or a neighbour, with its five signals, weight and whether it is drawn."""
    near = neighbours(nodes)
    total = len(set().union(*(n.sessions for n in nodes.values()))) if nodes else 0
    pairs = []
    for a in sorted(nodes):
        reach = set(near[a]).union(*(near[z] for z in near[a]))  # one or two steps away
        pairs += [(a, b) for b in sorted(reach) if b > a]
    inverse_log = {z: 1 / math.log(len(near[z])) for z in nodes if len(near[z]) >= 2}
    tfidf = TfIdf({key: "\n".join(n.texts[:TEXTS_PER_NODE]) for key, n in nodes.items()})
    weight_sum = sum(weights.values())
    edges = []
    for a, b in pairs:
        na, nb = nodes[a], nodes[b]
        shared = len(na.sessions & nb.sessions)
        union = len(na.sessions | nb.sessions)
        aa = sum(inverse_log[z] for z in near[a] & near[b])
        signals = {"co_occurrence": math.log1p(shared) / math.log1p(total) if total else 0.0,
                   "session_overlap": shared / union if union else 0.0,
                   "adamic_adar": aa,
                   "type_affinity": AFFINITY[(na.type, nb.type)],
                   "similarity": tfidf.cosine(a, b)}
        unit = {**signals, "adamic_adar": aa / (1 + aa)}
        weight = sum(weights[k] * unit[k] for k in SIGNALS) / weight_sum if weight_sum else 0.0
        edges.append({"source": a, "target": b, "weight": round(weight, ROUND), "shared": shared,
                      "drawn": int(round(weight, ROUND) >= threshold),
                      **{k: round(v, ROUND) for k, v in signals.items()}})
    return edges


def clusters(nodes: dict[str, Node], edges: list[dict]) -> dict[str, int]:
    """Node id → its cluster: the connected parts of the drawn edges, largest first (then by first id)."""
    parent = {key: key for key in nodes}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for e in edges:
        if e["drawn"]:
            ra, rb = root(e["source"]), root(e["target"])
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for key in sorted(nodes):
        groups.setdefault(root(key), []).append(key)
    ordered = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    return {key: n for n, group in enumerate(ordered, start=1) for key in group}


def discover(nodes: dict[str, Node], edges: list[dict], cluster: dict[str, int], before: dict[str, int],
             settings) -> list[dict]:
    """The discoveries above their thresholds (see the module), strongest first, ``PER_FLUSH`` of each kind."""
    label = {key: n.label for key, n in nodes.items()}
    found: dict[str, list[dict]] = {"bridge": [], "two_hop": [], "missing": []}
    bridges: dict[tuple, dict] = {}
    for e in edges:
        a, b = e["source"], e["target"]
        if e["drawn"] and a in before and b in before and before[a] != before[b] \
                and e["weight"] >= settings.bridge_threshold:
            pair = tuple(sorted((before[a], before[b])))
            if pair not in bridges or e["weight"] > bridges[pair]["score"]:
                bridges[pair] = {"kind": "bridge", "key": f"bridge:{a}|{b}", "nodes": [a, b], "score": e["weight"],
                                 "text": f"{label[a]} and {label[b]} now link two groups that had no link."}
    found["bridge"] = list(bridges.values())
    near = neighbours(nodes)
    for e in edges:
        a, b = e["source"], e["target"]
        if e["shared"] == 0 and e["adamic_adar"] >= settings.two_hop_threshold:
            via = sorted(near[a] & near[b], key=lambda z: (-len(nodes[z].sessions), z))[:3]
            found["two_hop"].append({"kind": "two_hop", "key": f"two_hop:{a}|{b}", "nodes": [a, b, *via],
                                     "score": e["adamic_adar"],
                                     "text": f"{label[a]} and {label[b]} both go with "
                                             f"{', '.join(label[z] for z in via)}, but never came up together."})
    members: dict[int, list[str]] = {}
    for key, c in sorted(cluster.items()):
        members.setdefault(c, []).append(key)
    held: dict[str, dict[str, float]] = {}
    for e in edges:
        if not e["drawn"] and e["shared"]:
            held.setdefault(e["source"], {})[e["target"]] = e["weight"]
            held.setdefault(e["target"], {})[e["source"]] = e["weight"]
    for c, group in members.items():
        if len(group) < 3:
            continue
        for key in sorted(nodes):
            if cluster[key] == c:
                continue
            linked = [m for m in group if m in held.get(key, {})]
            share = round(len(linked) / len(group), ROUND)
            if len(linked) >= 2 and share >= settings.missing_threshold:
                found["missing"].append({"kind": "missing", "key": f"missing:{key}|{','.join(group[:5])}",
                                         "nodes": [key, *group], "score": share,
                                         "text": f"{label[key]} goes with {len(linked)} of {len(group)} of "
                                                 f"{', '.join(label[m] for m in group[:5])}, "
                                                 f"yet is not drawn with them."})
    out = []
    for entries in found.values():
        out += sorted(entries, key=lambda d: (-d["score"], d["key"]))[:PER_FLUSH]
    return out


def weights_of(settings) -> dict[str, float]:
    return {k: getattr(settings, f"weight_{k}") for k in SIGNALS}


def update(store: GraphStore, settings, run_id: int | None, at: str) -> dict:
    """Rebuild the graph and queue its new discoveries (inside the flush's transaction); the summary."""
    nodes = build_nodes(store.memories(), settings.max_nodes)
    edges = score_edges(nodes, weights_of(settings), settings.edge_threshold)
    cluster = clusters(nodes, edges)
    before = store.previous_clusters()
    store.replace_graph([{"id": n.id, "label": n.label, "type": n.type, "sessions": len(n.sessions),
                          "memories": len(n.memories), "cluster": cluster[n.id], "run_id": run_id}
                         for n in nodes.values()], [{**e, "run_id": run_id} for e in edges])
    queued = [d for d in discover(nodes, edges, cluster, before, settings)
              if store.add_discovery({**d, "run_id": run_id, "created_at": at})]
    return {"nodes": len(nodes), "edges": len(edges), "drawn": sum(e["drawn"] for e in edges),
            "discoveries": dict(Counter(d["kind"] for d in queued))}


def view(nodes: list[dict], edges: list[dict]) -> dict:
    """What ``monchat graph --json`` answers: nodes, and edges with their weight, five signals and ``held``."""
    return {"nodes": [{"id": n["id"], "label": n["label"], "type": n["type"], "sessions": n["sessions"],
                       "memories": n["memories"], "cluster": n["cluster"]} for n in nodes],
            "edges": [{"source": e["source"], "target": e["target"], "weight": e["weight"],
                       "held": not e["drawn"], "sessions": e["shared"],
                       "signals": {k: e[k] for k in SIGNALS}} for e in edges]}
