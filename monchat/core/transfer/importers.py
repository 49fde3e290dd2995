"""Import from other assistants: recognise an export by its content and bring its messages in.

Formats (checked against the exporters' real shapes):

* monchat's JSONL (``core/transfer/messages.py``): ``{"ts", "role", "text", "persona"?}`` per line.
* ChatGPT's ``conversations.json``: a list of conversations, each a ``mapping`` of nodes
  (``message.author.role``, ``message.create_time`` in epoch seconds, ``message.content.parts``);
  the shown branch is followed from ``current_node`` up through ``parent`` to the root.
* Claude's ``conversations.json``: a list of conversations with ``chat_messages``
  (``sender`` human|assistant, ISO ``created_at``, ``text`` or ``content`` blocks of type text).
* A SillyTavern chat (``.jsonl``): a first line of metadata (``user_name``, ``character_name``,
  ``chat_metadata``), then ``{name, is_user, is_system, send_date, mes}`` per message.

Roles, times and text are kept; system and tool messages, hidden nodes and empty ones are
skipped and counted. Ids come from the source (``core/transfer/import_ids.py``): a repeated message is
a message, and importing the same export twice adds nothing. A bad message (no time, a time
that is NaN, infinite, true or text where a number belongs, a line that is not JSON) is named;
without ``skip_bad`` nothing is imported, with it the others are. A file that is none of these
formats, or nested too deeply to read, is an InputError (exit 2).

JSONL (monchat, SillyTavern) is streamed line by line; a ``conversations.json`` is streamed one
conversation at a time (``core/transfer/json_stream.py``), so memory holds one conversation, not the export. A
file that is one JSON object (a single conversation) is read whole, up to ``MAX_JSON_OBJECT_BYTES``.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import Iterator

from ..errors import InputError
from .import_ids import ImportIds, Keyed
from ..logs.files import LogBook
from ..store.messages import MessageArchive
from .import_detect import conversations_of, detect, detect_list, detect_text, head_line, json_or_none  # noqa: F401 (detect re-exported)
from .json_stream import MAX_ITEM_CHARS, first_char
from .messages import (
    ImportReport, Progress, import_jsonl, jsonl_lines, loads, message_from_record, place_messages, refuse_bad)
from ..types import format_ts

MAX_IMPORT_BYTES = 2_000_000_000  # any export is streamed: memory holds a batch or one conversation (docs/guarantees.md: limits)
MAX_JSON_OBJECT_BYTES = MAX_ITEM_CHARS  # a file that is one JSON object (one conversation) is read whole
ROLE_OF = {"user": "user", "human": "user", "assistant": "assistant"}
FORMATS = ("monchat", "chatgpt", "claude", "sillytavern")
_SHAPE_ERRORS = (ValueError, TypeError, KeyError, AttributeError, OverflowError, OSError)


class Skip(Exception):
    """This message is not imported; the argument is why (system, tool, empty, hidden, …)."""


def import_file(path: Path, logbook: LogBook, archive: MessageArchive, *, default_persona: str,
                persona: str | None = None, persona_names: dict[str, str] | None = None,
                skip_bad: bool = False, now: datetime | None = None, progress: Progress | None = None,
                tz: tzinfo | None = None) -> ImportReport:
    """Import any known export into the 6-hour log files (``monchat import`` and File → Import…).

    Whose conversation each message was: ``persona`` when given; else a monchat line's own persona
    or ``default_persona``; ``chatgpt`` / ``claude`` for those exports (their words are not your
    persona's); for SillyTavern the surface persona named like the chat's character
    (``persona_names``: name → id, e.g. an imported card, whose lines a flush skips), else
    ``default_persona``.

    Raises:
        InputError: unreadable, unknown or malformed file (nothing is imported), or bad lines or
            messages without ``skip_bad`` (nothing is imported; each is named).
        StorageError: the disk filled up part way (the message says how many were imported).
    """
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc
    if size > MAX_IMPORT_BYTES:
        raise InputError(f"{path} is larger than 2 GB.", "Split the export into smaller files.")
    try:
        streamed = first_char(path) == "["  # a list of conversations: read one at a time
    except OSError as exc:
        raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc
    first, data = b"", None
    if streamed:
        kind = detect_list(path)
    else:
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
                raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc

        kind, data = detect_text(first, more, whole, path.name)
        if data is not None:
            first = b""  # a one-line export: its bytes are not needed beside the parsed JSON
    if kind == "monchat":
        return import_jsonl(path, logbook, archive, default_persona=persona or default_persona, skip_bad=skip_bad,
                            now=now, progress=progress)
    report = ImportReport(format=kind)
    if kind == "sillytavern":
        character = _sillytavern_character(first)
        who = persona or (persona_names or {}).get(character) or default_persona

        def records(report: ImportReport):
            return _sillytavern(path, report, tz)
    else:
        walk = _chatgpt if kind == "chatgpt" else _claude
        who = persona or kind

        def records(report: ImportReport):
            conversations = conversations_of(path) if streamed else data if isinstance(data, list) else [data]
            for index, conversation in enumerate(conversations):
                if not isinstance(conversation, dict):
                    yield f"conversation {index + 1}", ValueError("a conversation is not a JSON object"), None
                    continue
                yield from walk(conversation, index, report)

    total = sum(1 for _ in _messages(records(report), kind, who, now, report))  # the first pass: check
    report.read = total + len(report.bad_lines)
    refuse_bad(path, report, skip_bad, "message(s)", "Run again with --skip-bad to import the good ones.")
    return place_messages(_messages(records(ImportReport()), kind, who, now, None), logbook, archive, report,
                          progress, total)


def _messages(records, kind: str, who: str, now: datetime | None, report: ImportReport | None) -> Iterator[Keyed]:
    """The records that make messages; each bad one is named in ``report.bad_lines``."""
    ids = ImportIds(kind)
    for where, record, key in records:
        try:
            if isinstance(record, Exception):
                raise record
            message = message_from_record(record, who, now, ids, key)
        except _SHAPE_ERRORS as exc:
            if report is not None:
                report.bad_lines.append(f"{where}: {_why(exc)}")
            continue
        yield ids.keyed(message)


def label(kind: str) -> str:
    return {"monchat": "monchat", "chatgpt": "ChatGPT", "claude": "Claude", "sillytavern": "SillyTavern"}[kind]


def _why(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "not valid UTF-8"
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON ({exc.msg}, line {exc.lineno})"
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc)


def _as_dict(value, what: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def _skip(report: ImportReport, why: str) -> None:
    report.skipped[why] = report.skipped.get(why, 0) + 1


def _record(ts: datetime, role: str, text: str) -> dict:
    return {"ts": format_ts(ts), "role": role, "text": text}


# ---- ChatGPT --------------------------------------------------------------
def _chatgpt(conversation: dict, index: int, report: ImportReport):
    """``(where, record or the error, key)`` for each message of the branch the user saw, root first."""
    title = conversation.get("title") or conversation.get("id") or "?"
    own = conversation.get("id") or conversation.get("conversation_id")
    conversation_key = own if isinstance(own, str) and own else f"#{index}"
    try:
        mapping = _as_dict(conversation["mapping"], "mapping")
        node_id = conversation.get("current_node")
        if node_id is None:  # older exports: the newest leaf
            leaves = [k for k, n in mapping.items() if isinstance(n, dict) and not n.get("children")]
            node_id = leaves[-1] if leaves else None
        branch, seen = [], set()
        while node_id is not None:
            if not isinstance(node_id, str) or node_id in seen:
                raise ValueError("the parent links form a loop" if node_id in seen else "a parent is not a node id")
            seen.add(node_id)
            branch.append((node_id, _as_dict(mapping[node_id], f"node {node_id!r}")))
            node_id = branch[-1][1].get("parent")
    except _SHAPE_ERRORS as exc:
        yield f"conversation {title!r}", exc, None
        return
    fallback = conversation.get("create_time")
    for node_id, node in reversed(branch):
        message = node.get("message")
        if not message:
            _skip(report, "empty")
            continue
        try:
            record: dict | Exception = _chatgpt_record(_as_dict(message, "message"), fallback)
        except Skip as why:
            _skip(report, str(why))
            continue
        except _SHAPE_ERRORS as exc:
            record = exc
        yield f"conversation {title!r} node {node_id!r}", record, (conversation_key, node_id)


def _chatgpt_record(message: dict, fallback) -> dict:
    role = (message.get("author") or {}).get("role")
    if role not in ROLE_OF:
        raise Skip("system" if role == "system" else "tool")
    if (message.get("metadata") or {}).get("is_visually_hidden_from_conversation"):
        raise Skip("hidden")
    content = message.get("content") or {}
    parts = content.get("parts") or ([content["text"]] if isinstance(content.get("text"), str) else [])
    text = "\n".join(p for p in parts if isinstance(p, str)).strip() if isinstance(parts, list) else ""
    if not text:
        raise Skip("empty")
    when = message.get("create_time")
    return _record(epoch_time(fallback if when is None else when, "create_time"), ROLE_OF[role], text)


def epoch_time(value, what: str) -> datetime:
    """Seconds since 1970 (a finite number, not true/false) as an aware time. Raises ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{what} {value!r} is not a time" if value is not None else f"no {what}")
    try:
        return datetime.fromtimestamp(value, timezone.utc)
    except (OverflowError, OSError, ValueError):
        raise ValueError(f"{what} {value!r} is out of range") from None


# ---- Claude ---------------------------------------------------------------
def _claude(conversation: dict, index: int, report: ImportReport):
    title = conversation.get("name") or conversation.get("uuid") or "?"
    own = conversation.get("uuid")
    conversation_key = own if isinstance(own, str) and own else f"#{index}"
    messages = conversation.get("chat_messages")
    if not isinstance(messages, list):
        yield f"conversation {title!r}", ValueError("chat_messages is not a list"), None
        return
    for position, message in enumerate(messages):
        uuid = message.get("uuid") if isinstance(message, dict) else None
        key = (conversation_key, uuid if isinstance(uuid, str) and uuid else f"#{position}")
        where = f"conversation {title!r} message {uuid if isinstance(uuid, str) else position + 1}"
        try:
            record: dict | Exception = _claude_record(_as_dict(message, "a message"))
        except Skip as why:
            _skip(report, str(why))
            continue
        except _SHAPE_ERRORS as exc:
            record = exc
        yield where, record, key


def _claude_record(message: dict) -> dict:
    sender = message.get("sender")
    role = ROLE_OF.get(sender) if isinstance(sender, str) else None
    if role is None:
        raise Skip("system")
    blocks = message.get("content") or []
    text = "\n".join(b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text"
                     and isinstance(b.get("text"), str)).strip() if isinstance(blocks, list) else ""
    plain = message.get("text")
    text = text or (plain.strip() if isinstance(plain, str) else "")
    if not text:
        raise Skip("empty")
    created = message.get("created_at")
    if not isinstance(created, str):
        raise ValueError("a message has no created_at")
    return _record(_iso(created), role, text)


def _iso(text: str, tz: tzinfo | None = None) -> datetime:
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))  # 3.11 reads Z too; older exports vary
    return dt if dt.tzinfo else dt.replace(tzinfo=tz or datetime.now().astimezone().tzinfo)


