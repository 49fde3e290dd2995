"""The memory part of the system prompt: which lines it carries under a token budget, and memory.md.

Input: the memory store, settings, the time. Output: a ``PromptSelection``
(saved in the store; its revision tells ChatService to re-render) with a budget
report saying what was left out and why, and the readable ``memory.md``. ``rebuild_selection`` is
the one rebuild every change ends with (the flush's commit and each ``MemoryService`` change).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from ..records.memory import MemoryRecord
from . import preferences
from .rules import half_life_for, strength as memory_strength
from ..vocabulary.states import Kind, State
from ..records.tiers import ORDER, Tier, headline
from ..paths import write_private
from ..settings import FlushSettings
from ..store.background import BackgroundStore
from ..store.db import Store
from ..store.memories import MemoryStore
from ..store.tiers import TierStore
from ..tokens import count_tokens
from ..types import format_ts

SELECTION_KEY = "memory.prompt"
REVISION_KEY = "memory.revision"
PROMPT_IDS_KEY = "memory.prompt_ids."  # + revision: the memory ids a prompt of that revision carried
SECTION_OVERHEAD = 12  # tokens of a section heading


@dataclass
class PromptItem:
    id: str
    text: str
    slot: str
    layer: int


@dataclass
class PromptSelection:
    layer1: list[PromptItem] = field(default_factory=list)
    layer2: list[PromptItem] = field(default_factory=list)
    budget: dict = field(default_factory=dict)
    hint: str = ""  # one knowledge gap to ask about if it comes up (background/gaps.py), within the budget

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "PromptSelection":
        data = json.loads(text)
        return cls([PromptItem(**i) for i in data["layer1"]], [PromptItem(**i) for i in data["layer2"]],
                   data.get("budget", {}), data.get("hint", ""))


@dataclass
class PromptLine:
    """One line the prompt may carry: a memory, a digest standing for several, or a frozen memory's headline."""

    order: tuple  # the sort key: who gets the budget first
    id: str  # a memory's id, or a digest's
    text: str
    slot: str
    layer: int
    pinned: int  # 0 or 1, as the record keeps it
    strength: float
    frozen: bool  # a frozen memory's headline: only where the budget has room after every warmer line


def skill_label(level: int) -> str:
    """What a skill's prompt line carries after its text ("Rust async: L2")."""
    return f"L{level}"


def prompt_labels(store: Store) -> dict[str, str]:
    """Memory id → the level its prompt line carries (the last flush's skill levels, ``background/skills.py``)."""
    return {r["memory_id"]: skill_label(r["level"]) for r in BackgroundStore(store).skill_levels()}


def prompt_tiers(store: Store) -> dict:
    """What the rebuild needs: memory id → tier and digest id, and the digests by id (``background/tiering.py``)."""
    tiers = TierStore(store)
    return {"tiers": tiers.tiers(), "digests": {d["id"]: d for d in tiers.digests()}}


def rebuild_selection(memories: MemoryStore, settings: FlushSettings, now: datetime, hint: str = "",
                      markdown: Path | None = None) -> PromptSelection:
    """The rebuild every change ends with: choose the lines (skill levels and tiers as the last flush left
    them), save the selection (a new revision when the prompt changed), and write ``memory.md`` to
    ``markdown`` when given. The flush gives none inside its transaction and calls ``write_markdown``
    after the commit."""
    selection = compile_prompt(memories, settings, now, hint, prompt_labels(memories.store),
                               prompt_tiers(memories.store))
    save_selection(memories.store, selection)
    if markdown is not None:
        write_private(markdown, render_markdown(memories, now, selection))
    return selection


def write_markdown(memories: MemoryStore, now: datetime, markdown: Path) -> None:
    """Rewrite ``memory.md`` from the saved selection (after a flush's commit)."""
    write_private(markdown, render_markdown(memories, now, load_selection(memories.store)))


def memory_line_tokens(text: str) -> int:
    """Tokens one memory takes in the system prompt."""
    return count_tokens(f"- {text}\n")


