"""A memory as the program sees it, the evidence behind it, and a change made to it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ..vocabulary.states import ChangeKind, State, View


@dataclass
class MemoryRecord:
    id: str
    text: str
    slot: str
    kind: str
    state: State = State.CANDIDATE
    score: float = 0.0
    confidence: float = 0.0
    persona: str = ""
    style: str = "reinforced"
    pinned: int = 0
    contradictions: int = 0
    valid_at: str | None = None
    invalid_at: str | None = None
    superseded_by: str | None = None
    superseded_at: str | None = None
    layer2_until: float | None = None
    last_evidence_epoch: float | None = None
    created_at: str | None = None
    updated_at: str | None = None
    created_run: int | None = None
    boost: float = 1.0  # half-life multiplier from use, new evidence and 👍 (memory/reliance.py)
    boost_epoch: float | None = None  # when the boost was last raised; it decays back to 1× from there
    # Filled from the ledger when read, not stored in the row:
    evidence: list[str] = field(default_factory=list)
    days: int = 0

    def __post_init__(self) -> None:
        self.state = State(self.state)

    @property
    def live(self) -> bool:
        """Takes part in matching: not replaced, and in a live state."""
        return not self.superseded_by and self.state.live

    @property
    def history(self) -> bool:
        return not self.live

    @property
    def in_layer1(self) -> bool:
        return self.live and self.state is State.ACTIVE

    def layer(self, now_epoch: float) -> int:
        """1 for Layer 1, 2 for Layer 2, 0 for neither."""
        if not self.live:
            return 0
        if self.state is State.ACTIVE:
            return 1
        if self.state.layer2_eligible and self.layer2_until and self.layer2_until > now_epoch:
            return 2
        return 0

    def in_view(self, view: View, now_epoch: float) -> bool:
        """Whether the memory belongs in one of the browser's tabs."""
        if view is View.LAYER1:
            return self.layer(now_epoch) == 1
        if view is View.LAYER2:
            return self.layer(now_epoch) == 2
        if view is View.WAITING:
            return self.live and (self.state in (State.PENDING, State.QUEUED)
                                  or (self.state is State.CANDIDATE and self.layer(now_epoch) == 0))
        if view is View.DORMANT:
            return self.live and self.state is State.DORMANT
        if view is View.HISTORY:
            return self.history
        if view is View.NEW:  # needs the last run: MemoryService.in_view answers it
            return False
        return True

    def row(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("evidence", "days")}

    def to_dict(self, now_epoch: float) -> dict:
        data = self.row()
        data.update(state=str(self.state), layer=self.layer(now_epoch), evidence=list(self.evidence),
                    days=self.days)
        return data


COLUMNS = frozenset(f.name for f in fields(MemoryRecord)) - {"evidence", "days"}


@dataclass
class LedgerStats:
    """What the evidence ledger says about one memory."""

    days: int  # distinct days with supporting evidence
    sessions: int  # distinct log files with supporting evidence
    kinds: set[str]
    contradictions: int
    last_epoch: float | None


@dataclass
class Change:
    """One thing a flush or a review did to memory, as the report and the audit trail show it."""

    kind: ChangeKind
    memory_id: str
    text: str
    old_text: str = ""
    layer: int = 0
    evidence: list[dict] = field(default_factory=list)
