"""``monchat flush`` and ``monchat memory …`` (filled by the flush work)."""

from __future__ import annotations


def add_memory_commands(sub) -> None:
    p = sub.add_parser("flush", help="distil the unflushed logs into memory")
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("memory", help="list, show and change memories")
    p.add_argument("action")
    p.add_argument("rest", nargs="*")
    p.add_argument("--json", action="store_true")
    p.add_argument("--all", action="store_true")


def cmd_flush(app, args) -> int:
    from .core.errors import KnownError
    raise KnownError("Flush is not available yet.", "")


def cmd_memory(app, args) -> int:
    from .core.errors import KnownError
    raise KnownError("Memory commands are not available yet.", "")
