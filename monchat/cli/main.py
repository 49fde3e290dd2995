"""The terminal face of monchat: argparse commands over the same services as the GUI."""

from __future__ import annotations

import argparse
import json
import os
import logging
import sqlite3
import sys
import traceback
from pathlib import Path

from ..app import App, build_app, setup_logging
from .background import BACKGROUND_COMMANDS, add_background_commands, cmd_background
from .graph import GRAPH_COMMANDS, add_graph_commands, cmd_graph
from .lint import LINT_COMMANDS, add_lint_commands, cmd_lint
from ..core.crash import write_crash_report
from ..core.errors import InputError, KnownError, StorageError, storage_error
from ..core.paths import write_private
from ..core.privacy.cloud import Destination
from ..core.privacy.redact import redact, redact_last_resort

log = logging.getLogger(__name__)
CHAT_OPEN_TIMEOUT = 3.0  # `chat -m`: seconds to wait for a locked database before logging the message without it

EXIT_BUG = 70


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="monchat", description="A chat companion that remembers what changed.")
    parser.add_argument("--backend", choices=("ollama", "openai", "gemini", "embedded"),
                        help="backend for this run (else settings, else the first local one that works)")
    parser.add_argument("--model", help="model name for this run")
    parser.add_argument("--verbose", action="store_true", help="debug logging to monchat.log")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("gui", help="open the desktop app (the default)")
    p = sub.add_parser("chat", help="chat in the terminal (piped stdin: one message per line)")
    p.add_argument("--persona", help="surface persona id")
    p.add_argument("-m", "--message", action="append", help="send this message and exit (repeatable)")

    p = sub.add_parser("status", help="backend, unflushed files, gate, memory counts")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("export", help="export messages (JSONL) or memory (Markdown)")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--jsonl", action="store_true", help="every message, archived or not, once")
    group.add_argument("--markdown", action="store_true", help="the readable memory file")
    p.add_argument("-o", "--output", type=Path, help="write to this file instead of stdout")

    p = sub.add_parser("doctor", help="check every backend and the data folder; say how to fix")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("personas", help="list or validate personas; import a character card; delete one")
    p.add_argument("action", choices=("list", "validate", "import", "delete"))
    p.add_argument("file", nargs="?", help="import: a Character Card V2/V3 (.json or .png); delete: a persona id")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("settings", help="show or change settings; store or remove an API key (OS keyring)")
    p.add_argument("action", choices=("show", "set", "path", "gemini-key", "forget-gemini-key", "openai-key",
                                      "forget-openai-key", "reset-learning"), nargs="?", default="show")
    p.add_argument("key", nargs="?")
    p.add_argument("value", nargs="?")

    p = sub.add_parser("pull", help="download an Ollama model (progress on stderr; Ctrl+C cancels)")
    p.add_argument("name", help="the model, e.g. gemma3:4b")

    from .memory import add_memory_commands
    add_memory_commands(sub)
    from .history import add_history_commands
    add_history_commands(sub)
    from .feedback import add_feedback_commands
    add_feedback_commands(sub)
    from .message import add_message_commands
    add_message_commands(sub)
    add_background_commands(sub)
    add_graph_commands(sub)
    add_lint_commands(sub)
    from .models import add_models_commands
    add_models_commands(sub)
    return parser