def compile_prompt(memories: MemoryStore, settings: FlushSettings, now: datetime, hint: str = "",
                   labels: dict[str, str] | None = None, tiering: dict | None = None) -> PromptSelection:
    """Choose the memory lines for the prompt; over budget, the weakest are left out and reported.

    ``hint`` (a knowledge gap's line) is added last, only if it fits in what the memories left.
    ``labels``: memory id → a suffix its line carries (a skill's level: "Rust async: L2").
    A preference with an older version says both ("now: …; before: …") when that still fits.
    ``tiering`` (``prompt_tiers``): each memory's tier and digest, and the digests.
    Hot and warm memories are lines of their own (warm after hot when the budget is tight); the
    memories of a digest are its one line, while every memory it covers is in the prompt's layers
    and none is pinned (one-way: a covered memory that warms up again is not re-expanded); frozen memories add their
    headline in a last pass, only where the budget still has room (never before a warmer memory).
    """
    labels = labels or {}
    tiering = tiering or {}
    tier_rows = tiering.get("tiers", {})
    lines: dict[str, str] = {}

    def line(m: MemoryRecord) -> str:
        return lines.get(m.id) or (f"{m.text}: {labels[m.id]}" if m.id in labels else m.text)

    def tier(m: MemoryRecord) -> Tier:
        row = tier_rows.get(m.id)
        return Tier.HOT if m.pinned or row is None else Tier(row["tier"])

    epoch = now.timestamp()
    live = memories.live()
    layer1 = [m for m in live if m.layer(epoch) == 1]
    layer2 = [m for m in live if m.layer(epoch) == 2]
    pool = {m.id: m for m in layer1 + layer2}

    def strength(m: MemoryRecord) -> float:
        return memory_strength(m, now, half_life_for(m, settings))

    # A digest stands for its memories while each is in the layers and none is pinned (the user's own choice).
    digests = [d for d in tiering.get("digests", {}).values()
               if d["covers"] and all(c in pool and not pool[c].pinned for c in d["covers"])]
    covered = {c for d in digests for c in d["covers"]}
    entries: list[PromptLine] = []
    for m in layer1 + layer2:
        if m.id in covered:
            continue
        frozen = tier(m) is Tier.FROZEN
        entries.append(PromptLine((frozen, not m.pinned, m.layer(epoch), ORDER[tier(m)], -strength(m), m.id), m.id,
                                  headline(m.text) if frozen else line(m), m.slot, m.layer(epoch), m.pinned,
                                  strength(m), frozen))
    for d in digests:
        best = max(strength(pool[c]) for c in d["covers"])
        entries.append(PromptLine((False, True, 1, ORDER[Tier.COLD], -best, d["id"]), d["id"], d["text"], d["slot"],
                                  1, False, best, False))
    entries.sort(key=lambda e: e.order)
    budget = settings.memory_token_budget
    used = (SECTION_OVERHEAD if layer1 else 0) + (SECTION_OVERHEAD if layer2 else 0)
    chosen: set[str] = set()
    left_out = []
    pinned = 0
    for e in entries:
        cost = memory_line_tokens(e.text)
        if used + cost <= budget or e.pinned:
            chosen.add(e.id)
            used += cost
            pinned += cost if e.pinned else 0
        else:
            reason = ("frozen: its headline did not fit after the warmer memories" if e.frozen
                      else f"over the {budget}-token memory budget; lowest confidence × recency")
            left_out.append({"id": e.id, "text": e.text, "layer": e.layer, "tokens": cost,
                             "strength": round(e.strength, 4), "reason": reason})
    valid = {m.id: m.valid_at or "" for m in live}  # deterministic prompt order: slot, valid from, id
    shown = sorted((e for e in entries if e.id in chosen), key=lambda e: (e.slot, valid.get(e.id, ""), e.id))
    for e in [e for e in entries if e.id in chosen]:  # what the budget left, strongest first: a preference's
        # previous version, compactly (full lines only)
        kept = pool.get(e.id)
        before = (preferences.previous_text(memories, kept)
                  if kept is not None and not e.frozen and kept.kind == Kind.PREFERENCE else None)
        if kept is not None and before:
            compact = preferences.prompt_line(kept.text, before)
            extra = memory_line_tokens(compact) - memory_line_tokens(e.text)
            if used + extra <= budget:
                lines[kept.id] = compact
                used += extra
    selection = PromptSelection(
        [PromptItem(e.id, lines.get(e.id) or e.text, e.slot, 1) for e in shown if e.layer == 1],
        [PromptItem(e.id, lines.get(e.id) or e.text, e.slot, 2) for e in shown if e.layer == 2],
        {"budget_tokens": budget, "used_tokens": used, "included": len(chosen), "left_out": left_out,
         "pinned_tokens": pinned, "pinned_over_budget": used > budget},
    )
    if tiering:
        selection.budget["digests"] = sorted(d["id"] for d in digests if d["id"] in chosen)
        selection.budget["headlines"] = sum(1 for e in entries if e.frozen and e.id in chosen)
    hint_cost = count_tokens(f"(If it comes up, ask about: {hint})\n") + SECTION_OVERHEAD if hint else 0
    if hint and used + hint_cost <= budget:
        selection.hint = hint
        selection.budget["used_tokens"] = used + hint_cost
        selection.budget["hint_tokens"] = hint_cost
    elif hint:
        selection.budget["hint_left_out"] = hint
    return selection


