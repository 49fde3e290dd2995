"""SillyTavern character cards (V1, V2, V3) → surface personas.

A card comes as plain JSON or as a PNG whose ``tEXt`` chunk ``ccv3`` (V3,
preferred) or ``chara`` (V2/V1) holds base64-encoded UTF-8 JSON. The card's
fields map onto a surface persona as in ``reference/chat-apps.md`` §2:

- ``system_prompt`` (if any), ``description``, ``personality``, ``scenario`` and
  the card book's ``constant`` entries become the persona's system text;
- ``first_mes`` the greeting, ``mes_example`` the example dialogue,
  ``post_history_instructions`` and ``creator_notes`` carry over as they are;
- ``extensions`` is kept untouched, so it survives a later export.

``{{char}}`` and ``{{user}}`` are expanded here, once, because core renders
persona text as data and never as a template. Card text is data: nothing in
it is ever rendered by jinja. Pure Python; no Qt.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import struct
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..paths import write_private
from .library import ID_PATTERN, SurfacePersona

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CARD_CHUNKS = ("ccv3", "chara")  # preference order
MAX_CARD_BYTES = 50_000_000
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_PLACEHOLDERS = re.compile(r"\{\{\s*(char|user)\s*\}\}|<(BOT|USER)>", re.IGNORECASE)


@dataclass
class Card:
    """The fields of a card that monchat uses, plus what it keeps untouched."""

    spec: str  # chara_card_v3 | chara_card_v2 | v1
    name: str
    nickname: str = ""
    description: str = ""
    personality: str = ""
    scenario: str = ""
    first_mes: str = ""
    mes_example: str = ""
    system_prompt: str = ""
    post_history_instructions: str = ""
    creator_notes: str = ""
    alternate_greetings: list[str] = field(default_factory=list)
    constant_lore: list[str] = field(default_factory=list)
    extensions: dict = field(default_factory=dict)


# ---- containers -------------------------------------------------------------
def png_text_chunks(raw: bytes) -> dict[str, str]:
    """The ``tEXt`` chunks of a PNG as {keyword: text}. Raises InputError."""
    if not raw.startswith(PNG_SIGNATURE):
        raise InputError("The file is not a PNG image.", "Choose a character card PNG or JSON file.")
    chunks: dict[str, str] = {}
    pos = len(PNG_SIGNATURE)
    while pos + 8 <= len(raw):
        length, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        data = raw[pos + 8:pos + 8 + length]
        if len(data) < length:
            raise InputError("The PNG file is cut short.", "Download the card again.")
        if kind == b"tEXt" and b"\x00" in data:
            keyword, _, text = data.partition(b"\x00")
            chunks.setdefault(keyword.decode("latin-1"), text.decode("latin-1"))
        if kind == b"IEND":
            break
        pos += 12 + length
    return chunks


def card_json_from_png(raw: bytes) -> dict:
    """The card JSON inside a PNG, preferring V3's ``ccv3`` over ``chara``. Raises InputError."""
    chunks = png_text_chunks(raw)
    for keyword in CARD_CHUNKS:
        if keyword in chunks:
            try:
                decoded = base64.b64decode(chunks[keyword].strip(), validate=True).decode("utf-8")
                value = json.loads(decoded)
            except RecursionError:
                raise InputError(f"The PNG's {keyword!r} chunk holds JSON nested too deeply to read.",
                                 "The card is damaged; export it again from the app it came from.") from None
            except (binascii.Error, ValueError) as exc:
                raise InputError(f"The PNG's {keyword!r} chunk is not base64-encoded JSON ({exc}).",
                                 "The card is damaged; export it again from the app it came from.") from exc
            if not isinstance(value, dict):
                raise InputError(f"The PNG's {keyword!r} chunk holds JSON that is not an object.",
                                 "The card is damaged; export it again from the app it came from.")
            return value
    raise InputError("This PNG holds no character card (it has no 'chara' or 'ccv3' text chunk).",
                     "Choose a PNG exported as a character card, or the card's JSON file.")


