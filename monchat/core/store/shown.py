"""Which memories the user's views may show: the one definition the interest profile, the graph and its
discoveries, skills, structural gaps and reflect's statistics read (DESIGN §5, the guard).

A model's output becomes something the user is shown as *theirs* only through memory that is the user's:
live or approved. A memory **the views may show** (``shown``)

- is Layer 1, a candidate (in Layer 2, or in the ledger gathering days of evidence) or dormant
  (``states.SHOWN_STATES``), and is not replaced (``superseded_by IS NULL``);
- waits in no review: no open review row proposes it, whatever the action (a Layer 1 promotion not
  sure enough, a replacement or merge of a Layer 1 memory, an unsure judgement, a lint contradiction,
  a 👎) — until the user approves it;
- was found in the user's words: a memory once queued as "not found in your words" stays out, even after
  its review expired and it went back to candidate, unless the user approved one of its reviews;
- rests on at least one archived user line (supporting evidence on a ``role = 'user'`` message).

Never shown: a dropped proposal (it never became a memory), a queued, pending, rejected, retracted,
forgotten or deleted memory, a retraction, a replaced version.

The profile counts messages over 90 days, so it also reads the **earlier versions** of a shown memory
(``said``): "lives in Sendai", replaced by the shown "lives in Kanazawa", was still said then. A version
counts only if it did not wait for review when it was replaced (a proposal replaced before anyone
approved it is no more the user's than it was) and was found in the user's words. The graph and skills
read shown memories only: what the user talks about and does now.

The views are rebuilt from this set at each flush and at once after each change the user makes to memory
(``background/views.py``).
"""

from __future__ import annotations

from ..vocabulary.states import LIVE_STATES, SHOWN_STATES, Action, State
from .db import StoreView

OPEN, APPROVED, SUPERSEDED = "open", "approved", "superseded"  # review_queue.status values read here


def _found_in_words(alias: str) -> tuple[str, list]:
    """Never queued as "not found in your words", or approved by the user."""
    return (f"(NOT EXISTS (SELECT 1 FROM review_queue q WHERE q.memory_id = {alias}.id AND q.action = ?) "
            f"OR EXISTS (SELECT 1 FROM review_queue q WHERE q.memory_id = {alias}.id AND q.status = ?))",
            [Action.WORDS, APPROVED])


def live(alias: str = "", states: tuple = LIVE_STATES) -> tuple[str, list]:
    """The SQL condition for a memory still in play — not replaced (``superseded_by IS NULL``) and in one
    of ``states`` (the live ones unless told) — and its parameters. Written once: every live-memory query
    and ``shown`` use it."""
    column = f"{alias}." if alias else ""
    return (f"{column}superseded_by IS NULL AND {column}state IN ({','.join('?' * len(states))})",
            list(states))


def shown(alias: str = "mem") -> tuple[str, list]:
    """The SQL condition on ``memories AS alias`` for a memory the views may show, and its parameters."""
    kept, kept_params = live(alias, SHOWN_STATES)
    words, words_params = _found_in_words(alias)
    return (f"({kept} "
            f"AND NOT EXISTS (SELECT 1 FROM review_queue q WHERE q.memory_id = {alias}.id AND q.status = ?) "
            f"AND {words} "
            f"AND EXISTS (SELECT 1 FROM evidence e JOIN messages m ON m.id = e.message_id "
            f"WHERE e.memory_id = {alias}.id AND e.contradicts = 0 AND m.role = 'user'))",
            [*kept_params, OPEN, *words_params])


def said() -> tuple[str, list]:
    """``WITH RECURSIVE said(id) AS (…)``: the shown memories and their earlier versions (see the module)."""
    condition, params = shown("mem")
    words, words_params = _found_in_words("old")
    return (f"WITH RECURSIVE said(id) AS (SELECT mem.id FROM memories mem WHERE {condition} "
            f"UNION SELECT old.id FROM memories old JOIN said s ON old.superseded_by = s.id "
            f"WHERE old.state = ? AND NOT EXISTS (SELECT 1 FROM review_queue q WHERE q.memory_id = old.id "
            f"AND q.status IN (?, ?)) AND {words}) ",
            [*params, State.SUPERSEDED, OPEN, SUPERSEDED, *words_params])


class ShownStore(StoreView):
    def ids(self) -> set[str]:
        """The ids of every memory the views may show."""
        condition, params = shown("mem")
        return {r[0] for r in self.db.execute(f"SELECT mem.id FROM memories mem WHERE {condition}", params)}

    def said_ids(self) -> set[str]:
        """The ids of the shown memories and their earlier versions."""
        cte, params = said()
        return {r[0] for r in self.db.execute(f"{cte}SELECT id FROM said", params)}

    def said_slots(self) -> list[str]:
        """The slots of the shown memories and their earlier versions."""
        cte, params = said()
        return [r[0] for r in self.db.execute(
            f"{cte}SELECT DISTINCT mem.slot FROM said s JOIN memories mem ON mem.id = s.id ORDER BY mem.slot",
            params)]
