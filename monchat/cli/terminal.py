"""Text that comes from a terminal or a pipe: decoded so that one bad byte never stops a message or the next."""

from __future__ import annotations

import sys

from ..core.types import clean_text


def stdin_lines():
    """Piped lines, decoded one by one: an undecodable line must not stop the ones after it."""
    raw_stdin = getattr(sys.stdin, "buffer", None)
    if raw_stdin is None:  # already text (an embedding program or a test replaced stdin)
        yield from (line.rstrip("\r\n") for line in sys.stdin)
        return
    for raw in raw_stdin:
        yield raw.decode("utf-8", "surrogateescape").rstrip("\r\n")


def terminal_text(text: str) -> str:
    """Text typed at a terminal or given as an argument, undecodable bytes replaced (and said so)."""
    cleaned, replaced = clean_text(text)
    if replaced:
        print("monchat: warning: the message was not valid UTF-8; the bytes that could not be read were "
              "replaced with \ufffd", file=sys.stderr)
    return cleaned
