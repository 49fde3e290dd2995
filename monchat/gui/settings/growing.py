"""Settings → Growing memory: the background track, preferences, tiers, the graph and the warm start.

One control per setting of ``core/settings.py`` (``background.*``, two ``flush.*`` preference values,
``[tiers]``, ``[graph]``), each with one line saying what it does. A number's range is the one ``CHECKS``
accepts (a test holds the two together), so the dialog's ``settings_from_dict`` check and this page
agree; ``problems`` adds the one rule between values (hot ≤ warm ≤ cold days). Nothing is saved here:
``SettingsDialog.candidate`` asks ``apply`` to write the form into its copy, and saves as for every page.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QDoubleSpinBox, QFormLayout, QGroupBox, QLabel, QScrollArea, QSpinBox,
                               QStyle, QVBoxLayout, QWidget)

from ...core.settings import Settings


@dataclass
class Number:
    """A numeric control's range (as ``CHECKS``), step and decimals (0: a whole number)."""

    low: float
    high: float
    step: float = 1.0
    decimals: int = 0
    off: bool = False  # its lowest value switches the feature off ("off" is shown)


DAYS = Number(0, 36_500, 1.0, 1)
UNIT = Number(0.0, 1.0, 0.05, 2)
WEIGHT = Number(0.0, 10.0, 0.05, 2)
LABEL_WIDTH = 300  # px at the most for a number's label (1366×768: the field keeps room beside it)
NUMBER_WIDTH = 110  # px: every number box as wide, whatever its value
GRAPH_WEIGHTS = ("co_occurrence", "session_overlap", "adamic_adar", "type_affinity", "similarity")


def read(settings: Settings, dotted: str):
    section, _, key = dotted.partition(".")
    return getattr(getattr(settings, section), key)