def read_card_json(path: Path) -> dict:
    """The raw card object from a ``.json`` or ``.png`` file. Raises InputError."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_CARD_BYTES:
            raise InputError(f"{path.name} is larger than 50 MB; that is not a character card.",
                             "Choose a character card PNG or JSON file.")
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path} could not be read ({exc.strerror or exc}).", "Check the file and try again.") from exc
    if raw.startswith(PNG_SIGNATURE):
        return card_json_from_png(raw)
    try:
        value = json.loads(raw.decode("utf-8-sig"))
    except RecursionError:
        raise InputError(f"{path.name} holds JSON nested too deeply to read; that is not a character card.",
                         "Choose a character card PNG or JSON file.") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path.name} is neither a PNG image nor UTF-8 JSON.",
                         "Choose a character card PNG or JSON file.") from exc
    except json.JSONDecodeError as exc:
        raise InputError(f"{path.name} is not valid JSON (line {exc.lineno}: {exc.msg}).",
                         "Choose a character card PNG or JSON file.") from exc
    except ValueError as exc:  # a number of thousands of digits
        raise InputError(f"{path.name} cannot be read as JSON ({exc}).",
                         "Choose a character card PNG or JSON file.") from exc
    if not isinstance(value, dict):
        raise InputError(f"{path.name} holds JSON that is not an object, so it is not a character card.",
                         "Choose a character card PNG or JSON file.")
    return value


# ---- fields -----------------------------------------------------------------
def _text(data: dict, key: str) -> str:
    value = data.get(key, "")
    return value if isinstance(value, str) else ""


def _constant_lore(book) -> list[str]:
    """Enabled ``constant`` entries of an embedded lorebook, in insertion order."""
    if not isinstance(book, dict) or not isinstance(book.get("entries"), list):
        return []
    entries = [e for e in book["entries"] if isinstance(e, dict) and e.get("constant") is True
               and e.get("enabled", True) is not False and isinstance(e.get("content"), str)
               and e["content"].strip()]
    entries.sort(key=lambda e: e.get("insertion_order", 0) if isinstance(e.get("insertion_order"), (int, float))
                 else 0)
    return [e["content"].strip() for e in entries]


def parse_card(obj: dict) -> Card:
    """Read a V3, V2 or V1 card object. Raises InputError when it is not a card."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # an escaped lone surrogate: it could never be written to a persona file
        raise InputError("The card holds text that is not valid Unicode (a lone surrogate).",
                         "The card is damaged; export it again from the app it came from.") from None
    spec = obj.get("spec")
    if spec in ("chara_card_v3", "chara_card_v2"):
        data = obj.get("data")
        if not isinstance(data, dict):
            raise InputError(f"The card says it is {spec} but has no 'data' object.",
                             "The card is damaged; export it again from the app it came from.")
    elif spec is None and isinstance(obj.get("name"), str) and any(
            isinstance(obj.get(k), str) for k in ("description", "personality", "first_mes")):
        spec, data = "v1", obj
    else:
        raise InputError("This is not a character card: it has no 'spec' of chara_card_v2 or chara_card_v3 "
                         "and no V1 'name' and 'description' fields.",
                         "Choose a SillyTavern character card (V2 or V3) PNG or JSON file.")
    name = _text(data, "name").strip()
    if not name:
        raise InputError("The character card has no name.", "Give the character a name in the app it came from.")
    extensions = data.get("extensions", {})
    greetings = data.get("alternate_greetings", [])
    return Card(
        spec=spec, name=name, nickname=_text(data, "nickname").strip(),
        description=_text(data, "description"), personality=_text(data, "personality"),
        scenario=_text(data, "scenario"), first_mes=_text(data, "first_mes"),
        mes_example=_text(data, "mes_example"), system_prompt=_text(data, "system_prompt"),
        post_history_instructions=_text(data, "post_history_instructions"),
        creator_notes=_text(data, "creator_notes"),
        alternate_greetings=[g for g in greetings if isinstance(g, str) and g.strip()]
        if isinstance(greetings, list) else [],
        constant_lore=_constant_lore(data.get("character_book")),
        extensions=extensions if isinstance(extensions, dict) else {},
    )


# ---- persona ------------------------------------------------------------------
def card_language(card: Card) -> str:
    sample = " ".join((card.name, card.description, card.personality, card.first_mes, card.system_prompt))
    return "ja" if _JAPANESE.search(sample) else "en"


def expand_placeholders(text: str, char: str, user: str) -> str:
    """Replace ``{{char}}``/``<BOT>`` and ``{{user}}``/``<USER>`` (any case)."""
    def swap(match: re.Match) -> str:
        which = (match.group(1) or match.group(2)).lower()
        return char if which in ("char", "bot") else user
    return _PLACEHOLDERS.sub(swap, text)


_KANA = dict(zip(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
    "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽぁぃぅぇぉゃゅょゎ",
    "a i u e o ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu me mo "
    "ya yu yo ra ri ru re ro wa wo n ga gi gu ge go za ji zu ze zo da ji zu de do ba bi bu be bo pa pi pu pe po "
    "a i u e o ya yu yo wa".split()))
_YOON = {"ゃ": "a", "ゅ": "u", "ょ": "o"}


