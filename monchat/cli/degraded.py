"""Commands that still work when the database cannot be opened: ``doctor``, ``export --jsonl``, ``chat -m``.

With a damaged, locked or unreadable ``monchat.db`` the app cannot be built, but the log files are
plain JSONL: what they hold can still be exported, doctor can still say what is wrong, and a message
given with ``chat -m`` is still logged (unanswered) before the command fails, as docs/guarantees.md promises.
"""

from __future__ import annotations

import dataclasses
import json
import sys

from ..core.doctor import recovery_hint
from ..core.errors import KnownError, StorageError
from ..core.logs.files import LogBook
from ..core.vocabulary.states import GateState
from ..core.paths import Paths, is_marked, write_private
from ..core.transfer.messages import export_record
from ..core.types import Message, format_ts, local_now, new_message_id
from .output import print_error


def export_logs_only(paths: Paths, error: StorageError, output) -> int:
    """Export every message still in the log files; say that the archive was left out."""
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir)
    read = logbook.read_all()
    messages = sorted(read.messages, key=lambda m: (m.dt.timestamp(), m.id))
    text = "".join(json.dumps(export_record(m), ensure_ascii=False) + "\n" for m in messages)
    if output:
        write_private(output, text)
    else:
        sys.stdout.write(text)
    print(f"monchat: warning: {error.message}", file=sys.stderr)
    print(f"monchat: exported only the {len(messages)} message(s) still in log files; the archive in "
          f"{paths.db_path.name} was left out.", file=sys.stderr)
    print(f"  → {recovery_hint(paths, error)}", file=sys.stderr)
    return error.exit_code


def doctor_without_database(paths: Paths, error: StorageError, as_json: bool) -> int:
    """Report the database problem and what can still be seen of the data folder."""
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir)
    read = logbook.read_all()
    checks = [
        {"name": "database", "ok": False, "detail": error.message, "hint": recovery_hint(paths, error)},
        {"name": "log files", "ok": not read.bad_lines,
         "detail": f"{len(logbook.files())} unflushed file(s) with {len(read.messages)} message(s); "
                   f"{len(read.bad_lines)} unreadable line(s)",
         "hint": "They are safe: `monchat export --jsonl` exports them even now."},
    ]
    report = {"sections": [{"title": "data", "ok": False, "checks": checks}], "usable": [],
              "chosen": f"none ({error.message})", "error": error.as_dict()}
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print("!! data")
        for check in checks:
            print(f"   {'✓' if check['ok'] else '✗'} {check['name']}: {check['detail']}")
            print(f"     → {check['hint']}")
    return error.exit_code


def log_without_database(paths: Paths, error: StorageError, steps, persona: str | None,
                         off_record: bool | None = None) -> int:
    """``chat -m`` (or lines piped to ``chat``) without a database: log each message (unanswered), then fail.

    ``steps`` are the lines as ``cli/slash.py`` read them (decoded). Each message is appended and synced as a chat turn
    would; the user is told where it is, or that it could not be saved. The gate holds as in a turn: with chat
    paused for a flush nothing is logged. Off the record (``off_record``, else the persona's default, then each
    ``/offrecord on|off``) a message goes to the off-the-record files, as a turn would put it; ``/quit`` ends the
    input; a turn (``/regenerate``, ``/edit``) needs the database and is skipped, and said so.
    """
    from ..core.logs.off_record import OffRecordLog
    from ..core.settings import load_settings
    from .slash import HELP, Command
    print_error(error)
    try:
        settings, _ = load_settings(paths.settings_path)
    except KnownError:
        from ..core.settings import Settings
        settings = Settings()
    persona = persona or settings.chat.persona
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir)
    off_book = OffRecordLog(paths.off_record_dir)
    off = persona in settings.off_record.personas if off_record is None else off_record
    gate = logbook.gate(settings.gate.warn_files, settings.gate.stop_files)
    if is_marked(paths.flush_running):  # a flush runs in another process: chat is open, as with a database
        gate = dataclasses.replace(gate, flushing=True)
    if gate.state == GateState.STOP:
        print(f"monchat: your message was not saved: {gate.unflushed_files} log files wait for a flush.",
              file=sys.stderr)
        return error.exit_code
    for step in steps:
        if isinstance(step, Command):
            if step.name in ("/quit", "/exit"):
                break
            if step.name == "/help":
                print(HELP)
            elif step.name == "/offrecord":
                off = step.argument == "on"
            else:
                print(f"monchat: {step.name} was not done: it needs the database.", file=sys.stderr)
            continue
        message = Message(id=new_message_id(), ts=format_ts(local_now()), role="user", text=step.text,
                          persona=persona, off_record=off)
        try:
            path = (off_book if off else logbook).append(message)
        except (StorageError, ValueError) as exc:
            print(f"monchat: your message was not saved and not sent: {getattr(exc, 'message', exc)}", file=sys.stderr)
            return error.exit_code
        print(f"monchat: your message was saved in {path}, unanswered (the database could not be opened).",
              file=sys.stderr)
    return error.exit_code
