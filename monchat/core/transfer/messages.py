"""Import of chat history and export of every message.

Import lines are ``{"ts": ISO-8601 with offset, "role": "user"|"assistant",
"text": ..., "persona": optional, "id": optional}``. An imported message's id comes from its
source, never from its content alone (``core/transfer/import_ids.py``), so two messages that say the
same thing at the same time are two messages, and importing the same file twice adds nothing.

An import is streamed: a JSONL file is read line by line, twice (once to check every line,
once to write), and messages are placed in batches, so memory holds one batch, not the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import InputError, StorageError
from ..logs.history import History
from .import_ids import ImportIds, Keyed
from ..logs.files import LogBook
from ..store.messages import MessageArchive
from ..memory.states import ReplyStatus
from ..types import ROLES, Message, check_id, check_text, format_ts, parse_ts


Progress = Callable[[int, int], None]
BATCH = 5000  # messages placed at a time: memory holds one batch of an import, not the whole file


@dataclass
class ImportReport:
    read: int = 0
    imported: int = 0
    already_known: int = 0
    bad_lines: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    format: str = "monchat"  # monchat | chatgpt | claude | sillytavern
    skipped: dict[str, int] = field(default_factory=dict)  # system, tool, empty, … → how many


FUTURE_SLACK = timedelta(days=1)  # clocks and zones disagree a little; a day ahead is not a real chat


def loads(text: str | bytes):
    """``json.loads`` for what a user hands us: nesting too deep to read is a ValueError, not a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply to read (JSON arrays or objects inside each other thousands "
                         "of times)") from None


def parse_import_line(line: str, default_persona: str, now: datetime | None = None) -> Message:
    """One import line → a Message that the log reader will accept. Raises ValueError with the reason.

    Args:
        now: lines stamped more than a day after it are refused (they would sit in the chat window
            for ever).
    """
    return message_from_record(loads(line), default_persona, now)


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


