"""``monchat chat`` in a terminal: what is typed is logged before anything can fail.

Terminal input is decoded with replacement characters (and the user told), piped
lines one by one, so one undecodable line never stops the ones after it. Ctrl+C
stops a reply the way the GUI's Stop button does: the reply runs on a worker
thread, the main thread only sets the stop event, and the partial text is
logged as ``stopped``. At the interactive prompt ``/regenerate`` and ``/edit`` make
the same ChatService calls as the GUI's Regenerate and Edit (``/help`` lists them).
"""

from __future__ import annotations

import contextlib
import sys
import threading

from .consent import ensure_cloud_consent
from .output import print_error
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


def _without_database(args, error) -> int | None:
    """Given messages are logged (unanswered) before the command fails; an interactive chat has none."""
    if not messages_given(args):
        return None
    from ..core.paths import Paths
    from .degraded import log_without_database
    return log_without_database(Paths.from_env(), error, args.message or stdin_lines(), args.persona)


def chat_in_terminal(app, args) -> int:
    """``monchat chat``: ``-m`` messages, piped lines, or an interactive prompt."""
    chat = app.chat
    from ..core.personas.library import terminal_persona
    persona_id = args.persona or terminal_persona(app.personas, app.settings.chat)
    if getattr(args, "off_record", None) is not None:  # --off-record / --on-record, for this session
        chat.set_off_record(persona_id, args.off_record)
    ensure_cloud_consent(app, _persona_or_none(chat, persona_id))  # before anything is logged, as the window asks
    if args.message:
        lines = iter(args.message)
    elif not sys.stdin.isatty():
        lines = stdin_lines()
    else:
        return interactive_chat(app, persona_id)
    for line in lines:
        line = terminal_text(line)
        if not line.strip():
            continue
        result = chat.send(line, persona_id=persona_id)
        print(result.reply.text if result.reply else "", flush=True)
        for warning in result.warnings:
            print(f"monchat: warning: {warning}", file=sys.stderr)
    return 0


def _persona_or_none(chat, persona_id):
    """The persona, or None when it cannot be found (the turn logs the message, then reports that)."""
    try:
        return chat.persona(persona_id)
    except KnownError:
        return None


HELP = """Commands:
  /regenerate    ask again for the last reply; the new reply replaces it
  /edit TEXT     replace your last message with TEXT and ask again (/edit alone asks for the text)
  /offrecord on|off  go off the record (no flush reads what follows; removed after off_record.hours) or back
  /help          this list
  /quit, /exit   leave (Ctrl+D too)
Ctrl+C stops a reply; what arrived is kept, marked stopped. Anything else is sent as a message."""


def interactive_chat(app, persona_id: str) -> int:
    """The prompt loop: each line is a message or a command (``/help`` lists them)."""
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
        line = terminal_text(line)
        command, _, rest = line.strip().partition(" ")
        if command in ("/quit", "/exit") and not rest:
            return 0
        if command == "/help" and not rest:
            print(HELP)
            continue
        if command == "/offrecord" and rest.strip() in ("on", "off"):
            chat.set_off_record(persona.id, rest.strip() == "on")
            print("Off the record: no flush reads what you say now." if rest.strip() == "on" else
                  "On the record again: a flush reads what you say now.")
            continue
        if not line.strip():
            continue
        if command == "/regenerate" and not rest:
            def turn(stop, on_chunk):
                return chat.regenerate(persona_id=persona.id, stop=stop, on_chunk=on_chunk)
        elif command == "/edit":
            text = rest.strip() or _ask_edited_text(chat)
            if not text:
                continue

            def turn(stop, on_chunk, text=text):
                return chat.edit_last(text, persona_id=persona.id, stop=stop, on_chunk=on_chunk)
        else:
            def turn(stop, on_chunk, line=line):
                return chat.send(line, persona_id=persona.id, stop=stop, on_chunk=on_chunk)
        print(f"{persona.name}: ", end="", flush=True)
        try:
            result = _run_stoppable(turn)
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
