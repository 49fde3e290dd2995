"""The memory domain: what a memory is, the states it moves through, and every transition.

- the names it shares with every layer below it are named here again: from ``core/vocabulary/states.py``
  ``State`` (with the predicates live / history), ``Verdict``, review ``Action``, ``Kind``, ``View``,
  ``FlushStage``; from ``core/records/memory.py`` ``MemoryRecord``, ``LedgerStats``, ``Change``.
- ``rules``: the numbers of the rules (days of evidence per kind, decay, the habit rule).
- ``preferences``: the preference layer's categories, version chain, weights and review rule.
- ``transitions``: every change of state, one function each, used by the flush (consolidate, prune)
  and by the review queue and browser (``MemoryService``) alike.
- ``service``: ``MemoryService``, what the CLI and the GUI call; ``review_item``: ``ReviewItem``, the review queue's
  items as it hands them out.
- ``takeback``: Delete message (``MessageDeletion``), a memory operation: the message leaves the logs and the
  archive, and what rested on it is withdrawn (``withdraw``).

SQL stays in ``core/store``. Import ``service`` by its module path (``monchat.core.memory.service``): the
package itself loads nothing that reaches the store.
"""

from ..records.memory import Change, LedgerStats, MemoryRecord
from ..vocabulary.states import DECISIVE, KINDS, LIVE_STATES, Action, ChangeKind, FlushStage, Kind, State, Verdict, View

__all__ = ["Action", "Change", "ChangeKind", "DECISIVE", "FlushStage", "KINDS", "Kind", "LIVE_STATES", "LedgerStats",
           "MemoryRecord", "State", "Verdict", "View"]
