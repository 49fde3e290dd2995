"""Import from other assistants: recognise an export by its content and bring its messages in.

Formats (checked against the exporters' real shapes):

* monchat's JSONL (what ``monchat export --jsonl`` writes, ``core/transfer/messages.py``):
  ``{"ts", "role", "text", "persona"?, "id"?}`` per line.
* ChatGPT's ``conversations.json``: a list of conversations, each a ``mapping`` of nodes
  (``message.author.role``, ``message.create_time`` in epoch seconds, ``message.content.parts``);
  the shown branch is followed from ``current_node`` up through ``parent`` to the root.
* Claude's ``conversations.json``: a list of conversations with ``chat_messages``
  (``sender`` human|assistant, ISO ``created_at``, ``text`` or ``content`` blocks of type text).
* A SillyTavern chat (``.jsonl``): a first line of metadata (``user_name``, ``character_name``,
  ``chat_metadata``), then ``{name, is_user, is_system, send_date, mes}`` per message.

An import is one walk, front to back (``import_file`` below; ``import_jsonl`` for a file known to be monchat's):

1. **detect** (``import_detect.py``): which export a file is, reading as little as it can, and how it is read;
   a file that is none of these formats, or nested too deeply to read, is an InputError (exit 2);
2. **stream** (``json_stream.py``): JSONL (monchat, SillyTavern) line by line; a ``conversations.json`` one
   conversation at a time, so memory holds one conversation, not the export; a file that is one JSON object
   (a single conversation) was read whole by detection, up to ``MAX_JSON_OBJECT_BYTES``;
3. **parse** (``import_parse.py``): the items into messages, ids from the source (``import_ids.py``): a
   repeated message is a message, and importing the same export twice adds nothing; system, tool, hidden and
   empty messages are skipped and counted; each bad one is named;
4. **check**, then **place** (``messages.py``): the stream is parsed twice — once to count and check, then
   again to write, 5,000 messages at a time. A bad message (no time, a time that is NaN, infinite, true or text
   where a number belongs, a line that is not JSON) is named; without ``skip_bad`` nothing is imported, with
   it the others are.

Each stage calls only the stages after it (detect peeks through the stream's readers); none calls back
(``tests/test_import_pipeline.py``).
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from pathlib import Path

from ..errors import InputError
from ..logs.files import LogBook
from ..store.messages import MessageArchive
from ..types import Message
from .import_detect import Source, detect_file
from .import_parse import message_from_record, parse
from .json_stream import conversations, json_lines, loads
from .messages import ImportReport, Progress, place_messages

LINES = ("monchat", "sillytavern")  # the formats that are JSONL files
LABELS = {"monchat": "monchat", "chatgpt": "ChatGPT", "claude": "Claude", "sillytavern": "SillyTavern"}
# What a refused import calls its bad items, and what to do about them.
REFUSAL = {"monchat": ("line(s)", "Fix those lines, or run again with --skip-bad to import the good ones.")}
REFUSAL_OF_AN_EXPORT = ("message(s)", "Run again with --skip-bad to import the good ones.")


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
    source = detect_file(Path(path))  # 1. detect
    if source.kind == "monchat":
        who = persona or default_persona
    elif source.kind == "sillytavern":
        who = persona or (persona_names or {}).get(source.character) or default_persona
    else:
        who = persona or source.kind
    return _walk(source, who, logbook, archive, skip_bad=skip_bad, now=now, progress=progress, tz=tz)


def import_jsonl(path: Path, logbook: LogBook, archive: MessageArchive, *,
                 default_persona: str, skip_bad: bool = False, now: datetime | None = None,
                 progress: Progress | None = None) -> ImportReport:
    """Place a monchat JSONL history into 6-hour log files by timestamp: the walk without detection.

    With bad lines and ``skip_bad`` False nothing is imported and InputError
    names every bad line; with ``skip_bad`` the good lines are imported.
    """
    return _walk(Source(Path(path), "monchat"), default_persona, logbook, archive, skip_bad=skip_bad, now=now,
                 progress=progress, tz=None)


def _walk(source: Source, who: str, logbook: LogBook, archive: MessageArchive, *, skip_bad: bool,
          now: datetime | None, progress: Progress | None, tz: tzinfo | None) -> ImportReport:
    """Stream, parse, check, place: the file is streamed and parsed twice, once to check and once to write."""

    def messages(report: ImportReport):
        return parse(source.kind, _stream(source), who, now, tz, report)  # 2. stream, 3. parse

    report = ImportReport(format=source.kind)
    total = sum(1 for _ in messages(report))  # the first pass: check every message, write nothing
    report.read = total + len(report.bad_lines)
    refuse_bad(source.path, report, skip_bad, *REFUSAL.get(source.kind, REFUSAL_OF_AN_EXPORT))
    return place_messages(messages(ImportReport()), logbook, archive, report, progress, total)  # 4. place


def _stream(source: Source):
    """The items the parse stage reads: JSONL lines, the conversations of a list, or the one read whole."""
    if source.kind in LINES:
        return json_lines(source.path)
    if source.listed:
        return conversations(source.path)
    return source.data if isinstance(source.data, list) else [source.data]


def refuse_bad(path: Path, report: ImportReport, skip_bad: bool, what: str, hint: str) -> None:
    """Without ``skip_bad``, bad lines or messages stop the import before anything is written."""
    if report.bad_lines and not skip_bad:
        shown = "\n  ".join(report.bad_lines[:20])
        more = f"\n  … and {len(report.bad_lines) - 20} more" if len(report.bad_lines) > 20 else ""
        raise InputError(f"{path} has {len(report.bad_lines)} bad {what}; nothing was imported:\n  {shown}{more}",
                         hint)


def parse_import_line(line: str, default_persona: str, now: datetime | None = None) -> Message:
    """One import line → a Message that the log reader will accept. Raises ValueError with the reason.

    Args:
        now: lines stamped more than a day after it are refused (they would sit in the chat window
            for ever).
    """
    return message_from_record(loads(line), default_persona, now)


def label(kind: str) -> str:
    return LABELS[kind]
