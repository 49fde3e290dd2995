"""The tiers inside a flush: which cold slots to ask a digest for, and what the commit writes.

``slots`` runs before the commit (no writes): the cold slots of the memory as it stands, leaving out
the slots this flush's items are about (they are being talked about: not cold). ``commit`` runs in the
flush's transaction after consolidation and pruning, before the prompt is rebuilt: every memory's
tier (``records/tiers.py``), the accepted digests — each re-checked against memory as it is now (every
memory it covers still live in Layer 1, cold and in no digest) — and every archive day's tier.
What the rebuild reads is ``memory/prompt.py``'s ``prompt_tiers``.
"""

from __future__ import annotations

from datetime import datetime

from . import digest as digest_stage
from ..records.memory import MemoryRecord
from ..records.tiers import Tier, memory_tier, tier_of
from ..store.db import Store
from ..store.memories import MemoryStore
from ..store.tiers import TierStore


def slots(store: Store, settings, busy: set[str], now: datetime) -> dict[str, list[MemoryRecord]]:
    """The slots to ask a digest for (``settings``: ``[tiers]``)."""
    if not settings.digest or settings.digest_max_slots < 1:
        return {}
    tiers = TierStore(store)
    covered = {mid for mid, row in tiers.tiers().items() if row["digest_id"]}
    return digest_stage.cold_slots(MemoryStore(store).live(), covered, tiers.access_epochs(), busy,
                                   now.timestamp(), settings)



def commit(store: Store, digests: list[digest_stage.Digest], settings, run_id: int, now: datetime) -> dict:
    """Write the tiers and digests; return the report's summary of them."""
    at = now.isoformat(timespec="seconds")
    epoch = now.timestamp()
    tiers, memories = TierStore(store), MemoryStore(store)
    access = tiers.access_epochs()
    everything = memories.all()
    computed = {m.id: memory_tier(m, access, epoch, settings) for m in everything}
    tiers.put_tiers([{"memory_id": mid, "tier": str(tier), "run_id": run_id, "updated_at": at}
                     for mid, tier in computed.items()])
    covered = {mid for mid, row in tiers.tiers().items() if row["digest_id"]}
    by_id = {m.id: m for m in everything}
    made, refused = [], []
    for d in digests:
        ok = all(mid in by_id and by_id[mid].layer(epoch) == 1 and computed[mid] is Tier.COLD
                 and mid not in covered for mid in d.covers)
        if not ok:
            refused.append(d.slot)
            continue
        tiers.add_digest({"id": d.id, "slot": d.slot, "text": d.text, "covers": d.covers, "run_id": run_id,
                          "created_at": at})
        for mid in d.covers:
            memories.event(mid, at, "digested", {"digest": d.id}, run_id)
        covered |= set(d.covers)
        made.append({"id": d.id, "slot": d.slot, "covers": d.covers})
    days = tiers.day_facts()
    tiers.put_day_tiers([{"day": d["day"], "tier": str(tier_of(d["last_epoch"], d["memories"], epoch, settings)),
                          "messages": d["messages"], "memories": d["memories"], "run_id": run_id,
                          "updated_at": at} for d in days])
    counts: dict[str, int] = {str(t): 0 for t in Tier}
    for mid, tier in computed.items():
        if by_id[mid].live:
            counts[str(tier)] += 1
    return {"counts": counts, "digests": made, "refused": refused}

