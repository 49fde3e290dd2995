"""``monchat profile | insights | diary | gaps``: the background track's inbox in the terminal."""

from __future__ import annotations

import json

from .core.background.inbox import Inbox

BACKGROUND_COMMANDS = ("profile", "insights", "diary", "gaps", "skills")


def add_background_commands(sub) -> None:
    p = sub.add_parser("profile", help="interest profile over 7, 30 and 90 days (the last flush's snapshot)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("insights", help="what the reflect stage noticed at each flush (the inbox)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("diary", help="the one-page diary per day (all days, or DATE)")
    p.add_argument("date", nargs="?", help="YYYY-MM-DD")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("gaps", help="knowledge gaps: corrected twice, or suspected by the reflect stage")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("skills", help="skills and the level the program gave them (L1 exposure … L3 generative)")
    p.add_argument("--json", action="store_true")


def _print_json(data) -> int:
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def cmd_background(app, args) -> int:
    inbox = Inbox(app.store)
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
        rows = inbox.insights()
        if args.json:
            return _print_json(rows)
        if not rows:
            print("No insights yet: the reflect stage writes them at a flush.")
        for r in rows:
            print(f"#{r['id']} run {r['run_id']} {r['kind']:8} {r['text']}  [{', '.join(r['slots'])}]")
        return 0
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
    rows = inbox.gaps()
    if args.json:
        return _print_json(rows)
    if not rows:
        print("No knowledge gaps marked.")
    for r in rows:
        print(f"#{r['id']} {r['kind']:10} {r['slot'] or '-':18} {r['text']} ({r['status']})")
    return 0


def print_flush_background(report) -> None:
    """The background track's lines in a ``monchat flush`` summary (what ran and what it kept)."""
    data = report.background
    if not data:
        return
    reflect = data.get("reflect")
    if reflect is not None:
        print(f"  reflect: {len(reflect['insights'])} insight(s), {len(reflect['gaps'])} suspected gap(s)"
              + (f", {reflect['dropped']} dropped (no known slot)" if reflect["dropped"] else "")
              + " — `monchat insights`")
        for entry in reflect["insights"] + reflect["gaps"]:
            print(f"    {entry['text']}  [{', '.join(entry['slots'])}]")
    moving = data.get("profile") or {}
    if moving.get("rising") or moving.get("cooling"):
        print(f"  profile: rising {', '.join(moving['rising']) or '-'}; cooling {', '.join(moving['cooling']) or '-'}")
    if data.get("diary"):
        print(f"  diary: {', '.join(data['diary'])} — `monchat diary`")
    for gap in data.get("gaps") or []:
        print(f"  gap ({gap['kind']}): {gap['text']}")
    for skill in data.get("skills") or []:
        was = f"L{skill['from']} → " if skill["from"] else ""
        print(f"  skill: {skill['name']} {was}L{skill['to']}")
    tiers = data.get("tiers")
    if tiers:
        print("  tiers: " + ", ".join(f"{n} {tier}" for tier, n in tiers["counts"].items()))
        for digest in tiers["digests"]:
            print(f"  digest {digest['id']} of {digest['slot']}: covers {', '.join(digest['covers'])}")


def cmd_skills(app, args) -> int:
    rows = Inbox(app.store).skills()
    if args.json:
        return _print_json(rows)
    if not rows:
        print("No skills yet: a flush finds them where you did something, not only talked about it.")
    for r in rows:
        print(f"{r['name']}: L{r['level']}  ({r['uses']} day(s) of use, {r['xp']:.1f} xp)  {r['memory_id']}")
    return 0
