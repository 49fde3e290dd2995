"""Words for a persona that cannot be saved: core names each problem by code and field, the GUI words it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.errors import KnownError
from ...core.personas.library import PersonaInvalid, Problem
from ..failures import explanation, headline
from ..translation import arg
from ..kit.workers import Failure


def field_name(field: str) -> str:
    words = {
        "id": QCoreApplication.translate("PersonaWords", "Id"),
        "name": QCoreApplication.translate("PersonaWords", "Name"),
        "system": QCoreApplication.translate("PersonaWords", "Instructions (system prompt)"),
        "template": QCoreApplication.translate("PersonaWords", "Template"),
        "description": QCoreApplication.translate("PersonaWords", "Description"),
        "greeting": QCoreApplication.translate("PersonaWords", "Greeting"),
        "talent": QCoreApplication.translate("PersonaWords", "Talent"),
        "picks": QCoreApplication.translate("PersonaWords", "Picks up"),
        "ignores": QCoreApplication.translate("PersonaWords", "Ignores"),
        "temperature": QCoreApplication.translate("PersonaWords", "Temperature"),
        "max_items": QCoreApplication.translate("PersonaWords", "At most (items per flush)"),
        "style": QCoreApplication.translate("PersonaWords", "Style"),
        "backend": QCoreApplication.translate("PersonaWords", "Backend"),
        "translations": QCoreApplication.translate("PersonaWords", "Translations"),
    }
    return words.get(field, field)


def problem_text(problem: Problem) -> str:
    """One problem in the window's language."""
    field = field_name(getattr(problem, "field", ""))
    words = {
        "required": arg(QCoreApplication.translate("PersonaWords", "%1 is required."), field),
        "not_text": arg(QCoreApplication.translate("PersonaWords", "%1 must be text."), field),
        "not_list": arg(QCoreApplication.translate("PersonaWords", "%1 must be a list of non-empty lines."),
                        field),
        "not_bool": arg(QCoreApplication.translate("PersonaWords", "%1 must be on or off."), field),
        "bad_id": arg(QCoreApplication.translate(
            "PersonaWords", "%1 may hold only lowercase letters a-z, digits, - and _ (up to 40)."), field),
        "bad_temperature": QCoreApplication.translate(
            "PersonaWords", "The temperature must be a number from 0 to 2."),
        "bad_max_items": QCoreApplication.translate("PersonaWords", "At most 0 to 3 items per flush."),
        "bad_style": QCoreApplication.translate("PersonaWords", "Choose one of the styles."),
        "need_system": QCoreApplication.translate(
            "PersonaWords", "Write the instructions (the system prompt): who the persona is and how it speaks."),
        "bad_backend": QCoreApplication.translate("PersonaWords", "Choose one of the backends."),
        "bad_template": QCoreApplication.translate(
            "PersonaWords", "The template is not one of monchat's prompt files."),
        "bad_extensions": QCoreApplication.translate("PersonaWords", "The card's extensions cannot be read."),
        "bad_translations": QCoreApplication.translate("PersonaWords", "The translations cannot be read."),
        "too_large": QCoreApplication.translate(
            "PersonaWords", "The persona is larger than 1 MB; shorten its text."),
        "locked": QCoreApplication.translate(
            "PersonaWords", "Base is locked; copy its ideas into a new persona to change them."),
    }
    return words.get(getattr(problem, "code", ""),
                     QCoreApplication.translate("PersonaWords", "A field is not valid."))


def persona_error_text(exc: KnownError) -> str:
    """What the editor shows when saving fails: each problem worded from its code, else the failure's words."""
    if isinstance(exc, PersonaInvalid) and exc.problems:
        lines = [QCoreApplication.translate("PersonaWords", "The persona cannot be saved:")]
        return "\n".join(lines + [f"• {problem_text(p)}" for p in exc.problems])
    failure = Failure.from_known(exc)
    return f"{headline(failure)}\n{explanation(failure)}"
