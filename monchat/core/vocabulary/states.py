"""The names memory is made of: states, verdicts, review actions, kinds and change kinds — and the
other vocabularies monchat keeps (the flush gate's states, the flush's stages). It imports nothing of
monchat, so every layer may name these (``tests/test_structure.py``).

Every other module takes these from here; none spells a state as a string of its own. A
``State`` is a ``str`` (a ``StrEnum``), so it is stored in SQLite and compared as the word itself.
"""

from __future__ import annotations

from enum import StrEnum


class State(StrEnum):
    """Where a memory is. Rows are never deleted; a memory leaves the prompt by changing state."""

    CANDIDATE = "candidate"  # proposed; in Layer 2 while its window lasts, Layer 1 once the rules allow
    ACTIVE = "active"  # Layer 1: lasting memory, in every prompt
    QUEUED = "queued"  # waits for the user's review; never confirmed silently
    PENDING = "pending"  # set aside: a habit contradicted twice (kept, out of the prompt)
    DORMANT = "dormant"  # out of the prompt: decayed or over the Layer 1 cap; new evidence wakes it
    SUPERSEDED = "superseded"  # replaced by a newer memory (``superseded_by``): history
    RETRACTED = "retracted"  # a memory the user took back: history
    RETRACTION = "retraction"  # the statement that took a memory back, kept as the record of it: history
    FORGOTTEN = "forgotten"  # taken out of the prompt for good by the user: history
    REJECTED = "rejected"  # a proposal the user refused in review: history

    @property
    def live(self) -> bool:
        """Still takes part in matching: a new statement can be the same as it, or replace it."""
        return self in LIVE

    @property
    def history(self) -> bool:
        """Kept only as history: cannot be edited, pinned or matched."""
        return not self.live

    @property
    def layer2_eligible(self) -> bool:
        """May sit in Layer 2 (recent memory) while its window lasts: a candidate. A memory waiting for review
        never does (issue 45: waiting means waiting, ``memory/waiting.py``)."""
        return self is State.CANDIDATE


LIVE = frozenset({State.CANDIDATE, State.ACTIVE, State.QUEUED, State.PENDING, State.DORMANT})
LIVE_STATES = tuple(s for s in State if s in LIVE)  # for SQL: ``state IN (...)``
# The states of a memory the user's views (interests, graph, skills, gaps, reflect's statistics) may show:
# Layer 1, a candidate (in Layer 2 or in the ledger, gathering days) and a decayed one. Never one waiting
# for review (queued), set aside (pending) or history. The full rule is ``core/store/shown.py``.
SHOWN_STATES = (State.ACTIVE, State.CANDIDATE, State.DORMANT)


class Verdict(StrEnum):
    """How the judge says a new statement relates to a kept memory (DESIGN §5)."""

    SAME = "SAME"  # the same thing again: more evidence for the kept memory
    MERGE = "MERGE"  # one memory in a new wording replaces the kept one, with the evidence of both
    SUPERSEDE = "SUPERSEDE"  # the new statement replaces the kept memory, which goes into its history
    CONTRADICT = "CONTRADICT"  # counted against the kept memory (flagged; never a decrement)
    COEXIST = "COEXIST"  # something else: both are kept

    @classmethod
    def parse(cls, text: str) -> "Verdict | None":
        try:
            return cls(str(text).strip().upper())
        except ValueError:
            return None


# The verdicts that act on their target, in the order they are applied.
DECISIVE = (Verdict.SAME, Verdict.MERGE, Verdict.SUPERSEDE, Verdict.CONTRADICT)


class Action(StrEnum):
    """Why a review item waits for the user."""

    LAYER1 = "layer1"  # enough evidence for lasting memory, but not sure enough (or the user asks first)
    # Produced for a proposal the guard was not sure of (held "unsure_words", memory/guard_unsure.py); older ones too.
    WORDS = "words"  # the text was not found in the user's words
    SUPERSEDE = "supersede"  # would replace a Layer 1 (or pinned) memory
    MERGE = "merge"  # would reword a Layer 1 memory
    RETRACT = "retract"  # would take back a Layer 1 (or pinned) memory, or is unsure it does
    JUDGE = "judge"  # the judge was unsure how the statement relates to a kept memory
    RATED = "rated"  # the user rated it 👎: approve keeps it (lasting), reject refuses it


