"""What a never-remember rule covers: the one matcher every door asks.

The flush (``flush/answer.py``: a proposal and the lines it cites), the memories already kept
(``NeverRules.matching``, ``monchat memory never matches``), the diary (``background/diary.py``: the day's lines
it is shown) and the MCP server (``transfer/mcp_server.py``: everything another app reads or proposes) all call
``matches_never(text, slot, rules)``; nothing else decides what a rule covers.

Text, slot and rule are folded alike first: NFKC (full-width "ＡＣ／ＤＣ", "ｐａｓｓｗｏｒｄ" and half-width kana
become the ordinary forms), case-folded, a typographic apostrophe as ``'``, runs of white space as one. Then:

- **Slot families.** A rule with a ``/`` covers that slot and every slot under it (``food/`` → ``food/daily``);
  a rule without one covers the slot family of its name too (``health`` → ``health/sleep``).
- **Literal slashes.** A rule whose ``/`` stands between two letters or digits ("AC/DC", "9/11") is also text:
  it covers those words in a line, as any other rule would. A ``/`` at its end (``food/``) is a family only.
- **Words (Latin script).** The text is cut into words: runs of letters (an inner apostrophe kept) and runs of
  digits, so letters glued to digits part ("password123" → password, 123). A rule's words must appear in
  order, next to each other (only spaces, ``-``, ``_`` or ``/`` between them). One word covers another when
  they are the same word in another inflection: their Snowball (Porter2) stems are equal **and** what each adds
  after the part they share is an inflectional ending (-s, -es, -'s, -ed, -d, -ing, -ies, -ied, a final -e or
  -y, a doubled consonant before -ed/-ing). The stem alone would join "import" and "important", "present" and
  "presentation"; the ending check keeps a rule from covering another word that merely shares a root, so "cat"
  never covers "category", "health" not "healthy", "password" not "passwordless", "art" not "started".
- **Japanese (and other CJK) rules** cover their text as a substring (Japanese writes compounds without
  spaces: 健康 covers 健康診断), and also by dictionary forms: the rule and the text are cut into morphemes and
  a rule's dictionary forms, in order, must appear in the text's. A rule's trailing particles, auxiliaries,
  non-independent verbs and a する after a verbal noun are dropped first, so 別れる covers 別れた, 別れません
  and 別れている, 別れた covers 別れる, and 離婚した covers 離婚しました and 離婚.

Why these analysers (both pure Python, both imported only when a rule of their kind is matched, so a start,
``status`` or a flush without rules never loads them; ``tests/test_fast_start.py``):
- ``snowballstemmer``: the reference Snowball algorithms, generated code, no C compiler; English Porter2.
- ``janome`` over SudachiPy: its IPADIC dictionary ships inside the wheel (no second package to install or keep
  in step, nothing fetched at run time) and it is pure Python, so every machine that runs monchat has it. It is
  slower than Sudachi's Rust core, but it only ever reads a line when a Japanese rule exists, the line holds
  CJK text and the plain substring did not already match; its dictionary loads in about 0.2 s, once.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Iterable

_CJK_RANGES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af"  # kana, kanji, hangul
_CJK = re.compile(f"[{_CJK_RANGES}]")
_LETTERS = rf"[^\W\d_{_CJK_RANGES}]+"  # letters of any alphabet, never digits, ``_`` or CJK
_WORD = re.compile(rf"{_LETTERS}(?:'{_LETTERS})*|\d+")  # letters and digits part: "password123" → 2 words
_GAP = re.compile(r"[\s\-_/']*")  # what may stand between two words of one rule ("my ex", "my-ex", "ac/dc")
_LITERAL_SLASH = re.compile(r"[^\W_]\s*/\s*[^\W_]")  # "ac/dc", "9/11": the rule is text too, not only a family
_SLOT_SEPARATORS = re.compile(r"[/_\-]+")
_SIGNS = re.compile(r"[^\s\-_/']")  # what a rule holds besides words and separators: then it is matched as written
_ENDINGS = frozenset({"", "s", "es", "'s", "'", "ed", "d", "ing", "ies", "ied", "e", "y"})
_PLURAL = frozenset({"s", "es", "'s", "'"})
_DOUBLED = frozenset({"ed", "ing"})  # "stopped", "running": the last consonant doubled before the ending
_JA_TRAILING = ("助詞", "助動詞", "記号")  # a rule's trailing parts of speech that carry no topic


def fold(text: str) -> str:
    """Text as rules compare it: NFKC, case-folded, ``’`` as ``'``, runs of white space as one space."""
    folded = unicodedata.normalize("NFKC", text or "").casefold().replace("\u2019", "'")
    return " ".join(folded.split())


def matches_never(text: str, slot: str = "", rules: Iterable[str] = ()) -> str | None:
    """The first of ``rules`` (as written) that ``text`` or ``slot`` falls under, or None.

    No rules, no work: nothing is folded, cut or loaded."""
    seen: _Seen | None = None
    for rule in rules:
        compiled = _compile(rule)
        if compiled is None:
            continue
        seen = seen or _Seen(text, slot)
        if compiled.covers(seen):
            return rule
    return None


class _Seen:
    """One text and slot, folded once and cut into words or morphemes only when a rule asks."""

    def __init__(self, text: str, slot: str) -> None:
        self.text = fold(text)
        self.slot = fold(slot).replace(" ", "")

    @cached_property
    def words(self) -> list[tuple[str, int, int]]:
        return _words(self.text)

    @cached_property
    def slot_text(self) -> str:
        return _SLOT_SEPARATORS.sub(" ", self.slot)  # "health/sleep_quality" → "health sleep quality"

    @cached_property
    def slot_words(self) -> list[tuple[str, int, int]]:
        return _words(self.slot_text)

    @cached_property
    def lemmas(self) -> list[str]:
        return [base for base, _pos in _morphemes(self.text)] if _CJK.search(self.text) else []


