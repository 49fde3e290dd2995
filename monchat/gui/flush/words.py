"""The flush window's words: its stages, the filter personas' roles, each change's kind, the run's notes and
problems worded from their codes (``core.types.Coded``), and its token count.

Apart from the window so that every word the flush shows is in one place (``FlushDialog`` keeps ``words``)."""

from __future__ import annotations

from PySide6.QtCore import QObject

from ...core.vocabulary.states import ChangeKind, DropCategory, FilterRole, FlushStage
from ...core.personas.library import PersonaRegistry
from ..chat.small_model_words import small_model_note
from ..translation import arg, ui_is_english, ui_language
from .changes import REFLECT_NOTES, reflect_note


COUNTED = ("unreadable_lines", "archived_unread", "memory_paused", "taken_back_unread", "partial_accepted")


class FlushWords(QObject):
    def __init__(self, personas: PersonaRegistry, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.personas = personas

    def stage_name(self, stage: str) -> str:
        return {
            FlushStage.ORIENT: self.tr("Reading the logs"),
            FlushStage.SCORE: self.tr("Filter personas pick what matters"),
            FlushStage.JUDGE: self.tr("Comparing with what is remembered"),
            FlushStage.REFLECT: self.tr("Looking back: insights and the diary"),
            FlushStage.CONSOLIDATE: self.tr("Weighing the evidence"),
            FlushStage.PRUNE: self.tr("Tidying up (expiry, fading, the cap)"),
            FlushStage.REBUILD: self.tr("Rebuilding the prompt"),
        }.get(stage, stage)

    def role_name(self, role: str) -> str:
        """Why a filter persona reads at this flush, in plain words (``FilterRole``; the program's name is in
        ``role_tip``)."""
        return {FilterRole.BASE: self.tr("always reads"), FilterRole.FIXED: self.tr("you chose"),
                FilterRole.RANDOM: self.tr("picked this time")}.get(role, "")

    def role_tip(self, role: str) -> str:
        """What ``role_name`` means, with the program's own name for it (the settings and ``--json`` use it)."""
        return {FilterRole.BASE: self.tr("Reads at every flush and cannot be changed (the program calls it the "
                                         "“base” persona)."),
                FilterRole.FIXED: self.tr("One of the two you chose under Personas → Filter personas (a “fixed” "
                                          "persona: flush.fixed_personas)."),
                FilterRole.RANDOM: self.tr("Picked at random from the others for this flush only (the “random” "
                                           "persona; the flush's seed decides which).")}.get(role, "")

    def change_name(self, kind: ChangeKind) -> str:
        return {
            ChangeKind.NEW: self.tr("New"), ChangeKind.REINFORCED: self.tr("Reinforced"),
            ChangeKind.MERGED: self.tr("Merged"), ChangeKind.SUPERSEDED: self.tr("Replaced"),
            ChangeKind.RETRACTED: self.tr("Taken back"), ChangeKind.QUEUED: self.tr("Waiting for your review"),
            ChangeKind.LAYER1: self.tr("Into lasting memory"), ChangeKind.LAYER2: self.tr("Into recent memory"),
            ChangeKind.PENDING: self.tr("Set aside (contradicted)"),
            ChangeKind.DORMANT: self.tr("Dormant (over the cap)"),
            ChangeKind.EXPIRED: self.tr("Expired from recent memory"), ChangeKind.CONTRADICTED: self.tr("Contradicted"),
        }[ChangeKind(kind)]

    def report_words(self, text: str) -> str:
        """A note or problem of the flush (``core.types.Coded``), worded from its code and values."""
        code, values = getattr(text, "code", ""), getattr(text, "args", ())
        if code in REFLECT_NOTES:  # the looking-back stage's notes (gui/flush/changes.py)
            return reflect_note(code, *values)
        if code in COUNTED:  # a count first: the sentence in its plural form (Qt's %n), the rest as %1…
            return self._counted(code, int(values[0]), *values[1:])
        words = {
            "read_in_halves": self.tr("%1 could not read part %2 of the log at once; it read it again in two "
                                      "halves."),
            "part_unread": self.tr("%1 could not read part %2 of the log."),
            "judge_unreadable": self.tr("Some comparisons with what is remembered came back unreadable and were "
                                        "skipped."),
            "folded": self.tr("%1 proposed the same change; it is one item: “%2”."),
            "repeated": self.tr("%1 proposed the same change %2 times; it is one item: “%3”."),
        }
        if code == "small_model":
            return small_model_note(values[1])
        if code not in words:  # no code: core's English, only in an English window
            return text if ui_is_english() else arg(self.tr("%1 (said by the program in English)"), text)
        names = [self.persona_name(v) if code in ("read_in_halves", "part_unread") and n == 0 else v
                 for n, v in enumerate(values)]
        if code in ("folded", "repeated"):
            names[0] = self.tr(", ").join(self.persona_name(p) for p in str(values[0]).split(", "))
        return arg(words[code], *names)

    def _counted(self, code: str, n: int, *rest) -> str:
        if code == "archived_unread":
            rest = (self.surface_name(rest[0]),)
        return arg({
            "unreadable_lines": self.tr("%n unreadable log line(s) were set aside in %1.", "", n),
            "archived_unread": self.tr("%n message(s) with %1 were archived unread (that persona's conversations "
                                       "are not read at a flush).", "", n),
            "memory_paused": self.tr("Memory is paused: %n message(s) were kept and nothing new was remembered.", "",
                                     n),
            "taken_back_unread": self.tr("%n message(s) you edited away (or replies asked for again) were archived "
                                         "unread.", "", n),
            "partial_accepted": self.tr("A partial flush was accepted: %n message(s) were archived without being "
                                        "read by every filter.", "", n),
        }[code], *rest)

    def surface_name(self, persona_id: str) -> str:
        persona = self.personas.surface.get(persona_id)
        return persona.name if persona else persona_id

    def persona_name(self, persona_id: str) -> str:
        persona = self.personas.filters.get(persona_id)
        return persona.texts(ui_language()).name if persona else persona_id

    def accounting_text(self, data: dict) -> str:
        """Every proposal of the flush and what became of it, in one line whose counts add up to the proposals
        ("72 proposals: 10 kept, 60 over the persona's limit, 2 already known"; ``core/flush/accounting.py``); each
        reason named once, none that counted nothing. "" for a report without the accounting (nothing was read)."""
        if not data:
            return ""
        parts = [self.tr("%n kept", "", data["kept"])]
        if data.get("unsure"):
            parts.append(self.tr("%n waiting for you (not sure they are your words)", "", data["unsure"]))
        if data.get("folded"):
            parts.append(self.tr("%n the same as another persona's", "", data["folded"]))
        if data.get("recalls"):
            parts.append(self.tr("%n question(s) memory could not answer (never memories)", "", data["recalls"]))
        parts += [self.drop_words(category, n) for category, n in data.get("dropped", {}).items() if n]
        return arg(self.tr("%n proposal(s): %1", "", data["proposals"]), self.tr(", ").join(parts))

    def drop_words(self, category: str, n: int) -> str:
        """How many the flush dropped for one reason (``DropCategory``), in plain words."""
        return {
            DropCategory.LIMIT: self.tr("%n over the persona's limit", "", n),
            DropCategory.EVIDENCE: self.tr("%n with no evidence in your messages", "", n),
            DropCategory.KNOWN: self.tr("%n already known", "", n),
            DropCategory.WORDS: self.tr("%n not in your words (the guard)", "", n),
            DropCategory.INVALID: self.tr("%n not a well-formed proposal (the guard)", "", n),
            DropCategory.NEVER: self.tr("%n matching a “never remember” rule", "", n),
            DropCategory.NO_TARGET: self.tr("%n taking back nothing that was kept", "", n),
        }.get(category, f"{n} {category}")

    def tokens_text(self, usage) -> str:
        """The run's tokens as the backend reported them; "about" where some had to be estimated."""
        figure = f"{usage.total:,}"
        if usage.cached_tokens:
            figure = arg(self.tr("%1 (%2 from the cache)"), figure, f"{usage.cached_tokens:,}")
        return arg(self.tr("about %1"), figure) if usage.estimated else figure

