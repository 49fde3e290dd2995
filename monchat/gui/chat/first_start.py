"""The first start: the persona that speaks the window's language, and a welcome in the empty chat.

The welcome says in three sentences what personas, the log files, Flush and memory are, and which
backend answers (with the way to a better one than the tiny embedded model). It shows while nothing
was ever said; the persona is chosen once, when there is no settings.toml yet.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.backends.model_size import ModelSize
from ...core.personas.library import persona_for_language
from .small_model_words import small_model_warning
from ..translation import arg



def adopt_language(app, language: str) -> bool:
    """On a first start (no settings.toml), talk with a shipped persona of ``language``.

    Returns:
        True on a first start: the caller saves the settings, so the choice is made once.
    """
    if app.paths.settings_path.exists():
        return False
    app.settings.chat.persona = persona_for_language(app.personas, app.settings.chat.persona, language)
    return True


def welcome_text(backend_name: str, backend: str, size: ModelSize | None = None) -> str:
    """Rich text for the empty chat of a new user.

    Args:
        size: what the backend states of its model's size; a small one is said to make unreliable memory.
    """
    lines = [
        QCoreApplication.translate(
            "Welcome", "<b>Welcome to monchat.</b> You talk with a <b>persona</b> (choose one above; make your "
                       "own under Personas). Everything you say is kept in <b>log files</b> on this computer."),
        QCoreApplication.translate(
            "Welcome", "A <b>Flush</b> (Memory → Flush) lets filter personas read those logs and keep what "
                       "matters about you as <b>memory</b>, which the persona then knows; you can read and "
                       "change every memory under Memory."),
    ]
    if backend:
        lines.append(arg(QCoreApplication.translate("Welcome", "Replies now come from <b>%1</b>."), backend))
    if backend_name == "embedded":
        lines.append(QCoreApplication.translate(
            "Welcome", "That is the small model built into monchat: enough to try the window, weak at "
                       "conversation. For better replies install Ollama (ollama.com) and a model such as "
                       "gemma3:4b, or choose another backend in Settings."))
    if size is not None and size.small:
        lines.append(QCoreApplication.translate(
            "Welcome", "<b>Its Japanese replies will be nonsense</b>, and its English ones often are: a model this "
                       "small cannot hold a conversation in Japanese. For Japanese, use a model of 4B parameters or "
                       "more (for example gemma3:4b)."))
        lines.append(small_model_warning(size.label))
    return "<p>" + "</p><p>".join(lines) + "</p>"
