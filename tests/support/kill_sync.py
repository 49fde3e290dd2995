"""``python tests/support/kill_sync.py HOME POINT``: one ``monchat sync`` of HOME that kills itself (SIGKILL) at the
POINT-th write — ``before-N``: before the N-th transaction or file write; ``torn-N``: halfway through it when it is
an append (half a line reaches the disk), else before it. Exit 0 when the sync ended before that write (there are
fewer writes); ``count``: run to the end and print each write's kind, in order. ``tests/test_sync_kill.py`` runs it."""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager

from monchat.app import build_app
from monchat.core.store import db as store_db
from monchat.core.sync import decisions, folder, journal

home, point = sys.argv[1], sys.argv[2]
mode, _, at = point.partition("-")
writes = 0
kinds: list[str] = []  # each write's kind, in order (printed by ``count``)


def reached(kind: str) -> bool:
    """Count one write; true when it is the one to kill at."""
    global writes
    writes += 1
    kinds.append(kind)
    return mode in ("before", "torn") and writes == int(at)


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


original_atomic = store_db.Store.atomic


@contextmanager
def atomic(self):
    if not self.db.conn.in_transaction and reached("transaction"):
        die()
    with original_atomic(self) as db:
        yield db


def appending(original):
    def append_lines(path, lines, **codec):
        if lines and reached("append"):
            if mode == "torn":
                payload = "".join(line + "\n" for line in lines).encode("utf-8")
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "ab") as out:
                    out.write(payload[: len(payload) // 2])
                    out.flush()
                    os.fsync(out.fileno())
            die()
        return original(path, lines, **codec)
    return append_lines


def rewriting(original):
    def write_private(path, data):
        if reached("rewrite"):
            die()
        return original(path, data)
    return write_private


store_db.Store.atomic = atomic  # type: ignore[method-assign]
journal.append_lines = appending(journal.append_lines)
decisions.append_lines = appending(decisions.append_lines)  # the decisions journal's appends: a kill point each
journal.write_private = rewriting(journal.write_private)
folder.write_private = rewriting(folder.write_private)

app = build_app(home)
try:
    app.sync.run()
finally:
    app.close()
if mode == "count":
    print(" ".join(kinds))
