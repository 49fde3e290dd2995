"""What every command prints the same way: an error with its hint, JSON, a listing, and the inbox's marks.

Commands import these from here (never from one another, never from ``main``), so no two command modules
need each other.
"""

from __future__ import annotations

import json
import sys

from ..core.background.inbox import MARKS, Inbox
from ..core.errors import InputError, KnownError


def print_error(exc: KnownError) -> None:
    print(f"monchat: {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  → {exc.hint}", file=sys.stderr)


def print_json(data) -> int:
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def print_listing(rows: list[dict], as_json: bool, empty: str, line) -> int:
    """A list command's output: the rows as JSON, or a line each (``empty`` when there are none)."""
    if as_json:
        return print_json(rows)
    if not rows:
        print(empty)
    for row in rows:
        print(line(row))
    return 0


def add_marks(p) -> None:
    """The arguments of an inbox list that can mark an entry: ``insights read 3``, ``discoveries dismiss 2``."""
    p.add_argument("action", nargs="?", choices=sorted(MARKS), help="mark entry ID read, or dismiss it")
    p.add_argument("id", nargs="?", type=int, help="the entry's number (#ID in the list)")
    p.add_argument("--json", action="store_true")


def mark_entry(inbox: Inbox, what: str, args) -> int:
    """Mark one inbox entry as ``args.action`` says (read or dismissed)."""
    if args.id is None:
        raise InputError(f"Which {what}? Give its number.", f"e.g. monchat {args.command} {args.action} 3")
    row = inbox.mark(what, args.id, args.action)
    if args.json:
        return print_json(row)
    print(f"{what} #{row['id']} is {row['status']}.")
    return 0
