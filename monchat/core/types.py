"""Records shared across core: messages, turns, usage."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Callable, Iterable

from .clock import system_epoch, system_now
from .vocabulary.states import ReplyStatus

Clock = Callable[[], datetime]

ROLES = ("user", "assistant")
STATUSES = tuple(ReplyStatus)  # ok: complete; partial: the backend failed mid-reply; stopped: the user stopped it


def local_now() -> datetime:
    """The current time, aware, in the system's time zone."""
    return system_now()


_last_id_ms = 0
_id_lock = threading.Lock()


def new_message_id() -> str:
    """A stable, time-sortable id: milliseconds then random bits (20 hex digits).

    Strictly increasing within a process, so a reply written in the same
    millisecond as its question still sorts after it.
    """
    global _last_id_ms
    with _id_lock:
        _last_id_ms = max(int(system_epoch() * 1000), _last_id_ms + 1)
        ms = _last_id_ms
    return f"{ms:012x}{secrets.token_hex(4)}"


def content_message_id(ts: str, role: str, text: str, persona: str) -> str:
    """A deterministic id for imported messages, so importing twice adds nothing."""
    digest = hashlib.sha256("\x1f".join((ts, role, text, persona)).encode("utf-8")).hexdigest()
    return "i" + digest[:19]


# Timestamps outside these UTC years are refused: within them every conversion (to any zone,
# to epoch seconds, to a local slot) works, and no real chat line lies outside them.
TS_MIN_YEAR, TS_MAX_YEAR = 1900, 2200
MAX_ID_CHARS = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def parse_ts(text: str) -> datetime:
    """Parse an ISO-8601 timestamp that carries an offset, within a sane range. Raises ValueError."""
    try:
        dt = datetime.fromisoformat(text)
    except (ValueError, TypeError, OverflowError):
        raise ValueError(f"timestamp {text!r} is not ISO-8601") from None
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"timestamp {text!r} has no UTC offset")
    if not TS_MIN_YEAR + 1 <= dt.year <= TS_MAX_YEAR - 1:
        raise ValueError(f"timestamp {text!r} is outside the years {TS_MIN_YEAR}–{TS_MAX_YEAR}")
    return dt


