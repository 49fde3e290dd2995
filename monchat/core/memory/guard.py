"""The guard: the one place that decides whether a model's proposal is the user's own words.

A filter cites user lines by id, and ids alone prove nothing: a model can copy an assistant's
sentence, read its own instructions back, fill the schema with placeholders, or repeat the user's
line and add a claim ("…, and my password is hunter2"), all while citing a real user line. Every
rule here compares the text itself with the lines it stands on, and names what it found, so the
flush can drop the item and say why (``GuardRule``: core returns the code, the faces word it).

Texts are compared on *units* after folding case and width: Latin words by a light stem ("practised"
meets "practises", "baking" meets "baked"), other scripts by character bigrams (Japanese has no
spaces). What an item *adds* is judged on *content words*: Latin words that are neither function words
nor the small vocabulary a distillation needs ("likes", "often", "user"), numbers, kanji, katakana
words and other scripts' letters; hiragana (particles, endings) may be new. Pure functions: no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum

from .guard_lean import negation_turned, turned
from .guard_text import KANJI as _KANJI
from .guard_text import KATAKANA_RUN as _KATAKANA_RUN
from .guard_text import MIN_WORD as MIN_WORD
from .guard_text import SHORT_NAME as _SHORT_NAME
from .guard_text import WORD_STEM as WORD_STEM
from .guard_text import Word as Word
from .guard_text import fold as fold
from .guard_text import stem as stem
from .guard_text import swapped
from .guard_words import DISTILLING_EN, DISTILLING_WORDS, FUNCTION_WORDS, JA_WORDS


class GuardRule(StrEnum):
    """Why a proposal is not the user's words. Each drops the item, except that a proposal breaking only a words
    rule (``WORDS_RULES``) that the user may well have meant waits for review instead (``guard_unsure.py``)."""

    NO_STATEMENT = "no_statement"
    BAD_SLOT = "bad_slot"
    ASSISTANTS_WORDS = "assistants_words"
    ECHOES_INSTRUCTIONS = "echoes_instructions"
    LOOPS = "loops"
    NOT_THEIR_WORDS = "not_their_words"
    ADDS_WORDS = "adds_words"

    @property
    def description(self) -> str:
        """One line in English (the CLI and the log); the GUI words the code itself, in its language."""
        return DESCRIPTIONS[self]


DESCRIPTIONS = {
    GuardRule.NO_STATEMENT: "says nothing: a number, a list marker, punctuation or one repeated syllable",
    GuardRule.BAD_SLOT: "its slot is not subject/attribute made of words (a placeholder or a schema field)",
    GuardRule.ASSISTANTS_WORDS: "the assistant's words, not the user's",
    GuardRule.ECHOES_INSTRUCTIONS: "repeats the filter's own instructions, not the user's words",
    GuardRule.LOOPS: "says one sentence over and over: a model stuck in a loop",
    GuardRule.NOT_THEIR_WORDS: "shares nothing with the user's lines it cites",
    GuardRule.ADDS_WORDS: "says something the user's lines it cites do not",
}

# Shares, 0 to 1, of an item's meaningful units.
COPIED_SHARE = 0.6  # this close to one assistant line …
COPIED_LEAD = 0.2  # … and this much closer to it than to the cited user lines: the assistant's words
ECHO_SHARE = 0.5  # this much of it in the instructions …
ECHO_LEAD = 0.2  # … and this much more than in its evidence: the model reading itself
MIN_MEANING = 3  # a statement has at least this many meaningful characters (a CJK character counts 2)
MAX_RUN_LETTERS = 2  # text made of this few distinct letters is one repeated syllable ("バルバババ", "hahaha")

NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
KANJI_NUMERALS = {c: n for n, c in enumerate("〇一二三四五六七八九十")}
# Words of the filter's schema and prompt that are never a slot's part.
SCHEMA_WORDS = frozenset({"id", "ids", "evidence", "reason", "text", "slot", "kind", "score", "items", "item",
                          "string", "subject", "attribute", "example", "placeholder", "null", "none",
                          "undefined", "key", "value", "field", "json"})
# Generic words that, with a number, are a numbered placeholder ("role_1", "item2", "skill_id_1").
PLACEHOLDER_WORDS = SCHEMA_WORDS | {"role", "skill", "user", "line", "category", "topic", "thing", "name",
                                    "entry", "memory", "fact", "note", "tag", "type", "slot", "attr", "foo", "bar"}

_TOKEN = re.compile(r"[a-z]+|[0-9]+|[^\W\da-z_]+")
_WORD = re.compile(r"[a-z0-9]+|[^\W\da-z_]+")
_SLOT_PART = re.compile(r"[a-z0-9][a-z0-9_.+\-]*")  # as lint's SLOT_SHAPE: "tech/c++", "tech/node.js"
MAX_SLOT_PARTS = 4


def units(text: str) -> set[str]:
    """What texts are compared by: Latin-script words (stemmed), numbers, and bigrams of other scripts.

    Japanese has no spaces, so its runs of letters give character bigrams ("東京で" → 東京, 京で);
    English gives words, since its letter bigrams ("th", "in") are in every sentence.
    """
    found: set[str] = set()
    for run in _TOKEN.findall(fold(text)):
        if run.isdigit():
            found.add(run)
        elif run[0].isascii():
            if len(run) >= MIN_WORD:
                found.add(stem(run))
        elif len(run) == 1:
            found.add(run)
        else:
            found.update(run[i:i + 2] for i in range(len(run) - 1))
    return found


# Category nouns (guard_words.CATEGORY_EN) stay meaningful here: "the tools they use" read back is an echo.
_QUIET = frozenset(stem(w) for w in FUNCTION_WORDS | DISTILLING_EN if len(w) >= MIN_WORD)


def meaningful_units(text: str) -> set[str]:
    """``units`` without function words and distilling words: what an overlap is measured on."""
    return units(text) - _QUIET


def share(text: str, source: str) -> float:
    """How much of ``text``'s units appear in ``source`` (0 to 1)."""
    mine = units(text)
    if not mine:
        return 0.0
    return len(mine & units(source)) / len(mine)


