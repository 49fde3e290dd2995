"""The import's last stage, place (``core/transfer/importers.py``), and the export of every message.

Parsed messages are placed into their 6-hour log files by timestamp, ``BATCH`` at a time, so memory holds
one batch, not the file; a message already archived or logged is counted, not written again (ids from the
source: ``core/transfer/import_ids.py``). ``ImportReport`` is what an import tells: how many were read,
imported, already known, skipped and why, and each bad one. The export writes every message, archived or not,
once, as JSONL lines an import reads back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import StorageError
from ..logs.history import History
from .import_ids import Keyed
from ..logs.files import LogBook
from ..store.messages import MessageArchive
from ..vocabulary.states import ReplyStatus
from ..types import Message


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
