"""Which export a file is (``core/transfer/importers.py``): recognised by its content, reading as little as it can.

A file that is a JSON list (a ChatGPT or Claude ``conversations.json``) is told by its first
conversation and read one conversation at a time (``core/transfer/json_stream.py``); any other file by its
first line (monchat's or SillyTavern's JSONL), or, when that line is not the whole JSON, by the
whole file (a pretty-printed single conversation).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from ..errors import InputError
from .json_stream import StreamError, array_items
from .messages import jsonl_lines, loads


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
        conversations = data if isinstance(data, list) else [data]
        first = next((c for c in conversations if isinstance(c, dict)), {})
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
        first = next((c for c in conversations_of(path, detecting=True) if isinstance(c, dict)), None)
    except InputError:
        if name.endswith(".jsonl"):
            return "monchat"  # a JSONL file whose first line is bad: its lines are checked one by one
        raise
    if first is None and not name.endswith(".jsonl"):
        if next(iter(conversations_of(path)), None) is None:
            raise InputError("The export holds no conversations.", "Choose another file.")
    elif first is not None and "mapping" in first:
        return "chatgpt"
    elif first is not None and "chat_messages" in first:
        return "claude"
    if name.endswith(".jsonl"):
        return "monchat"
    raise unknown()


def conversations_of(path: Path, detecting: bool = False) -> Iterator[object]:
    """Each item of the file's top-level list, read one at a time. Raises InputError."""
    try:
        yield from array_items(path)
    except StreamError as exc:
        if detecting and "nested too deeply" not in str(exc):
            raise unknown(f" ({exc})") from None
        raise InputError(f"{path} cannot be read: {exc}.", "Export it again from the service; nothing was "
                         "imported.") from None
    except OSError as exc:
        raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc


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
