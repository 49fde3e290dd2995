"""Scoring by program: a set's facts against the end state of memory, a reply against its question.

A fact's ``words`` match a memory when every word is in its text (case folded). ``present``: one active memory
(lasting, or recent at ``--now``) matches. ``retired``: no active memory matches, but for one that also holds an
``unless`` word ("I quit coffee" is right). ``never``: no memory of any state matches (history included).
``invented``: active memories no line of the user's is evidence for. No model judges any of it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .sets import Fact, Question

# What a reply says when it does not know (docs/eval.md). Matched case folded, curly apostrophes made straight.
ABSTAIN_PHRASES = {
    "ja": ("わからない", "分からない", "わかりません", "分かりません", "知らない", "知りません", "覚えていない",
           "覚えてない", "覚えていません", "聞いていない", "聞いてない", "聞いていません", "記憶にない",
           "記憶にありません", "教えてもらっていない", "教えてもらってない", "存じません", "把握していない"),
    "en": ("don't know", "do not know", "not sure", "no idea", "don't remember", "do not remember",
           "haven't told me", "have not told me", "didn't tell me", "did not tell me", "never told me",
           "haven't mentioned", "have not mentioned", "never mentioned", "can't recall", "cannot recall",
           "don't have any information", "don't have that information", "no information", "not something you've"),
}


@dataclass(frozen=True)
class Memory:
    """What scoring reads of a memory at the end."""

    id: str
    text: str
    state: str
    active: bool  # lasting (Layer 1) or recent (Layer 2) at --now
    from_user: bool  # at least one user line is its evidence


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def matches(words, text: str) -> bool:
    folded = fold(text)
    return all(fold(word) in folded for word in words)


def fact_verdict(fact: Fact, memories: list[Memory]) -> dict:
    """One fact's verdict and the memories it rests on (sorted ids)."""
    if fact.kind == "present":
        found = sorted(m.id for m in memories if m.active and matches(fact.words, m.text))
        return {"id": fact.id, "kind": fact.kind, "verdict": "kept" if found else "missing", "right": bool(found),
                "memories": found}
    if fact.kind == "retired":
        still = sorted(m.id for m in memories if m.active and matches(fact.words, m.text)
                       and not any(fold(u) in fold(m.text) for u in fact.unless))
        return {"id": fact.id, "kind": fact.kind, "verdict": "still active" if still else "retired",
                "right": not still, "memories": still}
    found = sorted(m.id for m in memories if matches(fact.words, m.text))
    return {"id": fact.id, "kind": fact.kind, "verdict": "remembered" if found else "clean", "right": not found,
            "memories": found}


def score_facts(facts, memories: list[Memory]) -> dict:
    """The result's ``present``, ``retired``, ``never``, ``invented`` and ``facts``."""
    verdicts = [fact_verdict(f, memories) for f in facts]

    def count(kind: str) -> tuple[int, int]:
        mine = [v for v in verdicts if v["kind"] == kind]
        return sum(v["right"] for v in mine), len(mine)

    kept, present = count("present")
    retired, of_retired = count("retired")
    clean, of_never = count("never")
    return {"present": {"kept": kept, "of": present}, "retired": {"retired": retired, "of": of_retired},
            "never": {"clean": clean, "of": of_never},
            "invented": sum(1 for m in memories if m.active and not m.from_user),
            "facts": verdicts}


def abstains(reply: str, language: str) -> bool:
    folded = fold(reply)
    return any(fold(p) in folded for p in ABSTAIN_PHRASES.get(language, ()) + ABSTAIN_PHRASES["en"])


def reply_right(question: Question, reply: str, language: str) -> bool:
    if question.abstain:
        return abstains(reply, language)
    return matches(question.answer_words, reply)
