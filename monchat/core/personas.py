"""Surface personas (who talks) and filter personas (who chooses what to remember).

Shipped personas live in ``personas/{surface,filter}/*.toml``; the user's copies
in the config folder override shipped ones by id, except the immutable ``base``
filter persona. Loading never stops at a bad file: each problem is reported
and the file skipped.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import tomli_w

from .errors import PersonaError
from .paths import write_private
from .settings import FlushSettings

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

    def texts(self, language: str) -> FilterTexts:
        """The texts to show in ``language`` (its translation where there is one, else its own)."""
        shown = self.translations.get(language, {})
        return FilterTexts(*(shown.get(key) or getattr(self, key) for key in TRANSLATED_FIELDS))

    def to_toml(self) -> str:
        data = {k: v for k, v in asdict(self).items()
                if k not in ("source", "locked") and v not in ("", None, {})}
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


def _str(data: dict, key: str, problems: list[str], required: bool = False, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        problems.append(Problem(f"{key} must be text", "not_text", key))
        return default
    if required and not value.strip():
        problems.append(Problem(f"{key} is required", "required", key))
    return value


def _str_list(data: dict, key: str, problems: list[str]) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.append(Problem(f"{key} must be a list of non-empty texts", "not_list", key))
        return []
    return value


def parse_surface(data: dict, source: str = "") -> tuple[SurfacePersona | None, list[str]]:
    problems: list[str] = []
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


def parse_filter(data: dict, source: str = "") -> tuple[FilterPersona | None, list[str]]:
    problems: list[str] = []
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


def _translations(value, problems: list[str]) -> dict[str, dict]:
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


def _load_dir(folder: Path, parse) -> tuple[dict, dict[str, list[str]]]:
    found, problems = {}, {}
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.glob("*.toml")):
        try:
            if not path.is_file():
                problems[str(path)] = ["not a file (a folder or a device has a persona's name); ignored"]
                continue
            if path.stat().st_size > MAX_PERSONA_BYTES:
                problems[str(path)] = [f"larger than {MAX_PERSONA_BYTES // 1_000_000} MB; ignored"]
                continue
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            problems[str(path)] = [f"not valid TOML: {exc}"]
            continue
        except OSError as exc:
            problems[str(path)] = [f"cannot be read ({exc.strerror})"]
            continue
        persona, errs = parse(data, str(path))
        if errs:
            problems[str(path)] = errs
        elif persona is not None:
            found[persona.id] = persona
    return found, problems


def _check_size(text: str, name: str) -> None:
    size = len(text.encode("utf-8"))
    if size > MAX_PERSONA_BYTES:
        raise PersonaInvalid(f"The persona {name!r} would be {size / 1_000_000:.1f} MB; a persona may be at most "
                             f"{MAX_PERSONA_BYTES // 1_000_000} MB.",
                             "Shorten its text (a card's description or lore book is usually what is too long).",
                             [Problem(f"larger than {MAX_PERSONA_BYTES // 1_000_000} MB", "too_large")])


class PersonaRegistry:
    """Shipped and user personas, reloaded on demand."""

    def __init__(self, shipped_dir: Path, user_surface_dir: Path, user_filter_dir: Path,
                 templates_dir: Path | None = None) -> None:
        """Args:
            templates_dir: the shipped prompts folder; a surface persona whose ``template`` is not a
                file there is reported and skipped (else it would pass validation and break chat).
        """
        self.shipped_dir = shipped_dir
        self.templates_dir = templates_dir
        self.user_surface_dir = user_surface_dir
        self.user_filter_dir = user_filter_dir
        self.problems: dict[str, list[str]] = {}
        self.reload()

    def reload(self) -> None:
        shipped_s, p1 = _load_dir(self.shipped_dir / "surface", parse_surface)
        user_s, p2 = _load_dir(self.user_surface_dir, parse_surface)
        shipped_f, p3 = _load_dir(self.shipped_dir / "filter", parse_filter)
        user_f, p4 = _load_dir(self.user_filter_dir, parse_filter)
        self.problems = {**p1, **p2, **p3, **p4}
        for personas in (shipped_s, user_s):
            for pid, persona in list(personas.items()):
                problem = self.template_problem(persona)
                if problem:
                    self.problems.setdefault(persona.source, []).append(problem)
                    del personas[pid]
        if BASE_FILTER_ID in user_f:
            self.problems[user_f[BASE_FILTER_ID].source] = ["the base filter persona is locked; this copy is ignored"]
            del user_f[BASE_FILTER_ID]
        self.surface = {**shipped_s, **user_s}
        self.filters = {**shipped_f, **user_f}
        self.shipped_surface_ids = set(shipped_s)
        self.shipped_filter_ids = set(shipped_f)

    def template_problem(self, persona: SurfacePersona) -> str:
        """What is wrong with the persona's ``template`` ("" when it is fine or not used)."""
        if not persona.template or self.templates_dir is None:
            return ""
        name = persona.template
        if Path(name).name != name or not (self.templates_dir / name).is_file():
            return Problem(f"template {name!r} is not a file in {self.templates_dir}", "bad_template", "template")
        return ""

    def surface_persona(self, persona_id: str) -> SurfacePersona:
        try:
            return self.surface[persona_id]
        except KeyError:
            raise PersonaError(f"There is no surface persona {persona_id!r}.",
                               f"Choose one of: {', '.join(sorted(self.surface))}.") from None

    def filter_persona(self, persona_id: str) -> FilterPersona:
        try:
            return self.filters[persona_id]
        except KeyError:
            raise PersonaError(f"There is no filter persona {persona_id!r}.",
                               f"Choose one of: {', '.join(sorted(self.filters))}.") from None

    def pool(self) -> list[FilterPersona]:
        """Filter personas other than base, by id."""
        return [p for pid, p in sorted(self.filters.items()) if pid != BASE_FILTER_ID]

    def save_surface(self, persona: SurfacePersona) -> Path:
        text = persona.to_toml()
        _, problems = parse_surface(tomllib.loads(text))
        problem = self.template_problem(persona)
        if problem:
            problems.append(problem)
        if problems:
            raise PersonaInvalid(f"The persona cannot be saved: {'; '.join(problems)}.", "Fix the fields named.",
                                 problems)
        _check_size(text, persona.name)
        path = self.user_surface_dir / f"{persona.id}.toml"
        write_private(path, text)
        self.reload()
        return path

    def save_filter(self, persona: FilterPersona) -> Path:
        if persona.id == BASE_FILTER_ID:
            raise PersonaInvalid("The base filter persona is locked.", "Copy it under a new id to change it.",
                                 [Problem("the base filter persona is locked", "locked")])
        data = {k: v for k, v in asdict(persona).items() if k not in ("source", "locked")}
        _, problems = parse_filter(data)
        if problems:
            raise PersonaInvalid(f"The filter persona cannot be saved: {'; '.join(problems)}.",
                                 "Fix the fields named.", problems)
        text = persona.to_toml()
        _check_size(text, persona.name)
        path = self.user_filter_dir / f"{persona.id}.toml"
        write_private(path, text)
        self.reload()
        return path

    def is_users_filter(self, persona_id: str) -> bool:
        """Whether the filter persona is the user's own file (so it can be removed)."""
        persona = self.filters.get(persona_id)
        return (persona is not None and not persona.locked
                and Path(persona.source).parent == self.user_filter_dir)

    def delete_filter(self, persona_id: str) -> None:
        if persona_id == BASE_FILTER_ID:
            raise PersonaError("The base filter persona is locked.", "It runs at every flush.")
        path = self.user_filter_dir / f"{persona_id}.toml"
        if not path.exists():
            raise PersonaError(f"{persona_id!r} is not a filter persona of yours.",
                               "Shipped personas cannot be removed; leave them out of the fixed two.")
        path.unlink()
        self.reload()


def persona_for_language(registry: PersonaRegistry, current: str, language: str) -> str:
    """The surface persona to start with in ``language``: ``current`` when it speaks it (or nothing
    shipped does), else the first shipped persona that does, by id (a first start in English talks
    with Mira, in Japanese with Hana)."""
    persona = registry.surface.get(current)
    if persona is not None and persona.language == language:
        return current
    speaking = sorted(pid for pid in registry.shipped_surface_ids
                      if pid in registry.surface and registry.surface[pid].language == language)
    return speaking[0] if speaking else current


def remove_filter_persona(registry: PersonaRegistry, flush: FlushSettings, persona_id: str) -> bool:
    """Delete the user's filter persona and drop it from the fixed two (a flush cannot run a missing one).

    Returns:
        True when ``flush.fixed_personas`` changed: the caller saves the settings.

    Raises:
        PersonaError: it is the base persona, or not one of the user's own.
    """
    registry.delete_filter(persona_id)
    if persona_id not in flush.fixed_personas:
        return False
    flush.fixed_personas = [p for p in flush.fixed_personas if p != persona_id]
    return True