def meaningful_share(text: str, sources: list[str] | str) -> float:
    """How much of ``text``'s meaningful units appear in the sources taken together (0 to 1)."""
    mine = meaningful_units(text)
    if not mine:
        return 0.0
    joined = sources if isinstance(sources, str) else "\n".join(sources)
    return len(mine & meaningful_units(joined)) / len(mine)


# ---- content words ------------------------------------------------------------------------------
def content_words(text: str) -> list[Word]:
    """The words of ``text`` that carry content: names, numbers, claims (in order, without repeats)."""
    folded = fold(text)
    for word in JA_WORDS:
        folded = folded.replace(word, " ")
    words: list[Word] = []
    names = {w.casefold() for w in _SHORT_NAME.findall(unicodedata.normalize("NFKC", text))} - FUNCTION_WORDS
    for token in _WORD.findall(folded):
        if token in names:  # a short name, capitalised: "Go", "VS"
            words.append(Word(token, token))
            continue
        if not token.isdigit() and not token.isalpha() and token.isascii():
            words.append(Word(token, "x:" + token))  # letters and digits together: "hunter2", "ff7", "3pm"
        elif token.isdigit():
            words.append(Word(token, f"#{int(token)}"))
        elif token.isascii():
            if token in NUMBER_WORDS:
                words.append(Word(token, f"#{NUMBER_WORDS[token]}"))
            elif len(token) >= MIN_WORD and token not in FUNCTION_WORDS and token not in DISTILLING_WORDS:
                words.append(Word(token, stem(token)))
        else:
            words.extend(_cjk_words(token))
    return list({w.key: w for w in words}.values())


def _cjk_words(run: str) -> list[Word]:
    """Kanji one by one (a kanji numeral as its number), katakana words whole, other letters as bigrams."""
    words = [Word(m.group(), "k:" + m.group()) for m in _KATAKANA_RUN.finditer(run)]
    rest = _KATAKANA_RUN.sub(" ", run)
    for char in rest:
        if char in KANJI_NUMERALS:
            words.append(Word(char, f"#{KANJI_NUMERALS[char]}"))
        elif _KANJI.match(char):
            words.append(Word(char, char))
    other = re.sub(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆\uff66-\uff9f\s]", " ", rest)
    for piece in other.split():
        if len(piece) == 1:
            words.append(Word(piece, piece))
        else:
            words.extend(Word(piece, piece[i:i + 2]) for i in range(len(piece) - 1))
    return words


def _source_keys(sources: list[str]) -> set[str]:
    """The keys of every word the sources hold (function and distilling words may be a user's content)."""
    keys: set[str] = set()
    for source in sources:
        keys.update(word.key for word in content_words(source))
        for token in _TOKEN.findall(fold(source)):
            if token.isascii() and not token.isdigit():
                keys.add(stem(token))
    return keys


def _katakana_found(word: str, folded: str, runs: set[str]) -> bool:
    """A katakana word is in the sources as written, or made of katakana words they hold
    ("ブラックコーヒー" from "コーヒーはブラック")."""
    if word in folded:
        return True
    reachable = [True] + [False] * len(word)
    for end in range(1, len(word) + 1):
        reachable[end] = any(reachable[start] and word[start:end] in runs for start in range(end))
    return reachable[-1]


