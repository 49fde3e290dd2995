"""A change that waits for the user's review, as the core hands it out (``MemoryService.queue``, ``approve``,
``reject``, ``decide_many``): one row of the ``review_queue`` table, read once into named fields.

``as_dict`` is the row as it was handed out before it had a shape of its own (the table's columns, in their
order, ``proposers`` and ``quoted`` read from their JSON): what ``monchat memory queue --json`` prints, unchanged.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ..store.quoted import quoted_lines
from ..store.sync_events import CONFLICT
from ..vocabulary.states import Action, Held, Origin

CUT_PREFIX = "cut-"  # the id of a memory the user sent to review from what a persona's limit cut

# The proposer ``core/transfer/memory_import.py`` records for each kind of file.
IMPORT_ORIGINS = {"monchat export": Origin.MONCHAT_EXPORT, "ChatGPT": Origin.CHATGPT, "Claude": Origin.CLAUDE,
                  "pasted list": Origin.PASTED}


@dataclass(frozen=True)
class ReviewItem:
    id: int  # the item's number: what ``monchat memory approve N`` names
    memory_id: str  # the proposed memory
    action: Action  # why it waits (``states.Action``)
    target_id: str | None = None  # the kept memory it would change (replace, merge, take back, be judged against)
    text: str = ""  # the proposal's words
    old_text: str | None = ""  # the target's words ("" without a target)
    reason: str = ""
    confidence: float | None = None
    created_at: str = ""
    deadline_epoch: float | None = None  # past it the item expires (``Transitions.expire_review``)
    status: str = "open"  # "open", or how it was closed
    resolved_at: str | None = None
    run_id: int | None = None  # the flush that queued it
    verdict: str | None = None  # for ``Action.JUDGE``: the judge's leaning (``rules.leaning``)
    merged_text: str | None = None  # for a MERGE: the judge's wording
    proposers: list[str] = field(default_factory=list)  # the filter personas (or the source) that proposed it
    held: str | None = None  # why it waits besides its action (``states.Held``), if it does
    # Quoted material: lines the file it came from says it rests on ({text, said_at, persona}); never the user's
    # words here, never messages (``store/quoted.py``).
    quoted: list[dict] = field(default_factory=list)

    @classmethod
    def of(cls, row: dict) -> "ReviewItem":
        """The item of a ``review_queue`` row (``store/memories.py``)."""
        values: dict[str, Any] = {name: row.get(name) for name in cls.__dataclass_fields__}
        values["action"] = Action(row["action"])
        values["proposers"] = json.loads(row["proposers"]) if row.get("proposers") else []
        values["quoted"] = quoted_lines(row.get("quoted"))
        return cls(**values)

    @property
    def sent_from_cut(self) -> bool:
        """The user sent it here from what a persona's limit left out of a flush (``flush/cut.py``)."""
        return self.memory_id.startswith(CUT_PREFIX)

    @property
    def sync_conflict(self) -> bool:
        """Two devices changed its memory from the same version (``core/sync/replaying.py``): ``text`` is the other
        device's version, ``old_text`` this one's; approve takes the other's, reject keeps this one's."""
        return self.held == CONFLICT

    @property
    def origin(self) -> Origin:
        """Where its words came from: the user's messages (``CHAT``), a file or list imported (which one), or
        another app (``MCP``). Only a ``CHAT`` item rests on lines the user said here; any other has none until
        the user says it again (``memory/waiting.said_again``)."""
        if self.held == Held.MCP:
            return Origin.MCP
        if self.held == Held.IMPORTED:
            return IMPORT_ORIGINS.get(self.proposers[0] if self.proposers else "", Origin.PASTED)
        return Origin.CHAT

    def as_dict(self) -> dict:
        return asdict(self)
