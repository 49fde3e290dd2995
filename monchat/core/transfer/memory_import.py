"""Portable memory, in: a monchat memory export, or a list of memories pasted from ChatGPT or Claude.

Whatever comes in waits in the review queue (state ``queued``, action ``layer1``, ``held`` = "imported");
nothing goes straight into lasting memory, and the user's approve or reject decides. ``monchat import
--memory FILE`` and File → Import memory… call ``import_memory``; the MCP server's ``propose_memory``
calls ``queue_proposals`` with ``held`` = "mcp".

- A monchat export (``core/transfer/memory_export.py``; JSON or its Markdown form): each current, live memory
  (history and what the user refused or forgot stay out) with its slot, kind and date. The user lines it
  says it rests on are **quoted material** (issue 36): kept with its review item (``store/quoted.py``) and shown
  there as quoted in the file, never put into the archive. Only what the user typed here and a history import
  of their own chats become messages: a file's line is never a chat turn, never in a model's request, never in
  ``search``, never read by the diary, and never takes the place of a message under an id already used.
- A pasted list: one memory per line or bullet (ChatGPT's "saved memories", Claude's memory export or
  the answer of Claude's import prompt: headings, code fences and dates in brackets are read as such;
  a long paragraph is split into sentences). Each becomes an ``explicit`` item in the slot
  ``imported/<source>``, with no evidence: it is what the user says about themselves.

Importing twice adds nothing: an imported memory's id comes from its slot, kind and words, and an item
whose words a live memory already has is already known.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..records.memory import MemoryRecord
from ..vocabulary.states import Action, Held, Kind, State
from ..memory.transitions import Transitions
from .memory_export import FORMAT, MARKDOWN_MARK
from ..store.quoted import QuotedStore
from ..types import check_text, format_ts, parse_ts

MAX_BYTES = 20_000_000  # a memory export of ~10,000 memories with their words; more is not a memory file
MAX_ITEMS = 5000
MAX_TEXT = 2000  # characters of one memory
MAX_QUOTED = 20  # lines a memory of a file may quote; its review shows them, no more
MAX_QUOTED_TEXT = 4000  # characters of one quoted line
SOURCES = ("chatgpt", "claude", "pasted")
HISTORY_STATES = {State.SUPERSEDED, State.RETRACTED, State.RETRACTION, State.FORGOTTEN, State.REJECTED}


@dataclass
class Proposal:
    """One memory to put before the user."""

    text: str
    slot: str
    kind: str = Kind.EXPLICIT
    valid_at: str | None = None
    evidence: list[dict] = field(default_factory=list)  # export lines {id, ts, role, text, persona}
    confidence: float | None = None  # what the file says (a monchat export: 0 to 1); None: it says none


@dataclass
class MemoryImportReport:
    format: str  # monchat-json | monchat-markdown | chatgpt | claude | pasted
    read: int = 0  # memories (or lines) in the file that could be memories
    queued: int = 0  # now waiting for review
    already_known: int = 0  # the same words are already a memory, or were imported before
    left_out: int = 0  # history, refused or forgotten memories of an export: not proposed again
    quoted: int = 0  # the lines they say they rest on, kept with their review items (never archived)
    queue_ids: list[int] = field(default_factory=list)


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _clean(text: str) -> str:
    text = " ".join(str(text).split())
    check_text(text, "text")
    return text[:MAX_TEXT]


# ---- reading -------------------------------------------------------------------
def read_text(path: Path) -> str:
    """A file's text (``-``: standard input). Raises InputError."""
    import sys
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # its bytes, judged as a file's: the locale's reader made bytes
        if stream is None:                           # that are not UTF-8 lone surrogates (exit 70); a text stream
            return sys.stdin.read()                  # (a test's) is text already
        where, data = "The standard input", stream.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise InputError(f"{where} is larger than {MAX_BYTES // 1_000_000} MB: not a memory list.",
                             "Export the memory again, or paste the list of memories only.")
    else:
        where = str(path)
        try:
            if path.stat().st_size > MAX_BYTES:
                raise InputError(f"{path} is larger than {MAX_BYTES // 1_000_000} MB: not a memory list.",
                                 "Export the memory again, or paste the list of memories only.")
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{where} is not UTF-8 text.", "Save the list as UTF-8 text and import it again.") from None


