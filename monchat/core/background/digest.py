"""The digest stage, after judging (next to reflect): one LLM call per cold slot, checked by the program.

The program chooses what goes cold (``records/tiers.py``): the Layer 1 memories of a slot that are cold
now, not pinned, not in a digest yet, in a slot this flush says nothing about, at least
``tiers.digest_min_items`` of them; at most ``tiers.digest_max_slots`` calls a flush. The model proposes
a digest of at most 400 characters (fewer where the model's answer allowance holds fewer in the memories'
script: ``text_room``) citing the ids it covers; the program keeps it only when the text
is non-empty, within 400 characters, shares its words with the memories it covers (nothing invented)
and cites only ids it was shown — otherwise there is no digest and the memories stay as they are.
It writes nothing: the background track stores what survives in the flush's transaction.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass

from ..backends.base import Backend
from ..errors import MalformedReply
from ..records.memory import MemoryRecord
from ..records.tiers import Tier, tier_of, touched
from ..prompts import PromptLibrary
from ..types import Turn
from ..asking.ask import TokenUsage, ask_json, text_room
from .reflect import language_of
from ..memory.guard import share

log = logging.getLogger(__name__)

DIGEST_MAX = 400  # characters of a digest
GROUNDED_SHARE = 0.5  # at least this share of a digest's words are in the memories it covers
ID_MAX = 24  # characters of a memory id ("mem-" and 8 or 9 hex digits, with room)


def digest_schema(text_max: int = DIGEST_MAX, covers_max: int = 30) -> dict:
    """The answer's shape: a text of at most ``text_max`` characters citing at most ``covers_max`` ids."""
    return {"type": "object",
            "properties": {"text": {"type": "string", "maxLength": text_max},
                           "covers": {"type": "array", "maxItems": covers_max,
                                      "items": {"type": "string", "maxLength": ID_MAX}}},
            "required": ["text", "covers"]}


DIGEST_SCHEMA = digest_schema()


@dataclass
class Digest:
    """A digest the program accepted (nothing written yet)."""

    slot: str
    text: str
    covers: list[str]

    @property
    def id(self) -> str:
        body = "\n".join([self.slot, self.text, *sorted(self.covers)])
        return "dig-" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]



def cold_slots(live: list[MemoryRecord], covered: set[str], access: dict[str, float], busy: set[str],
               now_epoch: float, settings) -> dict[str, list[MemoryRecord]]:
    """Slot → its cold Layer 1 memories not in a digest yet (``settings``: ``[tiers]``), largest first."""
    slots: dict[str, list[MemoryRecord]] = {}
    for m in live:
        if m.layer(now_epoch) != 1 or m.pinned or m.id in covered or m.slot in busy:
            continue
        if tier_of(touched(m, access), m.days, now_epoch, settings) is Tier.COLD:
            slots.setdefault(m.slot, []).append(m)
    ready = {s: ms for s, ms in slots.items() if len(ms) >= settings.digest_min_items}
    ordered = sorted(ready.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return dict(ordered[:settings.digest_max_slots])


def check(answer, memories: list[MemoryRecord], slot: str) -> tuple[Digest | None, str]:
    """The digest the program keeps from one answer, or None and why."""
    if not isinstance(answer, dict):
        return None, "the answer is not an object"
    text = " ".join(str(answer.get("text") or "").split())
    covers = answer.get("covers")
    if not text:
        return None, "the digest is empty"
    if len(text) > DIGEST_MAX:
        return None, f"the digest has {len(text)} characters (at most {DIGEST_MAX})"
    if not isinstance(covers, list) or not covers or not all(isinstance(c, str) for c in covers):
        return None, "the digest cites no memory"
    shown = {m.id: m for m in memories}
    unknown = sorted(set(covers) - set(shown))
    if unknown:
        return None, f"the digest cites id(s) it was not shown: {', '.join(unknown[:3])}"
    covered = sorted(set(covers))
    source = "\n".join(shown[c].text for c in covered)
    if share(text, source) < GROUNDED_SHARE:
        return None, "the digest's words are not found in the memories it covers"
    return Digest(slot, text, covered), ""


def ask_digests(backend: Backend, prompts: PromptLibrary, slots: dict[str, list[MemoryRecord]],
                usage: TokenUsage, errors: list[str], notes: list[str], language: str = "") -> list[Digest]:
    """One call per slot; the digests that pass ``check`` (a bad answer is a note: no digest).

    Raises:
        BackendError: a call failed (as a reflect call would: the flush stops, nothing changed).
    """
    kept = []
    for slot, memories in slots.items():
        # The text asked for fits the answer's allowance, the ids it may cite included (at most those shown).
        most = text_room(backend, "".join(m.text for m in memories), DIGEST_MAX,
                         backend.count_text(json.dumps([m.id for m in memories])))
        schema = digest_schema(most, len(memories))
        system = prompts.render("digest.md.j2", most=most, language=language_of([m.text for m in memories], language))
        user = prompts.render("digest_items.md.j2", slot=slot, memories=memories)
        if backend.count_json_request(system, [Turn("user", user)], schema) > backend.json_prompt_limit():
            notes.append(f"no digest for {slot}: its memories do not fit the model's context.")
            continue
        try:
            answer = ask_json(backend, system, user, schema, usage)
        except MalformedReply as exc:
            errors.append(f"digest of {slot} ({backend.describe()}): {exc.message}")
            continue
        digest, why = check(answer, memories, slot)
        if digest is None:
            notes.append(f"no digest for {slot}: {why}; its memories stay as they are.")
            log.info("digest of %s dropped: %s", slot, why)
        else:
            kept.append(digest)
    return kept
