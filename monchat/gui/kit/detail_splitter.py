"""A list over the detail of its current row (the memory browser, the review queue).

The list is what a user scans, so it takes the room: on the first show it gets ``LIST_SHARE`` of the height
(at least what the detail leaves), and when the window grows only the list grows. The detail keeps a
compact minimum and the splitter's handle lets the user give it more. Neither side can be collapsed to
nothing by a drag.

``EvidenceList`` is the detail's list of what the user said (a row a message: its time, then its words),
with headings where a detail shows two memories' evidence.
"""

from __future__ import annotations

from datetime import tzinfo

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QSplitter, QStyleOptionViewItem, QTreeWidget,
                               QTreeWidgetItem, QWidget)

from .excerpt import excerpt
from .times import shown_time

LIST_SHARE = 0.6  # of the splitter's height, for the list, when the window first shows
EVIDENCE_LINES = 6  # the evidence list's least height, in lines (its header hidden): a few messages show


class DetailSplitter(QSplitter):
    def __init__(self, listing: QWidget, detail: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.addWidget(listing)
        self.addWidget(detail)
        self.setStretchFactor(0, 1)  # a taller window: more rows of the list
        self.setStretchFactor(1, 0)
        self.setChildrenCollapsible(False)
        self._placed = False

    def place(self) -> None:
        """Give the list its share of the height (at least what the detail's minimum leaves)."""
        total = sum(self.sizes())
        if total <= 0:
            return
        room = total - self.widget(1).minimumSizeHint().height()  # what the detail's minimum leaves
        listing = max(1, min(round(total * LIST_SHARE), room))
        self.setSizes([listing, total - listing])

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._placed:
            self._placed = True
            self.place()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if not self._placed and self.isVisible():
            self._placed = True
            self.place()


class EvidenceList(QTreeWidget):
    """What the user said, one message a row: its time in a column of its own, then its words.

    The time has a cell of its own so it is drawn in one font on every row: in one string, digits before
    words that start with kana would be drawn in the CJK font (the script of what follows them) and digits
    before a kanji in the Latin one, so one row's time looked smaller than the next.
    """

    def __init__(self, parent: QWidget | None = None, tz: tzinfo | None = None) -> None:
        """``tz``: the zone times are shown in (the user's: ``MemoryService.tz``; None is the machine's)."""
        super().__init__(parent)
        self.tz = tz
        self.setColumnCount(2)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setMinimumHeight(self.fontMetrics().height() * EVIDENCE_LINES)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        header = self.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self._refit = QTimer(self)  # once the header has settled (a stretched column resizes after the others)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self.fit_rows)
        header.sectionResized.connect(lambda *_: self._refit.start())  # the words wrap again at the new width

    def count(self) -> int:
        return self.topLevelItemCount()

    def texts(self) -> list[str]:
        """Each row as one line: ``YYYY-MM-DD HH:MM  its words`` (a heading: its text)."""
        rows = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return ["  ".join(t for t in (row.text(0), row.text(1)) if t) for row in rows]

    def add_heading(self, text: str) -> None:
        """A bold heading across both columns (shown, never selected) in the rows' own size."""
        item = QTreeWidgetItem(self, [text])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        item.setFirstColumnSpanned(True)
        item.setToolTip(0, text)
        font = self.font()
        font.setBold(True)
        item.setFont(0, font)

    def add_messages(self, messages: list[dict], about: str = "") -> None:
        """One row a message; a long one as an excerpt centred on its sentence closest to ``about`` (the memory's
        words), the whole message in the tooltip."""
        for message in messages:
            when = shown_time(message.get("ts"), self.tz)  # the user's zone, as Search shows it
            text = str(message.get("text", ""))
            item = QTreeWidgetItem(self, [when, excerpt(text, about)])
            item.setToolTip(1, text)
            item.setTextAlignment(0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.fit_rows()

    def fit_rows(self) -> None:
        """Each message's row as tall as its words wrapped at the words' column. A tree view asks its delegate for a
        row's height with no width, which never wraps: here the delegate is asked with the column's width."""
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        width = self.viewport().width() - self.columnWidth(0)  # the words' column stretches to the edge
        option.rect = QRect(0, 0, max(width, 40), 1)  # a valid rect: the style wraps at its width
        delegate = self.itemDelegate()
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            if not item.isFirstColumnSpanned():
                item.setData(1, Qt.ItemDataRole.SizeHintRole, None)  # else the delegate answers the last hint
                item.setSizeHint(1, delegate.sizeHint(option, self.indexFromItem(item, 1)))
