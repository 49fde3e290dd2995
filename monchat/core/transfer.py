"""Import of chat history and export of every message.

Import lines are ``{"ts": ISO-8601 with offset, "role": "user"|"assistant",
"text": ..., "persona": optional}``. Imported messages get ids derived from
their content, so importing the same file twice adds nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable, Iterator

from .errors import InputError
from .history import History
from .logs import LogBook
from .store.messages import MessageArchive
from .types import ROLES, Message, check_text, content_message_id, format_ts, parse_ts


Progress = Callable[[int, int], None]


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


def parse_import_line(line: str, default_persona: str, now: datetime | None = None) -> Message:
    """One import line → a Message that the log reader will accept. Raises ValueError with the reason.

    Args:
        now: lines stamped more than a day after it are refused (they would sit in the chat window
            for ever).
    """
    return message_from_record(json.loads(line), default_persona, now)


def message_from_record(data, default_persona: str, now: datetime | None = None) -> Message:
    """A ``{ts, role, text, persona?}`` record → a Message the log reader will accept (ValueError if not)."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    for key in ("ts", "role", "text"):
        if not isinstance(data.get(key), str):
            raise ValueError(f"missing or non-text {key!r}")
    if data["role"] not in ROLES:
        raise ValueError(f"role must be user or assistant, not {data['role']!r}")
    if not data["text"].strip():
        raise ValueError("empty text")
    persona = data.get("persona") or default_persona
    if not isinstance(persona, str):
        raise ValueError("persona must be text")
    check_text(data["text"], "text")
    check_text(persona, "persona")
    dt = parse_ts(data["ts"])
    if now is not None and dt > now + FUTURE_SLACK:
        raise ValueError(f"timestamp {data['ts']!r} is in the future")
    ts = format_ts(dt)
    message = Message(id=content_message_id(ts, data["role"], data["text"], persona), ts=ts,
                      role=data["role"], text=data["text"], persona=persona, backend="import")
    return Message.from_dict(json.loads(message.to_json()))  # exactly what the log reader will see


def import_jsonl(path: Path, logbook: LogBook, archive: MessageArchive, *,
                 default_persona: str, skip_bad: bool = False, now: datetime | None = None,
                 progress: Progress | None = None) -> ImportReport:
    """Place a JSONL history into 6-hour log files by timestamp.

    With bad lines and ``skip_bad`` False nothing is imported and InputError
    names every bad line; with ``skip_bad`` the good lines are imported.
    """
    report = ImportReport()
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.") from exc
    messages = []
    for line_no, raw_line in enumerate(raw.split(b"\n"), start=1):
        if not raw_line.strip():
            continue
        report.read += 1
        try:
            messages.append(parse_import_line(raw_line.decode("utf-8"), default_persona, now))
        except UnicodeDecodeError:
            report.bad_lines.append(f"line {line_no}: not valid UTF-8")
        except json.JSONDecodeError as exc:
            report.bad_lines.append(f"line {line_no}: not valid JSON ({exc.msg})")
        except ValueError as exc:
            report.bad_lines.append(f"line {line_no}: {exc}")
    if report.bad_lines and not skip_bad:
        shown = "\n  ".join(report.bad_lines[:20])
        more = f"\n  … and {len(report.bad_lines) - 20} more" if len(report.bad_lines) > 20 else ""
        raise InputError(f"{path} has {len(report.bad_lines)} bad line(s); nothing was imported:\n  {shown}{more}",
                         "Fix those lines, or run again with --skip-bad to import the good ones.")
    return place_messages(messages, logbook, archive, report, progress)


def place_messages(messages: list[Message], logbook: LogBook, archive: MessageArchive, report: ImportReport,
                   progress: Progress | None = None) -> ImportReport:
    """Write the messages not yet archived or logged into their 6-hour files, one file at a time.

    ``progress(done, total)`` is called after each file (a large history fills many).
    """
    archived = archive.ids()
    fresh = [m for m in messages if m.id not in archived]
    report.already_known += len(messages) - len(fresh)
    before = {p.name for p in logbook.files()}
    by_file: dict[str, list[Message]] = {}
    for m in fresh:
        by_file.setdefault(logbook.path_for(m.dt).name, []).append(m)
    done = 0
    for name in sorted(by_file):
        written = logbook.import_messages(by_file[name])
        report.imported += written
        report.already_known += len(by_file[name]) - written
        done += len(by_file[name])
        if progress is not None:
            progress(done, len(fresh))
    report.files = sorted(set(by_file) - before)
    return report


def export_record(m: Message) -> dict:
    """One message as an export line."""
    record = {"id": m.id, "ts": m.ts, "role": m.role, "text": m.text, "persona": m.persona}
    if m.status != "ok":
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
