"""The record types below the store, shared by the store and every layer above it, with their small pure rules:

- ``memory``: ``MemoryRecord``, ``LedgerStats``, ``Change`` — a memory as the program sees it;
- ``tiers``: ``Tier`` and the rule that gives one (hot, warm, cold, frozen);
- ``long_text``: a message too long to send whole, cut with a visible mark.

They import only ``core/vocabulary`` and ``core/types.py``.
"""
