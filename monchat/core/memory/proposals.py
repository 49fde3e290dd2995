"""What a flush proposes to memory: the lines a filter reads, its items, and the judge's answers.

The flush makes these and the background track reads them (reflect's statistics, the diary, gaps);
both sit above memory, so the records live here (``flush/records.py`` names them for the flush's callers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..asking.ask import TokenUsage
from ..vocabulary.states import DropCategory, Verdict


@dataclass
class LogLine:
    """A message as a filter persona sees it: a short local id instead of the real one."""

    local_id: str
    message_id: str
    role: str
    when: str
    text: str
    day: str
    session: str
    epoch: float


@dataclass
class Item:
    """A validated proposal from one filter persona."""

    persona: str
    style: str
    text: str
    slot: str
    kind: str
    score: float
    evidence: list[str]  # real message ids, user messages only
    reason: str
    first_epoch: float  # time of the earliest evidence
    first_ts: str
    index: int = 0  # order within the flush
    proposers: list[str] = field(default_factory=list)  # the personas that proposed it (flush/fold.py)
    unsure: str = ""  # the words rule it broke when the guard was not sure (``memory/guard_unsure.py``): review only


@dataclass
class Dropped:
    persona: str
    text: str
    reason: str
    evidence: list[str] = field(default_factory=list)
    category: DropCategory = DropCategory.EVIDENCE
    rule: str = ""  # the guard's rule that dropped it (``memory.guard.GuardRule``), if the guard did
    # A well-formed item cut by its persona's limit keeps what it needs to be sent to review later
    # (``flush/cut.py``): its slot, kind, score and the day of its first line.
    slot: str = ""
    kind: str = ""
    score: float | None = None
    day: str = ""


@dataclass
class Judgement:
    """The judge's answer on one (item, kept memory) pair."""

    pair_id: str
    item_index: int
    target_id: str  # a memory id, or "item:N" for an earlier item of this flush
    verdict: Verdict
    confidence: float
    reasoning: str
    merged_text: str = ""
    model: str = ""
    escalated: bool = False


@dataclass
class JudgeOutcome:
    """Every judgement of one flush, what the calls cost and what went wrong."""

    verdicts: dict[str, Judgement]
    usage: TokenUsage = field(default_factory=TokenUsage)
    errors: list[str] = field(default_factory=list)
