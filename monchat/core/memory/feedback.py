"""👍/👎 on replies and memories (issue 14): stored, idempotent, undoable, applied at once.

A user's own action on memory is immediate in monchat, so a rating changes memory in its own transaction
(through ``Transitions``) and the prompt is rebuilt, as ``MemoryService`` does for every user action.
A rating lives in the ``ratings`` table keyed by what was rated (``memory`` + memory id, or ``message`` +
the message id the logs and the archive know), so a rating of a reply not yet flushed survives the flush
unchanged (the flush archives the reply under the same id). Rating again replaces the rating (the first one
is undone, then the new one applied); ``none`` clears it, restoring the values the rating changed.

- 👎 on a memory: confidence × ``DOWN_FACTOR``, its boost gone, and (kept or proposed, not pinned) it waits
  for review: approve keeps it, reject refuses it.
- 👍 on a memory: its half-life boost rises by ``UP_STEP`` (``reliance.py``: up to 10×, back over 30 days).
- 👎 / 👍 on a reply: the same, milder (``REPLY_DOWN_FACTOR`` / ``REPLY_UP_STEP``, no review), for each memory
  that was in the reply's prompt (the reply's ``memory_revision`` → ``rebuild.prompt_memory_ids``) and that
  the reply relied on (``reliance.relied_on``: character n-gram overlap). Memories the reply did not use
  are left alone.
- At a flush (inside its transaction) every newly archived reply raises the boost of each memory it
  relied on by ``USE_STEP``: ``reinforce_use``.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..errors import InputError, NotFound
from .prompt import prompt_memory_ids
from ..settings import FlushSettings
from ..store.feedback import FeedbackStore
from ..store.memories import MemoryStore
from ..types import Message
from . import reliance
from ..records.memory import MemoryRecord
from .transitions import Transitions
from .waiting import is_waiting

if TYPE_CHECKING:
    from ..logs.files import LogBook
    from .service import MemoryService

RATINGS = ("up", "down", "none")
MEMORY, MESSAGE = "memory", "message"


def parse_rating(text: str) -> str:
    rating = {"clear": "none", "+": "up", "-": "down"}.get(str(text).strip().lower(), str(text).strip().lower())
    if rating not in RATINGS:
        raise InputError(f"{text!r} is not a rating.", "Use up, down or none (none clears the rating).")
    return rating


def _before(m: MemoryRecord) -> dict:
    return {"confidence": m.confidence, "boost": m.boost, "boost_epoch": m.boost_epoch, "state": str(m.state),
            "layer2_until": m.layer2_until}


class Feedback:
    """The ratings of replies and memories, over the same ``MemoryService`` the browser and the CLI use."""

    def __init__(self, service: "MemoryService", logbook: "LogBook | None" = None) -> None:
        self.service = service
        self.logbook = logbook
        self.ratings = FeedbackStore(service.store)

    @property
    def memories(self) -> MemoryStore:
        return self.service.memories

    def rating(self, kind: str, target_id: str) -> str:
        """"up", "down" or "" (not rated)."""
        row = self.ratings.rating(kind, target_id)
        return row["rating"] if row else ""

    def _clear(self, t: Transitions, kind: str, target_id: str) -> None:
        row = self.ratings.rating(kind, target_id)
        if row is None:
            return
        for memory_id, before in row["effects"].items():
            memory = self.memories.get(memory_id)
            if memory is not None and memory.live:  # edited or gone since: its new version is left as it is
                t.unrate(memory, before, row["queue_id"])
        self.ratings.drop_rating(kind, target_id)

    def drop_message_rating(self, t: Transitions, message_id: str) -> bool:
        """A deleted message's rating goes with it: its effects undone, its row removed (inside the caller's
        transaction). Returns whether it had one."""
        had = self.ratings.rating(MESSAGE, message_id) is not None
        self._clear(t, MESSAGE, message_id)
        return had

    def rate_memory(self, memory_id: str, rating: str) -> dict:
        """👍 / 👎 / none on one memory; returns ``{kind, id, rating, review}`` (review: the item a 👎 opened)."""
        rating = parse_rating(rating)
        memory = self.service.get(memory_id)
        if memory.history and rating != "none":
            raise InputError(f"{memory_id} is history and cannot be rated.",
                             f"Rate its current version: `monchat memory history {memory_id}`.")
        same = self.ratings.rating(MEMORY, memory_id)
        if same is not None and same["rating"] == rating:  # idempotent: the same rating again changes nothing
            return {"kind": MEMORY, "id": memory_id, "rating": rating, "review": same["queue_id"]}
        queue_id = None
        with self.service.change() as t:
            self._clear(t, MEMORY, memory_id)
            if rating != "none":
                memory = self.service.get(memory_id)
                if rating == "down":
                    queue_id = t.rate_down(memory, reliance.DOWN_FACTOR, "rated down", review=True)
                else:
                    t.boost(memory, reliance.UP_STEP, "rated up")
                self.ratings.put_rating(MEMORY, memory_id, rating, t.stamp, {memory_id: _before(memory)}, queue_id)
        return {"kind": MEMORY, "id": memory_id, "rating": "" if rating == "none" else rating, "review": queue_id}

    def find_message(self, message_id: str) -> Message:
        """A message by the id the logs and the archive know (``monchat search --json`` shows it)."""
        row = self.ratings.message(message_id)
        if row is not None:
            return Message(id=row["id"], ts="", role=row["role"], text=row["text"],
                           memory_revision=row["memory_revision"])
        if self.logbook is not None:
            for message in self.logbook.read_all().messages:
                if message.id == message_id:
                    return message
            off = self.logbook.off_record  # a rating changes memory: nothing said off the record may
            if off is not None and any(m.id == message_id for m in off.read_all().messages):
                raise InputError("A reply said off the record cannot be rated.",
                                 "A rating changes memory, and nothing said off the record does.")
        raise NotFound(f"There is no message {message_id!r}.",
                       "Find a reply's id with `monchat search WORDS --json` (or rate it in the app).")

    def relied(self, message: Message) -> tuple[list[str], list[MemoryRecord]]:
        """(ids in the reply's prompt, the live ones among them the reply relied on)."""
        ids = prompt_memory_ids(self.service.store, message.memory_revision)
        found = [self.memories.get(i) for i in ids]
        return ids, [m for m in found if m is not None and m.live and reliance.relied_on(m.text, message.text)]

    def rate_message(self, message_id: str, rating: str) -> dict:
        """👍 / 👎 / none on a reply; returns ``{kind, id, rating, in_prompt, relied_on}`` (memory ids)."""
        rating = parse_rating(rating)
        message = self.find_message(message_id)
        if message.role != "assistant":
            raise InputError(f"{message_id} is your own message, not a reply.", "Rate a reply of the persona's.")
        in_prompt, relied = self.relied(message)
        same = self.ratings.rating(MESSAGE, message_id)
        if same is not None and same["rating"] == rating:  # idempotent: the same rating again changes nothing
            return {"kind": MESSAGE, "id": message_id, "rating": rating, "in_prompt": in_prompt,
                    "relied_on": sorted(same["effects"])}
        with self.service.change() as t:
            self._clear(t, MESSAGE, message_id)
            if rating != "none":
                relied = [self.service.get(m.id) for m in relied]
                for memory in relied:
                    if rating == "down":
                        t.rate_down(memory, reliance.REPLY_DOWN_FACTOR, f"reply {message_id} rated down", review=False)
                    else:
                        t.boost(memory, reliance.REPLY_UP_STEP, f"reply {message_id} rated up")
                self.ratings.put_rating(MESSAGE, message_id, rating, t.stamp, {m.id: _before(m) for m in relied},
                                        None)
        return {"kind": MESSAGE, "id": message_id, "rating": "" if rating == "none" else rating,
                "in_prompt": in_prompt, "relied_on": [m.id for m in relied]}


def reinforce_use(memories: MemoryStore, settings: FlushSettings, now: datetime, run_id: int | None,
                  replies: list[Message]) -> int:
    """At a flush: each memory a newly archived reply relied on gets a longer half-life (``USE_STEP``).

    Returns how many boosts were given. Runs inside the flush's transaction.
    """
    t = Transitions(memories, settings, now, run_id)
    given = 0
    for reply in replies:
        if reply.role != "assistant" or not reply.memory_revision:
            continue
        for memory_id in prompt_memory_ids(memories.store, reply.memory_revision):
            memory = memories.get(memory_id)
            if memory is not None and memory.live and not is_waiting(memory) \
                    and reliance.relied_on(memory.text, reply.text):
                t.boost(memory, reliance.USE_STEP, f"used in reply {reply.id}")
                given += 1
    return given
