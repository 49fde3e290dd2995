"""Surface personas (who talks) and filter personas (who chooses what to remember).

Shipped personas live in ``personas/{surface,filter}/*.toml``; the user's copies
in the config folder override shipped ones by id, except the immutable ``base``
filter persona. Loading never stops at a bad file: each problem is reported
and the file skipped. The records and their checks are in ``persona_records``.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict
from pathlib import Path

from ..errors import PersonaError
from ..paths import write_private
from .records import (
    BASE_FILTER_ID, ID_PATTERN, MAX_PERSONA_BYTES, FilterPersona, FilterTexts,  # noqa: F401 (ID_PATTERN, FilterTexts re-exported)
    PersonaInvalid, Problem, SurfacePersona, parse_filter, parse_surface)
from ..settings import ChatSettings, FlushSettings


def _load_dir(folder: Path, parse) -> tuple[dict, dict[str, list[str]]]:
    found: dict = {}
    problems: dict[str, list[str]] = {}  # a file's own trouble (plain text) or its fields' (Problem)
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
            problems[str(path)] = [*errs]
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

    def template_problem(self, persona: SurfacePersona) -> Problem | None:
        """What is wrong with the persona's ``template`` (None when it is fine or not used)."""
        if not persona.template or self.templates_dir is None:
            return None
        name = persona.template
        if Path(name).name != name or not (self.templates_dir / name).is_file():
            return Problem(f"template {name!r} is not a file in {self.templates_dir}", "bad_template", "template")
        return None

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

    def check_surface(self, persona: SurfacePersona) -> str:
        """The persona's file text, if it can be saved. Raises PersonaInvalid (what is wrong)."""
        text = persona.to_toml()
        _, problems = parse_surface(tomllib.loads(text))
        problem = self.template_problem(persona)
        if problem:
            problems.append(problem)
        if problems:
            raise PersonaInvalid(f"The persona cannot be saved: {'; '.join(problems)}.", "Fix the fields named.",
                                 problems)
        _check_size(text, persona.name)
        return text

    def save_surface(self, persona: SurfacePersona) -> Path:
        text = self.check_surface(persona)
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

    def is_users_surface(self, persona_id: str) -> bool:
        """Whether the surface persona is the user's own file (so it can be deleted)."""
        return (self.user_surface_dir / f"{persona_id}.toml").is_file() and persona_id in self.surface

    def delete_surface(self, persona_id: str) -> None:
        """Delete the user's surface persona (a shipped one it overrode shows again). Its messages stay.

        Raises:
            PersonaError: it is not one of the user's own.
        """
        if not self.is_users_surface(persona_id):
            raise PersonaError(f"{persona_id!r} is not a surface persona of yours.",
                               "Shipped personas cannot be deleted.")
        (self.user_surface_dir / f"{persona_id}.toml").unlink()
        (self.user_surface_dir / f"{persona_id}.png").unlink(missing_ok=True)  # an imported card's picture
        self.reload()

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


def terminal_language(setting: str, environ=None) -> str:
    """``ja`` or ``en`` for the terminal: ``chat.language`` when set, else the locale (LC_ALL, LC_MESSAGES,
    LANG, the first that is set); ``C.UTF-8``, ``POSIX`` and anything not Japanese are English."""
    if setting in ("ja", "en"):
        return setting
    environ = os.environ if environ is None else environ
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    return "ja" if locale.lower().startswith("ja") else "en"


def terminal_persona(registry: PersonaRegistry, chat: ChatSettings, environ=None) -> str:
    """The surface persona ``monchat chat`` talks with when none is named: ``chat.persona``, unless it is still
    the default (Hana, Japanese) and the terminal speaks English (``C.UTF-8`` included): then the shipped one
    speaking the terminal's language, as the window's first start chooses. ``--persona`` or
    ``chat.language = "ja"`` keep Hana."""
    if chat.persona != ChatSettings().persona:
        return chat.persona
    return persona_for_language(registry, chat.persona, terminal_language(chat.language, environ))


def remove_surface_persona(registry: PersonaRegistry, chat: ChatSettings, persona_id: str) -> bool:
    """Delete the user's surface persona; chat falls back to the default one if it was talking with it.

    Returns:
        True when ``chat.persona`` changed: the caller saves the settings.
    """
    registry.delete_surface(persona_id)
    if chat.persona in registry.surface:
        return False
    chat.persona = ChatSettings().persona
    return True


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
