"""The terminal's question before the first message or flush goes to a cloud (the window's is
``gui/chat/outbound.py``): the same rule (``core.privacy.CloudConsent``), asked at the terminal.

With no terminal to ask at (piped input, a script) nothing is sent: the user answers once in
an interactive ``monchat chat`` or in the window. A restored backup never brings a yes with it
(``core/transfer/restore.py`` removes it), so a planted ``settings.toml`` naming a public server is asked
about here, on this machine, before anything goes there.
"""

from __future__ import annotations

import sys

from ..core.errors import CloudConsentNeeded, KnownError
from ..core.privacy.cloud import Destination


def question(dest: Destination, hours: int) -> str:
    return (f"{dest.backend} (model {dest.model or '—'}) at {dest.where} is not on this computer or your "
            f"network.\nEach message sends it: this persona's text, your memory (what monchat remembers about "
            f"you), and the conversation of the last {hours} hours. A flush sends it the unflushed logs.\n"
            "Send to it? monchat asks only once for this address. [y/N] ")


def ensure_cloud_consent(app, persona=None) -> None:
    """Return when a chat with ``persona`` (a flush: None) may go where it goes; else raise.

    Raises:
        CloudConsentNeeded: it goes to a cloud the user has not agreed to, and they said no or there
            is no terminal to ask at (nothing was sent or logged).
    """
    try:
        dest = app.backends.planned_destination(persona)
    except KnownError:
        return  # the call itself reports the misconfiguration
    consent = app.consent
    if dest is None or not consent.needed(dest):
        return
    what = f"{dest.backend} at {dest.where}"
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CloudConsentNeeded(f"{what} is a cloud service you have not agreed to send to on this computer; "
                                 "nothing was sent or logged.",
                                 "Run `monchat chat` in a terminal (or open the window) once and answer its "
                                 "question, or choose a local backend (`--backend`, `monchat settings`).")
    try:
        answer = input(question(dest, app.settings.chat.window_hours))
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise CloudConsentNeeded(f"Nothing was sent to {what}; nothing was logged.",
                                 "Choose a local backend (`--backend`, `monchat settings`), or answer y.")
    consent.grant(dest)
