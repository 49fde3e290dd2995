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
from .terminal import terminal_text


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


def log_without_database(paths: Paths, error: StorageError, texts, persona: str | None) -> int:
    """``chat -m`` (or lines piped to ``chat``) without a database: log each message (unanswered), then fail.

    Each message is appended and synced as a chat turn would; the user is told where it is, or that it
    could not be saved. The gate holds as in a turn: with chat paused for a flush nothing is logged.
    """
    from ..core.settings import load_settings
    print_error(error)
    try:
        settings, _ = load_settings(paths.settings_path)
    except KnownError:
        from ..core.settings import Settings
        settings = Settings()
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir)
    gate = logbook.gate(settings.gate.warn_files, settings.gate.stop_files)
    if is_marked(paths.flush_running):  # a flush runs in another process: chat is open, as with a database
        gate = dataclasses.replace(gate, flushing=True)
    if gate.state == GateState.STOP:
        print(f"monchat: your message was not saved: {gate.unflushed_files} log files wait for a flush.",
              file=sys.stderr)
        return error.exit_code
    for text in texts:
        text = terminal_text(text)
        if not text.strip():
            continue
        message = Message(id=new_message_id(), ts=format_ts(local_now()), role="user", text=text,
                          persona=persona or settings.chat.persona)
        try:
            path = logbook.append(message)
        except (StorageError, ValueError) as exc:
            print(f"monchat: your message was not saved and not sent: {getattr(exc, 'message', exc)}", file=sys.stderr)
            return error.exit_code
        print(f"monchat: your message was saved in {path}, unanswered (the database could not be opened).",
              file=sys.stderr)
    return error.exit_code
