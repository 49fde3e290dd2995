"""Which way a statement leans, liking or disliking: the swap the distilling lists would let through.

"likes" and "hates" are both words a distillation may use (``guard_words``), so "Likes cilantro" citing "I hate
cilantro" adds no word; ``turned`` refuses it: the item leans one way and every leaning its cited lines (and the
kept memories it restates) show is the other. A negation turns a liking round ("I don't like it", 「好きじゃない」).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .guard_words import DISLIKING, LIKING

_NEGATION = re.compile(r"\b(?:not|never|don't|doesn't|didn't|dont|doesnt|no longer|hardly)\s+(?:\w+\s+)?$")
_LIKE_AFTER = frozenset("i we you they really also would i'd we'd do don't doesn't didn't to user users still just "
                        "not never".split())
_JA_NEGATION = re.compile(r"^(?:じゃな|ではな|でな|じゃありません|ではありません)")


def leanings(text: str) -> set[str]:
    """"+" when ``text`` says the user likes something, "-" when it says they dislike something (maybe both)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    found: set[str] = set()
    for match in re.finditer(r"[a-z']+", folded):
        word = match.group()
        before = folded[:match.start()].split()[-1:]
        if word == "like" and before and before[0] not in _LIKE_AFTER:
            continue  # "tastes like soap": a comparison, not a liking
        if word == "stand" and before and before[0] in ("can't", "cannot", "cant"):
            found.add("-")  # "I can't stand long meetings"
            continue
        lean = "+" if word in LIKING[0] else "-" if word in DISLIKING[0] else ""
        if lean:
            negated = bool(_NEGATION.search(folded[:match.start()]))
            found.add({"+": "-", "-": "+"}[lean] if negated and lean == "+" else lean)
    for lean, words in (("+", LIKING[1]), ("-", DISLIKING[1])):
        for word in words:
            for match in re.finditer(re.escape(word), folded):
                if lean == "+" and ("大嫌" in folded[max(0, match.start() - 1):match.end()]):
                    continue
                negated = bool(_JA_NEGATION.match(folded[match.end():]))
                found.add("-" if lean == "+" and negated else lean)
    return found


def turned(text: str, sources: Sequence[str]) -> bool:
    """Whether ``text`` leans one way and its sources lean only the other way."""
    mine = leanings(text)
    theirs = leanings("\n".join(sources))
    return len(mine) == 1 and bool(theirs) and not (mine & theirs)


_NEGATORS = frozenset("not no never don't doesn't didn't isn't aren't wasn't won't without dont doesnt stop stopped "
                      "quit avoid avoids".split())
_QUIET = frozenset("a an the it at all any more anymore".split())


_CLAUSE_END = re.compile(r"[;,.:!?()\n]|\b(?:but|and then|so)\b")


def negated(text: str, span: int = 3) -> set[str]:
    """The words (folded) ``text`` says no to: the first ``span`` words after "not", "no", "don't"… ("not green tea";
    short and quiet words not counted: "stopped going to the gym"), within its clause: "Quit coffee; drinks rooibos
    tea" says no to coffee, not to rooibos."""
    found: set[str] = set()
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    for clause in _CLAUSE_END.split(folded):
        words = re.findall(r"[a-z']+", clause)
        for i, word in enumerate(words):
            if word in _NEGATORS:
                found.update([w[:5] for w in words[i + 1:] if len(w) >= 3 and w not in _QUIET][:span])
    return found


_JA_WORD = r"([0-9\u30a1-\u30fa\u30fc\u3400-\u4dbf\u4e00-\u9fff々]+)"
_JA_NEGATED = (re.compile(_JA_WORD + r"(?:では|じゃ)な"),
               re.compile(_JA_WORD + r"(?:に|で|と)?[はをも][\u4e00-\u9fff]?[ぁ-ん]{0,3}ない"))


JA_NO_SPAN = 10  # a Japanese "no" this many characters after a word may be about it


def negated_ja(text: str) -> set[str]:
    """The Japanese words ``text`` says no to: 緑茶ではなく, コーヒーは飲まない."""
    folded = unicodedata.normalize("NFKC", text)
    return {m.group(1) for pattern in _JA_NEGATED for m in pattern.finditer(folded)}


def negation_turned(text: str, cited: Sequence[str]) -> bool:
    """Whether ``text`` says no to a word its cited lines say without a "no" ("Drinks coffee, not green tea" citing
    "I don't drink coffee, only green tea"; 「緑茶ではなくコーヒー」 citing 「コーヒーは飲まない、緑茶だけ」)."""
    said = " ".join(cited)
    theirs = negated(said)
    plain = {w[:5] for w in re.findall(r"[a-z']+", unicodedata.normalize("NFKC", said).casefold()) if len(w) >= 3}
    if (negated(text) - theirs) & plain:
        return True
    folded = unicodedata.normalize("NFKC", said)
    for word in negated_ja(text) - negated_ja(said):
        # said, and not with a "no" shortly after it (2時前に寝ることはない)
        if any(not re.search("ない|なく|ません|ず", folded[m.end():m.end() + JA_NO_SPAN])
               for m in re.finditer(re.escape(word), folded)):
            return True
    return False
