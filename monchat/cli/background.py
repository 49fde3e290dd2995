"""``monchat profile | insights | diary | gaps``: the background track's inbox in the terminal."""

from __future__ import annotations

import json

from ..core.background.inbox import MARKS, Inbox
from ..core.errors import InputError

BACKGROUND_COMMANDS = ("profile", "insights", "diary", "gaps", "skills")


def add_background_commands(sub) -> None:
    p = sub.add_parser("profile", help="interest profile over 7, 30 and 90 days (the last flush's snapshot)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("insights", help="what the reflect stage noticed at each flush (the inbox); "
                                        "`insights read|dismiss ID` marks one")
    _add_marks(p)
    p = sub.add_parser("diary", help="the one-page diary per day (all days, or DATE)")
    p.add_argument("date", nargs="?", help="YYYY-MM-DD")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("gaps", help="knowledge gaps: not known twice, or a neighbour never mentioned; "
                                    "`gaps read|dismiss ID` marks one (a dismissed gap is not hinted at)")
    _add_marks(p)
    p = sub.add_parser("skills", help="skills and the level the program gave them (L1 exposure … L3 generative)")
    p.add_argument("--json", action="store_true")


def _add_marks(p) -> None:
    p.add_argument("action", nargs="?", choices=sorted(MARKS), help="mark entry ID read, or dismiss it")
    p.add_argument("id", nargs="?", type=int, help="the entry's number (#ID in the list)")
    p.add_argument("--json", action="store_true")


def _mark(inbox: Inbox, what: str, args) -> int:
    if args.id is None:
        raise InputError(f"Which {what}? Give its number.", f"e.g. monchat {args.command} {args.action} 3")
    row = inbox.mark(what, args.id, args.action)
    if args.json:
        return _print_json(row)
    print(f"{what} #{row['id']} is {row['status']}.")
    return 0


def _print_json(data) -> int:
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def print_listing(rows: list[dict], as_json: bool, empty: str, line) -> int:
    """A list command's output: the rows as JSON, or a line each (``empty`` when there are none)."""
    if as_json:
        return _print_json(rows)
    if not rows:
        print(empty)
    for row in rows:
        print(line(row))
    return 0


def cmd_background(app, args) -> int:
    inbox = Inbox(app.store, app.settings, app.memory)
    if args.command in ("insights", "gaps") and args.action:
        return _mark(inbox, args.command.removesuffix("s"), args)
    if args.command == "skills":
        return cmd_skills(app, args)
    if args.command == "profile":
        data = inbox.profile()
        if args.json:
            return _print_json(data)
        if data["day"] is None:
            print("No profile yet: it is written at the next flush.")
            return 0
        print(f"Interest profile of {data['day']}")
        for window, entries in data["windows"].items():
            print(f"  last {window} days:")
            for e in entries:
                bar = "█" * max(1, round(e["weight"] * 20))
                print(f"    {e['topic']:16} {bar} {e['count']} ({e['delta']:+d}) {e['trend']}")
        if data["cooling"]:
            print("  cooling: " + ", ".join(e["topic"] for e in data["cooling"]))
        return 0
    if args.command == "insights":
        return print_listing(inbox.insights(), args.json, "No insights yet: the reflect stage writes them at a flush.",
                             lambda r: f"#{r['id']} run {r['run_id']} {r['kind']:8} {r['text']}  "
                                       f"[{', '.join(r['slots'])}] ({r['status']})")
    if args.command == "diary":
        pages = inbox.diary(args.date)
        if args.json:
            return _print_json(pages)
        if not pages:
            print("No diary page" + (f" for {args.date}." if args.date else "s yet: a flush writes them."))
        for page in pages:
            print(f"# {page['date']}\n{page['text']}\n  topics: {', '.join(page['topics']) or '-'}; "
                  f"{len(page['messages'])} message(s) cited\n")
        return 0
    return print_listing(inbox.gaps(), args.json, "No knowledge gaps marked.",
                         lambda r: f"#{r['id']} {r['kind']:10} {r['slot'] or '-':18} {r['text']} ({r['status']})")


