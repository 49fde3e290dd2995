"""The memory domain: what a memory is, the states it moves through, and every transition.

- ``states``: ``State`` (with the predicates live / history), ``Verdict``, review ``Action``, ``Kind``, ``View``,
  ``FlushStage``.
- ``record``: ``MemoryRecord``, ``LedgerStats``, ``Change``.
- ``rules``: the numbers of the rules (days of evidence per kind, decay, the habit rule).
- ``preferences``: the preference layer's categories, version chain, weights and review rule.
- ``transitions``: every change of state, one function each, used by the flush (consolidate, prune)
  and by the review queue and browser (``MemoryService``) alike.
- ``service``: ``MemoryService``, what the CLI and the GUI call; ``review_item``: ``ReviewItem``, the review queue's
  items as it hands them out.

SQL stays in ``core/store``; this package names the states it stores. Import ``service`` by its
module path (``monchat.core.memory.service``): the store imports this package's names, so the
package itself loads nothing that reaches the store.
"""

from .record import Change, LedgerStats, MemoryRecord
from .states import DECISIVE, KINDS, LIVE_STATES, Action, ChangeKind, FlushStage, Kind, State, Verdict, View

__all__ = ["Action", "Change", "ChangeKind", "DECISIVE", "FlushStage", "KINDS", "Kind", "LIVE_STATES", "LedgerStats",
           "MemoryRecord", "State", "Verdict", "View"]