def romanize_kana(text: str) -> str:
    """Hiragana and katakana in Latin letters (Hepburn, roughly: ハナ → hana, きょう → kyou); others kept."""
    hira = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)
    out: list[str] = []
    double = False
    for c in hira:
        if c == "っ":
            double = True
            continue
        if c == "ー" and out:
            out.append(out[-1][-1:])
            continue
        if c in _YOON and out and out[-1].endswith("i") and len(out[-1]) > 1:  # きょ → kyo, しゃ → sha
            stem = out.pop()[:-1]
            out.append((stem if stem in ("sh", "ch", "j") else stem + "y") + _YOON[c])
            continue
        roman = _KANA.get(c, c)
        if double and roman[:1].isalpha():
            roman = roman[0] + roman
        double = False
        out.append(roman)
    return "".join(out)


def suggest_id(name: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A persona id from a card name: ASCII letters and digits (kana spelled out), unique among ``taken``.

    A name with nothing to spell (kanji only) gets ``card-`` and a short hash of the name, so two such
    cards still get different ids.
    """
    spelled = re.sub(r"[\W_]+", "-", romanize_kana(unicodedata.normalize("NFKC", name)))
    ascii_name = unicodedata.normalize("NFKD", spelled)
    ascii_name = ascii_name.encode("ascii", "ignore").decode("ascii").lower()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:32]
    if not base:
        base = "card-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:6] if name.strip() else "card"
    if not ID_PATTERN.match(base):
        base = f"card-{base}"[:32]
    candidate, n = base, 2
    while candidate in taken:
        candidate = f"{base}-{n}"
        n += 1
    return candidate


def card_to_persona(card: Card, persona_id: str, user_name: str = "") -> SurfacePersona:
    """The surface persona a card describes; ``{{user}}`` becomes ``user_name`` (settings.chat.user_name)."""
    language = card_language(card)
    char = card.nickname or card.name
    user = user_name.strip() or ("ユーザー" if language == "ja" else "the user")
    labels = ({"personality": "性格", "scenario": "状況"} if language == "ja"
              else {"personality": "Personality", "scenario": "Scenario"})
    parts = [card.system_prompt.strip(), card.description.strip()]
    if card.personality.strip():
        parts.append(f"{labels['personality']}: {card.personality.strip()}")
    if card.scenario.strip():
        parts.append(f"{labels['scenario']}: {card.scenario.strip()}")
    parts.extend(card.constant_lore)
    system = "\n\n".join(p for p in parts if p)
    if not system:
        system = (f"あなたは「{char}」です。" if language == "ja" else f"You are {char}.")
    summary = " ".join(card.description.split())
    expand = lambda text: expand_placeholders(text, char, user)  # noqa: E731
    return SurfacePersona(
        id=persona_id, name=card.name, system=expand(system),
        description=expand(summary[:160] + ("…" if len(summary) > 160 else "")),
        language=language, greeting=expand(card.first_mes.strip()),
        post_history_instructions=expand(card.post_history_instructions.strip()),
        example_dialogue=expand(card.mes_example.strip()),
        creator_notes=card.creator_notes.strip(), extensions=card.extensions,
        read_at_flush=False,  # a character's story is not the user's life: flushes skip it unless turned on
    )


def import_card(path: Path, taken_ids: set[str] | frozenset[str] = frozenset(), user_name: str = "",
                avatar_dir: Path | None = None) -> SurfacePersona:
    """Read a card file and return it as a new (unsaved) surface persona.

    A PNG card's picture is not written here: ``save_card`` writes it with the persona, so a card
    refused when it is saved leaves no picture behind.

    Args:
        avatar_dir: a PNG card's picture will be the persona's avatar (``<id>.png`` in the user's persona
            folder, written by ``save_card``); None keeps no picture.

    Raises:
        InputError: the file is not a character card; the message says why.
    """
    path = Path(path)
    card = parse_card(read_card_json(path))
    persona = card_to_persona(card, suggest_id(card.name, set(taken_ids)), user_name)
    if avatar_dir is not None and _is_png(path):
        persona.avatar = f"{persona.id}.png"
    return persona


def save_card(registry, persona: SurfacePersona, path: Path) -> Path:
    """Save a persona ``import_card`` made, with its card's picture when it has one (``persona.avatar``).

    The persona is checked first, and the picture is removed again if the persona's file cannot be
    written: a refused card leaves nothing behind (``monchat personas import`` and the editor's Import).

    Returns:
        The persona's file.

    Raises:
        PersonaInvalid, StorageError: nothing was kept.
    """
    if not persona.avatar:
        return registry.save_surface(persona)
    registry.check_surface(persona)  # refused before the picture is written
    picture = Path(registry.user_surface_dir) / persona.avatar
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path} could not be read ({exc.strerror or exc}).", "Check the file and try again.") from exc
    write_private(picture, raw)
    try:
        return registry.save_surface(persona)
    except BaseException:
        picture.unlink(missing_ok=True)
        raise


def _is_png(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(8) == PNG_SIGNATURE