def check_text(value: str, name: str) -> str:
    """``value`` if it can be written as UTF-8 (no lone surrogates). Raises ValueError."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{name} holds characters that are not valid Unicode (a lone surrogate)") from None
    return value


def check_id(value: str, name: str = "id") -> str:
    """A message id: 1–200 characters, no control characters, valid Unicode. Raises ValueError."""
    check_text(value, name)
    if not value.strip() or len(value) > MAX_ID_CHARS or _CONTROL.search(value):
        raise ValueError(f"{name} must be 1–{MAX_ID_CHARS} printable characters")
    return value


def clean_text(text: str) -> tuple[str, bool]:
    """Text from a terminal or argv, with undecodable bytes (surrogate escapes) replaced by U+FFFD.

    Returns the text and whether anything was replaced.
    """
    try:
        text.encode("utf-8")
        return text, False
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogateescape") if _only_escapes(text) else \
            text.encode("utf-8", "surrogatepass")
        return raw.decode("utf-8", "replace"), True


def _only_escapes(text: str) -> bool:
    """Whether every lone surrogate is a surrogate escape (U+DC80–U+DCFF) for one undecodable byte."""
    return all(not 0xD800 <= ord(ch) <= 0xDFFF or 0xDC80 <= ord(ch) <= 0xDCFF for ch in text)


def format_ts(dt: datetime) -> str:
    return dt.isoformat(timespec="milliseconds")


@dataclass
class Message:
    """One line of a 6-hour log file, and one row of the archive."""

    id: str
    ts: str
    role: str
    text: str
    persona: str = ""
    backend: str = ""
    model: str = ""
    status: ReplyStatus = ReplyStatus.OK
    replaces: str = ""  # a regenerated or edited message names the one it replaces
    usage: dict = field(default_factory=dict)  # a reply's token counts: prompt, output, cached
    memory_revision: str = ""  # a reply: the prompt memory's revision it was written with (feedback loop)
    off_record: bool = False  # said off the record: its own log files, read by no flush (core/logs/off_record.py)

    @property
    def dt(self) -> datetime:
        return parse_ts(self.ts)

    def to_json(self) -> str:
        data = asdict(self)
        for optional, empty in (("status", ReplyStatus.OK), ("replaces", ""), ("usage", {}), ("memory_revision", ""),
                                 ("off_record", False)):
            if data[optional] == empty:
                del data[optional]
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict) -> "Message":
        """Validate a parsed log line. Raises ValueError with the reason."""
        if not isinstance(data, dict):
            raise ValueError("a log line must be a JSON object")
        for key in ("id", "ts", "role", "text"):
            if not isinstance(data.get(key), str):
                raise ValueError(f"missing or non-text field {key!r}")
            check_text(data[key], key)
        if data["role"] not in ROLES:
            raise ValueError(f"unknown role {data['role']!r}")
        check_id(data["id"])
        parse_ts(data["ts"])
        for key in ("persona", "backend", "model", "replaces", "memory_revision"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{key} must be text")
            check_text(value or "", key)
        if data.get("replaces"):
            check_id(data["replaces"], "replaces")
        usage = data.get("usage") or {}
        if not isinstance(usage, dict) or not all(isinstance(v, int) and not isinstance(v, bool) and
                                                  0 <= v < 2**53 and check_text(k, "usage")
                                                  for k, v in usage.items()):
            raise ValueError("usage must be an object of token counts")
        status = data.get("status", ReplyStatus.OK)
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        if not isinstance(data.get("off_record", False), bool):
            raise ValueError("off_record must be true or false")
        return cls(
            id=data["id"], ts=data["ts"], role=data["role"], text=data["text"],
            persona=data.get("persona") or "", backend=data.get("backend") or "",
            model=data.get("model") or "", status=ReplyStatus(status), replaces=data.get("replaces") or "",
            usage=usage, memory_revision=data.get("memory_revision") or "", off_record=data.get("off_record", False),
        )


def taken_back(messages: Iterable[Message]) -> set[str]:
    """The ids these messages replace: each was edited away or regenerated (``core/memory/takeback.py``)."""
    return {m.replaces for m in messages if m.replaces}


@dataclass
class Turn:
    """One message as a backend sees it."""

    role: str  # user | assistant
    content: str


class Coded(str):
    """An English sentence (for logs and the terminal) that carries a ``code`` and the values in it
    (``args``), so a window can word it in its own language."""

    code: str
    args: tuple

    def __new__(cls, text: str, code: str, *args) -> "Coded":
        coded = super().__new__(cls, text)
        coded.code, coded.args = code, args
        return coded

    def __reduce__(self):
        """Copied and pickled whole (``dataclasses.asdict`` deep-copies a report's notes)."""
        return (Coded, (str(self), self.code, *self.args))


@dataclass
class Usage:
    """What a backend reported about one call; ``warnings`` are ``Coded`` (codes: blocked, ended_early,
    cut_at_length)."""

    prompt_tokens: int | None = None
    output_tokens: int | None = None
    cached_tokens: int | None = None
    estimated_prompt_tokens: int | None = None
    thinking_tokens: int | None = None  # a thinking model's hidden reasoning (Gemini thoughts_token_count)
    kept_answer: bool = False  # answered from a flush's kept answers: no call was made, nothing spent
    warnings: list[str] = field(default_factory=list)

    def counts(self) -> dict:
        """The reported counts, for the log line of a reply (cached tokens show the cache was hit). A backend
        that reported no prompt count (a server ignoring ``stream_options.include_usage``) gets the estimate,
        named ``estimated_prompt_tokens`` so it is never read as a reported figure."""
        counts = {"prompt_tokens": self.prompt_tokens, "output_tokens": self.output_tokens,
                  "cached_tokens": self.cached_tokens, "thinking_tokens": self.thinking_tokens}
        if self.prompt_tokens is None:
            counts["estimated_prompt_tokens"] = self.estimated_prompt_tokens
        return {k: v for k, v in counts.items() if isinstance(v, int)}
