"""Near text: the words two proposals must share to say the same thing in slightly different words (``alike.py``).

Measured (issue 45): 「看護師として働いている」 and 「看護師の仕事をしている」, "works as a nurse" and "is a nurse",
stayed two review rows and two memories. What they differ in is a *frame*: the words a sentence about an occupation
is built with (works as, job is, として働いている, の仕事をしている, 〜をしている, です), articles and the copula. ``near_words``
drops those and nothing else, so the words left must agree one for one, in order:

* every other word counts, as written — a number (in figures: 二 and two are 2), a negation (not, never, no longer,
  ない, ません), a time or tense (on Mondays, was, worked, 去年, 働いていた), a name (Alexander is not Alexandra);
* a Latin word is compared by its case and its plural only (cats is cat): the guard's five-letter stem
  (``guard_text.stem``) would make Alexander and Alexandra, worked and works one word, so it is not used here;
* a Japanese run (what lies between spaces, figures and Latin words, after its frame is gone) must be the same run:
  「看護師として働いていない」 keeps its ない, 「看護師として働いていた」 its た.

So folding only ever removes a frame word; a difference anywhere else keeps two rows. No embeddings, no model call.
"""

from __future__ import annotations

import re

from .guard_text import fold

# The frames of a sentence about what the user does for a living, present tense only ("worked as" is a time).
FRAMES_EN = re.compile(r"\b(?:works?|working|is employed|employed) as\b|\b(?:job|occupation|profession) is\b"
                       r"|\bby (?:profession|trade)\b")
FRAMES_JA = re.compile(r"として(?:働いています|働いている|働く|勤務しています|勤務している|勤めている)"
                       r"|の仕事を(?:しています|している|する)|を(?:仕事|職業)にしている|の仕事です|の仕事"
                       r"|が(?:仕事|職業)です|を(?:しています|している)$|です$|である$|だ$")
# Words that add nothing a row could differ in: articles, the copula, the subject (the user, as ``alike`` drops it).
EMPTY_EN = frozenset({"a", "an", "the", "is", "am", "are", "user", "users"})
_RUN = re.compile(r"[a-z0-9']+|[^\W\da-z_]+")
_END = re.compile(r"[\s。、．，.,!！?？]+$")


def latin_key(word: str) -> str:
    """A Latin word as near text compares it: its singular ("cats" → "cat", "studies" → "study"), nothing more."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def near_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` once its frame is gone (``text`` as ``alike.wording_key`` prepares it: folded, the
    subject dropped, numbers in figures), each as it is compared; empty when nothing is left."""
    folded = _END.sub("", fold(text))
    folded = FRAMES_JA.sub(" ", FRAMES_EN.sub(" ", folded))
    words = []
    for run in _RUN.findall(folded):
        run = run.strip("'")
        if not run or run in EMPTY_EN:
            continue
        words.append(latin_key(run) if run.isascii() else run)
    return tuple(words)
