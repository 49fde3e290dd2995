"""The user's own controls in the terminal: ``monchat memory pause|resume``, ``monchat memory never …`` and
``monchat offrecord status|clear|default`` — the same core calls as the window's Chat and Memory menus and
Settings → Memory (``core/memory/pause.py``, ``core/memory/never.py``, ``core/logs/off_record.py``)."""

from __future__ import annotations

import json

from ..core.errors import InputError

PRIVACY_ACTIONS = ("pause", "resume", "never")
NEVER_ACTIONS = ("list", "add", "remove", "matches", "forget")
OFF_RECORD_ACTIONS = ("status", "clear", "default")


def register(sub) -> None:
    p = sub.add_parser("offrecord", help="off-the-record chats: what is kept and until when; clear them now; "
                                         "a persona's default")
    p.add_argument("action", choices=OFF_RECORD_ACTIONS, nargs="?", default="status")
    p.add_argument("value", nargs="?", choices=("on", "off"), help="default: on or off (for --persona)")
    p.add_argument("--persona", help="default: the surface persona (else the chat persona)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_offrecord)


def _print(data, as_json: bool, lines) -> int:
    if as_json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for line in lines:
            print(line)
    return 0


def cmd_memory_privacy(app, args) -> int:
    """``monchat memory pause|resume|never …``."""
    if args.action == "pause":
        since = app.pause.pause()
        return _print({"paused": True, "since": since}, args.json,
                      [f"Memory is paused (since {since}): flushes archive your messages and propose nothing. "
                       "`monchat memory resume` turns it back on."])
    if args.action == "resume":
        was = app.pause.resume()
        return _print({"paused": False, "was_paused": was}, args.json,
                      ["Memory is on again: the next flush reads the new messages." if was else
                       "Memory was not paused."])
    return _never(app, args)


def _never(app, args) -> int:
    action = args.id or "list"
    if action not in NEVER_ACTIONS:
        raise InputError(f"Unknown action {action!r} for `monchat memory never`.",
                         f"Use one of: {', '.join(NEVER_ACTIONS)}.")
    never = app.never
    words = " ".join(args.text)
    if action == "list":
        rules = never.list()
        return _print(rules, args.json, [f"{r['id']:>3}  {r['text']}" for r in rules] or
                      ["No never-remember rules. Add one with `monchat memory never add TOPIC`."])
    if action == "add":
        rule = never.add(words)
        matches = _matches(never, [rule["text"]])
        lines = [f"Never remember: {rule['text']} (rule {rule['id']}). Every flush drops a proposal that matches it."]
        if matches:
            lines.append(f"{len(matches)} memory(ies) you already have match it:")
            lines += [f"  {m['id']}  {m['text']}" for m in matches]
            lines.append("Forget them with `monchat memory never forget` (`monchat memory restore ID` undoes one).")
        return _print({"rule": rule, "matching": matches}, args.json, lines)
    if action == "remove":
        if not words:
            raise InputError("Which rule?", "Give its number or its text (`monchat memory never list`).")
        rule = never.remove(words)
        return _print({"removed": rule}, args.json, [f"Removed the rule: {rule['text']}"])
    if action == "matches":
        matches = _matches(never)
        return _print(matches, args.json, [f"{m['id']}  {m['text']}  (rule: {m['rule']})" for m in matches] or
                      ["No memory matches a never-remember rule."])
    forgotten = never.forget_matching()
    return _print({"forgotten": forgotten}, args.json,
                  [f"Forgotten: {', '.join(forgotten)}" if forgotten else "No memory matches a never-remember rule."])


def _matches(never, rules=None) -> list[dict]:
    return [{"id": m.id, "text": m.text, "slot": m.slot, "state": str(m.state), "rule": rule}
            for m, rule in never.matching(rules)]


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


def status_lines(app, status: dict) -> list[str]:
    """``monchat status``: the user's own controls, when any is in use."""
    lines = []
    if status["memory_paused"]:
        lines.append(f"paused:    memory is paused since {status['memory_paused']}: flushes archive and propose "
                     "nothing (`monchat memory resume`)")
    off = status["off_record"]
    if off["messages"]:
        lines.append(f"off the record: {off['messages']} message(s), removed {off['hours']} hours after each")
    if status["never_rules"]:
        lines.append(f"never:     {status['never_rules']} never-remember rule(s) (`monchat memory never list`)")
    return lines

