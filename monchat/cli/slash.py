"""What a line given to ``monchat chat`` means: one reading for the prompt, piped stdin and ``-m``.

A line whose first non-blank character is ``/`` (or the full-width ``／`` a Japanese input method types) is a
command, never a message: a known command is done, anything else is refused with the list of commands, so a
mistyped ``/offrecrd on`` is never sent to the model nor kept on the record. A message that really starts with a
slash is typed with two: ``//path`` sends ``/path`` — the same at the prompt, in a pipe and in ``-m``.

``read_line`` reads one line; ``read_given`` reads all the lines of a pipe or of ``-m`` before anything is done,
so input with a line that cannot be done without a terminal (or is no command) is refused whole, with exit 2,
before anything is sent or logged.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..core.errors import InputError

ESCAPE = "//"
NAMES = ("/regenerate", "/edit", "/offrecord", "/help", "/quit", "/exit")

HELP = """Commands (at the prompt, in piped input and in -m alike):
  /regenerate    ask again for the last reply; the new reply replaces it
  /edit TEXT     replace your last message with TEXT and ask again (/edit alone asks for the text: prompt only)
  /offrecord on|off  go off the record (no flush reads what follows; removed after off_record.hours) or back
  /help          this list
  /quit, /exit   leave (Ctrl+D too); in piped input the lines after it are not read
A line that starts with / is always a command. To send a message that starts with /, type two: //path sends /path.
Ctrl+C stops a reply; what arrived is kept, marked stopped. Anything else is sent as a message."""


@dataclass(frozen=True)
class Said:
    """A message to send, exactly as it will be sent (an escaped ``//`` already made one ``/``)."""

    text: str


@dataclass(frozen=True)
class Command:
    """A slash command: ``name`` is one of ``NAMES``; ``argument`` what follows it (``/edit``'s text, on/off)."""

    name: str
    argument: str = ""


def _is_slash(char: str) -> bool:
    return unicodedata.normalize("NFKC", char) == "/"


def read_line(line: str) -> Said | Command | None:
    """One line: a message, a command, or None for a blank line.

    Raises:
        InputError: the line starts with ``/`` but is no command monchat knows, or a command's argument is wrong.
    """
    start = len(line) - len(line.lstrip())
    if start == len(line):
        return None
    if not _is_slash(line[start]):
        return Said(line)
    if start + 1 < len(line) and _is_slash(line[start + 1]):
        return Said(line[:start] + line[start + 1:])  # //path sends /path
    word, argument = _split(line[start:])
    name = "/" + unicodedata.normalize("NFKC", word[1:]).lower()
    argument = argument.strip()
    if name not in NAMES:
        raise InputError(f"{word!r} is not a command; a line that starts with / is never sent as a message.",
                         f"The commands are {', '.join(NAMES)} (/help says what each does). To send it as a "
                         f"message, type the slash twice: /{line[start:][:40]}")
    if name == "/offrecord":
        choice = unicodedata.normalize("NFKC", argument).lower()
        if choice not in ("on", "off"):
            raise InputError(f"/offrecord takes on or off, not {argument!r}." if argument else "/offrecord: on or off?",
                             "Type /offrecord on (nothing after it is kept for a flush) or /offrecord off.")
        return Command(name, choice)
    if argument and name != "/edit":
        raise InputError(f"{name} takes nothing after it (it was given {argument[:40]!r}).",
                         f"Type {name} alone. To send the line as a message, type the slash twice: "
                         f"/{line[start:][:40]}")
    return Command(name, argument)


def _split(text: str) -> tuple[str, str]:
    """The command word and what follows it, split at the first blank of any kind (a tab, a newline in -m)."""
    parts = text.split(None, 1)
    return parts[0], parts[1] if len(parts) > 1 else ""


def read_given(lines) -> list[Said | Command]:
    """Every line of a pipe or of ``-m``, read before any is done.

    Raises:
        InputError: a line before any ``/quit`` is no command (``read_line``), or needs a terminal (``/edit``
            alone asks for the text): the whole input is refused, nothing sent or logged. The message names the
            line.
    """
    steps: list[Said | Command] = []
    for number, line in enumerate(lines, start=1):
        try:
            step = read_line(line)
        except InputError as exc:
            raise InputError(f"line {number}: {exc.message} Nothing was sent or logged.", exc.hint) from None
        if step == Command("/edit"):
            raise InputError(f"line {number}: /edit alone asks for the new text at a terminal; there is none here. "
                             "Nothing was sent or logged.", "Give the text with it: /edit TEXT.")
        if step is not None:
            steps.append(step)
        if isinstance(step, Command) and step.name in ("/quit", "/exit"):
            break  # what follows is left unread, as at the prompt
    return steps
