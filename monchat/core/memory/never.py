""""Never remember this": the user's rules, and what they match.

A rule is a topic, a word or a slot family the user writes ("health", "my ex", "password", "food/",
"健康"). The program enforces them at every flush, whatever a model proposes: a filter's proposal that
matches one is dropped and listed with the rule ``never_remember`` (``flush/score.py``), and the filter
personas are told the rules in their part of the request (``prompts/filter_persona.md.j2``) — but the
guarantee is this module's, not the model's. Memories already kept that match a rule are offered for
forgetting (``NeverRules.matching``/``forget_matching``; ``monchat memory never …`` and Settings → Memory).

What a rule covers is decided in one place, ``never_match.py`` (slot families, literal slashes, English word
forms through a stemmer, letters glued to digits, Japanese inflection through a morphological analyser,
full-width forms); this module holds the rules and re-exports ``matches_never`` and ``fold``.

Two functions are the core's door for other faces (the MCP server must not show what a rule covers):
``never_rules(store)`` and ``matches_never(text, slot, rules)``.
"""

from __future__ import annotations

import builtins
from dataclasses import replace
from datetime import datetime
from typing import Iterable

from ..errors import InputError, NotFound
from ..store.db import Store
from ..store.never import NeverStore
from .never_match import fold, matches_never

__all__ = ["MAX_RULE_CHARS", "NEVER_RULE", "NeverRules", "fold", "matches_never", "never_rules", "told"]

NEVER_RULE = "never_remember"  # the rule name a dropped proposal carries (``Dropped.rule``)
MAX_RULE_CHARS = 100


def never_rules(store: Store) -> list[str]:
    """The user's rules as written, oldest first (what ``matches_never`` takes)."""
    return [row["text"] for row in NeverStore(store).rules()]


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
