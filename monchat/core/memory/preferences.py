"""Preferences (attitudes) as their own layer: ten categories, a version chain, decay. No I/O of its own.

A preference is a memory of kind ``preference``: how the user likes things ("I prefer concise
answers"), not a fact about their life. Its slot is ``<category>/<what>``, the category one of
``CATEGORIES`` (a few common other words are read as one of them, ``ALIASES``); a filter's
preference outside the ten is kept as a fact (``flush/answer.validate_item``).

**Versions.** A preference is not a fact that is replaced: when a newer one supersedes it (the
judge's SUPERSEDE or MERGE, or a new preference in the same slot that the judge did not tie to
anything), the old row keeps its kind and words, marked ``superseded_by`` the new one. The versions
of a chain coexist as history, oldest first: version ``n`` of ``N`` weighs ``0.5 ** (N - n)`` (the
newest 1, the one before ½, …). The prompt carries the newest; when the budget allows, compactly
with the one before ("now: detail for code; before: concise answers").

**Impact-sensitive.** A new version changes how the companion talks to the user, so it always waits
in the review queue, unless ``flush.auto_approve_preferences`` is on, ``flush.ask_before_layer1``
is off and the change is at least ``flush.auto_approve_confidence`` sure (``asks_first``).

**Decay.** Without new evidence confidence decays as ``confidence × exp(-λ·Δt)``, with
``λ = ln 2 / flush.preference_half_life_days`` (``rules.half_life_for``); a preference stated once
fades below ``rules.DORMANT_BELOW`` and goes dormant (kept, out of the prompt); new evidence wakes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records.memory import MemoryRecord
from ..vocabulary.states import Kind

if TYPE_CHECKING:  # the store imports the memory domain, not the other way round at import time
    from ..settings import FlushSettings
    from ..store.memories import MemoryStore

# The ten categories, in the order the docs list them.
CATEGORIES = ("writing", "tech", "design", "pace", "aesthetic", "food", "communication", "learning", "money",
              "social")
ALIASES = {
    "writing-style": "writing", "writing_style": "writing", "style": "writing", "prose": "writing",
    "tech-choice": "tech", "tech_choice": "tech", "tool": "tech", "tools": "tech", "code": "tech",
    "coding": "tech", "programming": "tech", "software": "tech",
    "design-principle": "design", "design_principle": "design", "principle": "design",
    "speed": "pace", "tempo": "pace", "schedule": "pace",
    "taste": "aesthetic", "look": "aesthetic", "art": "aesthetic", "music": "aesthetic",
    "drink": "food", "food-and-drink": "food", "food_and_drink": "food", "cooking": "food", "meal": "food",
    "answer": "communication", "answers": "communication", "reply": "communication", "replies": "communication",
    "chat": "communication", "tone": "communication", "language": "communication",
    "study": "learning", "education": "learning",
    "budget": "money", "spending": "money", "finance": "money", "shopping": "money",
    "people": "social", "friends": "social", "family": "social",
}
WEIGHT_STEP = 0.5  # each newer version halves an older one's weight


def category_of(slot: str) -> str | None:
    """The category a preference's slot names first (an alias counts), or None."""
    head = (slot or "").split("/", 1)[0].strip().lower()
    return head if head in CATEGORIES else ALIASES.get(head)


def canonical_slot(slot: str) -> str | None:
    """The slot with its category spelled as one of ``CATEGORIES``; None when it names none."""
    category = category_of(slot)
    if category is None:
        return None
    rest = slot.split("/", 1)[1] if "/" in slot else "general"
    return f"{category}/{rest}"


def chain(memories: "MemoryStore", start: MemoryRecord) -> list[MemoryRecord]:
    """The supersession chain through ``start``, oldest first, both ways (any kind)."""
    found = [start]
    seen = {start.id}
    frontier = [start]
    while frontier:  # back: everything this one (transitively) replaced
        older = []
        for m in frontier:
            for p in memories.predecessors(m.id):
                if p.id not in seen:
                    seen.add(p.id)
                    older.append(p)
        found = older + found
        frontier = older
    current = start
    while current.superseded_by and current.superseded_by not in seen:  # forward
        nxt = memories.get(current.superseded_by)
        if nxt is None:
            break
        seen.add(nxt.id)
        found.append(nxt)
        current = nxt
    return found


def versions(records: list[MemoryRecord]) -> dict[str, dict]:
    """Memory id → ``{"version", "versions", "weight"}`` for the preferences of one chain (oldest first)."""
    prefs = [m for m in records if m.kind == Kind.PREFERENCE]
    total = len(prefs)
    return {m.id: {"version": n, "versions": total, "weight": WEIGHT_STEP ** (total - n)}
            for n, m in enumerate(prefs, start=1)}


def describe(memories: "MemoryStore", memory: MemoryRecord) -> dict:
    """What ``memory list --json`` adds to a preference: category, version, versions, weight, the older versions."""
    prefs = [m for m in chain(memories, memory) if m.kind == Kind.PREFERENCE]
    known = versions(prefs)
    info = known[memory.id]
    older = [{"id": m.id, "text": m.text, "version": known[m.id]["version"], "weight": known[m.id]["weight"]}
             for m in prefs[:info["version"] - 1]]
    return {"category": category_of(memory.slot), **info, "older_versions": older}


def previous_text(memories: "MemoryStore", memory: MemoryRecord) -> str | None:
    """The words of the version just before this preference, if it has one."""
    older = [m for m in chain(memories, memory) if m.kind == Kind.PREFERENCE]
    index = next(n for n, m in enumerate(older) if m.id == memory.id)
    return older[index - 1].text if index > 0 else None


def prompt_line(text: str, before: str) -> str:
    """The compact line of a preference with its previous version."""
    return f"now: {text}; before: {before}"


def asks_first(settings: "FlushSettings", confidence: float) -> bool:
    """Whether a new version of a preference waits for the user's review (it does unless auto-approved)."""
    return not (settings.auto_approve_preferences and not settings.ask_before_layer1
                and confidence >= settings.auto_approve_confidence)


def involved(*memories: MemoryRecord | None, kind: str = "") -> bool:
    """Whether a change touches a preference (the statement's kind, or a memory it would change)."""
    return kind == Kind.PREFERENCE or any(m is not None and m.kind == Kind.PREFERENCE for m in memories)
