"""The feedback loop's numbers (DESIGN §4–5, issue 14): what a reply relied on, and the half-life boost.

No I/O, no state changes.

**Relied on.** A reply relied on a memory of its prompt when at least ``RELIED_ON_SHARE`` of the memory's
character n-grams occur in the reply. Text is NFKC-normalised and case-folded and split at every character
that is not a letter or digit; n is 2 when the memory has a CJK character (Japanese has no spaces, and two
characters already carry a word's meaning) and 3 otherwise; n-grams never cross a split, and a piece
shorter than n counts as one gram. Deterministic, no model, and it works for Japanese.

**Boost.** A memory's effective half-life is ``half_life_days × boost``. New evidence raises the boost by
``EVIDENCE_STEP``, being relied on in a reply by ``USE_STEP``, a 👍 on the memory by ``UP_STEP`` and a 👍
on a reply that relied on it by ``REPLY_UP_STEP``; never above ``BOOST_CAP`` (10×). From the last raise it
decays back to 1× linearly over ``BOOST_DECAY_DAYS`` (30 days); a raise starts from what is left.
"""

from __future__ import annotations

import unicodedata

RELIED_ON_SHARE = 0.5
BOOST_CAP = 10.0
BOOST_DECAY_DAYS = 30.0
EVIDENCE_STEP = 1.0
USE_STEP = 0.5
UP_STEP = 2.0
REPLY_UP_STEP = 1.0
# A 👎 on a memory halves its confidence (and sends it to review); one on a reply lowers each memory the
# reply relied on to three quarters of its confidence.
DOWN_FACTOR = 0.5
REPLY_DOWN_FACTOR = 0.75


def _cjk(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def _pieces(text: str) -> list[str]:
    norm = unicodedata.normalize("NFKC", text).casefold()
    pieces, current = [], []
    for ch in norm:
        if ch.isalnum():
            current.append(ch)
        elif current:
            pieces.append("".join(current))
            current = []
    if current:
        pieces.append("".join(current))
    return pieces


def gram_size(memory_text: str) -> int:
    return 2 if any(_cjk(ch) for ch in memory_text) else 3


def grams(text: str, n: int) -> set[str]:
    out: set[str] = set()
    for piece in _pieces(text):
        if len(piece) <= n:
            out.add(piece)
        else:
            out.update(piece[i:i + n] for i in range(len(piece) - n + 1))
    return out


def overlap(memory_text: str, reply_text: str) -> float:
    """The share of the memory's n-grams that occur in the reply (0 when the memory has none)."""
    n = gram_size(memory_text)
    wanted = grams(memory_text, n)
    if not wanted:
        return 0.0
    return len(wanted & grams(reply_text, n)) / len(wanted)


def relied_on(memory_text: str, reply_text: str) -> bool:
    return overlap(memory_text, reply_text) >= RELIED_ON_SHARE


def boost_now(boost: float | None, boost_epoch: float | None, now_epoch: float) -> float:
    """What is left of a boost at ``now_epoch``: back to 1× linearly over ``BOOST_DECAY_DAYS``."""
    boost = min(BOOST_CAP, boost or 1.0)
    if boost <= 1.0 or not boost_epoch:
        return 1.0
    left = max(0.0, 1.0 - max(0.0, now_epoch - boost_epoch) / 86400 / BOOST_DECAY_DAYS)
    return 1.0 + (boost - 1.0) * left


def raised(boost: float | None, boost_epoch: float | None, now_epoch: float, step: float) -> float:
    """The boost after one raise at ``now_epoch``: what is left plus ``step``, at most ``BOOST_CAP``."""
    return min(BOOST_CAP, boost_now(boost, boost_epoch, now_epoch) + step)
