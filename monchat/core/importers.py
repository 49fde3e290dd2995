"""Import from other assistants: recognise an export by its content and bring its messages in.

Formats (checked against the exporters' real shapes):

* monchat's JSONL (``core/transfer.py``): ``{"ts", "role", "text", "persona"?}`` per line.
* ChatGPT's ``conversations.json``: a list of conversations, each a ``mapping`` of nodes
  (``message.author.role``, ``message.create_time`` in epoch seconds, ``message.content.parts``);
  the shown branch is followed from ``current_node`` up through ``parent`` to the root.
* Claude's ``conversations.json``: a list of conversations with ``chat_messages``
  (``sender`` human|assistant, ISO ``created_at``, ``text`` or ``content`` blocks of type text).
* A SillyTavern chat (``.jsonl``): a first line of metadata (``user_name``, ``character_name``,
  ``chat_metadata``), then ``{name, is_user, is_system, send_date, mes}`` per message.

Roles, times and text are kept; system and tool messages, hidden nodes and empty ones are
skipped and counted. Ids come from the content (``content_message_id``), so importing the same
export twice adds nothing. A file that is none of these is an InputError (exit 2).
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone, tzinfo
from pathlib import Path

from .errors import InputError
from .logs import LogBook
from .store.messages import MessageArchive
from .transfer import ImportReport, Progress, import_jsonl, message_from_record, place_messages
from .types import format_ts

MAX_IMPORT_BYTES = 2_000_000_000
ROLE_OF = {"user": "user", "human": "user", "assistant": "assistant"}
FORMATS = ("monchat", "chatgpt", "claude", "sillytavern")


class Skip(Exception):
    """This message is not imported; the argument is why (system, tool, empty, hidden, …)."""


def detect(raw: bytes, name: str = "") -> str:
    """Which export ``raw`` is: one of FORMATS. Raises InputError when it is none of them.

    A ``.jsonl`` file or one whose first line is a JSON object that is no other format is read as
    monchat's JSONL, whose errors name each bad line.
    """
    text = raw.lstrip()
    if text[:1] in (b"[", b"{"):
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            data = None  # maybe JSONL: look at the first line below
        if data is not None:
            conversations = data if isinstance(data, list) else [data]
            first = next((c for c in conversations if isinstance(c, dict)), {})
            if "mapping" in first:
                return "chatgpt"
            if "chat_messages" in first:
                return "claude"
            if isinstance(data, dict) and {"ts", "role", "text"} <= set(data):
                return "monchat"  # a one-line monchat file
            if isinstance(data, list) and not data and not name.lower().endswith(".jsonl"):
                raise InputError("The export holds no conversations.", "Choose another file.")
    first_line = next((line for line in raw.split(b"\n") if line.strip()), b"")
    try:
        head = json.loads(first_line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        head = None
    if isinstance(head, dict):
        if "chat_metadata" in head or "character_name" in head or ("mes" in head and "is_user" in head):
            return "sillytavern"
    if isinstance(head, dict) or name.lower().endswith(".jsonl"):
        return "monchat"
    raise InputError("monchat does not recognise this file as chat history.",
                     "Import monchat's JSONL, ChatGPT's or Claude's conversations.json, or a SillyTavern "
                     "chat (.jsonl).")


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
        InputError: unreadable, unknown or malformed file (nothing is imported), or bad monchat
            lines without ``skip_bad``.
    """
    try:
        if Path(path).stat().st_size > MAX_IMPORT_BYTES:
            raise InputError(f"{path} is larger than 2 GB.", "Split the export into smaller files.")
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc
    kind = detect(raw, Path(path).name)
    if kind == "monchat":
        return import_jsonl(path, logbook, archive, default_persona=persona or default_persona, skip_bad=skip_bad,
                            now=now, progress=progress)
    report = ImportReport(format=kind)
    try:
        if kind == "sillytavern":
            records = list(_sillytavern(raw, report, tz))
            character = _sillytavern_character(raw)
            who = persona or (persona_names or {}).get(character) or default_persona
        else:
            conversations = json.loads(raw.decode("utf-8"))
            if isinstance(conversations, dict):
                conversations = [conversations]
            walk = _chatgpt if kind == "chatgpt" else _claude
            records = [r for c in conversations for r in walk(_as_dict(c, "a conversation"), report)]
            who = persona or kind
    except (UnicodeDecodeError, json.JSONDecodeError, ValueError, TypeError, KeyError, AttributeError,
            OverflowError, OSError) as exc:  # OSError: fromtimestamp of an absurd time
        raise InputError(f"{path} looks like a {label(kind)} export but is not well formed: {_why(exc)}.",
                         "Export it again from the service; nothing was imported.") from exc
    messages = []
    for where, record in records:
        report.read += 1
        try:
            messages.append(message_from_record(record, who, now))
        except ValueError as exc:
            report.bad_lines.append(f"{where}: {exc}")
    if report.bad_lines and not skip_bad:
        shown = "\n  ".join(report.bad_lines[:20])
        raise InputError(f"{path} has {len(report.bad_lines)} bad message(s); nothing was imported:\n  {shown}",
                         "Run again with --skip-bad to import the good ones.")
    return place_messages(messages, logbook, archive, report, progress)


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
def _chatgpt(conversation: dict, report: ImportReport):
    """The messages of the branch the user saw, root first."""
    mapping = _as_dict(conversation["mapping"], "mapping")
    title = conversation.get("title") or conversation.get("id") or "?"
    node_id = conversation.get("current_node")
    if node_id is None:  # older exports: the newest leaf
        leaves = [k for k, n in mapping.items() if isinstance(n, dict) and not n.get("children")]
        node_id = leaves[-1] if leaves else None
    branch, seen = [], set()
    while node_id is not None:
        if node_id in seen:
            raise ValueError(f"conversation {title!r}: the parent links form a loop")
        seen.add(node_id)
        node = _as_dict(mapping[node_id], f"node {node_id!r}")
        branch.append(node)
        node_id = node.get("parent")
    fallback = conversation.get("create_time")
    for node in reversed(branch):
        message = node.get("message")
        if not message:
            _skip(report, "empty")
            continue
        try:
            yield f"{title!r} {node.get('id', '?')}", _chatgpt_record(_as_dict(message, "message"), fallback)
        except Skip as why:
            _skip(report, str(why))


