"""The reflect stage, after judging: one LLM call over statistics the program computed.

Input: this flush's items and verdicts, the profile's rising and cooling topics, the kept
superseded chains and the open reviews. Output: a ``Reflection`` — insights and suspected
gaps, each resting on slots named in the statistics (an entry naming none is dropped, like
an item citing no line). An entry that says nothing ("1.", "バルバババ") or reads the request's
instructions back ("the user is on the move", the prompt's own example) is left out too, by the
guard's rules (``memory/guard.py``). It writes nothing: the background track stores what survives in
the flush's transaction, for the inbox (never pushed into the chat).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from ..backends.base import Backend
from ..errors import MalformedReply
from ..memory.guard import SCHEMA_WORDS as PLACEHOLDERS, content_words, echoes, is_statement
from ..vocabulary.states import Verdict
from ..prompts import PromptLibrary
from ..types import Coded, Turn
from ..asking.ask import TokenUsage, ask_json, shared_text_room
from ..memory.proposals import Item, JudgeOutcome

log = logging.getLogger(__name__)

MOST = 5  # insights, and gaps, a reflect call may give
TEXT_MAX = 300
LIST_MAX = 40  # rows of each statistic list before any cut to fit the context

SMALL_MOST = 3  # on a small answer allowance (the embedded model's): three of each, shorter
SLOT_TOKENS = 40  # an entry's slots, keys and quotes, in tokens


def reflect_schema(most: int = MOST, text_max: int = TEXT_MAX) -> dict:
    """Every list is bounded: a small model (SmolLM2) otherwise goes on adding entries until it is cut off."""
    return {
        "type": "object",
        "properties": {
            kind: {"type": "array", "maxItems": most, "items": {
                "type": "object",
                "properties": {"text": {"type": "string", "maxLength": text_max},
                               "slots": {"type": "array", "maxItems": 3,
                                         "items": {"type": "string", "maxLength": 60}}},
                "required": ["text", "slots"]}}
            for kind in ("insights", "gaps")},
        "required": ["insights", "gaps"],
    }


REFLECT_SCHEMA = reflect_schema()
# The schema's own words, which an entry must not read back ("None" for a gap, "slot" for an insight).
SCHEMA_WORDS = "insights gaps text slots slot none"


def bounds(backend: Backend, sample: str) -> tuple[int, int]:
    """How many insights (and gaps) a call may give and how long each text, for ``backend``'s answer room:
    5 of 300 characters on a server; on a small allowance 3 each, as long as all six together fit."""
    if backend.json_answer_reserve() >= Backend.JSON_ANSWER_RESERVE:
        return MOST, TEXT_MAX
    return SMALL_MOST, shared_text_room(backend, sample, TEXT_MAX, 2 * SMALL_MOST, SLOT_TOKENS)


JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@dataclass
class Reflection:
    insights: list[dict] = field(default_factory=list)  # {"text", "slots"}
    gaps: list[dict] = field(default_factory=list)
    dropped: int = 0  # entries left out: resting on no known slot, saying nothing, or the instructions read back
    said_nothing: int = 0  # of which no statement
    echoed: int = 0  # of which the request's instructions


def language_of(texts: list[str], setting: str = "") -> str:
    """The user's language for a page or an insight: the setting, else what their words are written in."""
    if setting:
        return {"ja": "Japanese", "en": "English"}.get(setting, setting)
    joined = "".join(texts)
    return "Japanese" if joined and len(JAPANESE.findall(joined)) * 4 >= len(joined.replace(" ", "")) else "English"


def statistics(items: list[Item], outcome: JudgeOutcome, moving: dict, store, threshold: float) -> dict:
    """The snapshot the reflect call reads (``store`` is the background store, read only).

    Read inside the flush's trial (``FlushService._trial``), so the store is as the flush will leave it:
    ``items`` are this flush's items whose memory the views may show (or an earlier version of one), ``moving``
    the profile's, and every slot the store gives is of a memory the views may show (``store/shown.py``): what
    waits for review, this flush's proposals included, is only counted (``pending``), never named.
    """
    decided: dict[int, list] = {}
    for verdict in outcome.verdicts.values():
        if verdict.confidence >= threshold:
            decided.setdefault(verdict.item_index, []).append(verdict)
    per_slot: dict[str, dict] = {}
    contradictions, superseded = [], []
    chains = store.superseded_per_slot()
    by_index = {i.index: i for i in items}

    def old_text(target: str) -> str | None:
        """What was replaced, when it is the user's: an item of this flush, or a memory the views may show
        or an earlier version of one."""
        if target.startswith("item:"):
            earlier = by_index.get(int(target[5:]))
            return earlier.text if earlier else None
        return store.said_text(target)

    for item in items:
        row = per_slot.setdefault(item.slot, {"slot": item.slot, "new": 0, "reinforced": 0})
        verdicts = {v.verdict for v in decided.get(item.index, [])}
        row["reinforced" if verdicts & {Verdict.SAME, Verdict.MERGE} else "new"] += 1
        if Verdict.CONTRADICT in verdicts:
            contradictions.append({"slot": item.slot, "text": item.text})
        for v in decided.get(item.index, []):
            if v.verdict == Verdict.SUPERSEDE and old_text(v.target_id) is not None:
                superseded.append({"slot": item.slot, "old": old_text(v.target_id), "new": item.text,
                                   "chain": chains.get(item.slot, 0) + 1})
    pending = store.open_reviews()
    known = sorted(set(per_slot) | set(store.live_slots()))
    return {"slots": sorted(per_slot.values(), key=lambda r: r["slot"]), "contradictions": contradictions,
            "superseded": superseded, "rising": moving["rising"], "cooling": moving["cooling"],
            "pending": pending, "known": known, "language_texts": [i.text for i in items]}


