"""The graph's tables: nodes and edges (rebuilt at each flush) and the discoveries queued from them.

Written only inside a flush's transaction (the caller's ``store.atomic()``); read by the inbox.
"""

from __future__ import annotations

import json

from .db import StoreView
from .shown import shown
SIGNALS = ("co_occurrence", "session_overlap", "adamic_adar", "type_affinity", "similarity")


class GraphStore(StoreView):
    # ---- what the graph is computed from -----------------------------------
    def memories(self) -> list[dict]:
        """Each memory the views may show (``store/shown.py``): ``{id, slot, kind, text, sessions: [...]}``.

        A memory's sessions are the 6-hour log files (``messages.session``; the local day where a
        row has none) of the user lines its supporting evidence cites.
        """
        condition, params = shown("mem")
        found: dict[str, dict] = {}
        for r in self.db.query(
                f"SELECT mem.id, mem.slot, mem.kind, mem.text, COALESCE(NULLIF(m.session, ''), m.day) AS session "
                f"FROM memories mem JOIN evidence e ON e.memory_id = mem.id AND e.contradicts = 0 "
                f"JOIN messages m ON m.id = e.message_id AND m.role = 'user' "
                f"WHERE {condition} ORDER BY mem.id", params):
            memory = found.setdefault(r["id"], {"id": r["id"], "slot": r["slot"] or "", "kind": r["kind"],
                                                "text": r["text"] or "", "sessions": set()})
            if r["session"]:
                memory["sessions"].add(r["session"])
        return list(found.values())

    # ---- the graph -----------------------------------------------------------
    def previous_clusters(self) -> dict[str, int]:
        """Node id → its cluster in the graph the last flush stored (before this one replaces it)."""
        return {r[0]: r[1] for r in self.db.execute("SELECT id, cluster FROM graph_nodes").fetchall()}

    def replace_graph(self, nodes: list[dict], edges: list[dict]) -> None:
        self.db.execute("DELETE FROM graph_nodes")
        self.db.execute("DELETE FROM graph_edges")
        if nodes:
            self.db["graph_nodes"].insert_all(nodes, pk="id")
        if edges:
            self.db["graph_edges"].insert_all(edges, pk=("source", "target"))

    def nodes(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM graph_nodes ORDER BY sessions DESC, memories DESC, id"))

    def edges(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM graph_edges ORDER BY weight DESC, source, target"))

    def forget_words(self, texts: list[str]) -> None:
        """Take out every name found in these (deleted) memory texts: its node, edges and discoveries.

        The next flush rebuilds the graph from what is left; until then a deleted memory's words
        must not stay in it (a name also in another memory comes back then).
        """
        words = [t for t in texts if t]
        gone = [r[0] for r in self.db.execute("SELECT id, label FROM graph_nodes WHERE type != 'topic'").fetchall()
                if any(r[1] in t for t in words)] if words else []
        for node_id in gone:
            self.db.execute("DELETE FROM graph_edges WHERE source = ? OR target = ?", [node_id, node_id])
            self.db.execute("DELETE FROM graph_nodes WHERE id = ?", [node_id])
            self.db.execute("DELETE FROM discoveries WHERE instr(nodes, ?) > 0",
                            [json.dumps(node_id, ensure_ascii=False)])

    # ---- discoveries ----------------------------------------------------------
    def add_discovery(self, row: dict) -> bool:
        """Queue one discovery; False when the same one (its ``key``) was queued before."""
        table = self.db["discoveries"]
        before = table.count
        table.insert({**row, "nodes": json.dumps(row["nodes"], ensure_ascii=False), "status": "open"},
                     ignore=True)
        return table.count > before

    def discoveries(self) -> list[dict]:
        rows = list(self.db.query("SELECT * FROM discoveries ORDER BY id DESC"))
        for r in rows:
            r["nodes"] = json.loads(r["nodes"]) if r["nodes"] else []
        return rows
