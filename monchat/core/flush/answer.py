"""What a filter may answer: the schema of its reply and the checks every item passes before it counts.

``item_schema`` bounds the reply (a grammar-constrained model cannot ramble past it); ``validate_item`` keeps an
item only when its evidence names user lines the request showed and the guard (``memory/guard.py``) finds its
text in the user's own words; anything else is dropped with its reason, never queued. ``score.py`` asks the
filters and hands each raw item here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..memory import preferences
from ..memory.guard import GuardRule, adds_words, check_item
from ..memory.guard_lean import turned
from ..memory.guard_unsure import is_unsure
from ..memory.never import NEVER_RULE, matches_never
from ..vocabulary.states import KINDS, DropCategory, Kind
from ..personas.library import FilterPersona
from .records import Dropped, Item, LogLine

# Bounds of a filter answer's strings (characters) and evidence list.
ANSWER_LIMITS = {"reason": 80, "text": 120, "slot": 32, "evidence": 4}
MIN_INJECTED_LENGTH = 8  # shorter memory texts are too generic to call a copy
REPEATS_MEMORY = "repeats memory that was injected into the prompt"
ALREADY_KNOWN = "already known: its lines repeat a memory you have"


def item_schema(max_items: int, user_ids: list[str] | None = None) -> dict:
    """The JSON schema of a filter answer; evidence is limited to this chunk's user line ids.

    Strings and lists are bounded: a grammar-constrained model (llama.cpp,
    Ollama's ``format``) cannot ramble past them, so an answer of ``max_items``
    short items fits the room a backend keeps for it (``json_answer_reserve``).
    """
    evidence_item = {"type": "string", "enum": user_ids} if user_ids else {"type": "string"}
    return {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "maxItems": max_items,
                "items": {
                    "type": "object",
                    "properties": {
                        "reason": {"type": "string", "maxLength": ANSWER_LIMITS["reason"]},
                        "text": {"type": "string", "maxLength": ANSWER_LIMITS["text"]},
                        "slot": {"type": "string", "maxLength": ANSWER_LIMITS["slot"]},
                        "kind": {"type": "string", "enum": list(KINDS)},
                        "score": {"type": "number"},
                        "evidence": {"type": "array", "items": evidence_item,
                                     "maxItems": ANSWER_LIMITS["evidence"]},
                    },
                    "required": ["reason", "text", "slot", "kind", "score", "evidence"],
                },
            }
        },
        "required": ["items"],
    }


# Small models copy a line's role and time into the item text ("user 2026-11-16 Mon 08:10: …"; logs read
# before line ids were keyed also had an "[m3]" in front).
LINE_PREFIX = re.compile(r"^\s*(\[?m\d+\b\]?\s*)?((user|assistant)\b\s*:?\s*)?"
                         r"(\d{4}-\d{2}-\d{2}(\s+\w{3})?(\s+\d{1,2}:\d{2})?\s*:?\s*)?")


def normalise_text(text: str) -> str:
    """Strip a copied log-line prefix and squeeze whitespace; the words stay the user's."""
    return " ".join(LINE_PREFIX.sub("", text, count=1).split())


def normalise_slot(slot: str) -> str:
    """Lowercase, spaces as "_", one "/" between parts. An empty slot stays empty: the guard drops it
    (a made-up "misc" would claim a subject the model never named)."""
    slot = re.sub(r"\s*/[\s/]*", "/", slot.strip().lower())  # "Home / City" is home/city
    slot = re.sub(r"\s+", "_", slot).strip("/")
    return slot[:60]


def instruction_texts(system: str, persona_part: str) -> list[str]:
    """What a filter request told the model, which an item must not read back (``GuardRule.ECHOES_INSTRUCTIONS``):
    the system text, the persona's part (name, talent, picks, ignores) and the schema's words."""
    return [system, persona_part, SCHEMA_TEXT]


SCHEMA_TEXT = " ".join([*item_schema(1)["properties"]["items"]["items"]["properties"], "items",
                         "id of a user line", "subject attribute"])
# A drop by the guard is about the words ("words") or about the item's shape ("invalid").
GUARD_CATEGORY = {GuardRule.NO_STATEMENT: DropCategory.INVALID, GuardRule.BAD_SLOT: DropCategory.INVALID}


def validate_item(raw, persona: FilterPersona, lines_by_local: dict[str, LogLine],
                  injected: list[str], instructions: Sequence[str] = (), known: Sequence[str] = ()) -> Item | Dropped:
    """Check one raw item from the LLM; return an Item or the reason it is dropped.

    Evidence ids must name user lines of this request; then the guard (``memory/guard.py``) decides
    whether the text is the user's words: a statement, with a ``subject/attribute`` slot, not the
    assistant's words nor the request's ``instructions`` read back, sharing words with the lines it
    cites and adding nothing they do not say. An item that breaks a rule is dropped with the rule, except
    one the guard is not sure of (``guard_unsure.is_unsure``: only a words rule broken, by what may be a
    distillation): it is kept with ``unsure`` set, and the flush sends it to review, never into memory.

    Args:
        known: the user's kept memories' texts besides ``injected`` (candidates out of Layer 2 too): a proposal
            that restates one is judged against its words and the cited lines together.
    """
    if not isinstance(raw, dict):
        return Dropped(persona.id, str(raw)[:200], "not an object", category=DropCategory.INVALID)
    text = normalise_text(str(raw.get("text") or ""))
    if not text:
        return Dropped(persona.id, "", "empty text", category=DropCategory.INVALID)
    kind = str(raw.get("kind") or "").strip().lower()
    if kind not in KINDS:
        return Dropped(persona.id, text, f"unknown kind {kind!r}", category=DropCategory.INVALID)
    try:
        score = min(1.0, max(0.0, float(raw.get("score", 0))))
    except (TypeError, ValueError):
        return Dropped(persona.id, text, "score is not a number", category=DropCategory.INVALID)
    local_ids = raw.get("evidence") or []
    if isinstance(local_ids, str):
        local_ids = [local_ids]
    evidence: list[LogLine] = []
    problems: list[str] = []
    for local in local_ids:
        key = str(local).strip().strip("[]")
        line = lines_by_local.get(key)
        if line is None:
            problems.append(f"{key}: no such line")
        elif line.role != "user":
            problems.append(f"{key}: an assistant line is not evidence about the user")
        elif any(len(t) >= MIN_INJECTED_LENGTH and t in line.text for t in injected):
            problems.append(f"{key}: {REPEATS_MEMORY}")
        elif line.message_id not in [e.message_id for e in evidence]:
            evidence.append(line)
    if not evidence:
        if problems and all(p.endswith(REPEATS_MEMORY) for p in problems):  # its lines say what is kept already
            return Dropped(persona.id, text, ALREADY_KNOWN, [str(x) for x in local_ids], category=DropCategory.KNOWN)
        reason = "; ".join(problems) if problems else "no evidence"
        return Dropped(persona.id, text, reason, [str(x) for x in local_ids])
    slot = normalise_slot(str(raw.get("slot") or ""))
    cited = [line.text for line in evidence]
    never = matches_never(text, slot, persona.never) or matches_never(" \n ".join(cited), "", persona.never)
    if never is not None:  # the user's own rule, whatever the model says (memory/never.py): its lines too
        return Dropped(persona.id, text, f"matches your never-remember rule {never!r}",
                       [line.message_id for line in evidence], category=DropCategory.NEVER, rule=NEVER_RULE)
    rule = check_item(text, slot, cited, [line.text for line in lines_by_local.values() if line.role != "user"],
                      instructions, injected, known)
    unsure = str(rule) if rule is not None and kind not in (Kind.RECALL, Kind.RETRACTION) \
        and is_unsure(text, rule, cited, injected, known) else ""
    if rule is not None and not unsure:
        return Dropped(persona.id, text, guard_reason(rule, kind, text, slot, [*cited, *injected]),
                       [line.message_id for line in evidence], category=GUARD_CATEGORY.get(rule, DropCategory.WORDS),
                       rule=rule)
    evidence.sort(key=lambda line: (line.epoch, line.message_id))
    if kind == Kind.PREFERENCE:  # its slot names one of the ten categories; outside them it is a fact
        canonical = preferences.canonical_slot(slot)
        slot, kind = (canonical, kind) if canonical is not None else (slot, Kind.FACT)
    return Item(persona=persona.id, style=persona.style, text=text,
                slot=slot, kind=kind, score=score,
                evidence=[line.message_id for line in evidence], reason=str(raw.get("reason") or "")[:500],
                first_epoch=evidence[0].epoch, first_ts=evidence[0].when, unsure=unsure)


def guard_reason(rule: GuardRule, kind: str, text: str, slot: str, cited: list[str]) -> str:
    """The English line a drop by the guard carries (the CLI's and the log's; the GUI words the rule): which rule
    and why in plain words, so a user can see when the guard was too strict (the words it did not find, the slot
    it refused)."""
    if rule is GuardRule.NOT_THEIR_WORDS and kind == Kind.RECALL:
        return "a recall failure shares no words with the line it cites"
    if rule is GuardRule.ADDS_WORDS:
        added = adds_words(text, cited)
        if not added and turned(text, cited):
            return f"{rule.description}: it turns what you said round (likes for dislikes)"
        if not added:
            return f"{rule.description}: it says no to what you said, or yes to what you said no to"
        return f"{rule.description}: {', '.join(added[:6])}"
    if rule is GuardRule.BAD_SLOT:
        return f"{rule.description}: {slot or '(none)'!s}"
    return rule.description