# ---- commands ------------------------------------------------------------
def cmd_status(app: App, args) -> int:
    status = app.status()
    if args.json:
        print(json.dumps(status, ensure_ascii=False, indent=2))
        return 0
    gate_words = {"ok": "ok", "warn": "a flush is recommended", "stop": "chat is paused until a flush"}
    size = status["model_size"]
    stated = f", {size['label']} parameters" if size else ""
    print(f"backend:   {status['backend']} ({status['model']}{stated})")
    if size and size["small"]:
        from ..core.backends.model_size import SUGGESTION
        print(f"warning:   a small model: memory built with it will be unreliable, and a flush puts nothing into "
              f"lasting memory without your approval; for memory you can rely on use {SUGGESTION}")
    goes_to = Destination(**status["memory_goes_to"])
    print(f"privacy:   your memory is sent to {goes_to.sentence()}")
    print(f"logs:      {status['unflushed_files']} unflushed file(s) — {gate_words[status['gate']]}"
          f" (warn at {status['warn_at']}, stop at {status['stop_at']})")
    print(f"archive:   {status['archived_messages']} message(s)")
    print(f"memory:    Layer 1 {status['layers'].get('layer1', 0)}, Layer 2 {status['layers'].get('layer2', 0)},"
          f" review queue {status['review_queue']}")
    from .feedback import learning_lines
    for line in learning_lines(app):
        print(f"learned:   auto-approve {line}")
    if status["quarantined_lines"]:
        print(f"warning:   {status['quarantined_lines']} unreadable log line(s) kept in "
              f"{app.paths.quarantine_dir}")
    if status["database_warning"]:
        print(f"warning:   {status['database_warning']}")
    for warning in status["settings_warnings"]:
        print(f"settings:  {warning}")
    print(f"data:      {status['data_dir']}")
    return 0


def cmd_export(app: App, args) -> int:
    if args.jsonl:
        from ..core.transfer.messages import export_jsonl_text
        try:
            text = export_jsonl_text(app.logbook, app.archive)
        except (StorageError, sqlite3.Error) as exc:  # the archive cannot be read: the log files still can
            error = storage_error(exc, app.paths.db_path)
            if error is None:
                raise
            from .degraded import export_logs_only
            return export_logs_only(app.paths, error, args.output)
    else:
        text = app.memory.markdown()
    if args.output:
        write_private(args.output, text)  # whole or not at all, 0600 like everything monchat writes
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_doctor(app: App, args) -> int:
    from ..core.doctor import run_doctor
    report = run_doctor(app)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        for section in report["sections"]:
            mark = "ok " if section["ok"] else "!! "
            print(f"{mark}{section['title']}")
            for check in section["checks"]:
                print(f"   {'✓' if check['ok'] else '✗'} {check['name']}: {check['detail']}")
                if not check["ok"] and check.get("hint"):
                    print(f"     → {check['hint']}")
        print(f"\nchat will use: {report['chosen']}")
    return 0 if report["ok"] else 1


def cmd_personas(app: App, args) -> int:
    registry = app.personas
    if args.action == "import":
        from ..core.personas.cards import import_card, save_card
        if args.file is None:
            raise InputError("personas import needs a card file.", "Example: monchat personas import card.png")
        persona = import_card(Path(args.file), set(registry.surface), app.settings.chat.user_name,
                              registry.user_surface_dir)
        path = save_card(registry, persona, Path(args.file))
        print(f"imported {persona.name!r} as surface persona {persona.id} ({path})")
        print(f"chat with it: monchat chat --persona {persona.id}")
        return 0
    if args.action == "delete":
        if not args.file:
            raise InputError("personas delete needs a persona id.", "Example: monchat personas delete my-card")
        from ..core.personas.library import remove_surface_persona
        if remove_surface_persona(registry, app.settings.chat, args.file):  # chat was talking with it
            app.save_settings()
        print(f"deleted surface persona {args.file} (its conversations stay in the logs and the archive)")
        return 0
    if args.action == "validate":
        if args.json:
            print(json.dumps(registry.problems, ensure_ascii=False, indent=2))
        for source, problems in registry.problems.items():
            for problem in problems:
                print(f"{source}: {problem}", file=sys.stderr)
        if not registry.problems:
            print(f"all {len(registry.surface)} surface and {len(registry.filters)} filter personas are valid")
        return 1 if registry.problems else 0
    rows = ([{"kind": "surface", "id": p.id, "name": p.name, "language": p.language, "source": p.source}
             for p in registry.surface.values()]
            + [{"kind": "filter", "id": p.id, "name": p.name, "locked": p.locked, "max_items": p.max_items,
                "style": p.style, "source": p.source} for p in registry.filters.values()])
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            flag = " (locked)" if row.get("locked") else ""
            print(f"{row['kind']:8} {row['id']:12} {row['name']}{flag}")
    return 0