@dataclass(frozen=True)
class _Rule:
    family: str  # the slot family it covers ("" for none)
    words: tuple[str, ...]  # its Latin words, in order (empty for a CJK rule or a family only)
    cjk: str  # the folded rule when it is written in Japanese (or another CJK script)
    literal: re.Pattern | None = None  # a rule with signs words do not hold ("c++", "$$"): as written

    def covers(self, seen: _Seen) -> bool:
        if self.family and (seen.slot == self.family or seen.slot.startswith(self.family + "/")):
            return True
        if self.cjk:
            if self.cjk in seen.text or self.cjk in seen.slot:
                return True
            return bool(seen.lemmas) and _contains(seen.lemmas, _rule_lemmas(self.cjk))
        if self.literal is not None:
            return bool(self.literal.search(seen.text))
        if self.words:
            return _in_words(self.words, seen.words, seen.text) or \
                _in_words(self.words, seen.slot_words, seen.slot_text)
        return False


@lru_cache(maxsize=512)
def _compile(rule: str) -> _Rule | None:
    folded = fold(rule)
    if not folded.strip("/ "):
        return None
    if "/" in folded:
        family = folded.replace(" ", "").strip("/")
        literal = bool(_LITERAL_SLASH.search(folded))
    else:
        family, literal = folded, True
    if not literal:
        return _Rule(family, (), "")
    if _CJK.search(folded):
        return _Rule(family, (), folded)
    if _SIGNS.search(_WORD.sub("", folded)) or not _WORD.search(folded):
        edge = r"[^\W_]"
        return _Rule(family, (), "", re.compile(rf"(?<!{edge}){re.escape(folded)}(?!{edge})"))
    return _Rule(family, tuple(word for word, _, _ in _words(folded)), "")


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _in_words(rule: tuple[str, ...], words: list[tuple[str, int, int]], text: str) -> bool:
    """Whether the rule's words stand in ``words`` in order, one after another (only separators between)."""
    n = len(rule)
    for start in range(len(words) - n + 1):
        run = words[start:start + n]
        if all(same_word(word, want) for (word, _, _), want in zip(run, rule)) and \
                all(_GAP.fullmatch(text[a[2]:b[1]]) for a, b in zip(run, run[1:])):
            return True
    return False


def same_word(word: str, rule: str) -> bool:
    """Whether ``word`` is ``rule`` in another inflection (both folded): "passwords"/"password",
    "divorced"/"divorce", "salaries"/"salary" — never "category"/"cat" or "important"/"import"."""
    if word == rule:
        return True
    if word.isdigit() or rule.isdigit():
        return False
    shared = 0
    for a, b in zip(word, rule):
        if a != b:
            break
        shared += 1
    tails = word[shared:], rule[shared:]
    if shared == 0 or not all(_inflection(tail, word[:shared]) for tail in tails):
        return False
    if _stem(word) == _stem(rule):
        return True
    return (tails[1] == "" and tails[0] in _PLURAL) or (tails[0] == "" and tails[1] in _PLURAL)


def _inflection(tail: str, shared: str) -> bool:
    if tail in _ENDINGS:
        return True
    return len(tail) > 2 and tail[0] == shared[-1] and tail[1:] in _DOUBLED and tail[0] not in "aeiouy"


def _stem(word: str) -> str:
    return _english().stemWord(word)


@lru_cache(maxsize=1)
def _english():
    """The Snowball English (Porter2) stemmer, imported at the first rule matched in Latin script."""
    import snowballstemmer
    return snowballstemmer.stemmer("english")


# ---- Japanese ------------------------------------------------------------------------------------------------
# The analyser is built once per process and shared by every caller (a flush's stages run on several threads):
# a cache of a read-only dictionary, not state, so it lives here rather than being passed down five doors.
_ANALYSER_LOCK = threading.Lock()
_ANALYSER: list = []


def _analyser():
    """janome's tokenizer, built (dictionary and all) at the first Japanese rule matched against Japanese text."""
    with _ANALYSER_LOCK:
        if not _ANALYSER:
            from janome.tokenizer import Tokenizer
            _ANALYSER.append(Tokenizer())
        return _ANALYSER[0]


def _morphemes(text: str) -> tuple[tuple[str, str], ...]:
    """``(dictionary form, part of speech)`` per morpheme of folded ``text`` (not cached: a user's line is not
    kept in memory past the check; only rules are, ``_rule_lemmas``)."""
    out = []
    for token in _analyser().tokenize(text):
        base = token.base_form if token.base_form not in ("", "*") else token.surface
        out.append((fold(base), token.part_of_speech))
    return tuple(out)


@lru_cache(maxsize=512)
def _rule_lemmas(rule: str) -> tuple[str, ...]:
    """A Japanese rule's dictionary forms, without what follows its topic (別れた → 別れる, 離婚した → 離婚)."""
    parts = list(_morphemes(rule))
    while len(parts) > 1 and _trailing(parts[-1], parts[-2]):
        parts.pop()
    return tuple(base for base, _pos in parts)


def _trailing(last: tuple[str, str], before: tuple[str, str]) -> bool:
    base, pos = last
    kinds = pos.split(",")
    return kinds[0] in _JA_TRAILING or (kinds[0] == "動詞" and kinds[1] == "非自立") or \
        (base == "する" and before[1].startswith("名詞,サ変接続"))


def _contains(seq: list[str], part: tuple[str, ...]) -> bool:
    n = len(part)
    return n > 0 and any(tuple(seq[i:i + n]) == part for i in range(len(seq) - n + 1))
