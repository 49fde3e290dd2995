"""The finished flush dialog's per-layer rows: what the reflect stage, the interest profile, the diary,
the knowledge gaps and the skills changed (``report.background["layers"]``, core/background/summary.py).

A dry run shows the same rows: what a flush would change, nothing written.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from ..translation import arg

LAYER_ORDER = ("reflect", "profile", "diary", "gaps", "skills", "preferences", "tiers", "graph", "lint")
OPTIONAL = ("tiers", "graph", "lint")  # rows shown only when the layer ran (its settings may turn it off)


class LayerRows(QTreeWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels([self.tr("Layer"), self.tr("What this flush changed")])
        self.setRootIsDecorated(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(True)
        self.setWordWrap(True)
        self.hide()

    # ---- words -----------------------------------------------------------
    def layer_name(self, layer: str) -> str:
        return {"reflect": self.tr("Looking back"), "profile": self.tr("Interests"), "diary": self.tr("Diary"),
                "gaps": self.tr("Knowledge gaps"), "skills": self.tr("Skills"), "preferences": self.tr("Preferences"),
                "tiers": self.tr("How recently talked about"), "graph": self.tr("Graph"), "lint": self.tr("Check")}.get(layer, layer)

    def change_name(self, change: str) -> str:
        return {"new": self.tr("new"), "queued": self.tr("waits for review"), "superseded": self.tr("replaced"),
                "dormant": self.tr("faded"), "layer1": self.tr("lasting"), "merged": self.tr("merged"),
                "reinforced": self.tr("reinforced")}.get(change, change)

    def tier_name(self, tier: str) -> str:
        return {"hot": self.tr("often"), "warm": self.tr("now and then"), "cold": self.tr("not lately"),
                "frozen": self.tr("long ago")}.get(tier, tier)

    def gap_words(self, gap: dict) -> str:
        if gap["kind"] == "recall":
            return arg(self.tr("%1 (not known %2 times)"), gap["slot"], gap["failures"])
        return arg(self.tr("%1 (never mentioned)"), gap["slot"])

    def describe(self, layer: str, data: dict | None) -> str:
        """One row's text: what the layer changed, or that it changed nothing."""
        if layer == "reflect":
            if data is None:
                return self.tr("Did not run (nothing found, or turned off)")
            return arg(self.tr("Insights: %1, suspected gaps: %2 (Inbox)"), data["insights"], data["gaps"])
        if layer == "profile":
            changed = ", ".join(f"{e['topic']} {e['count']} ({e['delta']:+d})" for e in data["changed"])
            text = arg(self.tr("This week: %1"), changed) if changed else self.tr("No change this week")
            if data["rising"]:
                text += "; " + arg(self.tr("rising: %1"), ", ".join(data["rising"]))
            if data["cooling"]:
                text += "; " + arg(self.tr("cooling: %1"), ", ".join(data["cooling"]))
            return text
        if layer == "diary":
            return arg(self.tr("Pages written: %1"), ", ".join(data["days"])) if data["days"] \
                else self.tr("No page written")
        if layer == "gaps":
            parts = [arg(self.tr("new: %1"), self.gap_words(g)) for g in data["new"]]
            parts += [arg(self.tr("raised: %1"), self.gap_words(g)) for g in data["raised"]]
            return "; ".join(parts) if parts else self.tr("None new or raised")
        if layer == "preferences":
            parts = [arg(self.tr("%1: %2"), self.change_name(c["change"]), c["text"]) for c in data["changes"]]
            return "; ".join(parts) if parts else self.tr("No change")
        if layer == "tiers":
            text = ", ".join(f"{self.tier_name(t)} {n}" for t, n in data["counts"].items())
            return text + ("; " + arg(self.tr("digests written: %1"), len(data["digests"])) if data["digests"] else "")
        if layer == "graph":
            found = sum(data["discoveries"].values())
            return arg(self.tr("Names and topics: %1, links drawn: %2, discoveries: %3 (Inbox)"), data["nodes"],
                       data["drawn"], found)
        if layer == "lint":
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
        self.setFixedHeight(self.header().sizeHint().height() + rows + 2 * self.frameWidth() + 2)
        self.show()

    def rows(self) -> list[tuple[str, str]]:
        return [(self.topLevelItem(i).text(0), self.topLevelItem(i).text(1)) for i in range(self.topLevelItemCount())]
