"""A message too long to send or show whole: its first part and a mark saying how much is left out.

The log files and the archive keep every character; what a chat turn reads of the window — and
what the window shows — is each message cut to ``TURN_TEXT_CHARS`` with a visible mark. The cut is
made where the text is read (``core/logs/index.py`` keeps it for each long line it indexes, the
archive cuts it in SQL), so a 50 MB message costs a turn nothing once it is old.
"""

from __future__ import annotations

import dataclasses
import re

from ..types import Message

TURN_TEXT_CHARS = 100_000  # what a turn sends of one message (README: limits); the log and archive keep all
TURN_CUT_MARK = "\n[… {rest:,} more characters of this message are not shown here; the whole message is kept]"
MARK_ROOM = 200  # a text at most this much over TURN_TEXT_CHARS is left as it is (it may carry the mark already)
_MARK = re.compile(r"\n\[… ([\d,]+) more characters of this message are not shown here; the whole message is kept\]\Z")


def cut_text(text: str, total: int | None = None, limit: int = TURN_TEXT_CHARS) -> str:
    """The first ``limit`` characters of a text of ``total`` characters (``text`` may hold only those) and the mark."""
    total = len(text) if total is None else total
    if total <= limit + MARK_ROOM:
        return text
    return text[:limit] + TURN_CUT_MARK.format(rest=total - limit)


def bounded(message: Message) -> Message:
    """``message`` as a turn sends it: cut to TURN_TEXT_CHARS with a visible mark when it is longer."""
    text = cut_text(message.text)
    return message if text is message.text else dataclasses.replace(message, text=text)


def left_out(text: str) -> int:
    """How many characters of the message a cut ``text`` leaves out (0 when it is whole)."""
    mark = _MARK.search(text[-len(TURN_CUT_MARK) - 30:]) if len(text) > TURN_TEXT_CHARS else None
    return int(mark.group(1).replace(",", "")) if mark else 0
