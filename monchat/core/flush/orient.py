"""Stage 1, orient: what waits to be flushed, and which filter personas read it.

``orient(logbook, archive)`` → an ``Orientation``: the log files, the messages in them not yet
archived (oldest first), and the unreadable lines (already quarantined). A message already in the
archive (a flush that crashed after its commit) is not new: its file is only removed. ``taken_back`` are the
ids some message (logged or archived) replaces — edited away or regenerated (``core/memory/takeback.py``): they are
archived like the others but no filter reads them.
``select_personas(registry, fixed, seed)`` → base, the two fixed personas and one drawn with the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import PersonaError
from ..logs.files import BadLine, LogBook
from ..vocabulary.states import FilterRole
from ..personas.library import BASE_FILTER_ID, FilterPersona, PersonaRegistry
from ..store.messages import MessageArchive
from ..types import Message, taken_back


@dataclass
class Orientation:
    files: list[Path]
    messages: list[Message]  # not yet archived, oldest first
    already_archived: int
    bad_lines: list[BadLine]
    taken_back: set[str] = field(default_factory=set)  # replaced by an edit or a regeneration: never read

    @property
    def newly_taken_back(self) -> list[str]:
        """The ids this flush's new messages replace (a flushed message edited now loses its evidence)."""
        return sorted(taken_back(self.messages))


# Why each persona reads, in the terminal's plain words (the window words them in its language: gui/flush/words.py).
ROLE_WORDS = {FilterRole.BASE: "always reads", FilterRole.FIXED: "you chose", FilterRole.RANDOM: "picked this time"}


def select_personas(registry: PersonaRegistry, fixed_ids: list[str], seed: int) -> list[tuple[FilterPersona, str]]:
    """base + the two fixed personas + one drawn from the rest of the pool with ``seed``."""
    if BASE_FILTER_ID not in registry.filters:
        raise PersonaError("The base filter persona is missing.", "Reinstall monchat; base ships with it.")
    chosen: list[tuple[FilterPersona, str]] = [(registry.filters[BASE_FILTER_ID], FilterRole.BASE)]
    pool = registry.pool()
    pool_ids = [p.id for p in pool]
    for pid in fixed_ids:
        if pid == BASE_FILTER_ID or pid in (p.id for p, _ in chosen):
            continue
        if pid not in pool_ids:
            raise PersonaError(f"The fixed filter persona {pid!r} does not exist.",
                               f"Choose two of: {', '.join(pool_ids)} (settings flush.fixed_personas).")
        chosen.append((registry.filters[pid], FilterRole.FIXED))
    rest = [p for p in pool if p.id not in {c.id for c, _ in chosen}]
    if rest:
        chosen.append((random.Random(seed).choice(rest), FilterRole.RANDOM))
    return chosen


def orient(logbook: LogBook, archive: MessageArchive) -> Orientation:
    files = logbook.files()
    read = logbook.read_all(files)
    archived = archive.ids()
    by_id: dict[str, Message] = {}
    already = 0
    for m in read.messages:
        if m.id in archived:
            already += 1
        else:
            by_id.setdefault(m.id, m)
    messages = sorted(by_id.values(), key=lambda m: (m.dt.timestamp(), m.id))
    again = [m for m in read.messages if m.id in archived]  # a line whose archived copy has another text is
    conflicts = logbook.conflicts(again, archive.texts(sorted({m.id for m in again})))  # quarantined
    return Orientation(files=files, messages=messages, already_archived=already - len(conflicts),
                       bad_lines=read.bad_lines + conflicts,
                       taken_back=taken_back(read.messages) | archive.replaced_ids())
