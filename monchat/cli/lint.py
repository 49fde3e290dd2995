"""``monchat lint [--json] [--no-llm]``: knowledge lint on demand, the same as a flush runs it."""

from __future__ import annotations

import sys

from .output import print_json


def register(sub) -> None:
    p = sub.add_parser("lint", help="knowledge lint: structure, grounding, contradictions (marked, rechecked, "
                                    "then queued for review)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-llm", action="store_true", help="the program's rules only: no LLM call")
    p.set_defaults(run=cmd_lint)


def cmd_lint(app, args) -> int:
    summary = app.lint.run(no_llm=args.no_llm)  # under the flush lock, as the inbox's Check now
    if args.json:
        return print_json(summary)
    print(f"Lint ({', '.join(summary['steps'])}): {summary['marked']} new, {summary['confirmed']} rechecked, "
          f"{summary['applied']} queued for review, {summary['resolved']} resolved; "
          f"{summary['usage']['calls']} LLM call(s).")
    for finding in summary["findings"]:
        print(f"  #{finding['id']} {finding['status']:9} {finding['step']:9} {finding['kind']:16} {finding['text']}")
    if not summary["findings"]:
        print("  Nothing found.")
    for note in summary["notes"]:
        print(f"  note: {note}")
    for error in summary["errors"]:
        print(f"  warning: {error}", file=sys.stderr)
    if summary["applied"]:
        print("  Review the queue with `monchat memory list` and `monchat memory approve|reject ID`.")
    return 0