def adds_words(text: str, sources: list[str]) -> list[str]:
    """The content words of ``text`` found in none of ``sources`` (as ``text`` writes them)."""
    keys = _source_keys(sources)
    folded = fold("\n".join(sources))
    runs = set(_KATAKANA_RUN.findall(folded))
    return [word.shown for word in content_words(text)
            if word.key not in keys and not (word.key.startswith("k:") and _katakana_found(word.key[2:], folded, runs))]


# ---- statements and slots ----------------------------------------------------------------------
def meaningful_characters(text: str) -> str:
    """The letters and digits of ``text``, folded; no spaces, punctuation or marks."""
    return "".join(c for c in fold(text) if c.isalnum())


def is_statement(text: str) -> bool:
    """Whether ``text`` says something: letters beyond a list marker, not one repeated syllable,
    at least ``MIN_MEANING`` meaningful characters (a CJK character counts twice)."""
    chars = meaningful_characters(text)
    letters = "".join(c for c in chars if not c.isdigit())
    if not letters:
        return False  # "1.", "2)", "…", "42"
    weight = sum(1 if c.isascii() else 2 for c in chars)
    if weight < MIN_MEANING:
        return False
    if len(letters) >= 3 and len(set(letters)) <= MAX_RUN_LETTERS:
        return False  # "バルバババ", "hahaha", "ーーー"
    if re.fullmatch(r"(.{1,4}?)\1{3,}.{0,4}", letters):
        return False  # a syllable said four times over ("ラバラバラバラバ")
    return True


LOOP_TIMES = 3  # a sentence said this often in one text is a model's loop, not a telling
LOOP_MIN_CHARS = 8  # lighter pieces ("yes", "ok") may well be said three times (a CJK character weighs 2)


def loops(text: str) -> bool:
    """Whether ``text`` says one sentence (or comma-separated piece) ``LOOP_TIMES`` times or more: a small model's
    loop ("I'm a bit of a rebel. I'm a bit of a rebel. …"), which no guard on its words would catch when the
    first sentence is the user's."""
    pieces = [meaningful_characters(p) for p in re.split(r"[.!?。！？,、;\n]+", text)]
    counts: dict[str, int] = {}
    for piece in pieces:
        if sum(1 if c.isascii() else 2 for c in piece) >= LOOP_MIN_CHARS:
            counts[piece] = counts.get(piece, 0) + 1
            if counts[piece] >= LOOP_TIMES:
                return True
    return False


def bad_slot(slot: str) -> bool:
    """Whether ``slot`` is not ``subject/attribute`` made of words: no "/", an empty part, a part
    without letters, a schema or prompt word, or a numbered placeholder ("role_id_1", "item2")."""
    folded = fold(slot).strip()
    parts = [p for p in re.sub(r"\s+", "_", folded).split("/")]
    if not 2 <= len(parts) <= MAX_SLOT_PARTS or folded in ("subject/attribute", "<category>/<what>", "skill/<name>"):
        return True
    for part in parts:
        if not _SLOT_PART.fullmatch(part) or not re.search(r"[a-z]", part):
            return True
        words = [w for w in re.split(r"[_\-]+", part) if w]
        names = [re.sub(r"\d+$", "", w) for w in words]
        if part in SCHEMA_WORDS or "id" in names or "_".join(words) == "id_of_a_user_line":
            return True
        numbered = any(re.search(r"\d$", w) for w in words)
        if numbered and all(not n or n in PLACEHOLDER_WORDS for n in names):
            return True
    return False


# ---- one item -----------------------------------------------------------------------------------
def copies_assistant(text: str, cited: list[str], assistant_lines: Sequence[str]) -> bool:
    """Whether ``text`` is an assistant line's words: close to one, clearly closer than to the cited lines."""
    from_user = share(text, "\n".join(cited))
    from_assistant = max((share(text, line) for line in assistant_lines), default=0.0)
    return from_assistant >= COPIED_SHARE and from_assistant >= from_user + COPIED_LEAD


def echoes(text: str, instruction_texts: list[str], evidence_texts: list[str]) -> bool:
    """Whether ``text`` is closer to the request's instructions than to its evidence: the model reading itself."""
    if not instruction_texts:
        return False
    mine = meaningful_units(text)
    if not mine:
        return False
    instructions = meaningful_units("\n".join(instruction_texts))
    from_instructions = len(mine & instructions) / len(mine)
    return from_instructions >= ECHO_SHARE and from_instructions >= meaningful_share(text, evidence_texts) + ECHO_LEAD


