"""``monchat profile | insights | diary | gaps | skills | inbox | discoveries | graph``: the background
track's inbox in the terminal (``App.inbox``, the same service as the window's Memory → Inbox)."""

from __future__ import annotations

from ..core.errors import InputError
from .output import print_json, print_listing

TITLES = {"insights": "Insights", "gaps": "Gaps", "lint": "Lint findings", "discoveries": "Discoveries"}

# core/background/inbox.py's MARKS, spelled here so the parser does not import the store (tests/test_first_paint.py)
MARK_WORDS = ("dismiss", "read")


def register(sub) -> None:
    _add(sub, "profile", "interest profile over 7, 30 and 90 days (the last flush's snapshot)", cmd_profile)
    _add(sub, "insights", "what the reflect stage noticed at each flush (the inbox); `insights read|dismiss ID` marks one",
         cmd_insights, marks="insight")
    p = _add(sub, "diary", "the one-page diary per day (all days, or DATE)", cmd_diary)
    p.add_argument("date", nargs="?", help="YYYY-MM-DD")
    _add(sub, "gaps", "knowledge gaps: not known twice, or a neighbour never mentioned; "
                      "`gaps read|dismiss ID` marks one (a dismissed gap is not hinted at)", cmd_gaps, marks="gap")
    _add(sub, "skills", "skills and the level the program gave them (L1 exposure … L3 generative)", cmd_skills)
    _add(sub, "inbox", "the inbox: insights, gaps, lint findings and the graph's discoveries", cmd_inbox)
    _add(sub, "discoveries", "what the graph turned up (bridges, two-hop links, missing members); "
                             "`discoveries read|dismiss ID` marks one", cmd_discoveries, marks="discovery")
    _add(sub, "graph", "the graph of what you talk about: nodes, edges and their five signals", cmd_graph)


def _add(sub, name: str, help_text: str, listing, marks: str = ""):
    """A command with ``--json`` that runs ``listing``; with ``marks`` (what an entry is called) it also takes
    ``COMMAND read|dismiss ID``, which marks that entry instead of listing."""
    p = sub.add_parser(name, help=help_text)
    if marks:
        p.add_argument("action", nargs="?", choices=MARK_WORDS, help="mark entry ID read, or dismiss it")
        p.add_argument("id", nargs="?", type=int, help="the entry's number (#ID in the list)")
        p.set_defaults(run=lambda app, args: _mark(app.inbox, marks, args) if args.action else listing(app, args))
    else:
        p.set_defaults(run=listing)
    p.add_argument("--json", action="store_true")
    return p


def _mark(inbox, what: str, args) -> int:
    if args.id is None:
        raise InputError(f"Which {what}? Give its number.", f"e.g. monchat {args.command} {args.action} 3")
    row = inbox.mark(what, args.id, args.action)
    if args.json:
        return print_json(row)
    print(f"{what} #{row['id']} is {row['status']}.")
    return 0


def cmd_profile(app, args) -> int:
    data = app.inbox.profile()
    if args.json:
        return print_json(data)
    if data["day"] is None:
        print("No profile yet: it counts your messages behind the memories shown, and is drawn at a flush and "
              "when you approve a memory.")
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


def cmd_insights(app, args) -> int:
    return print_listing(app.inbox.insights(), args.json, "No insights yet: the reflect stage writes them at a flush.",
                         lambda r: f"#{r['id']} run {r['run_id']} {r['kind']:8} {r['text']}  "
                                   f"[{', '.join(r['slots'])}] ({r['status']})")


def cmd_diary(app, args) -> int:
    pages = app.inbox.diary(args.date)
    if args.json:
        return print_json(pages)
    if not pages:
        print("No diary page" + (f" for {args.date}." if args.date else "s yet: a flush writes them."))
    for page in pages:
        print(f"# {page['date']}\n{page['text']}\n  topics: {', '.join(page['topics']) or '-'}; "
              f"{len(page['messages'])} message(s) cited\n")
    return 0


def cmd_gaps(app, args) -> int:
    return print_listing(app.inbox.gaps(), args.json, "No knowledge gaps marked.",
                         lambda r: f"#{r['id']} {r['kind']:10} {r['slot'] or '-':18} {r['text']} ({r['status']})")


def cmd_skills(app, args) -> int:
    rows = app.inbox.skills()
    if args.json:
        return print_json(rows)
    if not rows:
        print("No skills yet: a flush finds them where you did something, not only talked about it.")
    for r in rows:
        print(f"{r['name']}: L{r['level']}  ({r['uses']} day(s) of use, {r['xp']:.1f} xp)  {r['memory_id']}")
    return 0


def _line(entry: dict) -> str:
    about = entry.get("slots") or ([entry["slot"]] if entry.get("slot") else []) or entry.get("nodes") or []
    return f"#{entry.get('id', '-')} {entry.get('kind', ''):10} {entry.get('text', '')}  [{', '.join(about)}]"


def cmd_inbox(app, args) -> int:
    sections = app.inbox.everything()
    if args.json:
        return print_json(sections)
    for name, entries in sections.items():
        print(f"{TITLES.get(name, name)} ({len(entries)})")
        for entry in entries:
            print(f"  {_line(entry)}")
    return 0


def cmd_discoveries(app, args) -> int:
    return print_listing(app.inbox.discoveries(), args.json,
                         "No discoveries yet: a flush finds them in the graph of what you talk about.",
                         lambda entry: f"{_line(entry)}  ({entry['status']})")


def cmd_graph(app, args) -> int:
    data = app.inbox.graph()
    if args.json:
        return print_json(data)
    if not data["nodes"]:
        print("No graph yet: a flush draws it from your memories.")
        return 0
    labels = {n["id"]: n["label"] for n in data["nodes"]}
    drawn = [e for e in data["edges"] if not e["held"]]
    print(f"{len(data['nodes'])} node(s), {len(drawn)} edge(s) drawn, {len(data['edges']) - len(drawn)} held")
    for n in data["nodes"]:
        print(f"  {n['label']:20} {n['type']:7} cluster {n['cluster']}  {n['sessions']} session(s)")
    for e in drawn:
        s = e["signals"]
        print(f"  {labels[e['source']]} — {labels[e['target']]}  {e['weight']:.2f}  (co {s['co_occurrence']:.2f}, "
              f"overlap {s['session_overlap']:.2f}, aa {s['adamic_adar']:.2f}, type {s['type_affinity']:.2f}, "
              f"sim {s['similarity']:.2f})")
    return 0
