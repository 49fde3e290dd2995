"""When the guard is not sure: a proposal that breaks only a words rule but may well be what the user meant.

The words rules (``adds_words``, ``not_their_words``) compare words, and a capable model distils: it may name
a thing by a word the user never used ("User's editor is VS Code" from "I write it in VS Code") or reinforce a
kept memory citing a line that says the same thing in other words. Dropping those loses what the user said;
keeping them would keep a model's claim. So such a proposal waits in the review queue, marked plainly, with the
lines it cites beside it (``UNSURE_REASON``) — never straight into memory, never silently dropped.

A proposal is *unsure* (``is_unsure``) when it broke only a words rule (every rule before them — a statement, a
slot of words, no loop, not the assistant's words, not the instructions read back — held), cites real user lines
and restates or extends what the user said:

- ``not_their_words``: it restates a kept or recent memory (``guard.restated``) whose words the cited line
  does not show;
- ``adds_words``: at most ``MAX_UNSURE_ADDED`` added words, no more than the words it shares with the user's
  lines, none a number or a word of letters and digits (a number the user did not say is a claim: "3 cats",
  "hunter2"), no clause made only of added words (a reply's invented claim: "…, and is getting married"), and no
  swapped word (``swapped``: "has a dog" citing "I have a cat", "Moved to Osaka" citing "I moved to Fukuoka").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .guard import GuardRule, adds_words, content_words, restated
from .guard_text import KATAKANA_RUN, Word, fold, swapped

WORDS_RULES = (GuardRule.ADDS_WORDS, GuardRule.NOT_THEIR_WORDS)
MAX_UNSURE_ADDED = 2  # more words the user did not say than this: not a distillation, a claim
MIN_SHARED = 2  # fewer of the user's content words than this: too little of theirs to restate
UNSURE_REASON = "monchat is not sure these are your words: compare them with what you said"
_CLAUSE = re.compile(r"[,;:.!?、。，；：！？\n]+|\b(?:and|but|also|plus|while|although|because|since|with|after|so)\b|と|ため|ので")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+")  # a capitalised word inside a sentence: a name


def _added(text: str, sources: list[str]) -> list[Word]:
    added = set(adds_words(text, sources))
    return [word for word in content_words(text) if word.shown in added]


def _extends(word: Word, sources: list[str]) -> bool:
    """Whether an added katakana word is a katakana word of the sources made longer (サワードウ → サワードウパン)."""
    if not word.key.startswith("k:"):
        return False
    return any(len(run) >= 3 and run in word.key for run in KATAKANA_RUN.findall(fold("\n".join(sources))))


def invented_claim(text: str, sources: list[str]) -> bool:
    """Whether a clause of ``text`` is made only of words its sources do not hold ("…, and my password is x")."""
    for clause in _CLAUSE.split(fold(text)):
        words = content_words(clause) if clause else []
        if words and len(adds_words(clause, sources)) == len(words):
            return True
    return False


def is_unsure(text: str, rule: GuardRule | None, cited: Sequence[str], known: Sequence[str] = (),
              kept: Sequence[str] = ()) -> bool:
    """Whether a proposal the guard refused under ``rule`` should wait for the user's review instead (``known``,
    ``kept``: as ``check_item``'s ``known_texts`` and ``kept_texts``)."""
    if rule not in WORDS_RULES or not cited:
        return False
    memories = restated(text, [*known, *kept])
    if rule is GuardRule.NOT_THEIR_WORDS:
        return bool(memories)
    sources = [*cited, *known, *memories]
    added = _added(text, sources)
    shared = len(content_words(text)) - len(added) + sum(1 for word in added if _extends(word, sources))
    if not added or len(added) > MAX_UNSURE_ADDED or shared < max(len(added), MIN_SHARED):
        return False
    if any(word.key.startswith(("#", "x:")) for word in added):
        return False
    names = {name.casefold() for name in _NAME.findall(text)}
    if any(word.shown in names for word in added):
        return False  # a name the user did not say ("with his wife Yuki")
    return not invented_claim(text, sources) and not swapped(text, cited, added)

