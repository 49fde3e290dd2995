"""The inbox: what the background track kept — insights and gaps, the diary, the interest profile.

The user opens it when they want; nothing of it is pushed into the chat. It only reads
(``core/background/inbox.py``), on the GUI thread like the memory browser.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QListWidgetItem, QPlainTextEdit, QProgressBar, QScrollArea, QSplitter,
                               QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from ..core.background.inbox import Inbox
from .lint_tab import LintTab
from .translation import arg

BARS_PER_WINDOW = 12


class InboxDialog(QDialog):
    def __init__(self, inbox: Inbox, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.inbox = inbox
        self.setWindowTitle(self.tr("Inbox"))
        self.resize(820, 600)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._insights_tab(), self.tr("Insights and gaps"))
        self.tabs.addTab(self._diary_tab(), self.tr("Diary"))
        self.tabs.addTab(self._profile_tab(), self.tr("Interests"))
        self.lint_tab = LintTab(inbox.store.store, self)  # knowledge lint's findings (gui/lint_tab.py)
        self.tabs.addTab(self.lint_tab, self.tr("Lint"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        self.reload()

    # ---- words -----------------------------------------------------------
    def kind_name(self, kind: str) -> str:
        return {"insight": self.tr("insight"), "gap": self.tr("suspected gap"),
                "recall": self.tr("corrected twice"), "structural": self.tr("never mentioned")}.get(kind, kind)

    def trend_name(self, trend: str) -> str:
        return {"rising": self.tr("↑ rising"), "steady": self.tr("→ steady"),
                "cooling": self.tr("↓ cooling")}.get(trend, trend)

    def window_name(self, days: str) -> str:
        return arg(self.tr("Last %1 days"), days)

    # ---- tabs --------------------------------------------------------------
    def _insights_tab(self) -> QWidget:
        self.insights = QTreeWidget()
        self.insights.setHeaderLabels([self.tr("What"), self.tr("Kind"), self.tr("About"), self.tr("Flush")])
        self.insights.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.insights.setRootIsDecorated(False)
        self.insights_empty = QLabel(self.tr("Nothing here yet: each flush looks back and leaves what it "
                                             "noticed here. monchat never fills a gap by itself."))
        self.insights_empty.setWordWrap(True)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.insights_empty)
        layout.addWidget(self.insights)
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
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.profile_day)
        layout.addWidget(scroll)
        return page

    # ---- filling -------------------------------------------------------------
    def reload(self) -> None:
        self.insights.clear()
        rows = self.inbox.insights()
        rows += [{"kind": g["kind"], "text": g["text"], "slots": [g["slot"]] if g["slot"] else [],
                  "run_id": g["run_id"]} for g in self.inbox.gaps() if g["status"] == "open"]
        for r in rows:
            item = QTreeWidgetItem([r["text"], self.kind_name(r["kind"]), ", ".join(r["slots"]), str(r["run_id"])])
            self.insights.addTopLevelItem(item)
        self.insights_empty.setVisible(not rows)
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
        self.lint_tab.reload()

    def _show_page(self, current, _previous) -> None:
        if current is None:
            return
        page = current.data(Qt.ItemDataRole.UserRole)
        topics = ", ".join(page["topics"]) or "—"
        self.page.setPlainText(f"{page['text']}\n\n" + arg(self.tr("Topics: %1. Messages cited: %2."), topics,
                                                           str(len(page["messages"]))))

    def _fill_profile(self, profile: dict) -> None:
        if profile["day"] is None:
            self.profile_day.setText(self.tr("No profile yet: the next flush draws it."))
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
                name = QLabel(entry["topic"], box)
                bar = QProgressBar(box)
                bar.setRange(0, 100)
                bar.setValue(round(entry["weight"] * 100))
                bar.setFormat(str(entry["count"]))
                trend = QLabel(self.trend_name(entry["trend"]), box)
                for col, w in enumerate((name, bar, trend)):
                    grid.addWidget(w, n, col)
                self.bars[days].append((name, bar, trend))