def parse(text: str, source: str = "pasted") -> tuple[str, list[Proposal], int]:
    """``(format, proposals, left_out)`` of a memory file's text. Raises InputError."""
    stripped = text.lstrip()
    # JSON: ours or nothing (never read as a list of lines) — but a list whose first line is dated the way Claude
    # dates its memories ("[2026-03-01] Prefers tea") is a pasted list: that can never be JSON (2026-03 is no number)
    if stripped.startswith(("{", "[")) and not _DATED_FIRST_LINE.match(stripped):
        try:
            data = json.loads(stripped, parse_constant=_no_constant)
        except _NotANumber as exc:
            raise InputError(f"This memory file holds {exc.args[0]}, which is not a number; nothing was imported.",
                             "Export the memory again with `monchat export --memory json`.") from None
        except (ValueError, RecursionError):
            raise InputError("This file starts like JSON but cannot be read as JSON; nothing was imported.",
                             "Export the memory again with `monchat export --memory json`.") from None
        return ("monchat-json", *_from_export(data if isinstance(data, dict) else {}))
    if MARKDOWN_MARK in text:
        return "monchat-markdown", *_from_markdown(text)
    if source not in SOURCES:
        raise InputError(f"{source!r} is not a source of pasted memories.", f"Use one of: {', '.join(SOURCES)}.")
    items = [Proposal(text, f"imported/{source}", Kind.EXPLICIT, valid_at) for text, valid_at in pasted_items(text)]
    if not items:
        raise InputError("No memories found: the text has no line that says something.",
                         "Paste the memories one per line (ChatGPT: Settings → Personalization → Manage memories).")
    return source, items, 0


class _NotANumber(ValueError):
    pass


def _no_constant(name: str):
    """``NaN``, ``Infinity`` and ``-Infinity`` are not JSON (Python's reader takes them): refused wherever they are."""
    raise _NotANumber(name)


def _from_export(data: dict) -> tuple[list[Proposal], int]:
    if data.get("format") != FORMAT or not isinstance(data.get("memories"), list):
        raise InputError("This JSON is not a monchat memory export (no \"format\": \"monchat-memory\").",
                         "Export with `monchat export --memory json`; for a ChatGPT or Claude conversation "
                         "export use `monchat import FILE` (without --memory).")
    version = data.get("version")
    if type(version) is not int or version != 1:  # a bool is an int to Python, and 1.0 is not a version
        raise InputError(f"This memory export has version {json.dumps(version)}; this monchat reads version 1, "
                         "so nothing was imported.", "Update monchat, or export again with this one.")
    out, left_out = [], 0
    for n, entry in enumerate(data["memories"], start=1):
        try:
            if not isinstance(entry, dict):
                raise ValueError("not an object")
            state = State(entry["state"])
            if entry.get("superseded_by") or state in HISTORY_STATES:
                left_out += 1
                continue
            evidence = [e for e in entry.get("evidence") or [] if isinstance(e, dict) and e.get("role") == "user"
                        and not e.get("contradicts")]
            out.append(Proposal(_clean(entry["text"]), _clean(entry["slot"]), Kind(entry["kind"]),
                                entry.get("valid_at"), evidence, _confidence(entry.get("confidence"))))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"Memory {n} of the export cannot be read ({exc}); nothing was imported.",
                             "Export it again; a file edited by hand must keep the format of docs/memory-export.md."
                             ) from None
    return out, left_out


def _confidence(value) -> float | None:
    """A file's confidence as it says it (0.9 stays 0.9), None where it gives no number in 0..1."""
    if type(value) not in (int, float) or not 0 <= value <= 1:  # a bool is no confidence
        return None
    return float(value)


_FIELDS = re.compile(r"^\s*(?:- |<!-- )state: (\w+) · slot: (.+?) · kind: (\w+)")  # a comment since issue 45


def _from_markdown(text: str) -> tuple[list[Proposal], int]:
    out, left_out, heading = [], 0, None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            continue
        found = _FIELDS.match(line)
        if heading and found:
            state, slot, kind = found.groups()
            if state in {str(s) for s in HISTORY_STATES} or kind not in {str(k) for k in Kind}:
                left_out += 1
            else:
                out.append(Proposal(_clean(heading), _clean(slot), Kind(kind)))
            heading = None
    return out, left_out


_BULLET = re.compile(r"^(?:[-*+•・●▪‣◦]|\d{1,3}[.)．、]|[（(]\d{1,3}[)）])\s*")
_DATED_FIRST_LINE = re.compile(r"\[\d{4}-\d{2}-\d{2}\][ \t]*[-–—:：]?[ \t]*[^\W\d_]")
_DATE = re.compile(r"^\[?(\d{4}-\d{2}-\d{2})\]?\s*[-–—:：]?\s*")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
_HEADING = re.compile(r"^(?:#{1,6}\s+.*|\*\*[^*]+\*\*:?|__[^_]+__:?|[^.。!?]{1,60}[:：])$")


