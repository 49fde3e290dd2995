"""The guard's text pieces, below its rules (``guard.py``, ``guard_unsure.py`` build on them): how texts are folded and
stemmed, the scripts' patterns, and ``swapped``, which reads a text's words in order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .guard_words import DISTILLING_WORDS, FUNCTION_WORDS, JA_WORDS

WORD_STEM = 5  # Latin words compare by their first letters after a light stem
MIN_WORD = 3  # shorter Latin words ("a", "of", "UI") say too little
KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆]")
KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc\u30fd\u30fe\uff66-\uff9f]{2,}")
SHORT_NAME = re.compile(r"(?<![A-Za-z])[A-Z][A-Za-z](?![A-Za-z-])")
_SEQUENCE = re.compile(r"[a-z]+|[0-9]+|[\u30a1-\u30fa\u30fc\u30fd\u30fe]+|[^\W\d_a-z]")


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def stem(word: str) -> str:
    """A light English stem: "baking", "baked", "bake" → "bak"; "studies", "study" → "studi"."""
    for suffix, keep in (("ies", "i"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("ly", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)] + keep
            break
    if word.endswith("y") and len(word) > 3:
        word = word[:-1] + "i"
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word[:WORD_STEM]


@dataclass(frozen=True)
class Word:
    shown: str  # as the text writes it
    key: str  # what it is compared by


def _sequence(text: str) -> list[str]:
    """The text's tokens in order, each as the key its content word would have (a Latin stem, a number, a kanji,
    "k:" and a katakana word, a short name) or, marked "~", as a word that is no content (a function or
    distilling word, 今朝, 飼) or as itself (a particle)."""
    names = {w.casefold() for w in SHORT_NAME.findall(unicodedata.normalize("NFKC", text))} - FUNCTION_WORDS
    folded = fold(text)
    keys: list[str] = []
    i = 0
    while i < len(folded):
        quiet = next((w for w in JA_WORDS if folded.startswith(w, i)), None)
        if quiet is not None:
            keys.append("~" + quiet)
            i += len(quiet)
            continue
        match = _SEQUENCE.match(folded, i)
        if match is None:
            i += 1
            continue
        token = match.group()
        i = match.end()
        if token.isdigit():
            keys.append(f"#{int(token)}")
        elif token.isascii():
            quiet_word = len(token) < MIN_WORD or token in FUNCTION_WORDS or token in DISTILLING_WORDS
            keys.append(token if token in names else "~" + token if quiet_word else stem(token))
        elif KATAKANA_RUN.fullmatch(token):
            keys.append("k:" + token)
        else:
            keys.append(token)
    return keys


def _is_content(key: str) -> bool:
    return key.startswith(("k:", "#")) or bool(KANJI.fullmatch(key)) or (key.isascii() and key[:1].isalpha())


def swapped(text: str, cited: Sequence[str], added: list[Word]) -> bool:
    """Whether an added word stands where a cited line has another word the item left out: the same neighbour
    on one side, a different content word in its place ("has a dog" / "I have a cat", "犬を飼う" / "猫を飼う")."""
    mine = _sequence(text)
    kept = set(mine)
    new = {word.key for word in added}
    for line in cited:
        theirs = _sequence(line)
        for i, key in enumerate(mine):
            if key not in new:
                continue
            for side in (-1, 1):
                if not 0 <= i + side < len(mine) or mine[i + side] in new:
                    continue
                anchor = mine[i + side]
                # the other word on the anchor's same side; either side when the anchor is a content word
                # ("14 April" / "March 14")
                places = (-side, side) if _is_content(anchor) else (-side,)
                for j, other in enumerate(theirs):
                    if other != anchor:
                        continue
                    for place in places:
                        k = j + place
                        if 0 <= k < len(theirs) and theirs[k] not in kept and _is_content(theirs[k]):
                            return True
    return False
