"""The import's first stage, detect (``core/transfer/importers.py``): which export a file is, recognised by its
content, reading as little as it can, and how the next stage is to read it (a ``Source``).

A file that is a JSON list (a ChatGPT or Claude ``conversations.json``) is told by its first
conversation and read one conversation at a time (``core/transfer/json_stream.py``); any other file by its
first line (monchat's or SillyTavern's JSONL), or, when that line is not the whole JSON, by the
whole file (a pretty-printed single conversation). It calls only the stream stage's readers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .json_stream import (MAX_ITEM_CHARS, StreamError, array_items, conversations, damaged, first_char, jsonl_lines,
                          loads, unreadable)

FORMATS = ("monchat", "chatgpt", "claude", "sillytavern")
MAX_IMPORT_BYTES = 2_000_000_000  # any export is streamed: memory holds a batch or one conversation (docs/guarantees.md: limits)
MAX_JSON_OBJECT_BYTES = MAX_ITEM_CHARS  # a file that is one JSON object (one conversation) is read whole


@dataclass(frozen=True)
class Source:
    """A file as detection found it.

    Attributes:
        kind: one of ``FORMATS``.
        listed: a JSON list, streamed one conversation at a time.
        data: the whole file's JSON when it had to be read whole (a single conversation), else None.
        character: a SillyTavern chat's character (its metadata line's ``character_name``; "" when none).
    """

    path: Path
    kind: str
    listed: bool = False
    data: object = None
    character: str = ""


def detect_file(path: Path) -> Source:
    """Which export ``path`` is and how to read it. Raises InputError: unreadable, over 2 GB, or no known export."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise unreadable(path, exc) from exc
    if size > MAX_IMPORT_BYTES:
        raise InputError(f"{path} is larger than 2 GB.", "Split the export into smaller files.")
    try:
        listed = first_char(path) == "["  # a list of conversations: read one at a time
    except OSError as exc:
        raise unreadable(path, exc) from exc
    if listed:
        return Source(path, detect_list(path), listed=True)
    first, more = head_line(path)

    def whole() -> bytes:
        if size > MAX_JSON_OBJECT_BYTES and path.name.lower().endswith(".jsonl"):
            return b""  # a JSONL file whose first line is bad: its lines are checked one by one
        if size > MAX_JSON_OBJECT_BYTES:
            raise InputError(f"{path} is one JSON object of {size // 1_000_000} MB; monchat reads such an "
                             f"export whole and takes at most {MAX_JSON_OBJECT_BYTES // 1_000_000} MB.",
                             "Export the list of conversations instead, or split it.")
        try:
            return path.read_bytes()
        except OSError as exc:
            raise unreadable(path, exc) from exc

    kind, data = detect_text(first, more, whole, path.name)
    if data is not None:
        first = b""  # a one-line export: its bytes are not needed beside the parsed JSON
    return Source(path, kind, data=data, character=_character(first) if kind == "sillytavern" else "")


def detect(raw: bytes, name: str = "") -> str:
    """Which export ``raw`` is: one of FORMATS. Raises InputError when it is none of them."""
    lines = [line for line in raw.split(b"\n") if line.strip()]
    return detect_text(lines[0] if lines else b"", len(lines) > 1, lambda: raw, name)[0]


def detect_text(first_line: bytes, more_lines: bool, whole, name: str) -> tuple[str, object]:
    """The format, and the whole file's JSON when it had to be read whole (else None).

    A ``.jsonl`` file or one whose first line is a JSON object that is no other format is read as
    monchat's JSONL, whose errors name each bad line.

    Args:
        first_line: the first non-blank line; more_lines: whether another one follows.
        whole: returns the whole file's bytes (read only when the first line is not the whole JSON).
    """
    head = json_or_none(first_line)
    data = None
    if first_line.lstrip()[:1] in (b"[", b"{"):
        if not more_lines:
            data = head
        elif head is None:
            data = json_or_none(whole())
    if data is not None:
        items = data if isinstance(data, list) else [data]
        first = next((c for c in items if isinstance(c, dict)), {})
        if "mapping" in first:
            return "chatgpt", data
        if "chat_messages" in first:
            return "claude", data
        if isinstance(data, dict) and {"ts", "role", "text"} <= set(data):
            return "monchat", None  # a one-line monchat file
        if isinstance(data, list) and not data and not name.lower().endswith(".jsonl"):
            raise InputError("The export holds no conversations.", "Choose another file.")
    if isinstance(head, dict):
        if "chat_metadata" in head or "character_name" in head or ("mes" in head and "is_user" in head):
            return "sillytavern", None
    if isinstance(head, dict) or name.lower().endswith(".jsonl"):
        return "monchat", None
    raise unknown()


def detect_list(path: Path) -> str:
    """The format of a file that is a JSON list: its first conversation tells (only that much is read)."""
    name = path.name.lower()
    try:
        first = next((c for c in _items(path) if isinstance(c, dict)), None)
    except InputError:
        if name.endswith(".jsonl"):
            return "monchat"  # a JSONL file whose first line is bad: its lines are checked one by one
        raise
    if first is None and not name.endswith(".jsonl"):
        if next(iter(conversations(path)), None) is None:
            raise InputError("The export holds no conversations.", "Choose another file.")
    elif first is not None and "mapping" in first:
        return "chatgpt"
    elif first is not None and "chat_messages" in first:
        return "claude"
    if name.endswith(".jsonl"):
        return "monchat"
    raise unknown()


def _items(path: Path):
    """The list's items as far as detection reads them: a document that is no JSON list is no known export."""
    try:
        yield from array_items(path)
    except StreamError as exc:
        if "nested too deeply" not in str(exc):
            raise unknown(f" ({exc})") from None
        raise damaged(path, exc) from None
    except OSError as exc:
        raise unreadable(path, exc) from exc


def unknown(why: str = "") -> InputError:
    return InputError(f"monchat does not recognise this file as chat history{why}.",
                      "Import monchat's JSONL, ChatGPT's or Claude's conversations.json, or a SillyTavern "
                      "chat (.jsonl).")


def json_or_none(raw: bytes):
    try:
        return loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    except ValueError as exc:  # nested too deeply
        raise InputError(f"The file is not an export monchat can read: {exc}.",
                         "Export it again from the service; nothing was imported.") from None


def head_line(path: Path) -> tuple[bytes, bool]:
    """The first non-blank line of a file and whether another non-blank line follows."""
    first, more = b"", False
    for _, line in jsonl_lines(path):
        if first:
            more = True
            break
        first = line
    return first, more


def _character(first_line: bytes) -> str:
    """A SillyTavern chat's character, from its metadata line ("" when there is none)."""
    head = json_or_none(first_line)
    name = head.get("character_name") if isinstance(head, dict) else None
    return name.strip() if isinstance(name, str) else ""
