"""What a persona is: the surface and filter persona records, and the checks a persona file must pass.

Each problem found is a ``Problem``: an English sentence for the terminal that carries a code and the
field it is about, so the window can word it in its own language.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field

import tomli_w

from ..errors import PersonaError

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
# A persona is read at every start and rendered into every prompt: one larger than this is not a
# persona but a pasted book (a 45 MB card once slowed every command to 15–24 s).
MAX_PERSONA_BYTES = 1_000_000
BASE_FILTER_ID = "base"
FILTER_STYLES = ("timeline", "reinforced")


@dataclass
class SurfacePersona:
    id: str
    name: str
    system: str = ""  # inline system text (data, never rendered as a template)
    template: str = ""  # or a template file in prompts/ (shipped, rendered strictly)
    description: str = ""
    language: str = "ja"
    temperature: float = 0.7
    greeting: str = ""
    backend: str = ""
    model: str = ""
    avatar: str = ""
    post_history_instructions: str = ""
    example_dialogue: str = ""
    creator_notes: str = ""  # shown to the user, never sent to a model
    extensions: dict = field(default_factory=dict)  # round-tripped untouched (cards)
    # Role-play stays role-play: a persona whose conversations are not read at a flush (imported
    # character cards) never turns its lines into "facts about you"; one that does not receive
    # your memory is sent its own text only.
    read_at_flush: bool = True
    receives_memory: bool = True
    source: str = ""  # the file it came from; not saved

    def to_toml(self) -> str:
        data = {k: v for k, v in asdict(self).items()
                if k not in ("source", "extensions") and v not in ("", {}, None)}
        if self.extensions:
            # JSON text, not a TOML table: card extensions may hold null, which TOML cannot,
            # and they must round-trip untouched.
            data["extensions_json"] = json.dumps(self.extensions, ensure_ascii=False, sort_keys=True)
        return tomli_w.dumps(data)


@dataclass
class FilterTexts:
    """What a filter persona is called and does, in one language (what the window shows)."""

    name: str
    talent: str
    picks: list[str]
    ignores: list[str]


TRANSLATED_FIELDS = ("name", "talent", "picks", "ignores")


@dataclass
class FilterPersona:
    """A filter persona. ``name``, ``talent``, ``picks`` and ``ignores`` are what the model reads;
    ``translations`` (``[translations.ja]`` in its TOML) are the same texts in other languages, for
    the window only (a shipped persona carries Japanese and English)."""

    id: str
    name: str
    talent: str
    picks: list[str]
    ignores: list[str]
    max_items: int = 3
    style: str = "reinforced"
    instructions: str = ""
    translations: dict[str, dict] = field(default_factory=dict)
    locked: bool = False
    source: str = ""
    never: list[str] = field(default_factory=list)  # the user's never-remember rules, told at a flush (memory/never.py)

    def texts(self, language: str) -> FilterTexts:
        """The texts to show in ``language`` (its translation where there is one, else its own)."""
        shown = self.translations.get(language, {})
        return FilterTexts(*(shown.get(key) or getattr(self, key) for key in TRANSLATED_FIELDS))

    def to_toml(self) -> str:
        data = {k: v for k, v in asdict(self).items()
                if k not in ("source", "locked", "never") and v not in ("", None, {})}
        return tomli_w.dumps(data)


class Problem(str):
    """One thing wrong with a persona: an English sentence (what the terminal and doctor print) that
    also carries a ``code`` and the ``field`` it is about, so a window can word it in its language."""

    code: str
    field: str

    def __new__(cls, text: str, code: str, field: str = "") -> "Problem":
        problem = super().__new__(cls, text)
        problem.code, problem.field = code, field
        return problem


class PersonaInvalid(PersonaError):
    """A persona that cannot be saved; ``problems`` say why, each with its code and field."""

    def __init__(self, message: str, hint: str, problems: list[Problem]) -> None:
        super().__init__(message, hint)
        self.problems = problems


def _str(data: dict, key: str, problems: list[Problem], required: bool = False, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        problems.append(Problem(f"{key} must be text", "not_text", key))
        return default
    if required and not value.strip():
        problems.append(Problem(f"{key} is required", "required", key))
    return value


def _str_list(data: dict, key: str, problems: list[Problem]) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.append(Problem(f"{key} must be a list of non-empty texts", "not_list", key))
        return []
    return value


def parse_surface(data: dict, source: str = "") -> tuple[SurfacePersona | None, list[Problem]]:
    problems: list[Problem] = []
    pid = _str(data, "id", problems, required=True)
    if pid and not ID_PATTERN.match(pid):
        problems.append(Problem(f"id {pid!r} must be lowercase letters, digits, - or _", "bad_id", "id"))
    persona = SurfacePersona(
        id=pid, name=_str(data, "name", problems, required=True),
        system=_str(data, "system", problems), template=_str(data, "template", problems),
        description=_str(data, "description", problems), language=_str(data, "language", problems, default="ja"),
        greeting=_str(data, "greeting", problems), backend=_str(data, "backend", problems),
        model=_str(data, "model", problems), avatar=_str(data, "avatar", problems),
        post_history_instructions=_str(data, "post_history_instructions", problems),
        example_dialogue=_str(data, "example_dialogue", problems),
        creator_notes=_str(data, "creator_notes", problems), source=source,
    )
    for flag in ("read_at_flush", "receives_memory"):
        value = data.get(flag, True)
        if isinstance(value, bool):
            setattr(persona, flag, value)
        else:
            problems.append(Problem(f"{flag} must be true or false", "not_bool", flag))
    temperature = data.get("temperature", 0.7)
    if isinstance(temperature, (int, float)) and not isinstance(temperature, bool) and 0 <= temperature <= 2:
        persona.temperature = float(temperature)
    else:
        problems.append(Problem("temperature must be a number from 0 to 2", "bad_temperature", "temperature"))
    extensions = data.get("extensions", {})
    if "extensions_json" in data:
        try:
            extensions = json.loads(data["extensions_json"])
        except (TypeError, json.JSONDecodeError):
            extensions = None
    if isinstance(extensions, dict):
        persona.extensions = extensions
    else:
        problems.append(Problem("extensions must be a table (or extensions_json a JSON object)", "bad_extensions",
                                "extensions"))
    if not persona.system.strip() and not persona.template.strip():
        problems.append(Problem("either system or template is required", "need_system", "system"))
    if persona.backend and persona.backend not in ("ollama", "openai", "gemini", "embedded"):
        problems.append(Problem(f"backend {persona.backend!r} is not one of ollama, openai, gemini, embedded",
                                "bad_backend", "backend"))
    return (None if problems else persona), problems


def parse_filter(data: dict, source: str = "") -> tuple[FilterPersona | None, list[Problem]]:
    problems: list[Problem] = []
    pid = _str(data, "id", problems, required=True)
    if pid and not ID_PATTERN.match(pid):
        problems.append(Problem(f"id {pid!r} must be lowercase letters, digits, - or _", "bad_id", "id"))
    max_items = data.get("max_items", 3)
    if not isinstance(max_items, int) or isinstance(max_items, bool) or not 0 <= max_items <= 3:
        problems.append(Problem("max_items must be a whole number from 0 to 3", "bad_max_items", "max_items"))
        max_items = 3
    style = _str(data, "style", problems, default="reinforced")
    if style not in FILTER_STYLES:
        problems.append(Problem(f"style must be one of {', '.join(FILTER_STYLES)}", "bad_style", "style"))
    persona = FilterPersona(
        id=pid, name=_str(data, "name", problems, required=True),
        talent=_str(data, "talent", problems, required=True),
        picks=_str_list(data, "picks", problems), ignores=_str_list(data, "ignores", problems),
        max_items=max_items, style=style, instructions=_str(data, "instructions", problems),
        locked=pid == BASE_FILTER_ID, source=source,
    )
    persona.translations = _translations(data.get("translations", {}), problems)
    if not persona.picks:
        problems.append(Problem("picks must name at least one thing", "required", "picks"))
    if not persona.ignores:
        problems.append(Problem("ignores must name at least one thing (a filter is valuable for what it ignores)",
                                "required", "ignores"))
    return (None if problems else persona), problems


def _translations(value, problems: list[Problem]) -> dict[str, dict]:
    """``[translations.<language>]`` tables of a filter persona: the translated fields only."""
    if not isinstance(value, dict) or not all(isinstance(t, dict) for t in value.values()):
        problems.append(Problem("translations must be a table of tables (one per language)", "bad_translations",
                                "translations"))
        return {}
    found = {}
    for language, table in value.items():
        unknown = sorted(set(table) - set(TRANSLATED_FIELDS))
        if unknown:
            problems.append(Problem(f"translations.{language} may hold only {', '.join(TRANSLATED_FIELDS)}",
                                    "bad_translations", "translations"))
        texts: dict = {}
        for key in ("name", "talent"):
            if key in table:
                texts[key] = _str(table, key, problems, required=True)
        for key in ("picks", "ignores"):
            if key in table:
                texts[key] = _str_list(table, key, problems)
        found[language] = texts
    return found