def print_flush_background(report) -> None:
    """The background track's lines in a ``monchat flush`` summary: one per layer, what it changed."""
    data = report.background
    if not data:
        return
    for line in layer_lines(data):
        print(f"  {line}")


def _gap(g: dict) -> str:
    return f"{g['kind']} {g['slot']}" + (f" ({g['failures']} failures)" if g["failures"] else "")


def layer_lines(data: dict) -> list[str]:
    """Per layer, what this flush changed (``background/summary.py``), in English for the terminal."""
    layers = data.get("layers") or {}
    lines = []
    reflect = data.get("reflect")
    if reflect is None:
        lines.append("reflect: did not run (nothing found, or background.reflect is off)")
    else:
        lines.append(f"reflect: {len(reflect['insights'])} insight(s), {len(reflect['gaps'])} suspected gap(s)"
                     + (f", {reflect['dropped']} dropped (no known slot)" if reflect["dropped"] else "")
                     + " — `monchat insights`")
        entries = reflect["insights"] + reflect["gaps"]
        lines += [f"  {entry['text']}  [{', '.join(entry['slots'])}]" for entry in entries]
    profile = layers.get("profile") or {"changed": [], "rising": [], "cooling": []}
    changed = ", ".join(f"{e['topic']} {e['count']} ({e['delta']:+d})" for e in profile["changed"])
    lines.append(f"profile: {'this week ' + changed if changed else 'no change this week'}; rising "
                 f"{', '.join(profile['rising']) or '-'}; cooling {', '.join(profile['cooling']) or '-'}")
    days = (layers.get("diary") or {}).get("days") or []
    lines.append(f"diary: {', '.join(days)} — `monchat diary`" if days else "diary: no page written")
    marks = layers.get("gaps") or {"new": [], "raised": []}
    if marks["new"] or marks["raised"]:
        parts = [f"new {_gap(g)}" for g in marks["new"]] + [f"raised {_gap(g)}" for g in marks["raised"]]
        lines.append(f"gaps: {'; '.join(parts)} — `monchat gaps`")
    else:
        lines.append("gaps: none new or raised")
    changes = (layers.get("skills") or {}).get("changes") or []
    if changes:
        lines.append("skills: " + "; ".join(f"{s['name']} " + (f"L{s['from']} → " if s["from"] else "new ")
                                            + f"L{s['to']}" for s in changes))
    else:
        lines.append("skills: no level changed")
    tiers = data.get("tiers")
    if tiers:
        lines.append("tiers: " + ", ".join(f"{n} {tier}" for tier, n in tiers["counts"].items()))
        lines += [f"  digest {d['id']} of {d['slot']}: covers {', '.join(d['covers'])}" for d in tiers["digests"]]
    preferences = (layers.get("preferences") or {}).get("changes") or []
    lines.append("preferences: " + ("; ".join(f"{c['change']} {c['text']}" + (f" (was: {c['old_text']})"
                                                                             if c["old_text"] else "")
                                              for c in preferences) if preferences else "no change"))
    drawn = layers.get("graph")
    if drawn:
        found = ", ".join(f"{n} {kind}" for kind, n in sorted(drawn["discoveries"].items())) or "no discovery"
        lines.append(f"graph: {drawn['nodes']} node(s), {drawn['drawn']} edge(s) drawn; {found} — `monchat graph`")
    return lines


def cmd_skills(app, args) -> int:
    rows = Inbox(app.store).skills()
    if args.json:
        return _print_json(rows)
    if not rows:
        print("No skills yet: a flush finds them where you did something, not only talked about it.")
    for r in rows:
        print(f"{r['name']}: L{r['level']}  ({r['uses']} day(s) of use, {r['xp']:.1f} xp)  {r['memory_id']}")
    return 0
