"""The MCP server: ``monchat mcp`` serves memory over stdin/stdout (nothing else may be printed there);
``monchat mcp log`` shows which clients connected and what they asked. (Portable memory, ``export --memory`` and
``import --memory``, is in ``cli/history.py`` beside the other exports and imports.)
"""

from __future__ import annotations

import json
import sys


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

