"""``monchat personas list|validate|import|delete``: the persona library and character cards."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..core.errors import InputError
from .output import print_json


def register(sub) -> None:
    p = sub.add_parser("personas", help="list or validate personas; import a character card; delete one")
    p.add_argument("action", choices=("list", "validate", "import", "delete"))
    p.add_argument("file", nargs="?", help="import: a Character Card V2/V3 (.json or .png); delete: a persona id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_personas)


def cmd_personas(app, args) -> int:
    registry = app.personas
    if args.action == "import":
        from ..core.personas.cards import import_card, save_card
        if args.file is None:
            raise InputError("personas import needs a card file.", "Example: monchat personas import card.png")
        persona = import_card(Path(args.file), set(registry.surface), app.settings.chat.user_name,
                              registry.user_surface_dir)
        path = save_card(registry, persona, Path(args.file))
        print(f"imported {persona.name!r} as surface persona {persona.id} ({path})")
        print(f"chat with it: monchat chat --persona {persona.id}")
        return 0
    if args.action == "delete":
        if not args.file:
            raise InputError("personas delete needs a persona id.", "Example: monchat personas delete my-card")
        from ..core.personas.library import remove_surface_persona
        if remove_surface_persona(registry, app.settings.chat, args.file):  # chat was talking with it
            app.save_settings()
        print(f"deleted surface persona {args.file} (its conversations stay in the logs and the archive)")
        return 0
    if args.action == "validate":
        if args.json:
            print(json.dumps(registry.problems, ensure_ascii=False, indent=2))
        for source, problems in registry.problems.items():
            for problem in problems:
                print(f"{source}: {problem}", file=sys.stderr)
        if not registry.problems:
            print(f"all {len(registry.surface)} surface and {len(registry.filters)} filter personas are valid")
        return 1 if registry.problems else 0
    rows = ([{"kind": "surface", "id": p.id, "name": p.name, "language": p.language, "source": p.source}
             for p in registry.surface.values()]
            + [{"kind": "filter", "id": p.id, "name": p.name, "locked": p.locked, "max_items": p.max_items,
                "style": p.style, "source": p.source} for p in registry.filters.values()])
    if args.json:
        return print_json(rows)
    for row in rows:
        flag = " (locked)" if row.get("locked") else ""
        print(f"{row['kind']:8} {row['id']:12} {row['name']}{flag}")
    return 0
