"""``monchat inbox | graph``: the inbox's sections in one list, and the graph of what you talk about."""

from __future__ import annotations

import json

from .background import _add_marks, _mark, print_listing
from ..core.background.inbox import Inbox

GRAPH_COMMANDS = ("inbox", "graph", "discoveries")
TITLES = {"insights": "Insights", "gaps": "Gaps", "lint": "Lint findings", "discoveries": "Discoveries"}


def add_graph_commands(sub) -> None:
    p = sub.add_parser("inbox", help="the inbox: insights, gaps, lint findings and the graph's discoveries")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("discoveries", help="what the graph turned up (bridges, two-hop links, missing members); "
                                           "`discoveries read|dismiss ID` marks one")
    _add_marks(p)
    p = sub.add_parser("graph", help="the graph of what you talk about: nodes, edges and their five signals")
    p.add_argument("--json", action="store_true")


def _print_json(data) -> int:
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def _line(entry: dict) -> str:
    about = entry.get("slots") or ([entry["slot"]] if entry.get("slot") else []) or entry.get("nodes") or []
    return f"#{entry.get('id', '-')} {entry.get('kind', ''):10} {entry.get('text', '')}  [{', '.join(about)}]"


def cmd_graph(app, args) -> int:
    inbox = Inbox(app.store, app.settings, app.memory)
    if args.command == "discoveries":
        if args.action:
            return _mark(inbox, "discovery", args)
        return print_listing(inbox.discoveries(), args.json,
                             "No discoveries yet: a flush finds them in the graph of what you talk about.",
                             lambda entry: f"{_line(entry)}  ({entry['status']})")
    if args.command == "inbox":
        sections = inbox.everything()
        if args.json:
            return _print_json(sections)
        for name, entries in sections.items():
            print(f"{TITLES.get(name, name)} ({len(entries)})")
            for entry in entries:
                print(f"  {_line(entry)}")
        return 0
    data = inbox.graph()
    if args.json:
        return _print_json(data)
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
