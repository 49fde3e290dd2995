"""``monchat offrecord status|clear|default``: off-the-record chats in the terminal — the same core calls as the
window's Chat menu and Settings → Memory (``core/logs/off_record.py``). The user's other controls, ``monchat memory
pause|resume`` and ``monchat memory never …``, are actions of ``cli/memory.py``."""

from __future__ import annotations

from ..core.errors import InputError
from .output import print_result as _print

OFF_RECORD_ACTIONS = ("status", "clear", "default")


def register(sub) -> None:
    p = sub.add_parser("offrecord", help="off-the-record chats: what is kept and until when; clear them now; "
                                         "a persona's default")
    p.add_argument("action", choices=OFF_RECORD_ACTIONS, nargs="?", default="status")
    p.add_argument("value", nargs="?", choices=("on", "off"), help="default: on or off (for --persona)")
    p.add_argument("--persona", help="default: the surface persona (else the chat persona)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_offrecord)


def cmd_offrecord(app, args) -> int:
    """``monchat offrecord status|clear|default``."""
    off = app.logbook.off_record
    hours = app.settings.off_record.hours
    if args.action == "clear":
        removed = off.clear()
        return _print({"removed": removed}, args.json, [f"Removed {removed} off-the-record message(s)."])
    if args.action == "default":
        return _default(app, args)
    summary = off.summary(hours).to_dict()
    summary["personas"] = list(app.settings.off_record.personas)
    lines = [f"off the record: {summary['messages']} message(s), each removed {hours} hours after it was said"
             + (f" (the oldest at {summary['removed_after']})" if summary["oldest"] else "")]
    if summary["personas"]:
        lines.append(f"starts off the record with: {', '.join(summary['personas'])}")
    return _print(summary, args.json, lines)


def _default(app, args) -> int:
    persona_id = args.persona or app.settings.chat.persona
    app.chat.persona(persona_id)  # NotFound-like PersonaError for an unknown persona
    if args.value is None:
        raise InputError("On or off?", "`monchat offrecord default on --persona ID` (or off).")
    personas = [p for p in app.settings.off_record.personas if p != persona_id]
    if args.value == "on":
        personas.append(persona_id)
    app.settings.off_record.personas = personas
    app.save_settings()
    return _print({"persona": persona_id, "off_record": args.value == "on"}, args.json,
                  [f"Chats with {persona_id} start {'off' if args.value == 'on' else 'on'} the record."])

