"""Waiting means waiting (issue 45): a memory in the review queue is not memory until the user approves it.

A waiting memory (state ``queued``: an import, another app's proposal, a change held for review) is never
reinforced, promoted, put into recent or lasting memory, shown in the views or given evidence by a flush. When a
flush hears the user say the same thing again, the line is kept beside the review item as "said again", and only
when the line itself supports the waiting words (the guard's rule: ``guard.check_item``), never because a judge
said SAME about an unrelated line; the queue shows those lines ("said again on …"), and approving the item makes
them its evidence (``Transitions.approve``). Rejecting or letting it expire leaves them unused.

The lines are recorded as an audit event of the waiting memory (``SAID_AGAIN``: message ids, days, sessions, no
words), so a message the user deletes later is gone from what the queue shows, and from what approval attaches.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..records.memory import MemoryRecord
from ..store.memories import MemoryStore
from ..store.messages import MessageArchive
from ..vocabulary.states import State
from .guard import check_item

SAID_AGAIN = "said again"  # the audit action that records a line said again for a waiting memory


def is_waiting(memory: MemoryRecord) -> bool:
    """Waits for the user's review: nothing but the user's decision may change it."""
    return memory.live and memory.state is State.QUEUED


def supports(text: str, lines: Sequence[str]) -> bool:
    """The user's ``lines`` say ``text`` in their own words (the guard finds nothing to object to)."""
    return bool(lines) and check_item(text, None, list(lines)) is None


def said_again_rows(memories: MemoryStore, memory_id: str) -> list[dict]:
    """The ledger rows of the lines said again for a waiting memory, each message once, oldest first
    (``{"message_id", "day", "session", "kind", "contradicts", "persona"}``)."""
    rows: dict[str, dict] = {}
    for event in memories.events(memory_id):
        if event["action"] != SAID_AGAIN:
            continue
        for row in json.loads(event["detail"] or "{}").get("lines", []):
            rows.setdefault(row["message_id"], {**row, "contradicts": 0})
    return sorted(rows.values(), key=lambda r: (r["day"], r["message_id"]))


def said_again(memories: MemoryStore, archive: MessageArchive, memory_id: str) -> list[dict]:
    """What the review queue shows under a waiting item: ``[{"message_id", "ts", "day", "text"}]``, the lines the
    user said again since it was proposed (still in the archive), oldest first."""
    rows = said_again_rows(memories, memory_id)
    found = archive.get_many([r["message_id"] for r in rows])
    return [{"message_id": r["message_id"], "ts": found[r["message_id"]]["ts"], "day": r["day"],
             "text": found[r["message_id"]]["text"]} for r in rows if r["message_id"] in found]