class GrowingMemoryPage(QWidget):
    """The page; ``controls`` maps each dotted setting name to its check box or spin box."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controls: dict[str, QCheckBox | QSpinBox | QDoubleSpinBox] = {}
        self.labels: list[QLabel] = []  # the number rows' labels: one width in every group, so the fields align
        body = QWidget(self)
        column = QVBoxLayout(body)
        for title, rows in self._groups():
            group = QGroupBox(title, body)
            form = QFormLayout(group)
            for dotted, label, help_text, number in rows:
                self._add(form, group, settings, dotted, label, help_text, number)
            column.addWidget(group)
        column.addStretch(1)
        width = min(max((label.sizeHint().width() for label in self.labels), default=0), LABEL_WIDTH)
        for label in self.labels:  # a longer label wraps onto a second line
            label.setFixedWidth(width)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    def _groups(self) -> list:
        """(title, rows); a row is (setting, label, its one line, a ``Number`` or None for on/off)."""
        weights = {"co_occurrence": self.tr("Weight: said in one message"),
                   "session_overlap": self.tr("Weight: in the same sessions"),
                   "adamic_adar": self.tr("Weight: shared neighbours"),
                   "type_affinity": self.tr("Weight: kinds that go together"),
                   "similarity": self.tr("Weight: similar words")}
        return [
            (self.tr("After each flush"), [
                ("background.reflect", self.tr("Look back over the flush"),
                 self.tr("One call finds insights and suspected gaps for the inbox."), None),
                ("background.diary", self.tr("Write the diary"),
                 self.tr("One call per day with new messages writes that day's page."), None),
                ("background.lint", self.tr("Check memory for mistakes"),
                 self.tr("Rules check your memory for broken links and values that do not fit."), None),
                ("background.lint_llm", self.tr("The check asks the model about contradictions"),
                 self.tr("One more call: which memories of one kind contradict each other."), None),
                ("background.warm_start", self.tr("Warm up the model"),
                 self.tr("Give the backend the new system prompt at once, so the next reply starts sooner."), None),
            ]),
            (self.tr("Gaps and skills"), [
                ("background.gap_hint", self.tr("Chat may ask about a gap"),
                 self.tr("The chat prompt may carry one \"ask about this if it comes up\" line."), None),
                ("background.structural_gap_after", self.tr("Suggest a related topic not yet talked about after (messages)"),
                 self.tr("A topic with this many messages in 30 days suggests the ones next to it (0: off)."),
                 Number(0, 10_000, 1, 0, off=True)),
                ("background.skill_half_life_days", self.tr("Skill practice fades to half in (days)"),
                 self.tr("A day of using a skill counts half as much after this many days."), Number(1, 3650, 1.0, 1)),
            ]),
            (self.tr("Preferences"), [
                ("flush.auto_approve_preferences", self.tr("Apply a changed preference without asking"),
                 self.tr("When the flush is sure, a new version of a preference needs no review."), None),
                ("flush.preference_half_life_days", self.tr("A preference fades to half in (days)"),
                 self.tr("A preference's confidence halves after this many days without new evidence."),
                 Number(1, 36_500, 1.0, 1)),
            ]),
            (self.tr("How recently talked about"), [
                ("tiers.hot_days", self.tr("“Often” for (days unused)"),
                 self.tr("Memories touched this recently come first, in full."), DAYS),
                ("tiers.warm_days", self.tr("“Now and then” for (days unused)"),
                 self.tr("Then “now and then”: in full, after the “often” ones when space is short."), DAYS),
                ("tiers.cold_days", self.tr("“Not lately” for (days unused)"),
                 self.tr("Then “not lately” (a topic's such memories become one summary); older ones are left out."), DAYS),
                ("tiers.evidence_stretch", self.tr("Stretch per day of evidence"),
                 self.tr("Each further day a memory was said on lengthens these limits by this share."),
                 Number(0, 10, 0.05, 2)),
                ("tiers.max_stretch", self.tr("Longest stretch (times)"),
                 self.tr("Evidence lengthens the limits at most this many times."), Number(1, 100, 0.5, 1)),
                ("tiers.digest", self.tr("Sum up topics not talked about lately"),
                 self.tr("The flush asks for a short summary of a topic's memories not talked about lately (one call a topic)."), None),
                ("tiers.digest_min_items", self.tr("Memories a topic needs to be summed up"),
                 self.tr("A topic is summed up only with at least this many such memories."), Number(1, 50)),
                ("tiers.digest_max_slots", self.tr("Topics summed up per flush at most"),
                 self.tr("Summaries one flush asks the model for at most (0: none)."), Number(0, 50)),
            ]),
            (self.tr("Graph"), [
                ("graph.enabled", self.tr("Build the graph of what you talk about"),
                 self.tr("Rebuilt at each flush; the inbox draws it."), None),
                ("graph.edge_threshold", self.tr("Draw a link from (weight)"),
                 self.tr("A weaker link is kept but not drawn."), UNIT),
                *[(f"graph.weight_{name}", weights[name],
                   self.tr("How much this signal adds to a link's weight."), WEIGHT) for name in GRAPH_WEIGHTS],
            ]),
        ]

    def _add(self, form: QFormLayout, group: QWidget, settings: Settings, dotted: str, label: str,
             help_text: str, number: Number | None) -> None:
        value = read(settings, dotted)
        note = QLabel(help_text, group)
        note.setWordWrap(True)
        font = note.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        note.setFont(font)
        if number is None:  # the check box with its line under it, across the form
            control = QCheckBox(label, group)
            control.setChecked(bool(value))
            box = QWidget(group)
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(control)
            column.addWidget(note)
            note.setIndent(control.style().pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth) + 6)
            form.addRow(box)
        else:
            if number.decimals:
                control = QDoubleSpinBox(group)
                control.setDecimals(number.decimals)
                control.setRange(number.low, number.high)
                control.setSingleStep(number.step)
            else:
                control = QSpinBox(group)
                control.setRange(int(number.low), int(number.high))
                control.setSingleStep(int(number.step))
            if number.off:
                control.setSpecialValueText(self.tr("off"))
            control.setValue(value)
            name = QLabel(label, group)
            name.setWordWrap(True)
            name.setBuddy(control)
            name.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # level with the number box
            name.setContentsMargins(0, max(0, (control.sizeHint().height() - name.fontMetrics().height()) // 2), 0, 0)
            self.labels.append(name)
            control.setMinimumWidth(NUMBER_WIDTH)
            field = QWidget(group)  # the number with its line under it, as a check box has
            column = QVBoxLayout(field)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(control, 0, Qt.AlignmentFlag.AlignLeft)
            column.addWidget(note)
            form.addRow(name, field)
        control.setToolTip(help_text)
        self.controls[dotted] = control

    def value(self, dotted: str):
        control = self.controls[dotted]
        return control.isChecked() if isinstance(control, QCheckBox) else control.value()

    def apply(self, settings: Settings) -> None:
        """Write the form's values into ``settings`` (the dialog's copy, checked before it is saved)."""
        for dotted in self.controls:
            section, _, key = dotted.partition(".")
            setattr(getattr(settings, section), key, self.value(dotted))

    def problems(self, settings: Settings) -> list[str]:
        """What ``CHECKS`` cannot see: the tiers' limits must grow from hot to cold."""
        t = settings.tiers
        if not t.hot_days <= t.warm_days <= t.cold_days:
            return [self.tr("The days must grow: “often” at most “now and then”, “now and then” at most “not lately”.")]
        return []


class McpSwitch(QCheckBox):
    """Settings → Memory: whether other apps may propose memories through ``monchat mcp`` (``mcp.allow_propose``).

    A proposal only waits in the review queue; reading (the profile and the searches) needs no switch.
    """

    @classmethod
    def add_to(cls, form: QFormLayout, settings: Settings, parent: QWidget, data_dir) -> "McpSwitch":
        from PySide6.QtCore import QCoreApplication as Q
        switch = cls(Q.translate("McpSwitch", "Let other apps (MCP) propose memories — each waits for your review"),
                     parent)
        switch.setToolTip(Q.translate("McpSwitch", "Apps connected to `monchat mcp` (Claude Desktop, LM Studio…) can "
                                      "always read your profile and search. With this on they may also propose "
                                      "memories; `monchat mcp log` shows who connected."))
        switch.setChecked(settings.mcp.allow_propose)
        form.addRow(Q.translate("McpSwitch", "Other apps"), switch)
        from ...core.transfer.mcp_server import recent_clients
        from ..translation import arg
        seen = ", ".join(f"{name} ({at[:16].replace('T', ' ')})" for name, at in recent_clients(data_dir))
        switch.recent = QLabel(arg(Q.translate("McpSwitch", "Connected lately: %1 (`monchat mcp log` lists every "
                                                           "visit)."), seen) if seen else
                               Q.translate("McpSwitch", "No app has connected yet."), parent)
        switch.recent.setWordWrap(True)
        form.addRow("", switch.recent)
        return switch

    def apply(self, settings: Settings) -> None:
        settings.mcp.allow_propose = self.isChecked()