LISTS = ("slots", "contradictions", "superseded", "known", "rising", "cooling")


def _cut(stats: dict, size: int) -> dict:
    return {**stats, **{key: stats[key][:size] for key in LISTS}}


def fitted(backend: Backend, prompts: PromptLibrary, system: str, stats: dict,
           notes: list[str]) -> str | None:
    """The user turn within the backend's context: long lists are cut (and noted), or None if nothing fits."""
    size = LIST_MAX
    while size >= 1:
        user = prompts.render("reflect_stats.md.j2", stats=_cut(stats, size))
        if backend.count_json_request(system, [Turn("user", user)], REFLECT_SCHEMA) <= backend.json_prompt_limit():
            if size < max(len(stats[key]) for key in LISTS):
                notes.append(f"reflect read the first {size} row(s) of each statistic to fit the model's context.")
            return user
        size //= 2
    notes.append("reflect was skipped: its statistics do not fit the model's context.")
    return None


def _valid(raw, known: set[str]) -> dict | None:
    """An entry of the schema's shape resting on known slots (its text cut to ``TEXT_MAX``), else None."""
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str) or not isinstance(raw.get("slots"), list):
        return None
    text = " ".join(raw["text"].split())[:TEXT_MAX]
    slots = [s for s in raw["slots"] if isinstance(s, str) and s in known]
    if not text or not slots:
        return None
    return {"text": text, "slots": sorted(set(slots))}


def _says_nothing(text: str) -> bool:
    """No statement (guard), or only placeholders: "None" for a gap, "text" for an insight."""
    return not is_statement(text) or all(word.shown in PLACEHOLDERS for word in content_words(text))


def reflect(backend: Backend, prompts: PromptLibrary, stats: dict, usage: TokenUsage, errors: list[str],
            notes: list[str], language: str = "") -> Reflection:
    """Ask once; keep what rests on known slots.

    Raises:
        BackendError: the call failed (as a judge call would: the flush stops, nothing changed).
    """
    most, text_max = bounds(backend, " ".join(stats["language_texts"]))
    system = prompts.render("reflect.md.j2", most=most, language=language_of(stats["language_texts"], language))
    user = fitted(backend, prompts, system, stats, notes)
    reflection = Reflection()
    if user is None:
        return reflection
    try:
        answer = ask_json(backend, system, user, reflect_schema(most, text_max), usage)
    except MalformedReply as exc:
        errors.append(f"reflect ({backend.describe()}): {exc.message}")
        return reflection
    known = set(stats["known"])
    if not isinstance(answer, dict) or not any(isinstance(answer.get(key), list) for key in ("insights", "gaps")):
        errors.append(f"reflect ({backend.describe()}): the answer has no list of insights or gaps; "
                      "nothing of it is kept.")
        return reflection
    cut = 0
    instructions, evidence = [system, SCHEMA_WORDS], [user, *stats["language_texts"]]
    for key, kept in (("insights", reflection.insights), ("gaps", reflection.gaps)):
        entries = answer.get(key)
        for raw in (entries if isinstance(entries, list) else [])[:most]:
            entry = _valid(raw, known)
            if entry is not None and _says_nothing(entry["text"]):
                reflection.said_nothing += 1
                entry = None
            elif entry is not None and echoes(entry["text"], instructions, evidence):
                reflection.echoed += 1
                entry = None
            if entry is None:
                reflection.dropped += 1
                continue
            cut += len(" ".join(raw["text"].split())) > TEXT_MAX
            if entry not in kept:
                kept.append(entry)
    unshown = reflection.dropped - reflection.said_nothing - reflection.echoed
    if reflection.dropped:
        log.info("reflect: %s entr(ies) left out (%s saying nothing, %s echoing the instructions)",
                 reflection.dropped, reflection.said_nothing, reflection.echoed)
    if unshown:
        notes.append(Coded(f"reflect: {unshown} entr(ies) left out: not of the schema's shape or resting on "
                           "no slot it was shown.", "reflect_unshown", unshown))
    if reflection.said_nothing:
        notes.append(Coded(f"reflect: {reflection.said_nothing} entr(ies) left out: they say nothing (a number, a "
                           "list marker, punctuation or one repeated syllable).", "reflect_said_nothing",
                           reflection.said_nothing))
    if reflection.echoed:
        notes.append(Coded(f"reflect: {reflection.echoed} entr(ies) left out: they read the request's instructions "
                           "back, not what the statistics show.", "reflect_echoed", reflection.echoed))
    if cut:
        notes.append(f"reflect: {cut} entr(ies) longer than {TEXT_MAX} characters were cut to that length.")
    return reflection