def _chatgpt_record(message: dict, fallback) -> dict:
    role = (message.get("author") or {}).get("role")
    if role not in ROLE_OF:
        raise Skip("system" if role == "system" else "tool")
    if (message.get("metadata") or {}).get("is_visually_hidden_from_conversation"):
        raise Skip("hidden")
    content = message.get("content") or {}
    parts = content.get("parts") or ([content["text"]] if isinstance(content.get("text"), str) else [])
    text = "\n".join(p for p in parts if isinstance(p, str)).strip()
    if not text:
        raise Skip("empty")
    when = message.get("create_time") or fallback
    if not isinstance(when, (int, float)):
        raise ValueError("no create_time")
    return _record(datetime.fromtimestamp(when, timezone.utc), ROLE_OF[role], text)


# ---- Claude ---------------------------------------------------------------
def _claude(conversation: dict, report: ImportReport):
    title = conversation.get("name") or conversation.get("uuid") or "?"
    messages = conversation["chat_messages"]
    if not isinstance(messages, list):
        raise ValueError(f"conversation {title!r}: chat_messages is not a list")
    for message in messages:
        message = _as_dict(message, "a message")
        role = ROLE_OF.get(message.get("sender"))
        if role is None:
            _skip(report, "system")
            continue
        blocks = message.get("content") or []
        text = "\n".join(b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text"
                         and isinstance(b.get("text"), str)).strip() if isinstance(blocks, list) else ""
        text = text or (message.get("text") or "").strip()
        if not text:
            _skip(report, "empty")
            continue
        created = message.get("created_at")
        if not isinstance(created, str):
            raise ValueError(f"conversation {title!r}: a message has no created_at")
        yield f"{title!r} {message.get('uuid', '?')}", _record(_iso(created), role, text)


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
        return datetime.fromtimestamp(value / 1000 if value > 1e11 else value, timezone.utc)
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


def _sillytavern_character(raw: bytes) -> str:
    """The character's name from the metadata line ("" when there is none)."""
    first = next((line for line in raw.split(b"\n") if line.strip()), b"{}")
    head = json.loads(first.decode("utf-8"))
    name = head.get("character_name") if isinstance(head, dict) else None
    return name.strip() if isinstance(name, str) else ""


def _sillytavern(raw: bytes, report: ImportReport, tz: tzinfo | None):
    lines = [(n, line) for n, line in enumerate(raw.split(b"\n"), start=1) if line.strip()]
    for line_no, line in lines:
        data = _as_dict(json.loads(line.decode("utf-8")), f"line {line_no}")
        if "mes" not in data:
            if line_no == lines[0][0]:
                continue  # the metadata line
            raise ValueError(f"line {line_no} has no 'mes'")
        if data.get("is_system"):
            _skip(report, "system")
            continue
        text = data["mes"].strip() if isinstance(data["mes"], str) else ""
        if not text:
            _skip(report, "empty")
            continue
        yield f"line {line_no}", _record(sillytavern_time(data.get("send_date"), tz),
                                         "user" if data.get("is_user") else "assistant", text)