class Held(StrEnum):
    """Why a review item waits besides its action (``review_queue.held``): where the proposal came from."""

    SMALL_MODEL = "small_model"  # a flush with a model known to be small held back a change it would have made
    IMPORTED = "imported"  # from a memory file or a pasted list (core/transfer/memory_import.py)
    MCP = "mcp"  # proposed by another app through ``monchat mcp`` (core/transfer/mcp_server.py)
    UNSURE_WORDS = "unsure_words"  # the guard was not sure these are the user's words (core/memory/guard_unsure.py)
    SYNC_CONFLICT = "sync_conflict"  # two devices changed its memory from one version while apart (core/sync/replaying.py)


class Origin(StrEnum):
    """Where a review item's words came from (``ReviewItem.origin``): the window and the CLI say it in place of
    "what you said" for an item no line of the user's backs."""

    CHAT = "chat"  # a flush read it in the user's own messages
    MONCHAT_EXPORT = "monchat_export"  # a monchat memory export (JSON or Markdown): its lines are quoted material
    CHATGPT = "chatgpt"  # pasted from ChatGPT's saved memories
    CLAUDE = "claude"  # pasted from Claude's memory
    PASTED = "pasted"  # a pasted list of another source
    MCP = "mcp"  # proposed by another app through ``monchat mcp``


# Proposals from outside monchat's chats: unanswered past the deadline they are set aside, never left as candidates.
FROM_OUTSIDE = (Held.IMPORTED, Held.MCP)
# Proposals that never become memory unless the user says yes: unanswered past the deadline they are set aside too.
ONLY_IF_APPROVED = (*FROM_OUTSIDE, Held.UNSURE_WORDS)


class Kind(StrEnum):
    """What the evidence is; each kind needs a different number of days for Layer 1."""

    EXPLICIT = "explicit"
    CORRECTION = "correction"
    RECALL = "recall"  # never a memory: the user asked what memory should have known (background/gaps.py)
    FACT = "fact"
    HABIT = "habit"
    RETRACTION = "retraction"
    SKILL = "skill"  # the user did something that shows a skill; its level is the program's (background/skills.py)
    PREFERENCE = "preference"  # how the user likes things (an attitude): versions, weights, decay (memory/preferences.py)


KINDS = tuple(k.value for k in Kind)


class ChangeKind(StrEnum):
    """What a flush or a review did to a memory: the report's lines and the audit trail's actions."""

    NEW = "new"
    REINFORCED = "reinforced"
    MERGED = "merged"
    SUPERSEDED = "superseded"
    RETRACTED = "retracted"
    CONTRADICTED = "contradicted"
    QUEUED = "queued"
    LAYER1 = "layer1"
    LAYER2 = "layer2"
    PENDING = "pending"
    DORMANT = "dormant"
    EXPIRED = "expired"


class View(StrEnum):
    """The memory browser's tabs. A memory can be in more than one (a proposal of the last flush is new and in its
    layer); one waiting for review is only in ``WAITING`` (and ``NEW``, ``ALL``)."""

    NEW = "new"  # proposed by the last flush, whatever became of them (where a user looks first)
    LAYER1 = "layer1"
    LAYER2 = "layer2"
    WAITING = "waiting"  # set aside, waiting for review, or a candidate outside both layers
    DORMANT = "dormant"
    HISTORY = "history"  # replaced, taken back, forgotten, rejected
    ALL = "all"


class GateState(StrEnum):
    """How full the unflushed logs are (``logs/files.FlushGate``), and what that means for chat."""

    OK = "ok"  # chat as usual
    WARN = "warn"  # a flush is recommended
    STOP = "stop"  # chat waits for a flush (nothing is logged)


