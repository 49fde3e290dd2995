"""Records passed between flush stages, and the flush's report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime

from ..backends.model_size import SUGGESTION
from ..errors import KnownError
from ..records.memory import Change
from ..vocabulary.states import FLUSH_STEPS
from ..types import Coded
from ..asking.ask import TokenUsage
# Records the flush shares with layers below it, named here for the flush's callers (the GUI, the CLI).
from ..asking.records import FlushCancelled, FlushProgress  # noqa: F401
from ..memory.proposals import Dropped, Item, Judgement, JudgeOutcome, LogLine  # noqa: F401

# The steps of a flush's progress; reflect's row is the background track's calls (reflect, the diary, digests).
STAGES = FLUSH_STEPS
NO_VERDICT = "the judge gave no usable answer for this pair"


class FlushIncomplete(KnownError):
    """A filter could not read some messages; the flush stopped before changing anything."""

    code = "flush_incomplete"
    exit_code = 7

    def __init__(self, unread: str) -> None:
        super().__init__(f"Some messages could not be read, so nothing was changed: {unread}.",
                         "Run the flush again (a busy model often answers the next time), use a larger model, "
                         "or accept a partial flush: `monchat flush --accept-partial`, or the button in the "
                         "flush dialog.")


def small_model_note(small: dict) -> Coded:
    """The report's note on a model known to be small (``FlushService.small_model``)."""
    return Coded(f"{small['model']} is a small model ({small['label']} parameters): memory built with it will be "
                 f"unreliable, so nothing from this flush went into lasting memory without your approval. "
                 f"For memory you can rely on use {SUGGESTION}.", "small_model", small["model"], small["label"])


@dataclass
class FlushReport:
    run_id: int | None = None
    dry_run: bool = False
    nothing_to_flush: bool = False
    personas: list[dict] = field(default_factory=list)
    seed: int | None = None
    llm_calls: int = 0
    tokens: int = 0  # ``usage.total``: what the backends reported, plus estimates where one reported nothing
    usage: TokenUsage = field(default_factory=TokenUsage)
    dropped: int = 0  # dropped for lack of evidence only (``DropCategory.EVIDENCE``); every reason: ``accounting``
    dropped_items: list[dict] = field(default_factory=list)
    # Every proposal accounted for (``flush/accounting.py``): {"proposals", "kept", "folded", "recalls",
    # "dropped": {category: n}}, adding up to "proposals".
    accounting: dict = field(default_factory=dict)
    promoted: dict = field(default_factory=lambda: {"layer1": 0, "layer2": 0})
    superseded: int = 0
    queued: int = 0
    unsure: int = 0  # of ``queued``: proposals the guard was not sure are the user's words (memory/guard_unsure.py)
    review_rows: int = 0  # the rows the review queue shows after the flush (``memory/alike.review_groups``)
    duration_s: float = 0.0
    changes: list[Change] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # not errors: e.g. a message cut to fit a request
    unread: dict = field(default_factory=dict)  # persona id -> message ids it could not read (partial flush)
    skipped: dict = field(default_factory=dict)  # surface persona id -> messages archived unread (read_at_flush off)
    files: list[str] = field(default_factory=list)
    messages_archived: int = 0
    budget: dict = field(default_factory=dict)
    items: dict = field(default_factory=dict)  # persona id -> [{text, slot, kind, score}]
    folded: list = field(default_factory=list)  # proposals of several personas made one item (flush/fold.py)
    small_model: dict | None = None  # the model is known to be small: nothing went into Layer 1 unasked
    background: dict = field(default_factory=dict)  # reflect, profile, diary, gaps (core/background/track.py)
    taken_back: dict = field(default_factory=dict)  # memories a flushed message's edit took evidence from
    memory_paused: bool = False  # memory was paused: archived only, nothing proposed (flush/paused.py)

    def add_usage(self, usage: TokenUsage) -> None:
        self.usage.add(usage)
        self.llm_calls = self.usage.calls
        self.tokens = self.usage.total

    def to_dict(self) -> dict:
        data = asdict(self)
        data["usage"] = self.usage.to_dict()
        return data

    def run_row(self, started: datetime, finished: datetime, verdicts: list[Judgement]) -> dict:
        """The run's row in ``flush_runs``: everything a later ``monchat flush --history`` shows."""
        return {
            "id": self.run_id, "started_at": started.isoformat(timespec="seconds"),
            "finished_at": finished.isoformat(timespec="seconds"), "seed": self.seed,
            "personas": self.personas, "items": self.items, "dropped": self.dropped_items,
            "verdicts": [vars(v) for v in verdicts], "changes": [vars(c) for c in self.changes],
            "promoted": self.promoted, "llm_calls": self.llm_calls, "tokens": self.tokens,
            "usage": self.usage.to_dict(), "duration_s": self.duration_s, "errors": self.errors,
            "notes": self.notes, "files": self.files, "messages_archived": self.messages_archived,
            "budget": self.budget, "background": self.background, "accounting": self.accounting}
