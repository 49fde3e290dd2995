"""Stage 2, score: each selected filter persona reads the logs and proposes items.

Input: new messages, the personas, a backend. Output: validated ``Item``s and
``Dropped`` proposals. The LLM sees short local ids (m1, m2, …), mapped back
here. Logs are chunked to fit the model's context. Every item is checked by
``answer.py`` (the reply's schema and the item checks): evidence must exist, must be
a user message, and must not merely repeat memory that was injected into the prompt.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import threading
from concurrent.futures import as_completed
from dataclasses import dataclass, field, replace
from collections.abc import Sequence, Set
from typing import Callable
from datetime import tzinfo

from ..backends.base import Backend
from ..errors import MalformedReply
from ..personas.library import FilterPersona
from ..prompts import PromptLibrary
from ..types import Coded, Message, Turn
from ..logs.files import slot_name
from ..asking.ask import TokenUsage, ask_json
from ..asking.baton import BATON
from ..asking.fit import cut_text, pack
from ..vocabulary.states import DropCategory
from .answer import instruction_texts, item_schema, validate_item
from .records import Dropped, FlushCancelled, Item, LogLine

log = logging.getLogger(__name__)

PLAN_PART = 999  # the widest part number, while chunks are planned
PLAN_DAY = "2000-01-01"
LOCAL_ID_WIDTH = 5  # letters of a line id: short for the model, 2^25 ways to guess
CUT_MARK = " […]"  # ends a message cut to fit one request
# The full instructions may take at most this share of a request; past it (a server loaded with 2,048 tokens)
# the short ones (filter_short.md.j2) leave the log its room.
FULL_INSTRUCTIONS_SHARE = 0.4


def build_lines(messages: list[Message], tz: tzinfo | None = None, id_key: bytes = b"") -> list[LogLine]:
    """The messages as filters see them, each with a short local id.

    Ids are keyed hashes of the message ids (``id_key`` is a secret of this data
    folder), so a reply cannot guess the id of a real user line and forge it,
    and a rerun shows the same request as before (its answer can be reused).
    """
    lines: list[LogLine] = []
    taken: set[str] = set()
    for m in messages:
        dt = m.dt.astimezone(tz)
        local_id = local_line_id(m.id, id_key, taken)
        taken.add(local_id)
        lines.append(LogLine(local_id=local_id, message_id=m.id, role=m.role, when=f"{dt:%Y-%m-%d %a %H:%M}",
                             text=m.text, day=f"{dt:%Y-%m-%d}", session=slot_name(m.dt, tz),
                             epoch=m.dt.timestamp()))
    return lines


def local_line_id(message_id: str, key: bytes, taken: Set[str] = frozenset()) -> str:
    """The id a filter sees for a message: a keyed hash, longer only where a shorter one is taken."""
    digest = hmac.new(key, message_id.encode("utf-8"), hashlib.sha256).digest()
    letters = base64.b32encode(digest).decode("ascii").lower()
    for width in range(LOCAL_ID_WIDTH, len(letters)):
        local_id = letters[:width]
        if local_id not in taken:
            return local_id
    raise AssertionError("a 256-bit digest collided")


def plan_chunks(backend: Backend, prompts: PromptLibrary, personas: list[FilterPersona],
                lines: list[LogLine]) -> tuple[list[list[LogLine]], list[str]]:
    """Split lines into chunks whose filter request fits the backend's context for every persona.

    All personas read the same chunks, sized for the persona with the longest
    part. Returns the chunks and notes on messages too long for any request,
    which are cut (with a visible mark) rather than left for a server to cut silently.
    """
    system = filter_system(backend, prompts)
    widest = max(personas, key=lambda persona: backend.count_text(
        prompts.render("filter_persona.md.j2", persona=persona)))
    max_items = shared_max_items(personas)
    full_length = {line.message_id: len(line.text) for line in lines}
    notes: dict[str, str] = {}
    # No request holds more than ~8 characters a token: counting a 50 MB message whole (to cut it below) took
    # a minute and gigabytes, so a line is first cut to what the largest request could hold.
    most = backend.json_prompt_limit() * 8
    lines = [replace(line, text=line.text[:most] + CUT_MARK) if len(line.text) > most else line for line in lines]

    def request_cost(chunk: list[LogLine]) -> int:
        user = render_log(prompts, chunk, PLAN_PART, PLAN_PART, widest)
        return backend.count_json_request(system, [Turn("user", user)], item_schema(max_items, user_ids(chunk)))

    def line_cost(line: LogLine) -> int:
        return backend.count_text(prompts.render("filter_line.md.j2", line=line))

    def shorten(line: LogLine, over: int) -> LogLine:
        text = line.text.removesuffix(CUT_MARK)
        kept = cut_text(text, line_cost(line), over)
        notes[line.message_id] = (f"The message of {line.when} ({full_length[line.message_id]} characters) is too "
                                  f"long for one request to {backend.describe()}; the filters read its first "
                                  f"{len(kept)} characters.")
        return replace(line, text=kept + CUT_MARK)

    chunks = pack(lines, request_cost=request_cost, unit_cost=line_cost, limit=backend.json_prompt_limit(),
                  shorten=shorten, setting=backend.CONTEXT_SETTING)
    return chunks, list(notes.values())


def filter_system(backend: Backend, prompts: PromptLibrary) -> str:
    """The filters' system text: ``filter.md.j2``, or its short variant where the full one would take more than
    ``FULL_INSTRUCTIONS_SHARE`` of a request (a small context: its examples and explanations are left out)."""
    full = prompts.render("filter.md.j2")
    if backend.count_text(full) <= backend.json_prompt_limit() * FULL_INSTRUCTIONS_SHARE:
        return full
    return prompts.render("filter_short.md.j2")


def shared_max_items(personas: list[FilterPersona]) -> int:
    """The schema's item limit, one for all personas so their requests share a prefix;
    each persona's own limit is in its part and applied by the program."""
    return max([persona.max_items for persona in personas] or [0])


