""""Never remember this": the user's rules, and what they match.

A rule is a topic, a word or a slot family the user writes ("health", "my ex", "password", "food/",
"健康"). The program enforces them at every flush, whatever a model proposes: a filter's proposal that
matches one is dropped and listed with the rule ``never_remember`` (``flush/score.py``), and the filter
personas are told the rules in their part of the request (``prompts/filter_persona.md.j2``) — but the
guarantee is this module's, not the model's. Memories already kept that match a rule are offered for
forgetting (``NeverRules.matching``/``forget_matching``; ``monchat memory never …`` and Settings → Memory).

How a rule matches (``matches_never``), on text and slot folded alike (NFKC, case-folded, spaces collapsed):
- a rule with a ``/`` is a slot family: the slot itself or any slot under it (``food/`` → ``food/daily``);
- a rule in Japanese (or any CJK script) matches as a substring of the text or the slot;
- any other rule matches whole words, case-insensitive, a plural ``s``/``es``/``'s`` allowed ("password"
  finds "Passwords" but not "passwordless"), and also a slot family of that name (``health`` → ``health/sleep``).

Two functions are the core's door for other faces (the MCP server must not show what a rule covers):
``never_rules(store)`` and ``matches_never(text, slot, rules)``.
"""

from __future__ import annotations

import builtins
import re
import unicodedata
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import Iterable

from ..errors import InputError, NotFound
from ..store.db import Store
from ..store.never import NeverStore

NEVER_RULE = "never_remember"  # the rule name a dropped proposal carries (``Dropped.rule``)
MAX_RULE_CHARS = 100
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af]")
_LATIN = "0-9a-z\u00c0-\u024f"  # what continues a word: a rule's word must not be part of a longer one
_SLOT_SEPARATORS = re.compile(r"[/_\-]+")


def fold(text: str) -> str:
    """Text as rules compare it: NFKC, case-folded, runs of white space as one space."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def never_rules(store: Store) -> list[str]:
    """The user's rules as written, oldest first (what ``matches_never`` takes)."""
    return [row["text"] for row in NeverStore(store).rules()]


def matches_never(text: str, slot: str = "", rules: Iterable[str] = ()) -> str | None:
    """The first of ``rules`` that ``text`` or ``slot`` falls under, or None."""
    folded_text, folded_slot = fold(text), fold(slot).replace(" ", "")
    slot_words = _SLOT_SEPARATORS.sub(" ", folded_slot).strip()
    for rule in rules:
        if _matches(fold(rule), folded_text, folded_slot, slot_words):
            return rule
    return None


def _matches(rule: str, text: str, slot: str, slot_words: str) -> bool:
    if not rule:
        return False
    if "/" in rule:
        family = rule.replace(" ", "").strip("/")
        return bool(family) and (slot == family or slot.startswith(family + "/"))
    if slot and (slot == rule or slot.startswith(rule + "/")):
        return True
    if _CJK.search(rule):
        return rule in text or rule in slot
    pattern = _word_pattern(rule)
    return bool(pattern.search(text) or pattern.search(slot_words))


@lru_cache(maxsize=256)
def _word_pattern(rule: str) -> re.Pattern:
    words = r"[\s\-_]+".join(re.escape(word) for word in rule.split())
    return re.compile(rf"(?<![{_LATIN}]){words}(?:s|es|'s)?(?![{_LATIN}])")


class NeverRules:
    """The rules as the faces use them: list, add, remove, and the kept memories they cover.

    Args:
        memory: the ``MemoryService`` (forgetting goes through it, so through ``memory/transitions.py``).
    """

    def __init__(self, store: Store, memory, clock) -> None:
        self.store = store
        self.rows = NeverStore(store)
        self.memory = memory
        self.clock = clock

    def list(self) -> list[dict]:
        """``{id, text, created_at}`` per rule, oldest first."""
        return self.rows.rules()

    def texts(self) -> builtins.list[str]:
        return [row["text"] for row in self.rows.rules()]

    def add(self, text: str) -> dict:
        """Add a rule (the same rule twice is one). Raises InputError for an empty or over-long one."""
        text = " ".join((text or "").split())
        if not fold(text).strip("/ "):
            raise InputError("The rule is empty.", 'Write a topic, a word or a slot family, e.g. "health", '
                             '"my ex", "password" or "food/".')
        if len(text) > MAX_RULE_CHARS or any(ord(c) < 32 for c in text):
            raise InputError(f"A rule is at most {MAX_RULE_CHARS} printable characters.",
                             "Write the topic or word itself, not a sentence about it.")
        now: datetime = self.clock()
        return self.rows.add(text, fold(text), now.isoformat(timespec="seconds"))

    def remove(self, rule: str) -> dict:
        """Remove a rule by its number or its text. Raises NotFound."""
        rows = self.rows.rules()
        found = next((r for r in rows if str(r["id"]) == str(rule).strip()), None) or \
            next((r for r in rows if fold(r["text"]) == fold(rule)), None)
        if found is None:
            raise NotFound(f"There is no never-remember rule {rule!r}.", "See `monchat memory never list`.")
        self.rows.remove(found["id"])
        return found

    def matching(self, rules: Iterable[str] | None = None) -> builtins.list[tuple]:
        """The live memories (in the prompt, on their way, waiting for review or set aside) a rule covers:
        ``(MemoryRecord, rule)`` pairs."""
        rules = self.texts() if rules is None else list(rules)
        if not rules:
            return []
        out = []
        for memory in self.memory.list(all=True):
            if memory.live:
                rule = matches_never(memory.text, memory.slot, rules)
                if rule is not None:
                    out.append((memory, rule))
        return out

    def forget_matching(self, rules: Iterable[str] | None = None) -> builtins.list[str]:
        """Forget every live memory a rule covers (out of the prompt for good; ``memory restore`` undoes it).
        Returns their ids."""
        return self.memory.forget_many([memory.id for memory, _ in self.matching(rules)])


def told(personas: list, rules: list[str]) -> list:
    """The filter personas of a flush, each carrying the rules (its prompt part names them; ``validate_item``
    drops what they match)."""
    return [replace(persona, never=list(rules)) for persona in personas]
