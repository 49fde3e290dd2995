"""Search and browse the history (Ctrl+F): words or a day, and the conversation at that moment.

The list shows each message found with its date, persona and who spoke; choosing one shows the
conversation around it, read-only, scrolled to it and marked. Searching runs on a worker (the
unflushed logs are read from disk); ``SearchService`` is what ``monchat search`` calls too.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QSplitter, QTextBrowser, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from ..core.search import SearchService
from ..core.types import Message
from .failures import explanation, headline
from .lifetime import alive
from .tier_words import tier_words
from .translation import arg
from .workers import Failure, TaskRunner

ID_ROLE = Qt.ItemDataRole.UserRole


class SearchDialog(QDialog):
    """Signals:
        results_shown(int): a search or a day's list is shown (how many messages).
        conversation_shown(str): the conversation around this message id is shown.
        search_failed(Failure): a search could not be made.
    """

    results_shown = Signal(int)
    conversation_shown = Signal(str)
    search_failed = Signal(object)

    def __init__(self, search: SearchService, persona_name, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = search
        self.persona_name = persona_name
        self.runner = runner
        self.setWindowTitle(self.tr("Search the conversation"))
        self.resize(980, 660)

        self.query = QLineEdit(self)
        self.query.setPlaceholderText(self.tr("Words to find (every one must occur)"))
        self.query.setClearButtonEnabled(True)
        self.query.returnPressed.connect(self.run_search)
        self.search_button = QPushButton(self.tr("Search"), self)
        self.search_button.clicked.connect(self.run_search)
        self.days = QListWidget(self)
        self.days.setToolTip(self.tr("Every day with messages: choose one to read that day"))
        self.days.itemActivated.connect(self._day_chosen)
        self.days.itemClicked.connect(self._day_chosen)
        self.results = QTreeWidget(self)
        self.results.setRootIsDecorated(False)
        self.results.setHeaderLabels([self.tr("Date"), self.tr("Persona"), self.tr("Who"), self.tr("Message")])
        header = self.results.header()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.results.currentItemChanged.connect(lambda item, _old: self.open_at(item.data(0, ID_ROLE))
                                                if item is not None else None)
        self.conversation = QTextBrowser(self)
        self.conversation.setOpenLinks(False)
        self.conversation.setPlaceholderText(self.tr("Choose a message to read the conversation around it."))
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)

        top = QHBoxLayout()
        top.addWidget(self.query, 1)
        top.addWidget(self.search_button)
        days_box = QWidget(self)
        days_column = QVBoxLayout(days_box)
        days_column.setContentsMargins(0, 0, 0, 0)
        days_column.addWidget(QLabel(self.tr("Days"), days_box))
        days_column.addWidget(self.days, 1)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.results)
        right.addWidget(self.conversation)
        right.setSizes([300, 300])
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(days_box)
        split.addWidget(right)
        split.setSizes([170, 810])
        column = QVBoxLayout(self)
        column.addLayout(top)
        column.addWidget(split, 1)
        column.addWidget(self.status)
        column.addWidget(buttons)
        self.load_days()

    # ---- words -------------------------------------------------------------
    def who(self, message) -> str:
        return self.tr("You") if message.role == "user" else self.tr("Assistant")

    def when(self, message) -> str:
        return message.dt.astimezone(self.search.tz).strftime("%Y-%m-%d %H:%M")

    def _failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.search_button.setEnabled(True)
        self.status.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.search_failed.emit(failure)

    # ---- days --------------------------------------------------------------
    def load_days(self) -> None:
        search = self.search
        self.runner.start("search days", lambda _report: (search.days(), search.day_tiers()),
                          on_finished=self._show_days, on_failed=self._failed)

    def _show_days(self, found: tuple[dict[str, int], dict[str, str]]) -> None:
        if not alive(self):
            return
        days, tiers = found
        self.days.clear()
        for day, count in reversed(days.items()):  # newest first
            item = QListWidgetItem(arg(self.tr("%1 (%2)"), day, count), self.days)
            item.setData(ID_ROLE, day)
            if day in tiers:  # the day's tier at the last flush (archive days age like memories)
                item.setToolTip(arg(self.tr("Talked about: %1"), tier_words.name(tiers[day])))

    def _day_chosen(self, item: QListWidgetItem) -> None:
        self.show_day(item.data(ID_ROLE))

    def show_day(self, day: str) -> None:
        search = self.search
        self.runner.start("search day", lambda _report: (search.on_day(day), search.replaced_ids()),
                          on_finished=lambda found: self._show_results(found[0], arg(self.tr("%1: %2 message(s)"),
                                                                                     day, len(found[0])), found[1]),
                          on_failed=self._failed)

    # ---- search ------------------------------------------------------------
    def run_search(self) -> None:
        query = self.query.text().strip()
        if not query:
            self.status.setText(self.tr("Type a word or part of a sentence to look for."))
            return
        self.search_button.setEnabled(False)
        search = self.search
        self.runner.start("search", lambda _report: search.search(query), on_finished=self._searched,
                          on_failed=self._failed)

    def _searched(self, hits) -> None:
        if not alive(self):
            return
        self.search_button.setEnabled(True)
        note = "" if self.search.indexed() else "\n" + self.tr(
            "This SQLite has no full-text index for Japanese (FTS5 trigram); the archive was scanned instead.")
        self._show_results(hits, arg(self.tr("%1 message(s) found, newest first."), len(hits)) + note)

    def replaced_mark(self) -> str:
        """Before a message the user edited away (or a reply asked for again): no flush reads it."""
        return self.tr("[replaced]") + " "

    def _show_results(self, found, summary: str, replaced: set[str] = frozenset()) -> None:
        if not alive(self):
            return
        self.results.clear()
        self.conversation.clear()
        for m in found:
            text = " ".join(m.text.split())
            if getattr(m, "replaced", False) or m.id in replaced:
                text = self.replaced_mark() + text
            item = QTreeWidgetItem(self.results, [self.when(m), self.persona_name(m.persona), self.who(m),
                                                  text[:200]])
            item.setToolTip(3, m.text[:2000])
            item.setData(0, ID_ROLE, m.id)
        self.status.setText(summary)
        self.results_shown.emit(len(found))

    # ---- the conversation at that moment -------------------------------------
    def open_at(self, message_id: str | None) -> None:
        if not message_id:
            return
        search = self.search
        self.runner.start("search around", lambda _report: (search.around(message_id), search.replaced_ids()),
                          on_finished=lambda found: self._show_conversation(message_id, *found),
                          on_failed=self._failed)

    def _show_conversation(self, message_id: str, messages: list[Message], replaced: set[str] = frozenset()) -> None:
        if not alive(self):
            return
        palette = self.conversation.palette()  # the theme's selection colours: readable light and dark
        mark_style = (f' style="background-color: {palette.color(QPalette.ColorRole.Highlight).name()}; '
                      f'color: {palette.color(QPalette.ColorRole.HighlightedText).name()};"')
        parts = []
        for m in messages:
            mark = mark_style if m.id == message_id else ""
            name = self.who(m) if m.role == "user" else self.persona_name(m.persona)
            body = html.escape((self.replaced_mark() if m.id in replaced else "") + m.text).replace("\n", "<br>")
            parts.append(f'<a name="{html.escape(m.id)}"></a><p{mark}><b>{html.escape(name)}</b> '
                         f'{html.escape(self.when(m))}<br>{body}</p>')
        self.conversation.setHtml("".join(parts))
        self.conversation.scrollToAnchor(message_id)
        self.conversation_shown.emit(message_id)
