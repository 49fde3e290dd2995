"""The Memory window's facts about one memory, in the window's language: its state, kind, days of evidence, when it
held, its skill level or preference version, how often it is talked about, the summary that stands for it, the
reviews waiting on it and whose conversations it came from (the lines under its wording, ``browser.py``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.memory import Kind, MemoryRecord, State
from ...core.memory.review_item import ReviewItem
from ...core.memory.service import MemoryService
from ...core.personas.library import PersonaRegistry
from ...core.settings import Settings
from ..kit.times import shown_time
from ..translation import arg
from . import review_words as words
from .memory_words import memory_words
from .tier_words import tier_words


class MemoryFacts:
    """The facts' words; a class so that lupdate files them under the context "MemoryFacts"."""

    @staticmethod
    def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
        return QCoreApplication.translate("MemoryFacts", text, disambiguation, n)

    def __init__(self, memory: MemoryService, settings: Settings, personas: PersonaRegistry) -> None:
        self.memory, self.settings, self.personas = memory, settings, personas

    def when(self, stamp) -> str:
        return shown_time(stamp, self.memory.tz)  # the user's zone, as Search and the review queue show it

    def text(self, record: MemoryRecord, tier: dict, queue: list[ReviewItem], evidence: list[dict]) -> str:
        """The lines under ``record``: ``tier`` its talked-about tier, ``queue`` the open reviews, ``evidence`` its
        lines (``MemoryService.evidence``)."""
        facts = [arg(self.tr("State: %1"), memory_words.state_name(record.state)),
                 arg(self.tr("Kind: %1"), memory_words.kind_name(record.kind, record.slot)),
                 memory_words.evidence_days(record.days)]
        if record.valid_at:
            facts.append(arg(self.tr("Valid from %1"), self.when(record.valid_at)))
        if record.invalid_at:
            facts.append(arg(self.tr("until %1"), self.when(record.invalid_at)))
        if record.contradictions:
            facts.append(arg(self.tr("Contradicted %1 times"), record.contradictions))
        if record.kind == Kind.SKILL and (skill := self.memory.to_dict(record).get("skill")):
            facts.append(arg(self.tr("Level L%1 (1 day of use)") if skill["uses"] == 1 else
                             self.tr("Level L%1 (%2 days of use)"), skill["level"], skill["uses"]))
        if record.kind == Kind.PREFERENCE:  # its place in the version chain: newer versions weigh more
            pref = self.memory.to_dict(record)
            facts.append(arg(self.tr("Preference: %1, version %2 of %3, weight %4"),
                             memory_words.category_name(pref["category"]), pref["version"], pref["versions"],
                             f"{pref['weight']:.2f}"))
        if record.state is not State.QUEUED:  # a waiting item is not memory yet: no tier of its own
            facts.append(arg(self.tr("Talked about: %1"), tier_words.name(tier["tier"])))
        lines = [" · ".join(facts)]
        if tier["digest"]:  # one-way: the digest stands for these memories; their rows stay as they were
            covered = "; ".join(self.memory.get(mid).text for mid in tier["digest"]["covers"])
            lines.append(arg(self.tr("Summed up as “%1”, with: %2"), tier["digest"]["text"], covered))
        threshold = self.settings.flush.judge_confidence
        for row in queue:
            if row.memory_id == record.id:
                lines.append(arg(self.tr("Waiting for your review: %1"),
                                 " ".join(t for t in (words.reason(row, threshold), words.held(row)) if t)))
            elif row.target_id == record.id:
                lines.append(arg(self.tr("A proposed change to this memory waits for your review: %1"),
                                 words.reason(row, threshold)))
        # Which surface personas' conversations it came from (role-play shows up here, if it was read).
        sources = sorted({getattr(self.personas.surface.get(p), "name", p)
                          for r in evidence if (p := r.get("surface_persona") or "")})
        if sources:
            lines.append(arg(self.tr("From conversations with: %1"), ", ".join(sources)))
        return "\n".join(lines)
