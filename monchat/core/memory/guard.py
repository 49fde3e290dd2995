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
from dataclasses import dataclass
from enum import StrEnum


class GuardRule(StrEnum):
    """Why a proposal is not the user's words; each drops the item (never queues it)."""

    NO_STATEMENT = "no_statement"
    BAD_SLOT = "bad_slot"
    ASSISTANTS_WORDS = "assistants_words"
    ECHOES_INSTRUCTIONS = "echoes_instructions"
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
    GuardRule.NOT_THEIR_WORDS: "shares nothing with the user's lines it cites",
    GuardRule.ADDS_WORDS: "says something the user's lines it cites do not",
}

# Shares, 0 to 1, of an item's meaningful units.
COPIED_SHARE = 0.6  # this close to one assistant line …
COPIED_LEAD = 0.2  # … and this much closer to it than to the cited user lines: the assistant's words
ECHO_SHARE = 0.5  # this much of it in the instructions …
ECHO_LEAD = 0.2  # … and this much more than in its evidence: the model reading itself
WORD_STEM = 5  # Latin words compare by their first letters after a light stem
MIN_WORD = 3  # shorter Latin words ("a", "of", "UI") say too little
MIN_MEANING = 3  # a statement has at least this many meaningful characters (a CJK character counts 2)
MAX_RUN_LETTERS = 2  # text made of this few distinct letters is one repeated syllable ("バルバババ", "hahaha")

# Words any sentence needs; never content.
FUNCTION_WORDS = frozenset("""
a an the and or but nor so yet if then than that this these those there here what which who whom whose
when where why how all any both each few more most other some such no not only own same too very
can could will would shall should may might must do does did done doing be is am are was were been being
have has had having i me my mine myself we us our ours you your yours he him his she her hers it its
they them their theirs one ones of in on at by for with about against between into through during before
after above below to from up down out off over under again further once just also as per via
get got gets getting make makes made lot lots thing things something anything everything way ways
really quite rather much many still even ever now new own bit kind sort
""".split())
# What a distillation may add to the user's words: who it is about, how often, how sure.
DISTILLING_WORDS = frozenset("""
user users person someone likes like liked liking loves love loved enjoys enjoy enjoyed fond favourite favorite
prefers prefer preferred preference preferences often usually sometimes always never regularly recently
currently lately mostly generally seems seem seemed apparently probably maybe tends tend tended
talks talk talked talking mentions mention mentioned says say said tells told wants want wanted
wishes hopes plans plan planning planned interested interest interests habit habits feels feel felt
thinks think thought considers keen asks ask asked asking forgot forgotten remember remembers
drinks drink drank eats eat ate lives live lived works work worked plays play played practises practise
practised practices practice practiced uses use used goes go went does started starts start begins began
studies study studied learns learn learned learning every daily each especially answer answers reply replies
response responses today tonight morning mornings afternoon afternoons evening evenings night nights weekend
weekends weekday weekdays day days week weeks monday tuesday wednesday thursday friday saturday sunday
""".split())
# (Times of day and days of the week come with each line the filter reads: its "when".)
# Japanese distilling words, removed before content is compared (hiragana never counts anyway): who,
# how often, how sure, the everyday verbs a distillation words a habit with ("緑茶を飲む" from "今日も緑茶"),
# and times and days (each line the filter reads comes with its "when").
DISTILLING_JA = ("ユーザー", "ユーザ", "大好き", "好き", "好み", "最近", "時々", "話題", "傾向", "習慣",
                 "気に入", "興味", "話", "日課", "言って", "言った", "様子", "特に", "毎日", "毎食",
                 "毎", "飲", "食べ", "住", "働", "弾", "飼", "練習", "始め", "始まっ", "勉強", "答え", "返事", "聞い", "尋ね",
                 "忘れ", "今日", "今朝", "今夜", "今晩", "朝", "昼", "夕方", "夜", "晩", "週末", "平日",
                 "月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")
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
_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆]")
_KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc\u30fd\u30fe\uff66-\uff9f]{2,}")
_SLOT_PART = re.compile(r"[a-z0-9][a-z0-9_.+\-]*")  # as lint's SLOT_SHAPE: "tech/c++", "tech/node.js"
MAX_SLOT_PARTS = 4


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


_QUIET = frozenset(stem(w) for w in FUNCTION_WORDS | DISTILLING_WORDS if len(w) >= MIN_WORD)


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
@dataclass(frozen=True)
class Word:
    shown: str  # as the text writes it
    key: str  # what it is compared by


def content_words(text: str) -> list[Word]:
    """The words of ``text`` that carry content: names, numbers, claims (in order, without repeats)."""
    folded = fold(text)
    for word in DISTILLING_JA:
        folded = folded.replace(word, " ")
    words: list[Word] = []
    for token in _WORD.findall(folded):
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
LOOP_MIN_CHARS = 8  # shorter pieces ("yes", "ok") may well be said three times


def loops(text: str) -> bool:
    """Whether ``text`` says one sentence (or comma-separated piece) ``LOOP_TIMES`` times or more: a small model's
    loop ("I'm a bit of a rebel. I'm a bit of a rebel. …"), which no guard on its words would catch when the
    first sentence is the user's."""
    pieces = [meaningful_characters(p) for p in re.split(r"[.!?。！？,、;\n]+", text)]
    counts: dict[str, int] = {}
    for piece in pieces:
        if len(piece) >= LOOP_MIN_CHARS:
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


def shares_nothing(text: str, cited: list[str]) -> bool:
    """Whether ``text`` has nothing meaningful in common with the lines it cites: no unit beyond function
    words, and no content word ("娘がいる" shares 娘 with "娘と公園に行った", though no bigram)."""
    mine = meaningful_units(text) or units(text)
    if mine & units("\n".join(cited)):
        return False
    words = content_words(text)
    return not words or len(adds_words(text, cited)) == len(words)


def check_item(text: str, slot: str | None, cited: list[str], assistant_lines: Sequence[str] = (),
               instruction_texts: Sequence[str] = (), known_texts: Sequence[str] = ()) -> GuardRule | None:
    """The first rule an item breaks, or None when it is the user's words.

    Args:
        text: the item's text. slot: its slot (None: not checked, for texts without one).
        cited: the user lines it cites. assistant_lines: the assistant lines shown beside them.
        instruction_texts: what the request told the model (system text, the persona's part, schema words).
        known_texts: the user's kept memories (their earlier words, already guarded): a word the item
            adds may come from them, so a correction or retraction keeps its subject ("違うよ、飲まないって
            言ったよね" → "コーヒーは飲まない" when "コーヒー" is remembered).
    """
    if not is_statement(text):
        return GuardRule.NO_STATEMENT
    if slot is not None and bad_slot(slot):
        return GuardRule.BAD_SLOT
    if copies_assistant(text, cited, list(assistant_lines)):
        return GuardRule.ASSISTANTS_WORDS
    if echoes(text, list(instruction_texts), cited):
        return GuardRule.ECHOES_INSTRUCTIONS
    if shares_nothing(text, cited):
        return GuardRule.NOT_THEIR_WORDS
    if adds_words(text, [*cited, *known_texts]):
        return GuardRule.ADDS_WORDS
    return None