# ---- SillyTavern ------------------------------------------------------------
_HUMANIZED = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2}) ?@(\d{1,2})h ?(\d{1,2})m ?(\d{1,2})s(?: ?(\d{1,3})ms)?$")


def sillytavern_time(value, tz: tzinfo | None = None) -> datetime:
    """``send_date`` as SillyTavern has written it over the years: ISO, epoch ms, ``2026-11-29 @15h 04m 05s
    123ms``, or ``November 29, 2026 3:04pm``. Times without a zone are local. Raises ValueError."""
    local = tz or datetime.now().astimezone().tzinfo
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1000 if math.isfinite(value) and value > 1e11 else value
        return epoch_time(seconds, "send_date")
    if not isinstance(value, str) or not value.strip():
        raise ValueError("no send_date")
    text = value.strip()
    if (m := _HUMANIZED.match(text)):
        y, mo, d, h, mi, s, ms = (int(g or 0) for g in m.groups())
        return datetime(y, mo, d, h, mi, s, ms * 1000, tzinfo=local)
    for pattern in ("%B %d, %Y %I:%M%p", "%B %d, %Y %I:%M %p", "%b %d, %Y %I:%M%p"):
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=local)
        except ValueError:
            pass
    try:
        return _iso(text, local)
    except ValueError:
        raise ValueError(f"send_date {text!r} is not a time SillyTavern writes") from None


