"""The inbox: what the background track kept, read by ``monchat inbox|profile|insights|…|graph`` and the GUI.

Nothing here is pushed into the chat; the user opens it when they want. Every row was written by a
flush; the user only marks an insight or a gap read or dismissed (``monchat insights|gaps read|dismiss
ID``, the Inbox dialog's buttons). Dismissing a gap rebuilds the prompt without its hint.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Callable

from ..errors import InputError, NotFound
from ..store.background import DISMISSED, READ, BackgroundStore
from ..store.db import Store
from ..store.graph import GraphStore
# gaps, graph and profile (their patterns and tables) are imported when asked: not at every start of the window

MARKS = {"read": READ, "dismiss": DISMISSED}  # what the user may do to an entry → its new status

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _is_date(text: str) -> bool:
    """YYYY-MM-DD and a real day (2000-13-45 is not one)."""
    try:
        return bool(DATE.match(text)) and date.fromisoformat(text) is not None
    except ValueError:
        return False


class Inbox:
    def __init__(self, store: Store, settings=None, memory=None) -> None:
        """``settings`` and ``memory`` (the ``MemoryService``) are needed only to mark a gap."""
        self.store = BackgroundStore(store)
        self.settings = settings
        self.memory = memory
        self.graph_store = GraphStore(store)

    def sections(self) -> list[tuple[str, Callable[[], list[dict]]]]:
        """The inbox's sections in order, each (name, reader of its entries): ``monchat inbox`` and the GUI.

        Adding a section is one line here.
        """
        return [
            ("insights", lambda: [r for r in self.insights() if r["kind"] == "insight"]),
            ("gaps", self.all_gaps),
            ("lint", self.lint),
            ("discoveries", lambda: [d for d in self.discoveries() if d["status"] != DISMISSED]),
        ]

    def everything(self) -> dict[str, list[dict]]:
        """``monchat inbox --json``: ``{"insights": [...], "gaps": [...], "lint": [...], "discoveries": [...]}``."""
        return {name: read() for name, read in self.sections()}

    def all_gaps(self) -> list[dict]:
        """The reflect stage's suspected gaps and the open gap marks (``kind``: gap, recall, structural)."""
        return [r for r in self.insights() if r["kind"] == "gap"] + [g for g in self.gaps() if g["status"] != DISMISSED]

    def lint(self) -> list[dict]:
        """Knowledge lint's open findings (marked, confirmed, applied): ``core/background/lint.py``."""
        from .lint import Lint
        return Lint(self.store.store).findings()

    def discoveries(self) -> list[dict]:
        """What the graph turned up (bridge, two_hop, missing), newest first, with the nodes it rests on."""
        return [{"id": r["id"], "run_id": r["run_id"], "kind": r["kind"], "text": r["text"], "nodes": r["nodes"],
                 "score": r["score"], "created_at": r["created_at"], "status": r["status"]}
                for r in self.graph_store.discoveries()]

    def graph(self) -> dict:
        """The last flush's graph: ``{"nodes": [...], "edges": [{source, target, weight, held, signals}]}``."""
        from . import graph
        return graph.view(self.graph_store.nodes(), self.graph_store.edges())

    def profile(self) -> dict:
        """The latest snapshot: ``{"day", "windows": {"7": [...], "30": [...], "90": [...]}, "cooling": [...]}``."""
        day, rows = self.store.latest_snapshot()
        from . import profile
        return profile.view(day, rows)

    def insights(self) -> list[dict]:
        """The reflect stage's insights and suspected gaps, newest first, with their run."""
        return [{"id": r["id"], "run_id": r["run_id"], "kind": r["kind"], "text": r["text"], "slots": r["slots"],
                 "created_at": r["created_at"], "status": r["status"]} for r in self.store.insights()]

    def diary(self, day: str | None = None) -> list[dict]:
        """Pages ``{date, text, messages, topics}``, oldest first (one day's when ``day`` is given).

        Raises:
            InputError: ``day`` is not a date.
        """
        if day is not None and not _is_date(day):
            raise InputError(f"{day!r} is not a date.", "Give it as YYYY-MM-DD, e.g. monchat diary 2026-11-29.")
        return [{"date": p["day"], "text": p["text"], "messages": p["messages"], "topics": p["topics"],
                 "language": p["language"], "run_id": p["run_id"], "written_at": p["written_at"]}
                for p in self.store.pages(day)]

    def skills(self) -> list[dict]:
        """Skills with the level the last flush assigned: ``{memory_id, slot, name, level, xp, uses, …}``."""
        return self.store.skill_levels()

    def gaps(self) -> list[dict]:
        """Knowledge gaps (recall failures marked twice, structural ones the reflect stage suspected)."""
        return self.store.gaps()

    # ---- what the user does ------------------------------------------------------
    def mark(self, what: str, entry_id: int, action: str) -> dict:
        """Mark an insight (``what="insight"``) or a gap (``"gap"``) read or dismissed; return it as it is now.

        A gap dismissed (or read) changes which gap the prompt's "ask about it" line names: the prompt is
        rebuilt with the newest gap not dismissed, so a dismissed one is never hinted at again.

        Raises:
            NotFound: there is no such insight or gap.
        """
        status = MARKS[action]
        table = {"insight": "insights", "gap": "gaps", "discovery": "discoveries"}[what]
        with self.store.store.atomic():
            row = self.store.set_status(table, entry_id, status)
        if row is None:
            command = {"insight": "insights", "gap": "gaps", "discovery": "discoveries"}[what]
            raise NotFound(f"There is no {what} {entry_id}.", f"See `monchat {command}` for the numbers.")
        if what == "gap" and self.memory is not None:
            on = self.settings is None or self.settings.background.gap_hint
            from . import gaps
            self.memory.refresh_hint(gaps.hint(self.store) if on else "")
        return row
