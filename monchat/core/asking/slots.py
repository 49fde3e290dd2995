"""How many model calls run at once, and which waiting call goes first: a flush's ``CallSlots``.

Every model call a flush makes holds one slot (``flush.parallel`` of them; ``AnswerCache.wrap`` puts the slots
in front of a backend). A call of a more urgent stage (the filters, the judge, reflect: what the commit waits
for) is given a free slot before one of a stage that can wait (the diary, lint, digests), and one slot is kept
for that path until reflect asked. Once the filters know how many calls they will make (``expect``), a call
that can wait does not take a slot one of them is about to ask for. A call keeps its slot through its retries
(a busy server is sent nothing more meanwhile); a call that fails (not a malformed answer, which its stage
handles) ends the flush: no call starts after it. Waiting for a slot lends the baton (``baton.py``), as the
call it is for does.
"""

from __future__ import annotations

import copy
import heapq
import itertools
import threading
from contextlib import contextmanager
from typing import Iterator

from ..errors import BackendError, MalformedReply
from .baton import BATON


class CallSlots:
    """At most ``size`` model calls at once; a waiting call with a lower ``urgency`` gets a free slot first
    (among equals, the one that asked first). While ``reserved`` is set, that many slots are kept for calls
    of urgency 0: a call that can wait never takes the last free one (a call is not stopped once it runs,
    so this is what keeps the commit's path from waiting a whole call for a slot)."""

    def __init__(self, size: int, reserved: int = 0) -> None:
        self.size: int = max(1, size)
        self.reserved: int = min(reserved, self.size - 1)
        self._free: int = self.size
        self._waiting: list[tuple[int, int]] = []  # (urgency, ticket), a heap
        self._tickets: Iterator[int] = itertools.count()
        self._changed = threading.Condition()
        self.expected: int = 0  # urgent calls announced (``expect``) that have not asked for a slot yet
        self.failed: BackendError | None = None  # a call's error that ends the flush: no call starts after it
        self.in_use: int = 0  # calls holding a slot now
        self.most_in_use: int = 0  # the most that ever held one at once

    def unreserve(self) -> None:
        """The commit's path asked its last call: every slot is for anyone now."""
        with self._changed:
            self.reserved = 0
            self._changed.notify_all()

    def expect(self, calls: int) -> None:
        """``calls`` urgent calls will ask soon, one after another as slots come free (the filters' calls,
        once their requests are sized; 0 when they all asked or their stage ended). Until each asked, a call
        that can wait takes a slot only where every one of them would still find one: a slot given back
        between two filter calls goes to the next filter call, not to a diary page."""
        with self._changed:
            self.expected = max(0, calls)
            self._changed.notify_all()

    @contextmanager
    def hold(self, urgency: int = 0) -> Iterator[None]:
        """A slot for one call, held while it runs, its retries and their waits included (a busy server
        is not sent another call meanwhile).

        Raises:
            BackendError: a call failed before (not a malformed answer, which its stage handles): that
                error ends the flush, so no other call is started.
        """
        with BATON.lent():  # while this call waits for its slot and for the model, another stage runs Python
            self._take(urgency)
            try:
                yield
            except BackendError as exc:
                if not isinstance(exc, MalformedReply):
                    with self._changed:
                        self.failed = self.failed or exc
                        self._changed.notify_all()
                raise
            finally:
                self._give()

    def _take(self, urgency: int) -> None:
        with self._changed:
            ticket = (urgency, next(self._tickets))
            heapq.heappush(self._waiting, ticket)
            if not urgency and self.expected:
                self.expected -= 1  # an expected call asked: it waits in line, ahead of every call that can wait
            while not (self._free > self._kept(urgency) and self._waiting[0] == ticket):
                if self.failed is not None:
                    break
                self._changed.wait()
            if self.failed is not None:
                self._waiting.remove(ticket)
                heapq.heapify(self._waiting)
                self._changed.notify_all()
                raise copy.copy(self.failed)
            heapq.heappop(self._waiting)  # the first in line: calls of urgency 0 are always ahead of the rest
            self._free -= 1
            self.in_use += 1
            self.most_in_use = max(self.most_in_use, self.in_use)
            self._changed.notify_all()  # the next in line may take another free slot

    def _kept(self, urgency: int) -> int:
        """Free slots a call of this urgency must leave to others: none for an urgent one; for one that can
        wait, the slot kept for the commit's path and one for each expected call (never every slot)."""
        return max(self.reserved, min(self.expected, self.size - 1)) if urgency else 0

    def _give(self) -> None:
        with self._changed:
            self._free += 1
            self.in_use -= 1
            self._changed.notify_all()
