"""The terminal face of monchat: the parser, and one run of one command with its errors said in words.

Each command family (a module of this package) registers its subcommands with
``set_defaults(run=…)``; ``run(app, args)`` does the command and returns its exit code.
A family may also set, for a subcommand that needs it:

- ``builds_app=False``: it runs before the app is built, with ``app`` None (``restore``: building
  the app would create the folder a restore fills);
- ``logs_first(args)``: true when the command has messages to log even if the database is locked
  (``chat -m``): the app then waits at most ``CHAT_OPEN_TIMEOUT`` seconds for the database;
- ``without_database(args, error)``: what the command still does when the database cannot be
  opened (an exit code), or None when there is nothing it can do;
- ``on_startup_error(error)``: how else to tell the user the app could not start (the window);
- ``paints_first=True``: ``run(build, args)`` gets a function that builds the app, not the app, and calls it
  when it is ready (the window: it paints its frame first, ``gui/window_frame.py``); errors it raises are
  reported as if the app had failed to build here.

Registering a subcommand imports nothing heavy: a family imports what its command needs
inside ``run`` (``tests/test_fast_start.py``).
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
import traceback

from .. import __version__
from ..core.crash import write_crash_report
from ..core.errors import KnownError, StorageError, storage_error
from ..core.redact import redact, redact_last_resort
from . import gui
from .output import print_error

log = logging.getLogger(__name__)
CHAT_OPEN_TIMEOUT = 3.0  # `chat -m`: seconds to wait for a locked database before logging the message without it

EXIT_BUG = 70


def _never(args) -> bool:
    return False


# What a subcommand does not set itself (the module docstring says what each means).
COMMON = {"builds_app": True, "logs_first": _never, "without_database": None, "on_startup_error": None,
          "paints_first": False}


class CommandParser(argparse.ArgumentParser):
    """A subcommand's parser: it starts from ``COMMON``, so nothing of another command's defaults leaks in."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.set_defaults(**COMMON)


def build_parser(commands: bool = True) -> argparse.ArgumentParser:
    """The parser; with ``commands`` False only its options and defaults (``monchat`` alone: the window, whose
    first paint does not wait for every command's parser to be made)."""
    parser = argparse.ArgumentParser(prog="monchat", description="A chat companion that remembers what changed.")
    parser.add_argument("--backend", choices=("ollama", "openai", "gemini", "embedded"),
                        help="backend for this run (else settings, else the first local one that works)")
    parser.add_argument("--model", help="model name for this run")
    parser.add_argument("--verbose", action="store_true", help="debug logging to monchat.log")
    parser.add_argument("--version", action="version", version=f"monchat {__version__}")
    if not commands:
        parser.set_defaults(command="gui", **{**COMMON, **gui.DEFAULTS})
        return parser
    from . import evaluate  # monchat eval: a memory score (issue 42)
    from . import (chat, feedback, flush, history, inbox, lint, memory, message, models, personas, portable, privacy,
                   settings, status)
    from . import sync  # monchat sync: one history on every device (issue 41)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    parser.set_defaults(command="gui", **{**COMMON, **gui.DEFAULTS})  # `monchat` alone opens the window
    # in the order `monchat --help` lists them
    gui.register(sub)
    chat.register(sub)
    status.register_status(sub)
    history.register_export(sub)
    status.register_doctor(sub)
    personas.register(sub)
    settings.register(sub)
    models.register_pull(sub)
    flush.register(sub)
    memory.register(sub)
    history.register(sub)
    feedback.register(sub)
    message.register(sub)
    inbox.register(sub)
    lint.register(sub)
    portable.register(sub)
    models.register(sub)
    privacy.register(sub)
    evaluate.register(sub)
    sync.register(sub)
    return parser


def main(argv: list[str] | None = None, *, pinned_backend=None) -> int:
    """Run one command; return its exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        pinned_backend: one backend object for every call (tests, benchmarks).
    """
    redact_last_resort()  # warnings logged before monchat.log is set up go to stderr, keys hidden
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(commands=bool(argv)).parse_args(argv)
    built: list = []  # the app, once built (the window builds it after its first paint)

    def build():
        from ..app import build_app, setup_logging  # the app's core: imported when it is built
        built.append(build_app(backend=args.backend, model=args.model, pinned_backend=pinned_backend,
                               open_timeout=CHAT_OPEN_TIMEOUT if args.logs_first(args) else None))
        setup_logging(built[0].paths, args.verbose)
        return built[0]

    try:
        args.pinned_backend = pinned_backend  # monchat eval builds its own apps, in scratch folders
        if not args.builds_app:
            return args.run(None, args)
        return args.run(build, args) if args.paints_first else args.run(build(), args)
    except StorageError as exc:
        app = built[0] if built else None
        done = args.without_database(args, exc) if app is None and args.without_database else None
        return _report(exc, args, app) if done is None else done
    except KnownError as exc:
        return _report(exc, args, built[0] if built else None)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (sqlite3.Error, OSError) as exc:
        mapped = storage_error(exc)  # the one place that words disk and database errors
        if mapped is None:
            return _crash(built[0] if built else None, args.command, exc)
        log.info("%s: %s", args.command, exc)
        return _report(mapped, args, built[0] if built else None)
    except Exception as exc:  # noqa: BLE001 (our bug: a crash report, never silence)
        return _crash(built[0] if built else None, args.command, exc)
    finally:
        if built:
            built[0].close()


def _report(exc: KnownError, args, app) -> int:
    """Say what went wrong on stderr, and (the window) where the user looks when the app could not open."""
    log.info("command %s failed: %s", args.command, exc.message)
    print_error(exc)
    if app is None and args.on_startup_error is not None:
        args.on_startup_error(exc)
    return exc.exit_code


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
