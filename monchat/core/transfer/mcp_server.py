"""``monchat mcp``: memory for the user's other tools, over stdio, with the user in charge.

An MCP server (the official ``mcp`` SDK, ``MCPServer``) that offers:

- the resource ``monchat://profile``: the compact profile the chat's system prompt carries (the Layer 1
  and Layer 2 lines the last rebuild chose, ``memory/prompt.py`` ``load_selection``);
- the tool ``search_memory``: memories the user's own views may show (``store/shown.py``) or the
  prompt carries — never one waiting for review, refused, forgotten or replaced;
- the tool ``search_history``: the trigram message search (``core/logs/search.py``), without the messages the
  user took back;
- the tool ``propose_memory``: a proposal lands in the review queue (``core/transfer/memory_import.py``
  ``queue_proposals``, ``held`` = "mcp") and nowhere else, and only while the user allows it
  (``mcp.allow_propose``, read from settings.toml at every call, so turning it off takes effect at once).

Every request that names its client, and every tool call and resource read, is written to the access
log (``mcp-access.jsonl`` in the data folder; ``monchat mcp log``): which client, which tool or resource,
how many results — never the words (no query, no proposal's text or slot: ``LOGGED_WHAT``).

A host may leave at any moment (``mcp_stdio.py``): the server then ends with exit 0 and a ``disconnected`` entry
saying how. Several hosts are several processes: a proposal waits briefly for another's write to the review queue
(``PROPOSAL_WAIT``); only a running flush refuses it at once. Every refusal is in the log.

**The one hook.** Every result the server hands out — each profile line, memory, message and proposal
— passes ``visible_to_clients``. Off-the-record messages and "never remember" topics (issue 28, items 1
and 3) are hidden there and nowhere else.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import write_all, write_private
from ..types import format_ts, local_now
from .mcp_stdio import ENDINGS

ACCESS_LOG = "mcp-access.jsonl"
PROFILE_URI = "monchat://profile"
MAX_LIMIT = 50
ASKING = ("resources/list", "resources/read", "tools/list", "tools/call")  # requests that ask for memory or tools
MAX_OPEN_PROPOSALS = 50  # proposals from other apps waiting for review at once; then propose_memory is refused
UNNAMED = "unnamed client"
FLUSHING = "monchat is flushing"  # the one holder of the flush lock a proposal does not wait out
BUSY = "monchat stayed busy"  # another write held the flush lock past PROPOSAL_WAIT
PROPOSAL_WAIT = 15.0  # seconds a proposal waits for another one (another host's, an import, a lint) to be written


def visible_to_clients(app, kind: str, record: dict) -> bool:
    """Whether an MCP client may see (or, for a proposal, make) this: THE hook every result passes.

    Args:
        kind: "profile" (a prompt line: id, text, slot), "memory" (id, text, slot, kind, state),
            "message" (id, ts, role, persona, text) or "proposal" (text, slot).
    """
    from ..memory.never import matches_never, never_rules
    if kind == "message" and record.get("off_record"):
        return False  # said off the record: no other app ever reads it
    rules = never_rules(app.store)  # read at every call: a rule the user adds while the server runs holds at once
    return matches_never(record.get("text", ""), record.get("slot", ""), rules) is None


# ---- the access log ----------------------------------------------------------------
# Everything an entry's "what" may say: the log names clients, tools and counts, never words (a slot such as
# "hobby/stamps" says what the user is like as much as a text does).
LOGGED_WHAT = frozenset({"", PROFILE_URI, "proposing is off", "the user keeps this topic out of memory",
                         "the review queue is full", "a text of 3 to 2,000 characters is needed", "not a slot",
                         FLUSHING, BUSY, *ENDINGS})


@dataclass
class AccessLog:
    """Who asked what, newest last. Past ``max_bytes`` the oldest entries go: the newest half is kept."""

    path: Path
    max_bytes: int = 1_000_000  # some 8,000 entries

    def write(self, client: str, event: str, what: str = "", results: int | None = None) -> None:
        """Append one entry. ``what`` is kept only when it is one of ``LOGGED_WHAT`` (a resource or a fixed
        reason): anything else — a proposal's slot or text, a query — is a client's or the user's words."""
        entry: dict[str, object] = {"at": format_ts(local_now()), "client": client, "event": event,
                                    "what": what if what in LOGGED_WHAT else ""}
        if results is not None:
            entry["results"] = results
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            write_all(fd, (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8"))
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > self.max_bytes:
            self._keep_newest(self.max_bytes // 2)

    def _keep_newest(self, budget: int) -> None:
        """Rewrite the log (atomically) with its newest entries that fit in ``budget`` bytes."""
        lines = self.path.read_bytes().splitlines(keepends=True)
        kept, used = [], 0
        for line in reversed(lines):
            if used + len(line) > budget:
                break
            kept.append(line)
            used += len(line)
        write_private(self.path, b"".join(reversed(kept)))

    def read(self) -> list[dict]:
        """Every entry, oldest first (a line that cannot be read is skipped)."""
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return []
        out = []
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                out.append(entry)
        return out


def access_log(paths) -> AccessLog:
    return AccessLog(paths.data_dir / ACCESS_LOG)


def recent_clients(data_dir: Path, count: int = 3) -> list[tuple[str, str]]:
    """The last ``count`` clients that asked anything, newest first, with when they last did (Settings → Memory)."""
    last: dict[str, str] = {}
    for entry in AccessLog(Path(data_dir) / ACCESS_LOG).read():
        if entry.get("event") != "disconnected":  # a host leaving asked nothing (and one that never named itself)
            last[str(entry.get("client", ""))] = str(entry.get("at", ""))
    return sorted(last.items(), key=lambda item: item[1], reverse=True)[:count]


def client_name(session) -> str:
    params = getattr(session, "client_params", None)
    info = getattr(params, "client_info", None)
    name = " ".join(str(getattr(info, "name", "") or "").split())[:80]
    version = " ".join(str(getattr(info, "version", "") or "").split())[:40]
    return f"{name} {version}".strip() if name else UNNAMED


class _Recorder:
    """Middleware: tells the port who is asking, and names each client in the log when it first shows itself."""

    def __init__(self, port: "MemoryPort") -> None:
        self.port = port
        self.seen: set[str] = set()

    def _note(self, session, answered: bool) -> None:
        name = client_name(session)
        self.port.client = name
        if (name != UNNAMED or answered) and name not in self.seen:  # a client that gives no name is logged too
            self.seen.add(name)
            self.port.log.write(name, "connected")

    async def __call__(self, ctx, call_next):
        self._note(ctx.session, answered=False)  # a modern request names its client in its envelope
        result = await call_next(ctx)
        # the initialize handshake names it while it runs; a client that asks for anything without a name is noted too
        self._note(ctx.session, answered=ctx.method in ASKING)
        return result


# ---- what the server answers ----------------------------------------------------------
class MemoryPort:
    """What a client may read and propose, over one app (no MCP types here: the tests call it too)."""

    def __init__(self, app) -> None:
        self.app = app
        self.log = access_log(app.paths)
        self.client = UNNAMED  # who asks now (stdio: one client per server process)
        self.wait = PROPOSAL_WAIT

    def _visible(self, kind: str, rows: list[dict]) -> list[dict]:
        return [r for r in rows if visible_to_clients(self.app, kind, r)]

    def profile(self) -> str:
        layer1, layer2 = self.app.memory.prompt_items()
        lasting = self._visible("profile", [{"id": i.id, "text": i.text, "slot": i.slot} for i in layer1])
        lately = self._visible("profile", [{"id": i.id, "text": i.text, "slot": i.slot} for i in layer2])
        lines = ["# What monchat remembers about its user", "",
                 "The lines the companion's system prompt carries now: lasting memory, then what came up lately.", ""]
        for title, rows in (("Lasting", lasting), ("Lately", lately)):
            if rows:
                lines += [f"## {title}", "", *[f"- {' '.join(r['text'].split())}" for r in rows], ""]
        if not lasting and not lately:
            lines += ["(Nothing remembered yet.)", ""]
        self.log.write(self.client, "read", PROFILE_URI, len(lasting) + len(lately))
        return "\n".join(lines)

    def search_memory(self, query: str, limit: int = 20) -> list[dict]:
        from ..store.shown import ShownStore
        terms = _terms(query)
        limit = max(1, min(int(limit), MAX_LIMIT))
        layer1, layer2 = self.app.memory.prompt_items()
        allowed = ShownStore(self.app.store).ids() | {i.id for i in layer1} | {i.id for i in layer2}
        scored = []
        for m in self.app.memory.memories.live():
            if m.id not in allowed:
                continue
            folded = f"{m.text} {m.slot}".casefold()
            hits = sum(1 for t in terms if t in folded)
            if hits:
                scored.append((-hits, m.slot, m.id, {"id": m.id, "text": m.text, "slot": m.slot, "kind": m.kind,
                                                     "state": str(m.state), "since": m.valid_at}))
        found = self._visible("memory", [row for *_key, row in sorted(scored, key=lambda s: s[:3])])[:limit]
        self.log.write(self.client, "search_memory", "", len(found))
        return found

    def search_history(self, query: str, limit: int = 20) -> list[dict]:
        from ..logs.search import SearchService
        limit = max(1, min(int(limit), MAX_LIMIT))
        _terms(query)
        search = SearchService(self.app.logbook, self.app.archive)
        wanted = limit * 4  # candidates read: the hook and the taken back hide some; read more until enough are left
        while True:
            hits = search.search(query, wanted)
            rows = [{"id": h.id, "ts": h.ts, "role": h.role, "persona": h.persona, "text": h.text,
                     "off_record": h.off_record} for h in hits if not h.replaced]  # what the user took back is not handed out
            found = [{k: v for k, v in r.items() if k != "off_record"} for r in self._visible("message", rows)][:limit]
            if len(found) >= limit or len(hits) < wanted:  # enough, or every message holding the words was read
                break
            wanted *= 4
        self.log.write(self.client, "search_history", "", len(found))
        return found

    def propose(self, text: str, slot: str = "") -> dict:
        """Put a proposal into the review queue. Raises InputError (proposing is off, a bad slot, …)."""
        client = self.client
        from ..errors import InputError
        from ..memory.guard import bad_slot
        from ..vocabulary.states import Held
        from .memory_import import Proposal, queue_proposals
        from ..settings import load_settings
        settings, _warnings = load_settings(self.app.paths.settings_path)  # now, not when the server started
        if not settings.mcp.allow_propose:
            self.log.write(client, "propose_memory refused", "proposing is off")
            raise InputError("monchat does not take proposals from other apps: its user has not allowed it.",
                             "The user can allow it in monchat: Settings → Memory, or "
                             "`monchat settings set mcp.allow_propose true`.")
        text = " ".join(str(text).split())
        slot = slot.strip() or "proposed/mcp"
        if not (3 <= len(text) <= 2000):
            self.log.write(client, "propose_memory refused", "a text of 3 to 2,000 characters is needed")
            raise InputError("A proposal needs a text of 3 to 2,000 characters.", "Say one thing about the user.")
        if bad_slot(slot):
            self.log.write(client, "propose_memory refused", "not a slot")
            raise InputError(f"{slot!r} is not a slot.", "Use subject/attribute in words, e.g. drink/morning.")
        if not visible_to_clients(self.app, "proposal", {"text": text, "slot": slot}):
            self.log.write(client, "propose_memory refused", "the user keeps this topic out of memory")
            raise InputError("monchat's user keeps this topic out of memory.", "Do not propose it again.")
        waiting = sum(1 for item in self.app.memory.queue() if item.held == Held.MCP)
        if waiting >= MAX_OPEN_PROPOSALS:
            self.log.write(client, "propose_memory refused", "the review queue is full")
            raise InputError(f"{waiting} proposals from other apps already wait for the user's review.",
                             "Propose again after the user has gone through them.")
        report = self._when_free(client, lambda: queue_proposals(
            self.app.memory, [Proposal(text, slot)], held=Held.MCP, proposer=client, prefix="mcp",
            reason=f"proposed by {client} through monchat's MCP server, in its words, "
                   f"not said here: it becomes memory only if you approve it"))
        self.log.write(client, "propose_memory", slot, report.queued)
        return {"queued": bool(report.queued), "already_known": bool(report.already_known),
                "note": "It waits for the user's review; nothing is remembered unless the user approves it."}

    def _when_free(self, client: str, write):
        """Run ``write`` under the flush lock. Another holder that is not a flush (another host's proposal, an
        import, a lint) is waited for, up to ``PROPOSAL_WAIT``; a flush is not: it may take minutes.

        Raises:
            FlushRunning: a flush runs, or the lock stayed taken past the wait (either is logged).
        """
        from ..errors import FlushRunning
        from ..paths import held_lock, is_marked
        deadline = time.monotonic() + self.wait
        while True:
            with held_lock(self.app.paths.flush_lock) as held:
                if held:
                    return write()
            if is_marked(self.app.paths.flush_running):
                self.log.write(client, "propose_memory refused", FLUSHING)
                raise FlushRunning("monchat is flushing right now.", "Propose again in a few minutes.")
            if time.monotonic() >= deadline:
                self.log.write(client, "propose_memory refused", BUSY)
                raise FlushRunning(f"monchat was busy writing memory for {self.wait:.0f} s.",
                                   "Propose again in a minute.")
            time.sleep(0.05)


def _terms(query: str) -> list[str]:
    from ..logs.search import query_terms
    return [t.casefold() for t in query_terms(query)]


# ---- the server -------------------------------------------------------------------
INSTRUCTIONS = ("monchat is the user's own chat companion, which remembers them from their own words. Read "
                f"{PROFILE_URI} for what it knows; search_memory and search_history look things up. "
                "propose_memory only asks: the user reviews every proposal, and may not allow proposing at all.")


def build_server(app, port: MemoryPort | None = None):
    """The ``MCPServer`` over ``app`` (imported here: the rest of monchat never needs the SDK)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from ... import __version__
    from ..errors import KnownError

    port = port or MemoryPort(app)
    server = MCPServer(name="monchat", instructions=INSTRUCTIONS, version=__version__,
                       middleware=[_Recorder(port)])

    def answer(call):
        try:
            return call()
        except KnownError as exc:
            raise ToolError(f"{exc.message} {exc.hint}".strip()) from None

    @server.resource(PROFILE_URI, name="profile", title="What monchat remembers about you",
                     description="The compact profile the chat's system prompt carries.", mime_type="text/markdown")
    async def profile() -> str:
        return port.profile()

    @server.tool(description="Find what monchat remembers about its user (approved, lasting or recent memories). "
                             "Words of the query; results with more of them first.")
    async def search_memory(query: str, limit: int = 20) -> list[dict[str, Any]]:
        return answer(lambda: port.search_memory(query, limit))

    @server.tool(description="Find messages of the user's conversations that contain every word of the query, "
                             "newest first.")
    async def search_history(query: str, limit: int = 20) -> list[dict[str, Any]]:
        return answer(lambda: port.search_history(query, limit))

    @server.tool(description="Propose something to remember about the user, in the user's own words. It only "
                             "waits in the user's review queue; refused unless the user allowed proposing. "
                             "slot: subject/attribute, e.g. drink/morning (optional).")
    async def propose_memory(text: str, slot: str = "") -> dict[str, Any]:
        return answer(lambda: port.propose(text, slot))

    return server


def serve(app) -> str:
    """Run over stdin/stdout until the host goes away (at any moment, in any way: ``mcp_stdio``); log and return
    why the session ended."""
    import anyio

    from .mcp_stdio import claimed_stdio, serve_stdio
    from ..errors import InputError
    port = MemoryPort(app)
    server = build_server(app, port)
    import sys
    if sys.stdin is None or sys.stdout is None:  # Python found fd 0 or 1 closed when it started
        raise InputError("monchat mcp needs a host (an MCP client) on its standard input and output, and one "
                         "of them is closed.", "Let an MCP client start it: see the README's MCP section.")
    with claimed_stdio() as (wire_in, wire_out):  # the SDK's own run_stdio_async serves its _lowlevel_server too
        why = anyio.run(serve_stdio, server._lowlevel_server, wire_in, wire_out)
    port.log.write(port.client, "disconnected", why)
    return why

