"""The inbox: what the background track kept — insights, gaps and discoveries, the diary, the profile, the graph.

The user opens it when they want; nothing of it is pushed into the chat. It reads
(``core/background/inbox.py``) on the GUI thread like the memory browser, and marks an insight or a gap
read or dismissed (as ``monchat insights|gaps read|dismiss ID``): a dismissed entry leaves the list, and a
dismissed gap leaves the chat prompt's "ask about it" line.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QListWidgetItem, QPlainTextEdit, QProgressBar, QPushButton, QScrollArea,
                               QSplitter, QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from ...core.background.inbox import Inbox
from ...core.store.background import DISMISSED, OPEN
from .graph_view import GraphView, node_name
from .lint_tab import LintTab
from .memory_words import memory_words
from ..translation import arg
from ..kit.tab_style import keep_tails

BAR_MIN_WIDTH = 40

BARS_PER_WINDOW = 12


class InboxDialog(QDialog):
    """Signals:
        memory_changed(): a gap was marked, so the chat prompt's "ask about it" line may have changed.
    """

    memory_changed = Signal()

    def __init__(self, inbox: Inbox, parent: QWidget | None = None, runner=None, lint=None) -> None:
        """Args:
            lint: the lint service (``App.lint``): the Lint tab's findings, and Check now with ``runner``.
        """
        super().__init__(parent)
        self.inbox = inbox
        self.setWindowTitle(self.tr("Inbox"))
        self.resize(820, 600)
        self.tabs = QTabWidget(self)
        keep_tails(self.tabs.tabBar())
        self.tabs.addTab(self._insights_tab(), self.tr("Insights and gaps"))
        self.tabs.addTab(self._diary_tab(), self.tr("Diary"))
        self.tabs.addTab(self._profile_tab(), self.tr("Interests"))
        self.tabs.addTab(self._graph_tab(), self.tr("Graph"))
        self.lint_tab = LintTab(lint, self, runner)  # knowledge lint (gui/memory/lint_tab.py)
        self.tabs.addTab(self.lint_tab, self.tr("Check"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        self.reload()

    # ---- words -----------------------------------------------------------
    def kind_name(self, kind: str) -> str:
        return {"insight": self.tr("insight"), "gap": self.tr("suspected gap"),
                "recall": self.tr("not known twice"), "structural": self.tr("never mentioned"),
                "bridge": self.tr("new link"), "two_hop": self.tr("two steps apart"),
                "missing": self.tr("seems to belong")}.get(kind, kind)

    def gap_text(self, gap: dict) -> str:
        """A gap the program marked, in the window's language; one the reflect stage suspected, in its words."""
        if gap.get("source") == "failures":
            return arg(self.tr("Memory did not know %1 (%2 times); last: %3"), memory_words.topic(gap["slot"]),
                       gap["failures"], gap["text"].split("): ", 1)[-1])
        if gap.get("source") == "neighbours":
            return arg(self.tr("You often talk about %1, never about %2"),
                       memory_words.topic_name(gap["slot"].split("/", 1)[0]), memory_words.topic(gap["slot"]))
        return gap["text"]

    def status_name(self, status: str) -> str:
        return {"open": self.tr("new"), "read": self.tr("read")}.get(status, status)

    def discovery_text(self, kind: str, names: list[str]) -> str:
        """A discovery in the window's language, from the names of the nodes it rests on."""
        first, second = (names + ["", ""])[:2]
        if kind == "bridge":
            return arg(self.tr("%1 and %2 now link two groups that had no link."), first, second)
        if kind == "two_hop":
            return arg(self.tr("%1 and %2 both go with %3, but never came up together."), first, second,
                       memory_words.listed(names[2:]))
        return arg(self.tr("%1 goes with most of %2, yet is not drawn with them."), first, memory_words.listed(names[1:6]))

    def trend_name(self, trend: str) -> str:
        return {"rising": self.tr("↑ rising"), "steady": self.tr("→ steady"),
                "cooling": self.tr("↓ cooling")}.get(trend, trend)

    def window_name(self, days: str) -> str:
        return arg(self.tr("Last %1 days"), days)

    # ---- tabs --------------------------------------------------------------
    def _insights_tab(self) -> QWidget:
        self.insights = QTreeWidget()
        self.insights.setHeaderLabels([self.tr("What"), self.tr("Kind"), self.tr("About"), self.tr("Flush"),
                                       self.tr("Status")])
        header = self.insights.header()
        header.setStretchLastSection(False)  # the text takes the width; the short columns fit their contents
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.insights.setRootIsDecorated(False)
        self.insights.currentItemChanged.connect(lambda *_: self._enable_marks())
        # The selected row's whole text, wrapped: a long insight is read here, not only in a tooltip (issue 45).
        self.insight_text = QLabel()
        self.insight_text.setWordWrap(True)
        self.insight_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.insights.currentItemChanged.connect(lambda item, _old: self.insight_text.setText(
            item.text(0) if item is not None else ""))
        self.read_button = QPushButton(self.tr("Mark as read"))
        self.dismiss_button = QPushButton(self.tr("Dismiss"))
        self.dismiss_button.setToolTip(self.tr("Take it off this list; a dismissed gap is no longer asked about "
                                               "in the chat and is not marked again."))
        self.read_button.clicked.connect(lambda: self._mark("read"))
        self.dismiss_button.clicked.connect(lambda: self._mark("dismiss"))
        marks = QHBoxLayout()
        marks.addStretch(1)
        marks.addWidget(self.read_button)
        marks.addWidget(self.dismiss_button)
        self.insights_empty = QLabel(self.tr("Nothing here yet: each flush looks back and leaves what it "
                                             "noticed here. monchat never fills a gap by itself."))
        self.insights_empty.setWordWrap(True)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.insights_empty)
        layout.addWidget(self.insights)
        layout.addWidget(self.insight_text)
        layout.addLayout(marks)
        return page

    def _diary_tab(self) -> QWidget:
        self.days = QListWidget()
        self.days.currentItemChanged.connect(self._show_page)
        self.page = QPlainTextEdit()
        self.page.setReadOnly(True)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.days)
        splitter.addWidget(self.page)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([160, 640])
        return splitter

    def _profile_tab(self) -> QWidget:
        self.profile_day = QLabel()
        self.windows: dict[str, QGroupBox] = {}
        self.bars: dict[str, list[tuple[QLabel, QProgressBar, QLabel]]] = {}
        body = QWidget()
        row = QHBoxLayout(body)
        for days in ("7", "30", "90"):
            box = QGroupBox(self.window_name(days), body)
            grid = QGridLayout(box)
            grid.setColumnStretch(1, 1)  # the bar takes the width
            grid.setRowStretch(BARS_PER_WINDOW, 1)  # the bars stack at the top
            self.windows[days] = box
            self.bars[days] = []
            row.addWidget(box)
        scroll = self.profile_scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.profile_day)
        layout.addWidget(scroll)
        return page

    def _graph_tab(self) -> QWidget:
        self.graph_view = GraphView()
        self.graph_empty = QLabel(self.tr("No graph yet: a flush draws it from your memories."))
        self.graph_legend = QLabel(self.tr("Blue: topics · orange: people · green: places · purple: things. "
                                           "A line: talked about together (thicker: stronger); weaker links are "
                                           "kept, not drawn."))
        for label in (self.graph_empty, self.graph_legend):
            label.setWordWrap(True)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.graph_empty)
        layout.addWidget(self.graph_view, 1)
        layout.addWidget(self.graph_legend)
        return page

    # ---- filling -------------------------------------------------------------
    def reload(self) -> None:
        self.insights.clear()
        graph = self.inbox.graph()
        names = {n["id"]: n["label"] for n in graph["nodes"]}  # a topic's node in words (graph_view.node_name)
        rows = [{**r, "what": "insight", "slots": [memory_words.topic(slot) for slot in r["slots"]],
                 "text": in_words(r["text"], r["slots"])} for r in self.inbox.insights()]
        rows += [{"what": "gap", "id": g["id"], "kind": g["kind"], "text": self.gap_text(g), "status": g["status"],
                  "slots": [memory_words.topic(g["slot"])] if g["slot"] else [], "run_id": g["run_id"]}
                 for g in self.inbox.gaps()]
        for d in self.inbox.discoveries():
            labels = [node_name({"id": n, "label": names.get(n, n.partition(":")[2])}) for n in d["nodes"]]
            rows.append({"what": "discovery", "id": d["id"], "kind": d["kind"], "status": d["status"],
                         "text": self.discovery_text(d["kind"], labels), "slots": labels[:2], "run_id": d["run_id"]})
        rows = [r for r in rows if r["status"] != DISMISSED]
        for r in rows:
            item = QTreeWidgetItem([r["text"], self.kind_name(r["kind"]), memory_words.listed(r["slots"]), str(r["run_id"] or ""),
                                    self.status_name(r["status"])])
            item.setData(0, Qt.ItemDataRole.UserRole, (r["what"], r["id"], r["status"]))
            item.setToolTip(0, r["text"])  # the whole text where the column cuts it
            self.insights.addTopLevelItem(item)
        self.insights_empty.setVisible(not rows)
        if rows and self.insights.currentItem() is None:  # the first row's words show below at once
            self.insights.setCurrentItem(self.insights.topLevelItem(0))
        self._enable_marks()
        self.days.clear()
        for page in reversed(self.inbox.diary()):
            entry = QListWidgetItem(page["date"])
            entry.setData(Qt.ItemDataRole.UserRole, page)
            self.days.addItem(entry)
        if self.days.count():
            self.days.setCurrentRow(0)
        else:
            self.page.setPlainText(self.tr("No diary yet: a flush writes one page for each day you chatted."))
        self._fill_profile(self.inbox.profile())
        self.graph_view.show_graph(graph)
        self.graph_empty.setVisible(not graph["nodes"])
        self.lint_tab.reload()

    def _enable_marks(self) -> None:
        current = self.insights.currentItem()
        entry = current.data(0, Qt.ItemDataRole.UserRole) if current is not None else None
        self.read_button.setEnabled(entry is not None and entry[2] == OPEN)
        self.dismiss_button.setEnabled(entry is not None)

    def _mark(self, action: str) -> None:
        """Mark the chosen insight or gap read or dismissed, and show the list as it is now."""
        current = self.insights.currentItem()
        if current is None:
            return
        what, entry_id, _status = current.data(0, Qt.ItemDataRole.UserRole)
        row = self.insights.indexOfTopLevelItem(current)
        self.inbox.mark(what, entry_id, action)
        self.reload()
        if what == "gap":
            self.memory_changed.emit()
        if self.insights.topLevelItemCount():
            self.insights.setCurrentItem(self.insights.topLevelItem(min(row, self.insights.topLevelItemCount() - 1)))

    def _show_page(self, current, _previous) -> None:
        if current is None:
            return
        page = current.data(Qt.ItemDataRole.UserRole)
        topics = memory_words.listed(memory_words.topic(t) for t in page["topics"]) or "—"
        self.page.setPlainText(f"{page['text']}\n\n" + arg(self.tr("Topics: %1. Messages cited: %2."), topics,
                                                           str(len(page["messages"]))))

    def _fill_profile(self, profile: dict) -> None:
        if profile["day"] is None:
            self.profile_day.setText(self.tr("No profile yet: a flush draws it, and so does approving a memory."))
        else:
            self.profile_day.setText(arg(self.tr("Topics you talked about, as of %1 (bars: share of the window)."),
                                         profile["day"]))
        for days, box in self.windows.items():
            grid = box.layout()
            for widgets in self.bars[days]:
                for w in widgets:
                    grid.removeWidget(w)
                    w.deleteLater()
            self.bars[days] = []
            for n, entry in enumerate(profile["windows"][days][:BARS_PER_WINDOW]):
                name = QLabel(memory_words.topic_name(entry["topic"]), box)
                name.setToolTip(memory_words.topic_tip(entry["topic"]))
                bar = QProgressBar(box)
                bar.setRange(0, 100)
                bar.setValue(round(entry["weight"] * 100))
                bar.setFormat(str(entry["count"]))
                bar.setToolTip(arg(self.tr("Messages about it in these days: %1"),
                                   memory_words.count_change(entry["count"], entry["delta"])))
                bar.setMinimumWidth(BAR_MIN_WIDTH)  # its own minimum is its full width: three windows must fit
                trend = QLabel(self.trend_name(entry["trend"]), box)
                for col, w in enumerate((name, bar, trend)):
                    grid.addWidget(w, n, col)
                self.bars[days].append((name, bar, trend))


def in_words(text: str, slots: list[str]) -> str:
    """An insight's text with the slot keys it names (``communication/answer-length``) in words."""
    for slot in sorted(slots, key=len, reverse=True):
        if "/" in slot:
            text = text.replace(slot, memory_words.topic(slot))
    return text
