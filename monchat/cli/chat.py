"""``monchat chat`` in a terminal: what is typed is logged before anything can fail.

Terminal input is decoded with replacement characters (and the user told), piped
lines one by one, so one undecodable line never stops the ones after it. Ctrl+C
stops a reply the way the GUI's Stop button does: the reply runs on a worker
thread, the main thread only sets the stop event, and the partial text is
logged as ``stopped``. ``/regenerate`` and ``/edit`` make the same ChatService calls as
the GUI's Regenerate and Edit (``/help`` lists them).

A line is read the same way at the prompt, in a pipe and in ``-m`` (``slash.py``): a line
that starts with ``/`` is a command, done as at the prompt, and never a message (``//``
sends one slash). The lines of a pipe or ``-m`` are all read before any is done, so input
with a line that is no command is refused whole (exit 2): nothing sent, nothing logged.
"""

from __future__ import annotations

import contextlib
import sys
import threading

from .consent import ensure_cloud_consent
from .output import print_error
from .slash import HELP, Command, Said, read_given, read_line
from .terminal import stdin_lines, terminal_text
from ..core.errors import InputError, KnownError
from ..core.vocabulary.states import GateState


def register(sub) -> None:
    p = sub.add_parser("chat", help="chat in the terminal (piped stdin: one message per line)")
    p.add_argument("--persona", help="surface persona id")
    p.add_argument("-m", "--message", action="append", help="send this message and exit (repeatable)")
    record = p.add_mutually_exclusive_group()
    record.add_argument("--off-record", dest="off_record", action="store_true", default=None,
                        help="off the record: no flush reads it; removed after off_record.hours (24)")
    record.add_argument("--on-record", dest="off_record", action="store_false",
                        help="on the record, even with a persona that starts off it")
    p.set_defaults(run=chat_in_terminal, logs_first=messages_given, without_database=_without_database)


def messages_given(args) -> bool:
    """``chat -m TEXT`` or lines piped to ``chat``: messages to log even when the database cannot be used."""
    return bool(args.message or (sys.stdin is not None and not sys.stdin.isatty()))


def _given_steps(args) -> list[Said | Command]:
    """The ``-m`` messages or the piped lines, each read as the prompt reads it, before any is done.

    Raises:
        InputError: a line is no command, or needs a terminal (``slash.read_given``).
    """
    return read_given(terminal_text(line) for line in (args.message or stdin_lines()))


def _without_database(args, error) -> int | None:
    """Given messages are logged (unanswered) before the command fails; an interactive chat has none.

    The commands among them act as they would with a database: what follows ``/offrecord on`` goes to the
    off-the-record files; a turn (``/regenerate``, ``/edit TEXT``) cannot be done and is said to be skipped.
    """
    if not messages_given(args):
        return None
    from ..core.paths import Paths
    from .degraded import log_without_database
    try:
        steps = _given_steps(args)
    except InputError as exc:  # refused whole, as with a database: the user's line is named on stderr only
        print_error(exc)
        return exc.exit_code
    return log_without_database(Paths.from_env(), error, steps, args.persona, args.off_record)


def chat_in_terminal(app, args) -> int:
    """``monchat chat``: ``-m`` messages, piped lines, or an interactive prompt."""
    chat = app.chat
    from ..core.personas.library import terminal_persona
    persona_id = args.persona or terminal_persona(app.personas, app.settings.chat)
    steps = None
    if messages_given(args):
        try:
            steps = _given_steps(args)  # all read first: a line refused means nothing is sent or logged
        except InputError as exc:
            print_error(exc)  # not through the command's error log: the message names what the user typed
            return exc.exit_code
    if getattr(args, "off_record", None) is not None:  # --off-record / --on-record, for this session
        chat.set_off_record(persona_id, args.off_record)
    ensure_cloud_consent(app, _persona_or_none(chat, persona_id))  # before anything is logged, as the window asks
    if steps is None:
        return interactive_chat(app, persona_id)
    for step in steps:
        if isinstance(step, Command) and step.name in ("/quit", "/exit"):
            break
        turn = _do_command(chat, persona_id, step, sys.stderr) if isinstance(step, Command) else _send(chat, step)
        if turn is None:
            continue
        result = turn(persona_id, None, None)
        print(result.reply.text if result.reply else "", flush=True)
        for warning in result.warnings:
            print(f"monchat: warning: {warning}", file=sys.stderr)
    return 0


def _send(chat, said: Said):
    """The turn that sends a message (``turn(persona_id, stop, on_chunk)``)."""
    def turn(persona_id, stop, on_chunk):
        return chat.send(said.text, persona_id=persona_id, stop=stop, on_chunk=on_chunk)
    return turn


