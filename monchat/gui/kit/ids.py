"""A new persona's id, made from its name (a user never has to invent one; the id names its file)."""

from __future__ import annotations

import re
import unicodedata

from collections.abc import Callable

from PySide6.QtWidgets import QLineEdit


def id_from_name(name: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """Lower-case ASCII letters, digits and dashes from ``name`` (≤ 40); "persona" when none are left
    (a Japanese name); ``-2``, ``-3``… when the id is taken."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:34].strip("-") or "persona"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def follow_name(name_edit: QLineEdit, set_id: Callable[[str], None], taken, is_new) -> None:
    """While a new persona is edited, its id follows its name (``taken()``: ids in use; ``is_new()``); the id is
    never a field of its own: ``set_id`` shows it (an existing persona's id never changes)."""
    def update(text: str) -> None:
        if is_new():
            set_id(id_from_name(text, set(taken())))
    name_edit.textEdited.connect(update)
