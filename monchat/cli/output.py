"""What every command prints the same way: an error with its hint, JSON, JSON or lines, a list of rows."""

from __future__ import annotations

import json
import sys

from ..core.errors import KnownError


def print_error(exc: KnownError) -> None:
    """``monchat: what happened`` and ``→ what to do`` on stderr."""
    print(f"monchat: {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  → {exc.hint}", file=sys.stderr)


def print_json(data) -> int:
    """``--json`` output: indented, non-ASCII kept as it is; exit code 0."""
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def print_result(data, as_json: bool, lines: list[str]) -> int:
    """A command's result: ``data`` as JSON with ``--json``, else ``lines``, one a line; exit code 0."""
    if as_json:
        return print_json(data)
    for line in lines:
        print(line)
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