def _sillytavern_character(first_line: bytes) -> str:
    """The character's name from the metadata line ("" when there is none)."""
    head = json_or_none(first_line)
    name = head.get("character_name") if isinstance(head, dict) else None
    return name.strip() if isinstance(name, str) else ""


def _sillytavern(path: Path, report: ImportReport, tz: tzinfo | None):
    """``(where, record or the error, None)`` per line: a SillyTavern chat has no message ids
    (``core/transfer/import_ids.py`` keys its lines on their content and repeats)."""
    first = True
    for line_no, line in jsonl_lines(path):
        where = f"line {line_no}"
        try:
            data = _as_dict(loads(line.decode("utf-8")), where)
            if "mes" not in data:
                if first:
                    first = False
                    continue  # the metadata line
                raise ValueError("no 'mes'")
            first = False
            if data.get("is_system"):
                _skip(report, "system")
                continue
            text = data["mes"].strip() if isinstance(data["mes"], str) else ""
            if not text:
                _skip(report, "empty")
                continue
            record: dict | Exception = _record(sillytavern_time(data.get("send_date"), tz),
                             "user" if data.get("is_user") else "assistant", text)
        except (UnicodeDecodeError, json.JSONDecodeError, *_SHAPE_ERRORS) as exc:
            first = False
            record = exc
        yield where, record, None
