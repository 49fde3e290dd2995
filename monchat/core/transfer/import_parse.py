"""The import's third stage, parse (``core/transfer/importers.py``): an export's items, as the stream stage reads
them, into messages — ChatGPT's conversations, Claude's, SillyTavern's lines and monchat's own lines, each
record then checked as a message the log reader will accept and given its id (``core/transfer/import_ids.py``).

Roles, times and text are kept; system and tool messages, hidden nodes and empty ones are skipped and counted
(``report.skipped``). A bad message (no time, a time that is NaN, infinite, true or text where a number belongs,
a line that is not JSON) is named in ``report.bad_lines``. It reads no file: the items come from the stream.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timedelta, timezone, tzinfo
from typing import TYPE_CHECKING, Iterable, Iterator

from ..clock import system_zone
from .import_ids import ImportIds, Keyed
from ..types import ROLES, Message, check_id, check_text, format_ts, parse_ts

if TYPE_CHECKING:  # the report the pipeline keeps (``core/transfer/messages.py``): only its two counters are written
    from .messages import ImportReport

ROLE_OF = {"user": "user", "human": "user", "assistant": "assistant"}
FUTURE_SLACK = timedelta(days=1)  # clocks and zones disagree a little; a day ahead is not a real chat
_SHAPE_ERRORS = (ValueError, TypeError, KeyError, AttributeError, OverflowError, OSError)


class Skip(Exception):
    """This message is not imported; the argument is why (system, tool, empty, hidden, …)."""


def parse(kind: str, items: Iterable, who: str, now: datetime | None, tz: tzinfo | None,
          report: ImportReport) -> Iterator[Keyed]:
    """The messages of an export's items, in order.

    Args:
        kind: the export's format; items: ``(line number, JSON value or its ValueError)`` per line of a JSONL
            file (monchat, SillyTavern), else its conversations.
        who: whose conversation it was (a monchat line's own ``persona`` wins).
        now: messages stamped more than a day after it are bad.
        tz: a SillyTavern time without a zone is in it.
    """
    if kind == "monchat":
        return _monchat(items, who, now, report)
    records = _sillytavern(items, report, tz) if kind == "sillytavern" else _conversations(items, kind, report)
    return _messages(records, kind, who, now, report)


def _monchat(lines, default_persona: str, now: datetime | None, report: ImportReport) -> Iterator[Keyed]:
    """The good lines of a monchat JSONL file as messages; bad ones are named in ``report.bad_lines``."""
    ids = ImportIds()
    for line_no, value in lines:
        try:
            if isinstance(value, Exception):
                raise value
            message = message_from_record(value, default_persona, now, ids)
        except UnicodeDecodeError:
            problem = "not valid UTF-8"
        except json.JSONDecodeError as exc:
            problem = f"not valid JSON ({exc.msg})"
        except ValueError as exc:
            problem = str(exc)
        else:
            yield ids.keyed(message)
            continue
        report.bad_lines.append(f"line {line_no}: {problem}")


def _conversations(conversations, kind: str, report: ImportReport):
    """``(where, record or the error, key)`` for each message of each conversation (ChatGPT, Claude)."""
    walk = _chatgpt if kind == "chatgpt" else _claude
    for index, conversation in enumerate(conversations):
        if not isinstance(conversation, dict):
            yield f"conversation {index + 1}", ValueError("a conversation is not a JSON object"), None
            continue
        yield from walk(conversation, index, report)


def _messages(records, kind: str, who: str, now: datetime | None, report: ImportReport) -> Iterator[Keyed]:
    """The records that make messages; each bad one is named in ``report.bad_lines``."""
    ids = ImportIds(kind)
    for where, record, key in records:
        try:
            if isinstance(record, Exception):
                raise record
            message = message_from_record(record, who, now, ids, key)
        except _SHAPE_ERRORS as exc:
            report.bad_lines.append(f"{where}: {_why(exc)}")
            continue
        yield ids.keyed(message)


def message_from_record(data, default_persona: str, now: datetime | None = None,
                        ids: ImportIds | None = None, key: tuple | None = None) -> Message:
    """A ``{ts, role, text, persona?, id?}`` record → a Message the log reader will accept (ValueError if not).

    Args:
        ids: gives the id (``core/transfer/import_ids.py``); without it, the id of a one-off record.
        key: the record's own key in its source (a ChatGPT node, a Claude message uuid); without it a
            monchat line's own ``id``, else the record's content and how often it came before.
    """
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    for key_name in ("ts", "role", "text"):
        if not isinstance(data.get(key_name), str):
            raise ValueError(f"missing or non-text {key_name!r}")
    if data["role"] not in ROLES:
        raise ValueError(f"role must be user or assistant, not {data['role']!r}")
    if not data["text"].strip():
        raise ValueError("empty text")
    persona = data.get("persona") or default_persona
    if not isinstance(persona, str):
        raise ValueError("persona must be text")
    own_id = data.get("id")
    try:
        own_id = check_id(own_id) if isinstance(own_id, str) else None
    except ValueError:
        own_id = None  # another tool's id that cannot be monchat's: the content gives the id instead
    check_text(data["text"], "text")
    check_text(persona, "persona")
    dt = parse_ts(data["ts"])
    if now is not None and dt > now + FUTURE_SLACK:
        raise ValueError(f"timestamp {data['ts']!r} is in the future")
    ts = format_ts(dt)
    ids = ids or ImportIds()
    message_id = ids.assign(ts, data["role"], data["text"], persona, own_id=own_id, key=key)
    message = Message(id=message_id, ts=ts, role=data["role"], text=data["text"], persona=persona, backend="import")
    return Message.from_dict(json.loads(message.to_json()))  # exactly what the log reader will see


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
    return dt if dt.tzinfo else dt.replace(tzinfo=tz or system_zone())


# ---- SillyTavern ------------------------------------------------------------
_HUMANIZED = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2}) ?@(\d{1,2})h ?(\d{1,2})m ?(\d{1,2})s(?: ?(\d{1,3})ms)?$")


def sillytavern_time(value, tz: tzinfo | None = None) -> datetime:
    """``send_date`` as SillyTavern has written it over the years: ISO, epoch ms, ``2026-11-29 @15h 04m 05s
    123ms``, or ``November 29, 2026 3:04pm``. Times without a zone are local. Raises ValueError."""
    local = tz or system_zone()
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


def _sillytavern(lines, report: ImportReport, tz: tzinfo | None):
    """``(where, record or the error, None)`` per line: a SillyTavern chat has no message ids
    (``core/transfer/import_ids.py`` keys its lines on their content and repeats)."""
    first = True
    for line_no, value in lines:
        where = f"line {line_no}"
        try:
            if isinstance(value, Exception):
                raise value
            data = _as_dict(value, where)
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
