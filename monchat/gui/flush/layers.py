"""The finished flush dialog's per-layer rows: what the reflect stage, the interest profile, the diary,
the knowledge gaps and the skills changed (``report.background["layers"]``, core/background/summary.py).

A dry run shows the same rows: what a flush would change, nothing written.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from ...core.background.gaps import RECALL
from ...core.vocabulary.states import BackgroundLayer, ChangeKind
from ..memory.memory_words import memory_words
from ..translation import arg

LAYER_ORDER = ("reflect", "profile", "diary", "gaps", "skills", "preferences", "tiers", "graph", "lint")
OPTIONAL = ("tiers", "graph", "lint")  # rows shown only when the layer ran (its settings may turn it off)
MAX_PX = 200  # more rows (long wrapped ones) scroll inside: the window fits a 768-px screen


class LayerRows(QTreeWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels([self.tr("Part"), self.tr("What this flush changed")])
        self.setRootIsDecorated(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(True)
        self.setWordWrap(True)
        self.hide()

    # ---- words -----------------------------------------------------------
    def layer_name(self, layer: str) -> str:
        L = BackgroundLayer
        return {L.REFLECT: self.tr("Looking back"), L.PROFILE: self.tr("Interests"), L.DIARY: self.tr("Diary"),
                L.GAPS: self.tr("Knowledge gaps"), L.SKILLS: self.tr("Skills"), L.PREFERENCES: self.tr("Preferences"),
                L.TIERS: self.tr("How recently talked about"), L.GRAPH: self.tr("Graph"), L.LINT: self.tr("Check")}.get(layer, layer)

    def change_name(self, change: str) -> str:
        return {ChangeKind.NEW: self.tr("new"), ChangeKind.QUEUED: self.tr("waits for review"),
                ChangeKind.SUPERSEDED: self.tr("replaced"), ChangeKind.DORMANT: self.tr("faded"),
                ChangeKind.LAYER1: self.tr("lasting"), ChangeKind.MERGED: self.tr("merged"),
                ChangeKind.REINFORCED: self.tr("reinforced")}.get(change, change)

    def tier_name(self, tier: str) -> str:
        return {"hot": self.tr("often"), "warm": self.tr("now and then"), "cold": self.tr("not lately"),
                "frozen": self.tr("long ago")}.get(tier, tier)

    def gap_words(self, gap: dict) -> str:
        if gap["kind"] == RECALL:
            return arg(self.tr("%1 (not known %2 times)"), memory_words.topic(gap["slot"]), gap["failures"])
        return arg(self.tr("%1 (never mentioned)"), memory_words.topic(gap["slot"]))

    def describe(self, layer: str, data: dict | None) -> str:
        """One row's text: what the layer changed, or that it changed nothing."""
        if layer == BackgroundLayer.REFLECT:
            if data is None:
                return self.tr("Did not run (nothing found, or turned off)")
            return arg(self.tr("Insights: %1, suspected gaps: %2 (Inbox)"), data["insights"], data["gaps"])
        if layer == BackgroundLayer.PROFILE:
            changed = ", ".join(memory_words.topic_count(e["topic"], e["count"], e["delta"])  # not "food 1 (+1)"
                                for e in data["changed"])
            text = arg(self.tr("This week: %1"), changed) if changed else self.tr("No change this week")
            if data["rising"]:
                text += "; " + arg(self.tr("rising: %1"), ", ".join(map(memory_words.topic_name, data["rising"])))
            if data["cooling"]:
                text += "; " + arg(self.tr("cooling: %1"), ", ".join(map(memory_words.topic_name, data["cooling"])))
            return text
        if layer == BackgroundLayer.DIARY:
            return arg(self.tr("Pages written: %1"), ", ".join(data["days"])) if data["days"] \
                else self.tr("No page written")
        if layer == BackgroundLayer.GAPS:
            parts = [arg(self.tr("new: %1"), self.gap_words(g)) for g in data["new"]]
            parts += [arg(self.tr("raised: %1"), self.gap_words(g)) for g in data["raised"]]
            return "; ".join(parts) if parts else self.tr("None new or raised")
        if layer == BackgroundLayer.PREFERENCES:
            parts = [arg(self.tr("%1: %2"), self.change_name(c["change"]), c["text"]) for c in data["changes"]]
            return "; ".join(parts) if parts else self.tr("No change")
        if layer == BackgroundLayer.TIERS:
            text = ", ".join(f"{self.tier_name(t)} {n}" for t, n in data["counts"].items())
            return text + ("; " + arg(self.tr("topics summed up: %1"), len(data["digests"])) if data["digests"] else "")
        if layer == BackgroundLayer.GRAPH:
            found = sum(data["discoveries"].values())
            return arg(self.tr("Names and topics: %1, links drawn: %2, discoveries: %3 (Inbox)"), data["nodes"],
                       data["drawn"], found)
        if layer == BackgroundLayer.LINT:
            return arg(self.tr("%1 new, %2 rechecked, %3 sent to review, %4 resolved"), data["marked"],
                       data["confirmed"], data["applied"], data["resolved"])
        changes = [arg(self.tr("%1: L%2 → L%3"), s["name"], s["from"], s["to"]) if s["from"]
                   else arg(self.tr("%1: new, L%2"), s["name"], s["to"]) for s in data["changes"]]
        return "; ".join(changes) if changes else self.tr("No level changed")

    # ---- filling -------------------------------------------------------------
    def show_layers(self, background: dict | None) -> None:
        self.clear()
        layers = (background or {}).get("layers")
        if not layers:
            self.hide()
            return
        for layer in LAYER_ORDER:
            if layer in OPTIONAL and not layers.get(layer):
                continue
            text = self.describe(layer, layers.get(layer))
            item = QTreeWidgetItem(self, [self.layer_name(layer), text])
            item.setToolTip(1, text)
        rows = sum(max(self.sizeHintForRow(i), 1) for i in range(self.topLevelItemCount()))
        self.setFixedHeight(min(MAX_PX, self.header().sizeHint().height() + rows + 2 * self.frameWidth() + 2))
        self.show()

    def rows(self) -> list[tuple[str, str]]:
        return [(self.topLevelItem(i).text(0), self.topLevelItem(i).text(1)) for i in range(self.topLevelItemCount())]
