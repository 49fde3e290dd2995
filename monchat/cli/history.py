"""History commands: search, import (from other assistants too), export, backup and restore; with ``--memory``,
import and export portable memory (``core/transfer/memory_import.py``, ``memory_export.py``)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.vocabulary.states import GateState

if TYPE_CHECKING:  # the app's core is imported when a command builds it, not when the parser is made
    from ..app import App


def register_export(sub) -> None:
    p = sub.add_parser("export", help="export messages (JSONL) or memory (Markdown; --memory: portable)")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--jsonl", action="store_true", help="every message, archived or not, once")
    group.add_argument("--markdown", action="store_true", help="the readable memory file")
    group.add_argument("--memory", choices=("json", "markdown"), help="every memory with its history and the words "
                                                                     "it rests on (docs/memory-export.md)")
    p.add_argument("file", nargs="?", type=Path, help="write to this file instead of stdout (as -o)")
    p.add_argument("-o", "--output", type=Path, help="write to this file instead of stdout")
    p.set_defaults(run=cmd_export, without_database=_export_without_database)


def register(sub) -> None:
    p = sub.add_parser("search", help="find messages (archived or not); browse by day")
    p.add_argument("query", nargs="*", help="words to find (every one must occur)")
    p.add_argument("--json", action="store_true", help="a list of {id, ts, role, persona, text, replaced, off_record}")
    p.add_argument("--limit", type=int, default=200)
    p.add_argument("--days", action="store_true", help="list the days that have messages")
    p.add_argument("--day", metavar="YYYY-MM-DD", help="every message of one day")
    p.add_argument("--around", metavar="ID", help="the conversation at the moment of this message")
    p.set_defaults(run=cmd_search)

    p = sub.add_parser("import", help="import chat history: monchat JSONL, ChatGPT, Claude, SillyTavern; "
                                      "--memory: memories, into the review queue")
    p.add_argument("file", type=Path, help="the file (with --memory, - reads a pasted list from stdin)")
    p.add_argument("--memory", action="store_true", help="a monchat memory export, or a list of memories pasted "
                                                         "from ChatGPT or Claude: each waits for your review")
    p.add_argument("--source", choices=("chatgpt", "claude", "pasted"), help="--memory: where a pasted list "
                                                                             "comes from (default pasted)")
    p.add_argument("--skip-bad", action="store_true", help="import the good lines when some are bad")
    p.add_argument("--persona", help="whose conversation it was (default: a monchat line's own or the current "
                                     "persona; chatgpt / claude; for SillyTavern the persona named like the character)")
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("backup", help="copy the whole data folder into one file (safe while monchat runs)",
                       description="Copy the whole data folder (chats, memory, settings, personas, logs) into one "
                                   "file, safely while monchat runs. Downloaded models are not in it: they are "
                                   "downloaded again (`monchat models pull`, or Settings → Model).")
    p.add_argument("file", type=Path)
    p.set_defaults(run=cmd_backup)

    p = sub.add_parser("restore", help="restore a backup into an empty data folder")
    p.add_argument("file", type=Path)
    p.add_argument("--force", action="store_true", help="replace a data folder that is not empty")
    p.set_defaults(run=cmd_restore, builds_app=False)  # building the app would create the folder restore fills


def _line(m, width: int = 100, replaced: bool = False) -> str:
    text = " ".join(m.text.split())
    text = text if len(text) <= width else text[:width - 1] + "…"
    mark = (REPLACED_MARK if replaced else "") + ("(off the record) " if getattr(m, "off_record", False) else "")
    return f"{m.ts[:16].replace('T', ' ')}  {m.persona or '-':10} {m.role:9} {mark}{text}  [{m.id}]"


REPLACED_MARK = "(replaced) "  # edited away or asked for again: taken back, never read by a flush


def cmd_search(app: App, args) -> int:
    from ..core.logs.search import Hit, SearchService, query_terms
    search = SearchService(app.logbook, app.archive)
    if args.days:
        days = search.days()
        tiers = search.day_tiers()  # the last flush's; an unflushed day has none yet
        if args.json:
            print(json.dumps([{"day": d, "messages": n, "tier": tiers.get(d)} for d, n in days.items()], indent=2))
        else:
            for day, n in days.items():
                print(f"{day}  {n}  {tiers.get(day, '-')}")
        return 0
    if args.day or args.around:
        found = search.on_day(_day(args.day)) if args.day else search.around(args.around)
        replaced = search.replaced_ids()
        hits = [Hit.of(m, m.id in replaced) for m in found]
    else:
        if args.limit < 1:
            raise InputError("--limit must be 1 or more.", "Example: monchat search --limit 20 ramen")
        query = " ".join(args.query)
        query_terms(query)  # an empty query is an error before anything is read
        hits = search.search(query, args.limit)
        if not search.indexed():
            print(f"note: {search.index_note()}", file=sys.stderr)
    if args.json:
        print(json.dumps([h.as_dict() for h in hits], ensure_ascii=False, indent=2))
        return 0
    for hit in hits:
        print(_line(hit, replaced=hit.replaced))
    if not args.day and not args.around:
        print(f"{len(hits)} message(s)" + (" — see one in its conversation: monchat search --around ID"
                                          if hits else ""), file=sys.stderr)
    return 0 if hits or args.day or args.around else 1


def _day(text: str) -> str:
    from datetime import date
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise InputError(f"{text!r} is not a day.", "Write it as YYYY-MM-DD, e.g. 2026-11-29.") from None


def _first_start_persona(app: App) -> str | None:
    """Before the first start (no settings.toml): the shipped persona of the terminal's language, the one the
    window's first start talks with (``gui/chat/first_start.py``), so English history imported first shows under
    Mira in an English window, not under ハナ. Afterwards None: ``chat.persona``."""
    if app.paths.settings_path.exists():
        return None
    from ..core.personas.library import persona_for_language, terminal_language
    chat = app.settings.chat
    return persona_for_language(app.personas, chat.persona, terminal_language(chat.language))


def cmd_import(app: App, args) -> int:
    if args.memory:
        return _import_memory(app, args)
    from ..core.transfer.importers import label
    report = app.transfer.import_history(args.file, persona=args.persona, skip_bad=args.skip_bad,
                                         default_persona=_first_start_persona(app))
    print(f"{label(report.format)}: imported {report.imported} of {report.read} message(s)"
          + (f"; {report.already_known} already known" if report.already_known else ""))
    if report.skipped:
        print("skipped " + ", ".join(f"{n} {why}" for why, n in sorted(report.skipped.items())) + " message(s)")
    for bad in report.bad_lines:
        print(f"skipped {bad}", file=sys.stderr)
    gate = app.chat.gate()
    print(f"{gate.unflushed_files} unflushed log file(s); gate: {gate.state}")
    if gate.state != GateState.OK:
        print("run `monchat flush` (or press Flush): one flush reads every imported file, in parts that fit "
              "the model" + ("; chat is paused until then" if gate.state == GateState.STOP else ""))
    return 1 if report.bad_lines else 0


def cmd_export(app: App, args) -> int:
    if args.memory:
        return _export_memory(app, args.memory, args.output or args.file)
    if args.file is not None and args.output is None:
        args.output = args.file
    if args.jsonl:
        from ..core.errors import StorageError, storage_error
        try:
            text = app.transfer.history_text("jsonl")
        except (StorageError, sqlite3.Error) as exc:  # the archive cannot be read: the log files still can
            error = storage_error(exc, app.paths.db_path)
            if error is None:
                raise
            from .degraded import export_logs_only
            return export_logs_only(app.paths, error, args.output)
    else:
        text = app.transfer.history_text("markdown")
    if args.output:
        from ..core.paths import write_private
        write_private(args.output, text)  # whole or not at all, 0600 like everything monchat writes
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _export_memory(app, form: str, output: Path | None) -> int:
    from ..core.paths import write_private
    text = app.transfer.memory_text(form)
    if output is not None:
        write_private(output, text)
        print(f"wrote {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _import_memory(app, args) -> int:
    report = app.transfer.import_memory(Path(args.file), source=args.source or "pasted")
    print(f"{report.format}: {report.queued} of {report.read} memories now wait for your review"
          + (f"; {report.already_known} already known" if report.already_known else "")
          + (f"; {report.left_out} earlier, refused or forgotten ones left out" if report.left_out else "")
          + (f"; {report.quoted} line(s) the file quotes kept with them, not as your messages"
             if report.quoted else ""))
    if report.queued:
        print("nothing is remembered until you approve it: `monchat memory queue` shows the review queue, "
              "`monchat memory approve N` / `reject N` decide")
    return 0


def _export_without_database(args, error) -> int | None:
    """``export --jsonl`` still exports what the log files hold; the memory needs the database."""
    if not args.jsonl:
        return None
    from ..core.paths import Paths
    from .degraded import export_logs_only
    return export_logs_only(Paths.from_env(), error, args.output)


def cmd_backup(app: App, args) -> int:
    from ..core.transfer.backup import create_backup
    report = create_backup(app.paths, args.file, now=app.clock())
    print(f"wrote {report.path}: {report.files} file(s), {report.counts.get('messages', 0)} archived "
          f"message(s), {report.counts.get('memories', 0)} memories")
    if report.left_out:
        print("downloaded models are not in it: on another computer, `monchat models pull` gets them again")
    return 0


def cmd_restore(_app: None, args) -> int:
    """Runs before the app is built: building it would create the folder that restore fills."""
    from ..core.transfer.restore import restore_backup
    from ..core.paths import Paths
    paths = Paths.from_env()
    report = restore_backup(args.file, paths, force=args.force)
    print(f"restored {report.files} file(s) from {args.file} (made {report.created_at}) into {report.data_dir}: "
          f"{report.counts.get('messages', 0)} archived message(s), {report.counts.get('memories', 0)} memories")
    return 0