def pasted_items(text: str) -> list[tuple[str, str | None]]:
    """The memories of a pasted list: ``(text, valid_at or None)``, each once, in order."""
    found: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("```") or _HEADING.match(line):
            continue
        line = _BULLET.sub("", line, count=1).strip()
        valid_at = None
        dated = _DATE.match(line)
        if dated:
            try:
                valid_at = format_ts(parse_ts(dated.group(1) + "T00:00:00+00:00"))
            except ValueError:
                valid_at = None
            line = line[dated.end():].strip()
        parts = [p.strip() for p in _SENTENCE.split(line)] if len(line) > 200 else [line]
        for part in parts:
            if len(part) < 3 or not any(c.isalpha() for c in part):
                continue
            key = _norm(part)
            if key not in seen:
                seen.add(key)
                found.append((_clean(part), valid_at))
    if len(found) > MAX_ITEMS:
        raise InputError(f"The list has {len(found)} memories; at most {MAX_ITEMS} are read at once.",
                         "Split the list and import the parts one after another.")
    return found


# ---- into the review queue -------------------------------------------------------
def proposal_id(prefix: str, p: Proposal) -> str:
    return f"{prefix}-" + hashlib.sha256(f"{p.slot}\x1f{p.kind}\x1f{_norm(p.text)}".encode()).hexdigest()[:12]


def queue_proposals(memory, proposals: list[Proposal], *, held: str, proposer: str, reason: str,
                    prefix: str = "imp", report: MemoryImportReport | None = None) -> MemoryImportReport:
    """Each proposal not known yet becomes a queued memory with a review row; one transaction.

    Args:
        memory: the ``MemoryService`` (never the archive: a proposal is no message).
        held: why it waits ("imported", "mcp"); proposer: who proposed it (the review shows it).
    """
    report = report or MemoryImportReport(format="")
    t = Transitions(memory.memories, memory.settings.flush, memory.clock())
    with memory.store.atomic():
        known = {_norm(m.text) for m in memory.memories.live()}
        for p in proposals:
            report.read += 1
            memory_id = proposal_id(prefix, p)
            if memory.memories.get(memory_id) is not None or _norm(p.text) in known:
                report.already_known += 1
                continue
            quoted = _quoted(p)
            confidence = p.confidence if p.confidence is not None else 0.0  # 0.0: the file gives none
            record = MemoryRecord(id=memory_id, text=p.text, slot=p.slot, kind=p.kind, state=State.QUEUED,
                                  score=confidence, confidence=confidence, persona=proposer[:40], valid_at=p.valid_at or t.stamp,
                                  created_at=t.stamp, updated_at=t.stamp)
            record = t.create(record, [])  # no ledger rows: nothing the user said here stands behind it
            t.proposers[record.id] = [proposer]
            queue_id = t.queue(record, Action.LAYER1, reason, p.confidence, held=held)  # None: the file gives none
            if quoted:
                QuotedStore(memory.store).keep(queue_id, quoted)
                report.quoted += len(quoted)
            report.queue_ids.append(queue_id)
            known.add(_norm(p.text))
            report.queued += 1
    if report.queued:
        memory.rebuild()  # memory.md lists what waits for review
    return report


def _quoted(p: Proposal) -> list[dict]:
    """The lines a file's memory says it rests on, as quoted material: the words, when the file says they were
    said and by which persona, each as the file gives it (its id is the file's, not an id here: not kept)."""
    lines: list[dict] = []
    for e in p.evidence[:MAX_QUOTED]:
        text, persona = e.get("text"), e.get("persona")
        try:
            if not isinstance(text, str) or not text.strip():
                continue  # nothing to quote
            text = "".join(c for c in " ".join(text.split()) if unicodedata.category(c) != "Cc")  # no escapes
            text = check_text(text, "text")[:MAX_QUOTED_TEXT]
            if not text.strip():
                continue
            persona = check_text(persona, "persona")[:40] if isinstance(persona, str) else ""
        except ValueError:
            continue  # a lone surrogate: not text that can be kept
        try:
            said_at = format_ts(parse_ts(e["ts"])) if isinstance(e.get("ts"), str) else None
        except ValueError:
            said_at = None
        lines.append({"text": text, "said_at": said_at, "persona": persona})
    return lines


def import_memory(app, path: Path | None = None, text: str | None = None, source: str = "pasted"
                  ) -> MemoryImportReport:
    """A memory file (or pasted text) into the review queue. Raises InputError, FlushRunning."""
    from ..errors import FlushRunning
    from ..paths import held_lock
    if text is None:
        assert path is not None, "a path or a text"
        text = read_text(path)
    fmt, proposals, left_out = parse(text, source)
    report = MemoryImportReport(format=fmt, left_out=left_out)
    proposer = {"monchat-json": "monchat export", "monchat-markdown": "monchat export", "chatgpt": "ChatGPT",
                "claude": "Claude"}.get(fmt, "pasted list")
    with held_lock(app.paths.flush_lock) as held:
        if not held:
            raise FlushRunning("A flush is running in another monchat window or terminal.",
                               "Import the memory when it has finished.")
        return queue_proposals(app.memory, proposals, held=Held.IMPORTED, proposer=proposer,
                               reason=f"imported from {proposer}: it becomes memory only if you approve it",
                               report=report)