def _do_command(chat, persona_id: str, command: Command, notices):
    """Do a command that needs no model call now; return the turn of one that does (else None).

    ``notices``: where a command says what it did — the prompt's stdout, or stderr when stdout carries the
    replies of a pipe or ``-m``. ``/quit`` is the caller's (it ends its loop); ``/edit`` alone too (it asks).
    """
    if command.name == "/help":
        print(HELP)
        return None
    if command.name == "/offrecord":
        chat.set_off_record(persona_id, command.argument == "on")
        print("Off the record: no flush reads what you say now." if command.argument == "on" else
              "On the record again: a flush reads what you say now.", file=notices, flush=True)
        return None
    if command.name == "/regenerate":
        def turn(persona_id, stop, on_chunk):
            return chat.regenerate(persona_id=persona_id, stop=stop, on_chunk=on_chunk)
        return turn

    def edit(persona_id, stop, on_chunk, text=command.argument):
        return chat.edit_last(text, persona_id=persona_id, stop=stop, on_chunk=on_chunk)
    return edit


def _persona_or_none(chat, persona_id):
    """The persona, or None when it cannot be found (the turn logs the message, then reports that)."""
    try:
        return chat.persona(persona_id)
    except KnownError:
        return None


def interactive_chat(app, persona_id: str) -> int:
    """The prompt loop: each line is a message or a command (``/help`` lists them; ``slash.read_line``)."""
    chat = app.chat
    persona = chat.persona(persona_id)
    backend = chat.backend_for(persona)
    gate = chat.gate()
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdin.reconfigure(errors="surrogateescape")  # undecodable bytes reach terminal_text, not a crash
    print(f"{persona.name} — {backend.describe()}   (/help for commands, /quit to leave, Ctrl+C stops a reply)")
    if chat.off_record(persona.id):
        print(f"Off the record: no flush reads this conversation; it is removed after "
              f"{app.settings.off_record.hours} hours (`monchat offrecord clear` removes it now).")
    if gate.flushing and gate.state == GateState.WARN:  # chat is open at any count while a flush runs
        print("Note: a flush is running; you can chat, and what you send now is kept for the next flush.")
    elif gate.state == GateState.WARN:
        print(f"Note: {gate.unflushed_files} log files wait for a flush; run `monchat flush` soon.")
    if persona.greeting:
        print(f"{persona.name}: {persona.greeting}")
    while True:
        try:
            line = input("> ")
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:
            print()
            return 130
        try:
            step = read_line(terminal_text(line))
        except InputError as exc:  # not sent, not logged; the prompt stays
            print_error(exc)
            continue
        if step is None:
            continue
        if isinstance(step, Command) and step.name in ("/quit", "/exit"):
            return 0
        if step == Command("/edit"):
            step = Command("/edit", _ask_edited_text(chat))
            if not step.argument:
                continue
        turn = _do_command(chat, persona.id, step, sys.stdout) if isinstance(step, Command) else _send(chat, step)
        if turn is None:
            continue
        print(f"{persona.name}: ", end="", flush=True)
        try:
            result = _run_stoppable(lambda stop, on_chunk, turn=turn: turn(persona.id, stop, on_chunk))
        except KnownError as exc:
            print()
            print_error(exc)
            continue
        print()
        if result.stopped:
            print("(stopped)")
        for warning in result.warnings:
            print(f"(warning: {warning})")


def _ask_edited_text(chat) -> str:
    """``/edit`` alone: show the last message and read its replacement ("" leaves it as it is)."""
    last = next((m for m in reversed(chat.window()) if m.role == "user"), None)
    if last is None:
        print_error(InputError("There is no message to edit.", "Send a message first."))
        return ""
    print(f"Your last message: {last.text}")
    print("Type the new text (an empty line leaves it as it is).")
    try:
        return terminal_text(input("edit> ")).strip()
    except (EOFError, KeyboardInterrupt):  # the edit is dropped; the chat goes on
        print()
        return ""


def _run_stoppable(turn):
    """Run one chat turn on a worker thread; Ctrl+C stops the reply, which is logged as ``stopped``.

    Args:
        turn: ``turn(stop, on_chunk)`` makes the ChatService call (send, regenerate or edit_last).

    The worker is never interrupted mid-write: Ctrl+C only sets the stop event the backend checks
    between chunks, as the GUI's Stop button does.
    """
    stop, done = threading.Event(), threading.Event()
    outcome: dict = {}

    def work():
        try:
            outcome["result"] = turn(stop, lambda piece: print(piece, end="", flush=True))
        except BaseException as exc:  # noqa: BLE001 (handed to the main thread, which raises it)
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="chat turn", daemon=True).start()
    # Wait on an event, not Thread.join: a join interrupted by Ctrl+C can report the thread dead.
    while not done.is_set():
        try:
            done.wait(0.1)
        except KeyboardInterrupt:
            stop.set()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
