"""The program's own structural gaps (no LLM): a canonical table of slot families and their neighbours.

A slot's topic is its first part (``profile.topic_of``: ``family/kids`` → ``family``). The user *often
talks about* a topic of the table when its count in the day's 30-day profile window (distinct messages the
ledger cites) is at least ``background.structural_gap_after`` (0 turns this off). Each of the topic's
neighbours (``family/partner``, ``family/children``, ``family/parents``, …) is *mentioned* when a memory the
views may show, or an earlier version of one (``store/shown.py``: never one waiting for review, rejected or
forgotten), has a slot

- with the topic as its first part and one of the neighbour's words among the words of the rest of the slot
  (split at ``/``, ``_``, ``-`` and spaces): ``family/wife_job`` mentions ``family/partner``; or
- with one of the neighbour's words as its first part: ``partner/job`` mentions ``family/partner``.

A neighbour never mentioned is a structural gap (source ``neighbours``), marked once (``gaps.py``). The
table is deliberately small: a family is in it only when its neighbours are expected of most people who
talk about it often. Slots are lowercase English (the filter prompt asks for that).
"""

from __future__ import annotations

import re

WINDOW = 30  # the profile window "often" is counted in

FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    "family": {"partner": ("partner", "wife", "husband", "spouse", "girlfriend", "boyfriend", "marriage"),
               "children": ("children", "child", "kids", "kid", "son", "daughter", "baby"),
               "parents": ("parents", "parent", "mother", "father", "mom", "dad", "mum")},
    "work": {"role": ("role", "job", "position", "title", "occupation", "profession"),
             "schedule": ("schedule", "hours", "shift", "shifts", "commute", "workday"),
             "colleagues": ("colleagues", "colleague", "coworker", "coworkers", "boss", "manager", "team")},
    "health": {"sleep": ("sleep", "insomnia", "bedtime", "nap"),
               "exercise": ("exercise", "workout", "sport", "sports", "running", "gym", "walking"),
               "diet": ("diet", "food", "meal", "meals", "eating", "nutrition")},
    "study": {"subject": ("subject", "major", "course", "field", "language"),
              "goal": ("goal", "goals", "exam", "exams", "certificate", "degree"),
              "schedule": ("schedule", "routine", "hours", "class", "classes")},
    "pet": {"name": ("name",),
            "care": ("care", "vet", "food", "walk", "walks", "health")},
    "home": {"city": ("city", "town", "area", "country", "location", "address", "neighborhood"),
             "household": ("household", "roommate", "flatmate", "family", "partner", "alone", "lives")},
}


def words_of(slot: str) -> list[str]:
    return [w for w in re.split(r"[/_\-\s]+", (slot or "").casefold()) if w]


def mentioned(topic: str, words: tuple[str, ...], slots: list[str]) -> bool:
    for slot in slots:
        parts = words_of(slot)
        if not parts:
            continue
        if parts[0] in words or (parts[0] == topic and any(w in words for w in parts[1:])):
            return True
    return False


def expected(counts: dict[str, int], slots: list[str], threshold: int) -> list[dict]:
    """The neighbours never mentioned of every topic the user often talks about.

    Args:
        counts: topic → its count in the 30-day window of the day's profile.
        slots: every slot a memory ever had.
        threshold: how many messages make "often" (0: none do).
    """
    if threshold <= 0:
        return []
    missing = []
    for topic, neighbours in FAMILIES.items():
        count = counts.get(topic, 0)
        if count < threshold:
            continue
        for name, words in neighbours.items():
            if not mentioned(topic, (name, *words), slots):
                missing.append({"slot": f"{topic}/{name}", "topic": topic, "count": count})
    return missing