def cmd_settings(app: App, args) -> int:
    from ..core.settings import set_value
    if args.action == "path":
        print(app.paths.settings_path)
        return 0
    if args.action in ("gemini-key", "forget-gemini-key"):
        return _api_key(app, "gemini", remove=args.action == "forget-gemini-key")
    if args.action in ("openai-key", "forget-openai-key"):
        return _api_key(app, "openai", remove=args.action == "forget-openai-key")
    if args.action == "reset-learning":
        from .feedback import reset_learning
        return reset_learning(app)
    if args.action == "set":
        if not args.key or args.value is None:
            raise InputError("settings set needs a key and a value.", "Example: monchat settings set gate.warn_files 4")
        set_value(app.settings, args.key, args.value)
        app.save_settings()
        print(f"{args.key} = {args.value}")
        return 0
    import tomli_w
    print(tomli_w.dumps(app.settings.to_dict()), end="")
    from .feedback import learning_lines
    for line in learning_lines(app):  # comments: the output stays valid TOML
        print(f"# learned from your reviews: {line}")
    return 0


KEY_NAMES = {"gemini": ("Gemini", "Paste the key from Google AI Studio, or pipe it on stdin."),
             "openai": ("OpenAI-compatible server", "Paste the server's API key, or pipe it on stdin.")}


def _api_key(app: App, backend: str, remove: bool) -> int:
    """Store a key in the OS keyring (typed without echo, or piped on stdin); never in a file."""
    label, paste_hint = KEY_NAMES[backend]
    store = app.secrets.set_gemini_key if backend == "gemini" else app.secrets.set_openai_key
    if remove:
        store(None)
        print(f"The {label} key was removed from the OS keyring.")
        return 0
    if sys.stdin.isatty():
        import getpass
        key = getpass.getpass(f"{label} API key (not shown): ").strip()
    else:
        key = sys.stdin.readline().strip()
    if not key:
        raise InputError("No key was given.", paste_hint)
    store(key)
    print(f"The {label} key is stored in the OS keyring.")
    return 0


def cmd_pull(app: App, args) -> int:
    """``ollama pull`` through monchat's Ollama settings; Ctrl+C stops the download."""
    backend = app.backends.build("ollama", args.name)
    last = [""]

    def show(step) -> None:
        line = step.status if step.fraction is None else f"{step.status}: {step.fraction:.0%}"
        if line != last[0]:
            print(line, file=sys.stderr, flush=True)
            last[0] = line

    try:
        backend.pull(args.name, progress=show)
    finally:
        backend.close()
    print(f"{args.name} is installed in Ollama at {backend.host}.")
    return 0


def cmd_chat(app: App, args) -> int:
    from .chat import chat_in_terminal
    return chat_in_terminal(app, args)


COMMANDS = {"chat": cmd_chat, "status": cmd_status, "export": cmd_export,
            "doctor": cmd_doctor, "personas": cmd_personas, "settings": cmd_settings, "pull": cmd_pull}
from .feedback import cmd_rate  # noqa: E402
from .message import cmd_message  # noqa: E402
COMMANDS["rate"], COMMANDS["message"] = cmd_rate, cmd_message
from .history import COMMANDS as _HISTORY_COMMANDS  # noqa: E402 (search, import, backup)
COMMANDS.update(_HISTORY_COMMANDS)
COMMANDS.update(dict.fromkeys(BACKGROUND_COMMANDS, cmd_background))
COMMANDS.update(dict.fromkeys(GRAPH_COMMANDS, cmd_graph))
COMMANDS.update(dict.fromkeys(LINT_COMMANDS, cmd_lint))


# ---- entry -----------------------------------------------------------------
def _has_display() -> bool:
    return not sys.platform.startswith("linux") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM"))