def jsonl_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, bytes)`` of each non-blank line, read one at a time. Raises InputError."""
    try:
        with open(path, "rb") as handle:
            for line_no, raw_line in enumerate(handle, start=1):
                if raw_line.strip():
                    yield line_no, raw_line.rstrip(b"\r\n")
    except OSError as exc:
        raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc


def _jsonl_messages(path: Path, default_persona: str, now: datetime | None, report: ImportReport | None
                    ) -> Iterator[Keyed]:
    """The good lines of a monchat JSONL file as messages; bad ones are named in ``report.bad_lines``."""
    ids = ImportIds()
    for line_no, raw_line in jsonl_lines(path):
        try:
            message = message_from_record(loads(raw_line.decode("utf-8")), default_persona, now, ids)
        except UnicodeDecodeError:
            problem = "not valid UTF-8"
        except json.JSONDecodeError as exc:
            problem = f"not valid JSON ({exc.msg})"
        except ValueError as exc:
            problem = str(exc)
        else:
            yield ids.keyed(message)
            continue
        if report is not None:
            report.bad_lines.append(f"line {line_no}: {problem}")


def import_jsonl(path: Path, logbook: LogBook, archive: MessageArchive, *,
                 default_persona: str, skip_bad: bool = False, now: datetime | None = None,
                 progress: Progress | None = None) -> ImportReport:
    """Place a JSONL history into 6-hour log files by timestamp.

    With bad lines and ``skip_bad`` False nothing is imported and InputError
    names every bad line; with ``skip_bad`` the good lines are imported.
    """
    report = ImportReport()
    total = sum(1 for _ in _jsonl_messages(path, default_persona, now, report))  # the first pass: check
    report.read = total + len(report.bad_lines)
    refuse_bad(path, report, skip_bad, "line(s)", "Fix those lines, or run again with --skip-bad to import "
                                                   "the good ones.")
    return place_messages(_jsonl_messages(path, default_persona, now, None), logbook, archive, report, progress,
                          total)


def refuse_bad(path: Path, report: ImportReport, skip_bad: bool, what: str, hint: str) -> None:
    """Without ``skip_bad``, bad lines or messages stop the import before anything is written."""
    if report.bad_lines and not skip_bad:
        shown = "\n  ".join(report.bad_lines[:20])
        more = f"\n  … and {len(report.bad_lines) - 20} more" if len(report.bad_lines) > 20 else ""
        raise InputError(f"{path} has {len(report.bad_lines)} bad {what}; nothing was imported:\n  {shown}{more}",
                         hint)


def place_messages(messages: Iterable[Message | Keyed], logbook: LogBook, archive: MessageArchive,
                   report: ImportReport, progress: Progress | None = None, total: int | None = None) -> ImportReport:
    """Write the messages not yet archived or logged into their 6-hour files, a batch at a time.

    A message is already known when its id is archived or logged, or — for an export imported before
    ids came from the source — when the id its content alone gave it then was there before this import,
    for the first message of this import with that content only (``core/transfer/import_ids.py``).
    ``progress(done, total)`` is called after each batch.

    Raises:
        StorageError: the disk filled up (or another storage fault) part way: the message says how
            many messages were imported and that running the import again adds the rest.
    """
    logged_before = logbook.ids()
    logged = set(logged_before)
    claimed: set[str] = set()  # content ids whose earlier copy is accounted for by a message of this import
    before = {p.name for p in logbook.files()}
    written_to: set[str] = set()
    done = 0
    batch: list[Keyed] = []

    def place(batch: list[Keyed]) -> None:
        nonlocal done
        archived = archive.known_ids([k.message.id for k in batch] + [k.content_id for k in batch])
        fresh = []
        for keyed in batch:
            message, content_id = keyed.message, keyed.content_id
            if message.id in archived or message.id in logged:
                report.already_known += 1
            elif (message.id != content_id and content_id not in claimed
                  and (content_id in archived or content_id in logged_before)):
                report.already_known += 1  # imported before under the content's id: that copy is this message
            else:
                logged.add(message.id)
                fresh.append(message)
            if content_id in archived or content_id in logged_before:  # only such an id can be claimed
                claimed.add(content_id)
        by_file: dict[Path, list[Message]] = {}
        for message in sorted(fresh, key=lambda m: m.dt):
            by_file.setdefault(logbook.path_for(message.dt), []).append(message)
        for path, lines in sorted(by_file.items()):
            logbook.append_batch(path, lines)
            report.imported += len(lines)  # counted file by file: a full disk stops between whole files
            written_to.add(path.name)
        done += len(batch)
        if progress is not None:
            progress(done, total if total is not None else done)

    try:
        for item in messages:
            batch.append(item if isinstance(item, Keyed) else Keyed(item, item.id))
            if len(batch) >= BATCH:
                place(batch)
                batch = []
        if batch:
            place(batch)
    except StorageError as exc:
        of = f" of {total}" if total is not None else ""
        raise type(exc)(f"{exc.message} The import stopped part way: {report.imported}{of} message(s) are imported "
                        f"(each whole; {report.already_known} were already known), the rest are not.",
                        f"{exc.hint} Then run the same import again: it adds only the messages still missing."
                        ) from exc
    report.files = sorted(written_to - before)
    return report


def export_record(m: Message) -> dict:
    """One message as an export line."""
    record = {"id": m.id, "ts": m.ts, "role": m.role, "text": m.text, "persona": m.persona}
    if m.status != ReplyStatus.OK:
        record["status"] = m.status
    if m.replaces:
        record["replaces"] = m.replaces
    return record


def export_records(logbook: LogBook, archive: MessageArchive) -> Iterator[dict]:
    for m in History(logbook, archive).all():
        yield export_record(m)


def export_jsonl_text(logbook: LogBook, archive: MessageArchive) -> str:
    """Every message, archived or not, once, as JSONL (``monchat export --jsonl`` and File → Export)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in export_records(logbook, archive))
