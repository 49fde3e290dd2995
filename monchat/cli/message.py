"""``monchat message delete ID``: a message leaves the logs and the archive for good (``core/memory/takeback.py``).

On a terminal it shows the message and what deleting it does to memory, and asks; a script passes ``--yes``
(without a terminal and without ``--yes`` nothing is deleted: exit 2).
"""

from __future__ import annotations

import sys

from ..core.errors import InputError
from ..core.memory.scrub import BACKUPS_KEEP
from .output import print_json


def register(sub) -> None:
    p = sub.add_parser("message", help="delete a message for good (its id: `monchat search WORDS --json`)")
    p.add_argument("action", choices=("delete",))
    p.add_argument("id", help="the message's id")
    p.add_argument("--yes", "-y", action="store_true", help="delete without asking (for scripts)")
    p.add_argument("--json", action="store_true", help="print what was deleted and what it did to memory")
    p.set_defaults(run=cmd_message)


def _short(text: str, width: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _explain(plan) -> list[str]:
    """What deleting does, in words, before the question."""
    m = plan.message
    lines = [f"{m.ts[:16].replace('T', ' ')}  {m.role}: {_short(m.text)}  [{m.id}]"]
    if len(plan.versions) > 1:
        lines.append(f"  with the {len(plan.versions) - 1} earlier version(s) it replaced")
    lines.append("Deleting removes it from the log files, the archive and every record that quotes it, for good.")
    lines.append(BACKUPS_KEEP)  # zip files the user made, out of monchat's reach
    if m.role == "assistant":
        lines.append("A reply is never evidence of memory; its rating, if any, goes with it.")
    for memory in plan.retracted:
        lines.append(f"  memory taken back (it rests only on this message): {memory['id']} {memory['text']}")
    for memory in plan.weakened:
        lines.append(f"  memory that loses this message as evidence (it rests on others too): "
                     f"{memory['id']} {memory['text']}")
    if m.role == "user" and not plan.retracted and not plan.weakened:
        lines.append("No memory rests on it.")
    return lines


def _confirmed(plan) -> bool:
    for line in _explain(plan):
        print(line)
    try:
        answer = input("Delete it for good? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def cmd_message(app, args) -> int:
    deletion = app.messages
    plan = deletion.plan(args.id)  # an unknown id is NotFound (exit 2) before anything is asked
    if not args.yes:
        if not sys.stdin.isatty():
            raise InputError("Not deleted: there is no terminal to ask on.",
                             f"Run it on a terminal, or add --yes: monchat message delete {args.id} --yes")
        if not _confirmed(plan):
            print("Nothing was deleted.")
            return 1
    done = deletion.delete(args.id)
    if args.json:
        return print_json(done.as_dict())
    versions = f" and {len(done.ids) - 1} earlier version(s)" if len(done.ids) > 1 else ""
    print(f"Deleted {done.id}{versions}: {done.log_lines} log line(s), {done.archived} archived message(s).")
    if done.memory.retracted:
        print(f"  memories taken back: {', '.join(done.memory.retracted)}")
    if done.memory.weakened:
        print(f"  memories with one less evidence: {', '.join(done.memory.weakened)}")
    if done.ratings_cleared:
        print("  its rating was cleared")
    if done.diary_days:
        print(f"  diary pages to be written again at the next flush: {', '.join(done.diary_days)}")
    print(BACKUPS_KEEP)
    return 0