def shares_nothing(text: str, cited: list[str], memories: Sequence[str] = ()) -> bool:
    """Whether ``text`` has nothing meaningful in common with the lines it cites: no unit beyond function
    words, and no content word ("娘がいる" shares 娘 with "娘と公園に行った", though no bigram).

    ``memories`` are the kept memories ``text`` restates (``restated``): then the cited line need only touch the
    memory's words or the item's (``touches``): "runs 30 minutes every morning", kept, proposed again citing
    "went for my morning jog, still keeping it up" is a reinforcement, not a stranger."""
    if memories:
        return not touches("\n".join([text, *memories]), cited)
    mine = meaningful_units(text) or units(text)
    if mine & units("\n".join(cited)):
        return False
    words = content_words(text)
    return not words or len(adds_words(text, cited)) == len(words)


RESTATES_SHARE = 0.5  # this much of an item's content words in one kept memory: the item restates it


def restated(text: str, known: Sequence[str]) -> list[str]:
    """The kept memories ``text`` restates: those holding at least ``RESTATES_SHARE`` of its content words (the
    user's earlier words, already guarded, which the item may repeat in the memory's wording)."""
    words = content_words(text)
    if not words:
        return []
    probes = [w.key.removeprefix("k:") for w in words if not w.key.startswith(("#", "x:"))]
    found = []
    for memory in known:
        if probes and not any(probe in fold(memory) for probe in probes):
            continue  # no word of the item in it (cheap: a flush may know thousands of memories)
        shared = len(words) - len(adds_words(text, [memory]))
        if shared and shared >= RESTATES_SHARE * len(words):
            found.append(memory)
    return found


def _touch_keys(text: str) -> set[str]:
    """Latin words (stemmed, function words left out, distilling words kept: "morning"), numbers, kanji one by
    one and katakana words: what a line and a memory may have in common at the least."""
    folded = fold(text)
    keys = {stem(t) for t in re.findall(r"[a-z]+", folded) if len(t) >= MIN_WORD and t not in FUNCTION_WORDS}
    keys.update(str(int(n)) for n in re.findall(r"[0-9]+", folded))
    keys.update(_KANJI.findall(folded))
    keys.update(_KATAKANA_RUN.findall(folded))
    return keys


def touches(text: str, sources: Sequence[str]) -> bool:
    """Whether ``text`` and ``sources`` have a word in common, be it only a time word or one kanji (朝)."""
    return bool(_touch_keys(text) & _touch_keys("\n".join(sources)))


def check_item(text: str, slot: str | None, cited: list[str], assistant_lines: Sequence[str] = (),
               instruction_texts: Sequence[str] = (), known_texts: Sequence[str] = (),
               kept_texts: Sequence[str] = ()) -> GuardRule | None:
    """The first rule an item breaks, or None when it is the user's words.

    Args:
        text: the item's text. slot: its slot (None: not checked, for texts without one).
        cited: the user lines it cites. assistant_lines: the assistant lines shown beside them.
        instruction_texts: what the request told the model (system text, the persona's part, schema words).
        known_texts: the user's kept and recent memories (their earlier words, already guarded). An item that
            restates one (``restated``) is judged against that memory's words and its cited lines together: a
            correction or retraction keeps its subject ("違うよ、飲まないって言ったよね" → "コーヒーは飲まない" when
            "朝はコーヒーを飲む" is kept), a reinforcement may keep the memory's wording.
        kept_texts: the user's other kept memories (out of the prompt): only one the item restates lends its words.
    """
    if not is_statement(text):
        return GuardRule.NO_STATEMENT
    if slot is not None and bad_slot(slot):
        return GuardRule.BAD_SLOT
    if loops(text):
        return GuardRule.LOOPS
    if copies_assistant(text, cited, list(assistant_lines)):
        return GuardRule.ASSISTANTS_WORDS
    if echoes(text, list(instruction_texts), cited):
        return GuardRule.ECHOES_INSTRUCTIONS
    memories = restated(text, [*known_texts, *kept_texts])
    if shares_nothing(text, cited, memories):
        return GuardRule.NOT_THEIR_WORDS
    if memories and swapped(text, cited, [w for w in content_words(text) if w.shown in adds_words(text, cited)]):
        return GuardRule.NOT_THEIR_WORDS  # a kept memory's words for what the line says otherwise (猫 / 犬を…)
    if adds_words(text, [*cited, *known_texts, *memories]) or turned(text, [*cited, *memories]) or negation_turned(text, cited):
        return GuardRule.ADDS_WORDS
    return None
