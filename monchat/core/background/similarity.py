"""Text similarity without an embedding model: character n-gram TF-IDF cosine (stdlib only).

Characters, not words, so Japanese (no spaces) works the same as English. A text is casefolded,
its runs of whitespace become one space, and its character bigrams and trigrams are counted
(a text shorter than 2 characters is its own one gram). For a set of documents:

- tf(g, d) = the count of gram g in d;
- idf(g) = ln((1 + D) / (1 + df(g))) + 1, D documents, df(g) of them containing g (smoothed, so a
  gram in every document still counts a little);
- similarity(a, b) = cos(tf·idf of a, tf·idf of b), in [0, 1]; 0 when either is empty.
"""

from __future__ import annotations

import math
import re
from collections import Counter

SPACE = re.compile(r"\s+")
SIZES = (2, 3)


def grams(text: str) -> Counter:
    """The character bigrams and trigrams of ``text``, counted."""
    text = SPACE.sub(" ", (text or "").casefold()).strip()
    if len(text) < SIZES[0]:
        return Counter([text] if text else [])
    return Counter(text[i:i + n] for n in SIZES for i in range(len(text) - n + 1))


class TfIdf:
    """TF-IDF vectors of named documents; ``cosine(a, b)`` between two of them."""

    def __init__(self, documents: dict[str, str]) -> None:
        counts = {key: grams(text) for key, text in documents.items()}
        df: Counter = Counter()
        for c in counts.values():
            df.update(c.keys())
        total = len(counts)
        self.idf = {g: math.log((1 + total) / (1 + n)) + 1 for g, n in df.items()}
        self.vectors: dict[str, dict[str, float]] = {}
        for key, c in counts.items():
            vector = {g: tf * self.idf[g] for g, tf in c.items()}
            norm = math.sqrt(sum(w * w for w in vector.values()))
            self.vectors[key] = {g: w / norm for g, w in vector.items()} if norm else {}

    def cosine(self, a: str, b: str) -> float:
        va, vb = self.vectors.get(a, {}), self.vectors.get(b, {})
        if len(va) > len(vb):
            va, vb = vb, va
        shared = va.keys() & vb.keys()
        return min(1.0, sum(va[g] * vb[g] for g in shared))