def _require_display() -> None:
    """Qt aborts the process without a display; say what to do instead."""
    if not _has_display():
        raise KnownError("There is no display to open the monchat window on.",
                         "Run it under a virtual display (`xvfb-run monchat`), "
                         "or chat in the terminal with `monchat chat`.")



def print_error(exc: KnownError) -> None:
    print(f"monchat: {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  → {exc.hint}", file=sys.stderr)


def main(argv: list[str] | None = None, *, pinned_backend=None) -> int:
    """Run one command; return its exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        pinned_backend: one backend object for every call (tests, benchmarks).
    """
    redact_last_resort()  # warnings logged before monchat.log is set up go to stderr, keys hidden
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "gui"
    app = None
    try:
        if command == "restore":  # before the app: building it would create the folder restore fills
            from .history import cmd_restore
            return cmd_restore(args)
        quick = _chat_messages_given(command, args)  # log the messages soon even if the database is locked
        app = build_app(backend=args.backend, model=args.model, pinned_backend=pinned_backend,
                        open_timeout=CHAT_OPEN_TIMEOUT if quick else None)
        setup_logging(app.paths, args.verbose)
        if command == "gui":
            _require_display()
            from ..gui.main import run_gui
            return run_gui(app)
        if command == "memory":
            from .memory import cmd_memory
            return cmd_memory(app, args)
        if command == "flush":
            from .memory import cmd_flush
            return cmd_flush(app, args)
        if command == "models":
            from .models import cmd_models
            return cmd_models(app, args)
        return COMMANDS[command](app, args)
    except StorageError as exc:
        if app is None and (command in ("doctor", "export") or _chat_messages_given(command, args)):
            return _without_database(command, args, exc)
        return _report(exc, command, app)
    except KnownError as exc:
        return _report(exc, command, app)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (sqlite3.Error, OSError) as exc:
        mapped = storage_error(exc)  # the one place that words disk and database errors
        if mapped is None:
            return _crash(app, command, exc)
        log.info("%s: %s", command, exc)
        return _report(mapped, command, app)
    except Exception as exc:  # our bug: a crash report, never silence
        return _crash(app, command, exc)
    finally:
        if app is not None:
            app.close()


def _chat_messages_given(command: str, args) -> bool:
    """``chat -m TEXT`` or lines piped to ``chat``: messages to log even when the database cannot be used."""
    return command == "chat" and bool(args.message or (sys.stdin is not None and not sys.stdin.isatty()))


def _report(exc: KnownError, command: str, app) -> int:
    """Say what went wrong on stderr, and in a window when the app could not open its own."""
    log.info("command %s failed: %s", command, exc.message)
    print_error(exc)
    if command == "gui" and app is None and _has_display() and os.environ.get("QT_QPA_PLATFORM") != "offscreen":
        from ..gui.main import show_startup_error
        show_startup_error(exc)
    return exc.exit_code


def _without_database(command: str, args, error: StorageError) -> int:
    from . import degraded as cli_degraded
    from ..core.paths import Paths
    paths = Paths.from_env()
    if command == "doctor":
        return cli_degraded.doctor_without_database(paths, error, args.json)
    if command == "chat":
        from .chat import _stdin_lines
        lines = args.message or _stdin_lines()
        return cli_degraded.log_without_database(paths, error, lines, args.persona)
    if args.jsonl:
        return cli_degraded.export_logs_only(paths, error, args.output)
    print_error(error)
    return error.exit_code


def _crash(app, command: str, exc: BaseException) -> int:
    """Our bug: a crash report, never silence."""
    log.exception("crash in %s", command)
    from ..core.paths import Paths
    paths = app.paths if app else Paths.from_env()
    path = write_crash_report(paths.crash_dir, "".join(traceback.format_exception(exc)))
    print(redact(f"monchat: internal error ({type(exc).__name__}: {exc})."), file=sys.stderr)
    if path:
        print(f"  → A crash report was written to {path}; please attach it to a bug report.", file=sys.stderr)
    return EXIT_BUG
