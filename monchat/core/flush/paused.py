"""A flush while memory is paused (``memory/pause.py``): the messages are archived, nothing is proposed.

No model is asked — no filter, judge, reflect, digest, diary or lint call — so no item, review, insight or diary
page comes from this flush. What does not propose runs as in any flush, in its one transaction: the archive,
prune (time passes either way: Layer 2 expires, confidence decays), the background's views rebuilt from the
memories already kept, the rebuild of the prompt and the run's row; the log files are removed after the commit.
"""

from __future__ import annotations

from datetime import datetime

from ..background.track import Proposals
from ..memory.pause import is_paused  # noqa: F401 (FlushService asks here whether to archive only)
from ..types import Coded
from .judge import JudgeOutcome
from .orient import Orientation
from .records import FlushReport
from .stages import Asked, Read


class _RolledBack(Exception):
    """Raised inside the transaction to roll a dry run back."""


def archive_only(service, report: FlushReport, orientation: Orientation, now: datetime, started: float,
                 dry_run: bool, progress) -> FlushReport:
    """Archive ``orientation``'s messages and propose nothing (``FlushService._run`` while memory is paused)."""
    count = len(orientation.messages)
    report.memory_paused = True
    report.notes.append(Coded(f"Memory is paused: {count} message(s) archived, nothing proposed.",
                              "memory_paused", count))
    try:
        with service.store.atomic():
            asked = Asked(Read([], [], []), JudgeOutcome({}), Proposals(), None)  # nothing was asked
            service._commit(report, orientation, asked, now, started, progress)
            if dry_run:
                raise _RolledBack()
    except _RolledBack:
        report.run_id = None
        report.messages_archived = count
        return report
    service._finish(orientation.files, now)
    return report
