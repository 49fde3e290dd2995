"""How long a chat turn asked now would wait for its backend (a flush's call running: ``backends/turns.py``)."""

from __future__ import annotations

from ..backends.turns import call_turns
from .service import ChatService


def reply_wait(chat: ChatService, persona_id: str | None = None) -> float | None:
    """Seconds until ``persona_id``'s backend can start a reply: None when it can start now, 0.0 when it must
    wait but how long is not known yet. Never raises: a backend that cannot be built has nothing to wait for."""
    try:
        backend = chat.backend_for(chat.persona(persona_id or chat.settings.chat.persona))
    except Exception:  # noqa: BLE001 (the turn itself reports why it cannot be answered)
        return None
    return call_turns(backend).chat_wait()