def save_selection(store: Store, selection: PromptSelection) -> str:
    """Store the selection; return its revision (changes only when the prompt would)."""
    text = selection.to_json()
    content: dict[str, object] = {"l1": [(i.id, i.text) for i in selection.layer1], "l2": [(i.id, i.text) for i in selection.layer2]}
    if selection.hint:  # absent when there is none, so revisions from before hints stay the same
        content["hint"] = selection.hint
    payload = json.dumps(content, ensure_ascii=False)
    revision = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]
    store.set_state(SELECTION_KEY, text)
    store.set_state(REVISION_KEY, revision)
    ids = [i.id for i in selection.layer1 + selection.layer2]
    store.set_state(PROMPT_IDS_KEY + revision, json.dumps(ids))  # a reply's 👍/👎 finds its prompt's memories
    return revision


def prompt_memory_ids(store: Store, revision: str) -> list[str]:
    """The memory ids in the prompt of ``revision`` (a reply's ``memory_revision``); [] when unknown."""
    text = store.get_state(PROMPT_IDS_KEY + revision) if revision else None
    return json.loads(text) if text else []


def load_selection(store: Store) -> PromptSelection:
    text = store.get_state(SELECTION_KEY)
    return PromptSelection.from_json(text) if text else PromptSelection()


# ---- memory.md ---------------------------------------------------------------
def _line(m: MemoryRecord, label: str) -> str:
    date = (m.valid_at or m.created_at or "")[:10]
    text = " ".join(m.text.split())
    extra = f" → {m.superseded_by}" if m.superseded_by else ""
    pin = " 📌" if m.pinned else ""
    sources = ", ".join(m.evidence) or "none"
    return (f"- [{label} {date}] {text}{pin} ^{m.id}{extra}\n"
            f"  <!-- key: {m.slot} · kind: {m.kind} · confidence: {m.confidence:.2f} · days: {m.days} -->\n"
            f"  <!-- src: {sources} -->")


def render_markdown(memories: MemoryStore, now: datetime, selection: PromptSelection | None = None) -> str:
    epoch = now.timestamp()
    everything = memories.all()
    in_prompt = ({i.id for i in selection.layer1} | {i.id for i in selection.layer2}) if selection else None
    groups = [
        ("Layer 1 — lasting", [m for m in everything if m.layer(epoch) == 1], "active"),
        ("Layer 2 — lately", [m for m in everything if m.layer(epoch) == 2], "layer2"),
        ("Waiting for your review", [m for m in everything if m.live and m.state is State.QUEUED], "queued"),
        ("Candidates (not enough evidence yet)",
         [m for m in everything if m.live and m.state is State.CANDIDATE and m.layer(epoch) == 0], "candidate"),
        ("Pending (contradicted)", [m for m in everything if m.live and m.state is State.PENDING], "pending"),
        ("Dormant", [m for m in everything if m.live and m.state is State.DORMANT], "dormant"),
        ("History (superseded, retracted, forgotten, rejected)", [m for m in everything if m.history], None),
    ]
    lines = ["# monchat memory", "",
             f"_Rebuilt {format_ts(now)[:16].replace('T', ' ')}. One line per memory: "
             "[state date] text ^anchor, with its key and source message ids as comments._", ""]
    for title, items, label in groups:
        if not items:
            continue
        lines += [f"## {title}", ""]
        for m in items:
            state_label = label or str(m.state)
            line = _line(m, state_label)
            if in_prompt is not None and label in ("active", "layer2") and m.id not in in_prompt:
                line += "\n  <!-- left out of the prompt by the token budget -->"
            lines.append(line)
        lines.append("")
    if len(lines) == 4:
        lines += ["_Nothing remembered yet. Chat, then press Flush._", ""]
    digests = TierStore(memories.store).digests()
    if digests:  # one-way: each stands for the memories it covers, whose lines above stay as they were
        lines += ["## Digests of cold slots", ""]
        for d in digests:
            lines += [f"- [{d['slot']} {(d['created_at'] or '')[:10]}] {d['text']} ^{d['id']}",
                      f"  <!-- covers: {', '.join(d['covers'])} -->"]
        lines.append("")
    return "\n".join(lines)
