"""Whose words is an item in? A check of an item's text against the lines it stands on.

A filter cites user lines by id, and ids alone prove nothing: a model can copy an
assistant's sentence (or fill the schema with placeholder text) and cite any
user line. The program compares the text itself, on ``units`` after folding
case and width (Latin words, bigrams of other scripts), so it
works for Japanese (no word breaks) as for English, and tolerates the
rewording a distillation needs.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# An item sharing none of its units with the cited user lines is "not found in
# your words": it may be kept, but never reaches the prompt unreviewed.
GROUNDED_SHARE = 0.0
# An item this close to an assistant line, and clearly closer to it than to the
# cited user lines, is the assistant's words and is dropped.
COPIED_SHARE = 0.6
COPIED_LEAD = 0.2
WORD_STEM = 5  # Latin words compare by their first letters: "practised" meets "practises"
MIN_WORD = 3  # shorter Latin words ("a", "of", "UI") say too little


def units(text: str) -> set[str]:
    """What texts are compared by: Latin-script words (stemmed) and bigrams of other scripts.

    Japanese has no spaces, so its runs of letters give character bigrams
    ("東京で" → 東京, 京で); English gives words, since its letter bigrams
    ("th", "in") are in every sentence.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    found: set[str] = set()
    for run in re.findall(r"[a-z0-9]+|[^\W\da-z_]+", folded):
        if run[0].isascii():
            if len(run) >= MIN_WORD:
                found.add(run[:WORD_STEM])
        elif len(run) == 1:
            found.add(run)
        else:
            found.update(run[i:i + 2] for i in range(len(run) - 1))
    return found


def share(text: str, source: str) -> float:
    """How much of ``text``'s units appear in ``source`` (0 to 1)."""
    mine = units(text)
    if not mine:
        return 0.0
    return len(mine & units(source)) / len(mine)


@dataclass
class WordsCheck:
    from_user: float  # share of the item found in the cited user lines
    from_assistant: float  # the highest share found in one assistant line of the same request

    @property
    def assistants_words(self) -> bool:
        return self.from_assistant >= COPIED_SHARE and self.from_assistant >= self.from_user + COPIED_LEAD

    @property
    def grounded(self) -> bool:
        return self.from_user > GROUNDED_SHARE


def check_words(text: str, cited: list[str], assistant_lines: list[str]) -> WordsCheck:
    """Compare an item's text with the user lines it cites and the assistant lines beside them."""
    return WordsCheck(from_user=share(text, "\n".join(cited)),
                      from_assistant=max((share(text, line) for line in assistant_lines), default=0.0))
