"""An evidence line as much as fits, centred on the sentence that supports the memory.

A long message shown from its start often hid the one sentence a memory rests on below the list's edge. Here the
sentence sharing the most with the memory's words is found (words for spaced scripts, two-character pieces for
Japanese and Chinese, so no word splitting is needed) and the excerpt is cut around it, "…" marking each cut; the
whole message stays in the row's tooltip.
"""

from __future__ import annotations

import re
import unicodedata

LIMIT = 320  # characters of a message shown in an evidence row
_SENTENCES = re.compile(r"[^.!?。！？\n]+[.!?。！？]*\s*|\n+")


def _pieces(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    words = set(re.findall(r"[a-z0-9']{3,}", folded))
    dense = re.sub(r"[\sa-z0-9'\W_]+", "", folded)
    return words | {dense[i:i + 2] for i in range(len(dense) - 1)}


def excerpt(text: str, about: str, limit: int = LIMIT) -> str:
    """``text`` whole when it fits in ``limit``; else ``limit`` characters around its sentence closest to ``about``."""
    if len(text) <= limit:
        return text
    wanted = _pieces(about)
    best, best_score = (0, 0), -1
    for found in _SENTENCES.finditer(text):
        score = len(_pieces(found.group()) & wanted)
        if score > best_score:
            best, best_score = (found.start(), found.end()), score
    middle = (best[0] + best[1]) // 2
    begin = max(0, min(middle - limit // 2, len(text) - limit))
    if best[1] - best[0] <= limit:  # the whole sentence in view, its start first if it must be cut
        begin = max(0, min(begin, best[0]))
    end = min(len(text), begin + limit)
    return ("…" if begin > 0 else "") + text[begin:end].strip() + ("…" if end < len(text) else "")
