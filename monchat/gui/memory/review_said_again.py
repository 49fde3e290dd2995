"""The review queue's "said again" lines (issue 45): under a waiting item's evidence, each line in which a later
flush heard the user say its words again ("Said again on 2026-11-23: “…”").

They are kept beside the item, not its evidence: they become its evidence only when the user approves it
(``core/memory/waiting.py``), so they are shown as rows of their own, below what the item rests on.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from ...core.memory.review_item import ReviewItem
from ...core.memory.waiting import said_again
from ...core.store.memories import MemoryStore
from ...core.store.messages import MessageArchive
from ..kit.excerpt import excerpt
from . import review_words as words

EXCERPT_CHARS = 160  # of a long line, the part around the item's words; the whole line is its tooltip


def show_said_again(evidence: QTreeWidget, memories: MemoryStore, archive: MessageArchive | None,
                    *rows: ReviewItem) -> int:
    """Add the lines any of ``rows`` (a folded row's alike items: each was heard said again on its own) was said
    again in to ``evidence``, each line once, oldest first; return how many."""
    found: dict[str, tuple[dict, ReviewItem]] = {}
    for row in rows if archive is not None else ():
        for line in said_again(memories, archive, row.memory_id):
            found.setdefault(line["message_id"], (line, row))
    for line, row in sorted(found.values(), key=lambda pair: (str(pair[0]["ts"]), pair[0]["message_id"])):
        shown = QTreeWidgetItem(evidence, [words.said_again(line["day"],
                                                            excerpt(line["text"], row.text or "", EXCERPT_CHARS))])
        shown.setFirstColumnSpanned(True)
        shown.setToolTip(0, line["text"])
    return len(found)
