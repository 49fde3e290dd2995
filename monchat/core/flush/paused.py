"""A flush while memory is paused (``memory/pause.py``): the messages are archived, nothing is proposed.

No model is asked — no filter, judge, reflect, digest, diary or lint call — so no item, review, insight or diary
page comes from this flush. What does not propose runs as in any flush, in its one transaction: the archive,
prune (time passes either way: Layer 2 expires, confidence decays), the background's views rebuilt from the
memories already kept, the rebuild of the prompt and the run's row; the service removes the log files after
the commit, as after any flush.
"""

from __future__ import annotations

from ..background.track import Proposals
from ..memory.pause import is_paused  # noqa: F401 (FlushService asks here whether to archive only)
from ..types import Coded
from .commit import Asked, Read, commit
from .context import FlushContext
from .judge import JudgeOutcome
from .orient import Orientation
from .records import FlushReport


class _RolledBack(Exception):
    """Raised inside the transaction to roll a dry run back."""


def archive_only(ctx: FlushContext, orientation: Orientation) -> FlushReport:
    """Archive ``orientation``'s messages and propose nothing (``FlushService._run`` while memory is paused);
    a dry run rolls back. Returns ``ctx.report``, filled in."""
    report, count = ctx.report, len(orientation.messages)
    report.memory_paused = True
    report.notes.append(Coded(f"Memory is paused: {count} message(s) archived, nothing proposed.",
                              "memory_paused", count))
    try:
        with ctx.store.atomic():
            asked = Asked(Read([], [], []), JudgeOutcome({}), Proposals(), None)  # nothing was asked
            commit(ctx, orientation, asked)
            if ctx.dry_run:
                raise _RolledBack()
    except _RolledBack:
        report.run_id = None
        report.messages_archived = count
    return report
