"""The guard's share thresholds and the diary's own-words share, on each side of their edges (issue 44).

"Copies the assistant" (``COPIED_SHARE``, ``COPIED_LEAD``), "echoes the instructions" (``ECHO_SHARE``,
``ECHO_LEAD``) and the diary's "more than its telling" (``OWN_WORDS_MOST``) were pinned by no test at their
edges: ``>=`` made ``>`` survived. The constants are imported by name and the texts built from them, so a
retuned threshold moves its test with it; what is pinned is which side of the edge is which: a share exactly
at the threshold counts, one unit less does not. Texts are made of numbers (each one unit, never stemmed or
dropped as a function word) or of plain content words, and each test first checks the units it counts on.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import pytest

from monchat.core.background.diary import DAY_WORDS, OWN_WORDS_MOST, unfounded
from monchat.core.memory.guard import (COPIED_LEAD, COPIED_SHARE, ECHO_LEAD, ECHO_SHARE, content_words,
                                       copies_assistant, echoes, meaningful_units, units)


def steps(*shares: float) -> int:
    """A number of units in which every share is a whole number of them (at least 10)."""
    n = lcm(*(Fraction(s).limit_denominator(1000).denominator for s in shares))
    return n * -(-10 // n)


def numbers(count: int, start: int = 1000) -> list[str]:
    return [str(start + k) for k in range(count)]


def whole(share: float, n: int) -> int:
    k = Fraction(share).limit_denominator(1000) * n
    assert k.denominator == 1
    return int(k)


# ---- copies the assistant ------------------------------------------------------------------------------
N_COPY = steps(COPIED_SHARE, COPIED_LEAD)
STATEMENT = numbers(N_COPY)
TEXT = " ".join(STATEMENT)


def test_the_statement_has_the_units_the_edges_count_on():
    assert len(units(TEXT)) == N_COPY == len(meaningful_units(TEXT))


def test_an_assistant_line_holding_exactly_the_copied_share_is_copied():
    at = whole(COPIED_SHARE, N_COPY)
    assistant = " ".join(STATEMENT[:at] + numbers(5, start=9000))
    assert copies_assistant(TEXT, ["something else entirely"], [assistant])
    one_less = " ".join(STATEMENT[:at - 1] + numbers(5, start=9000))
    assert not copies_assistant(TEXT, ["something else entirely"], [one_less])


def test_a_statement_exactly_the_lead_closer_to_the_assistant_is_copied_and_one_unit_less_is_not():
    user_at = whole(1 - COPIED_LEAD, N_COPY)  # the assistant line holds all of it: share 1.0
    assert user_at / N_COPY + COPIED_LEAD == 1.0, "pick N so the edge is exact"
    assistant = [TEXT]
    assert copies_assistant(TEXT, [" ".join(STATEMENT[:user_at])], assistant)
    assert not copies_assistant(TEXT, [" ".join(STATEMENT[:user_at + 1])], assistant)


def test_the_closest_assistant_line_counts_not_the_first():
    at = whole(COPIED_SHARE, N_COPY)
    lines = ["nothing shared here", " ".join(STATEMENT[:at - 1]), " ".join(STATEMENT[:at])]
    assert copies_assistant(TEXT, [], lines)
    assert not copies_assistant(TEXT, [], [])


# ---- echoes the instructions ---------------------------------------------------------------------------
N_ECHO = steps(ECHO_SHARE, ECHO_LEAD)
ECHOED = numbers(N_ECHO, start=2000)
ECHO_TEXT = " ".join(ECHOED)


def test_instructions_holding_exactly_the_echo_share_are_echoed():
    at = whole(ECHO_SHARE, N_ECHO)
    assert len(meaningful_units(ECHO_TEXT)) == N_ECHO
    assert echoes(ECHO_TEXT, [" ".join(ECHOED[:at])], [])
    assert not echoes(ECHO_TEXT, [" ".join(ECHOED[:at - 1])], [])


def test_a_statement_exactly_the_lead_closer_to_the_instructions_echoes_and_one_unit_less_does_not():
    evidence_at = whole(1 - ECHO_LEAD, N_ECHO)
    assert evidence_at / N_ECHO + ECHO_LEAD == 1.0, "pick N so the edge is exact"
    assert echoes(ECHO_TEXT, [ECHO_TEXT], [" ".join(ECHOED[:evidence_at])])
    assert not echoes(ECHO_TEXT, [ECHO_TEXT], [" ".join(ECHOED[:evidence_at + 1])])


def test_no_instructions_or_no_units_echo_nothing():
    assert not echoes(ECHO_TEXT, [], [])
    assert not echoes("...", [ECHO_TEXT], [])


# ---- the diary: its own words, at most OWN_WORDS_MOST of a page ----------------------------------------------
WORDS = ["violin", "pottery", "gardening", "cycling", "origami", "kayak", "chess", "juggling", "sailing",
         "archery", "fencing", "karate", "rowing", "surfing", "skating", "climbing"]
N_DIARY = steps(OWN_WORDS_MOST)
DAY = "2026-12-04"


@pytest.fixture
def page():
    assert N_DIARY <= len(WORDS), "OWN_WORDS_MOST grew: give WORDS more words"
    words = WORDS[:N_DIARY]
    text = " ".join(words)
    assert [w.shown for w in content_words(text)] == words, "each word a content word of its own"
    assert not set(words) & set(DAY_WORDS.split())
    return words


def test_a_page_with_exactly_its_share_of_own_words_is_founded(page):
    own = whole(OWN_WORDS_MOST, len(page))
    cited = [" ".join(page[own:])]  # the messages hold every word but the first ``own``
    assert unfounded(" ".join(page), cited, DAY) == []


def test_a_page_with_one_own_word_more_is_unfounded(page):
    own = whole(OWN_WORDS_MOST, len(page)) + 1
    cited = [" ".join(page[own:])]
    assert unfounded(" ".join(page), cited, DAY) == page[:own]


def test_a_name_the_messages_do_not_hold_is_unfounded_alone(page):
    text = " ".join(page) + " with Hiroshi"
    assert unfounded(text, [" ".join(page)], DAY) == ["hiroshi"]
    assert unfounded(" ".join(page), [" ".join(page)], DAY) == []