class FlushStage(StrEnum):
    """A flush's stages, as its progress names them. The LLM stages run as a graph (``flush/stages.py``): each
    starts as soon as what it reads is there; the GUI shows the seven rows of ``flush/records.STAGES``."""

    ORIENT = "orient"  # the unflushed messages, read from the logs
    SCORE = "score"  # the filter personas read the messages (LLM)
    JUDGE = "judge"  # each item against the kept memories it may be about (LLM; needs the filters)
    TRIAL = "trial"  # the flush's state changes tried and rolled back: what the views will show (no LLM)
    REFLECT = "reflect"  # the background track looks back over the flush (LLM; needs the trial)
    DIGEST = "digest"  # one digest per cold slot (LLM; needs the filters: the slots they touched stay warm)
    DIARY = "diary"  # one page per day with new user messages (LLM; needs only the day's messages)
    LINT = "lint"  # knowledge lint's call over the memories kept before this flush (LLM; needs nothing new)
    CONSOLIDATE = "consolidate"  # in the one transaction: archive, weigh the evidence
    PRUNE = "prune"  # expiry, decay and the cap
    REBUILD = "rebuild"  # the prompt and memory.md, then the commit


class FilterRole(StrEnum):
    """Why a filter persona reads at a flush (``flush/orient.select_personas``; a report's ``personas[].role``).
    The window and the terminal say it in plain words ("always reads", "you chose", "picked this time")."""

    BASE = "base"  # the locked base persona: reads at every flush
    FIXED = "fixed"  # one of the two the user chose (settings ``flush.fixed_personas``)
    RANDOM = "random"  # drawn from the rest of the pool for this flush, with the run's seed


class BackgroundLayer(StrEnum):
    """What the background track keeps, one row each in a flush's report (``background/summary.py``)."""

    REFLECT = "reflect"
    PROFILE = "profile"
    DIARY = "diary"
    GAPS = "gaps"
    SKILLS = "skills"
    PREFERENCES = "preferences"
    TIERS = "tiers"
    GRAPH = "graph"
    LINT = "lint"


# The steps a flush's progress is shown as, in order; the diary's pages, the digests and lint show in no row.
FLUSH_STEPS = (FlushStage.ORIENT, FlushStage.SCORE, FlushStage.JUDGE, FlushStage.REFLECT, FlushStage.CONSOLIDATE,
               FlushStage.PRUNE, FlushStage.REBUILD)


class DropCategory(StrEnum):
    """Why a flush dropped a proposal (``memory/proposals.Dropped.category``; the window's words in
    ``gui/flush/dropped_rows.py``). Only ``EVIDENCE`` counts in a report's ``dropped``."""

    EVIDENCE = "evidence"  # not backed by the user's own messages
    WORDS = "words"  # not in the user's words (the assistant's, or none of the line it cites)
    INVALID = "invalid"  # not a well-formed proposal
    LIMIT = "limit"  # over the persona's limit of proposals
    NO_TARGET = "no_target"  # a retraction with nothing kept to take back
    NEVER = "never"  # matches one of the user's "never remember" rules
    KNOWN = "known"  # already known: its only lines repeat a memory the prompt carried (not "no evidence")


class ReplyStatus(StrEnum):
    """How a logged message ended (``types.Message.status``; a log line's ``status``)."""

    OK = "ok"  # complete
    PARTIAL = "partial"  # the backend failed mid-reply: what came is kept
    STOPPED = "stopped"  # the user stopped it


class Applied(StrEnum):
    """What became of a judge's verdict at a flush (``verdicts.applied``)."""

    YES = "yes"  # sure enough: applied by the flush
    REVIEW = "review"  # not sure enough: waits in the review queue


class GateNotice(StrEnum):
    """The gate's banner in the window (``gui/chat/gate_look.notice_kind``): ``GateState`` said as a notice,
    with no banner below "warn". ``NONE`` is the empty string, so ``if notice:`` reads "is there a banner"."""

    NONE = ""
    WARN = "warn"
    STOP = "stop"

    @classmethod
    def of(cls, state: GateState) -> "GateNotice":
        return {GateState.WARN: cls.WARN, GateState.STOP: cls.STOP}.get(state, cls.NONE)