def render_log(prompts: PromptLibrary, lines: list[LogLine], part: int, parts: int,
               persona: FilterPersona | None = None) -> str:
    """The user turn of a filter call: a chunk of the log, then the persona's part."""
    days = [line.day for line in lines] or [PLAN_DAY]
    return prompts.render("filter_log.md.j2", lines=lines, part=part, parts=parts,
                          first_day=days[0], last_day=days[-1], persona=persona)


def user_ids(lines: list[LogLine]) -> list[str]:
    return [line.local_id for line in lines if line.role == "user"]


@dataclass
class PersonaResult:
    persona: str
    items: list[Item] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unread: list[LogLine] = field(default_factory=list)
    usage: TokenUsage = field(default_factory=TokenUsage)


@dataclass
class ChunkResult:
    """What one persona found in one chunk, and what it could not read."""

    persona: str
    part: int
    items: list[Item] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unread: list[LogLine] = field(default_factory=list)  # lines whose answer never came back usable
    usage: TokenUsage = field(default_factory=TokenUsage)

    def add(self, other: "ChunkResult") -> None:
        self.items += other.items
        self.dropped += other.dropped
        self.errors += other.errors
        self.notes += other.notes
        self.unread += other.unread
        self.usage.add(other.usage)


def score_chunk(backend: Backend, prompts: PromptLibrary, persona: FilterPersona, chunk: list[LogLine],
                part: int, parts: int, max_items: int, injected: list[str],
                cancel: threading.Event | None = None, retry_smaller: bool = True,
                on_tokens: Callable[[int], None] | None = None, known: Sequence[str] = ()) -> ChunkResult:
    """One filter call: ``persona`` reads one chunk. Safe to run beside other calls.

    The request starts with what every persona shares (the system text, the
    chunk, a schema with ``max_items`` for all) and ends with the persona's
    part, so a backend's prompt cache serves the shared start once per chunk.
    An answer that is cut off or not the schema's shape is asked again once, in
    two halves; lines still without a usable answer are returned as ``unread``.
    ``on_tokens(n)`` hears the answer's tokens so far as they arrive.
    """
    result = ChunkResult(persona.id, part)
    if cancel is not None and cancel.is_set():
        raise FlushCancelled()
    system = filter_system(backend, prompts)
    user = render_log(prompts, chunk, part, parts, persona)
    schema = item_schema(max_items, user_ids(chunk))
    instructions = instruction_texts(system, prompts.render("filter_persona.md.j2", persona=persona))
    problem = ""
    try:
        answer = ask_json(backend, system, user, schema, result.usage, on_tokens)
    except MalformedReply as exc:
        problem = exc.message
    else:
        raw_items = answer.get("items")
        if not isinstance(raw_items, list):
            problem = "the answer had no item list"
    if problem:
        log.warning("filter %s part %s (%s lines): %s", persona.id, part, len(chunk), problem)
        if retry_smaller and len(chunk) > 1:
            result.notes.append(Coded(f"{persona.id} part {part}: {problem} Read again in two halves.",
                                      "read_in_halves", persona.id, part))
            middle = len(chunk) // 2
            for half in (chunk[:middle], chunk[middle:]):
                result.add(score_chunk(backend, prompts, persona, half, part, parts, max_items, injected,
                                       cancel, retry_smaller=False, on_tokens=on_tokens, known=known))
        else:
            result.errors.append(Coded(f"{persona.id} part {part}: {problem}", "part_unread", persona.id, part))
            result.unread += chunk
        return result
    lines_by_local = {line.local_id: line for line in chunk}
    assert isinstance(raw_items, list)  # no problem: the answer had its item list
    for raw in raw_items:
        # Evidence must be a line this call showed: an id from another chunk was never read here.
        checked = validate_item(raw, persona, lines_by_local, injected, instructions, known)
        if isinstance(checked, Item):
            result.items.append(checked)
        else:
            result.dropped.append(checked)
    return result


