"""Portable memory and the MCP server: ``monchat export --memory``, ``monchat import --memory``, ``monchat mcp``.

``export`` and ``import`` keep their parsers in ``cli/main.py`` / ``cli/history.py``; with ``--memory`` they
come here. ``monchat mcp`` serves over stdin/stdout (nothing else may be printed there);
``monchat mcp log`` shows which clients connected and what they asked.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path



def register(sub) -> None:
    p = sub.add_parser("mcp", help="serve memory to other apps over MCP (stdio); `mcp log`: who connected")
    p.add_argument("action", nargs="?", choices=("serve", "log"), default="serve")
    p.add_argument("--json", action="store_true", help="log: the entries as JSON")
    p.set_defaults(run=cmd_mcp)


def cmd_mcp(app, args) -> int:
    from ..core.transfer.mcp_server import access_log, serve
    if args.action == "log":
        entries = access_log(app.paths).read()
        if args.json:
            print(json.dumps(entries, ensure_ascii=False, indent=2))
            return 0
        for e in entries:
            results = f" ({e['results']} result(s))" if "results" in e else ""
            what = f" {e['what']}" if e.get("what") else ""
            print(f"{str(e.get('at', ''))[:19].replace('T', ' ')}  {e.get('client', '?')}: {e.get('event', '')}"
                  f"{what}{results}")
        if not entries:
            print("no MCP client has connected yet", file=sys.stderr)
        return 0
    print(f"monchat MCP server on stdio (proposing {'allowed' if app.settings.mcp.allow_propose else 'off'}; "
          f"access log: {access_log(app.paths).path})", file=sys.stderr)
    serve(app)
    return 0


def export_memory(app, form: str, output: Path | None) -> int:
    from ..core.paths import write_private
    text = app.transfer.memory_text(form)
    if output is not None:
        write_private(output, text)
        print(f"wrote {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def import_memory(app, args) -> int:
    report = app.transfer.import_memory(Path(args.file), source=args.source or "pasted")
    print(f"{report.format}: {report.queued} of {report.read} memories now wait for your review"
          + (f"; {report.already_known} already known" if report.already_known else "")
          + (f"; {report.left_out} earlier, refused or forgotten ones left out" if report.left_out else "")
          + (f"; {report.messages} message(s) they rest on archived" if report.messages else ""))
    if report.queued:
        print("nothing is remembered until you approve it: `monchat memory queue` shows the review queue, "
              "`monchat memory approve N` / `reject N` decide")
    return 0