def item_day(item: Item) -> str:
    """The day of an item's first line (``first_ts`` is "2026-11-23 Mon 21:10")."""
    return item.first_ts[:10]


def pick_spread(items: list[Item], limit: int) -> tuple[list[Item], list[Item]]:
    """``limit`` items chosen by score and spread over the days they were said: the best of each day first (the
    days in the order of their best item), then each day's second best, and so on. Over a 12-day flush with a
    limit of 3 the three best days each give their best item, not the first day its first three. Returns the
    chosen and the cut, each best first."""
    def rank(i: Item) -> tuple:
        return (-i.score, i.first_epoch, i.slot, i.text)
    by_day: dict[str, list[Item]] = {}
    for item in sorted(items, key=rank):
        by_day.setdefault(item_day(item), []).append(item)
    rounds: list[Item] = []
    depth = max((len(day) for day in by_day.values()), default=0)
    for n in range(depth):
        rounds += sorted((day[n] for day in by_day.values() if len(day) > n), key=rank)
    return rounds[:limit], sorted(rounds[limit:], key=rank)


def collect(persona: FilterPersona, parts: list[ChunkResult]) -> PersonaResult:
    """A persona's results over all chunks: its ``max_items`` items by score, spread over the days
    (``pick_spread``); the rest dropped as over its limit, each with what it needs to be sent to review."""
    total = ChunkResult(persona.id, 0)
    for part in sorted(parts, key=lambda p: p.part):
        total.add(part)
    result = PersonaResult(persona.id, dropped=total.dropped, errors=total.errors, notes=total.notes,
                           unread=total.unread, usage=total.usage)
    kept, extra = pick_spread(total.items, persona.max_items)
    for item in extra:
        result.dropped.append(Dropped(persona.id, item.text, f"over max_items={persona.max_items}",
                                      item.evidence, category=DropCategory.LIMIT, slot=item.slot, kind=item.kind,
                                      score=item.score, day=item_day(item)))
    result.items = sorted(kept, key=lambda i: (i.first_epoch, i.slot, i.text))
    return result


def score_all(backend: Backend, prompts: PromptLibrary, personas: list[FilterPersona],
              chunks: list[list[LogLine]], injected: list[str], parallel: int,
              cancel: threading.Event, on_part: Callable[[str, int, int, int], None],
              chunk_major: bool = True,
              on_tokens: Callable[[str, int, int], None] | None = None, known: Sequence[str] = ()) -> list[PersonaResult]:
    """Every persona reads every chunk, up to ``parallel`` calls at once.

    Calls are started chunk by chunk (all personas on chunk 1, then chunk 2…),
    so the shared start of a chunk's requests is still in the backend's prompt
    cache when the next persona reads it. ``on_part(persona_id, done, total,
    unread)`` is called on this thread as each part ends (``unread``: parts so
    far with lines left unread). The first error (or a cancel)
    stops the calls not yet started and is raised. ``chunk_major=False`` reads
    persona by persona instead (the baseline ``benchmarks/`` compares against).
    ``on_tokens(persona_id, part, n)`` hears each answer's tokens so far, on the
    thread making the call, as they arrive.
    """
    readers = [persona for persona in personas if persona.max_items > 0]
    max_items = shared_max_items(readers)
    parts: dict[str, list[ChunkResult]] = {persona.id: [] for persona in personas}
    for persona in personas:
        if persona not in readers:  # asked for nothing: done before it starts
            on_part(persona.id, len(chunks), len(chunks), 0)
    with BATON.pool(max(1, parallel), "filter") as pool:
        calls = [(persona, n, chunk) for n, chunk in enumerate(chunks, start=1) for persona in readers]
        if not chunk_major:
            calls.sort(key=lambda call: readers.index(call[0]))
        def listener(persona_id: str, part: int) -> Callable[[int], None] | None:
            return None if on_tokens is None else lambda count: on_tokens(persona_id, part, count)

        futures = [pool.submit(score_chunk, backend, prompts, persona, chunk, n, len(chunks), max_items,
                               injected, cancel, on_tokens=listener(persona.id, n), known=known)
                   for persona, n, chunk in calls]
        try:
            for future in BATON.waiting(as_completed(futures)):  # one of the pool's threads runs meanwhile
                part = future.result()
                parts[part.persona].append(part)
                done = parts[part.persona]
                on_part(part.persona, len(done), len(chunks), sum(1 for p in done if p.unread))
                if cancel.is_set():
                    raise FlushCancelled()
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return [collect(persona, parts[persona.id]) for persona in personas]
