"""Search and browse the history (Ctrl+F): words or a day, and the conversation at that moment.

The list shows each message found with its date, persona and who spoke, as plain text (a reply's
Markdown is rendered away) starting near the match, replaced and stopped replies marked; choosing one
shows the conversation around it, read-only, scrolled to it and marked, the words searched highlighted. Searching runs on a worker (the
unflushed logs are read from disk); ``SearchService`` is what ``monchat search`` calls too.
"""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette, QTextDocument
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QSplitter, QTextBrowser, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from ...core.logs.search import SearchService
from ...core.vocabulary.states import ReplyStatus
from ...core.types import Message
from ..chat.long_message import hidden_note, shown_part
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..memory.tier_words import tier_words
from ..translation import arg
from ..kit.workers import Failure, TaskRunner

ID_ROLE = Qt.ItemDataRole.UserRole
SNIPPET_BEFORE = 40  # characters shown before the first match in the list


def plain_text(message, words: list[str] | tuple[str, ...] = ()) -> str:
    """What a message says, without a reply's Markdown marks (``**``, ``#``, fences), on one line: 4,000
    characters of it, from a little before the first of ``words`` when that is further in ("…" before)."""
    pattern = "|".join(re.escape(w) for w in words if w)
    found = re.search(pattern, message.text, re.I) if pattern else None
    start = found.start() - SNIPPET_BEFORE if found is not None and found.start() > 4000 - SNIPPET_BEFORE else 0
    text = message.text[start:start + 4000]
    if message.role == "assistant":
        document = QTextDocument()
        document.setMarkdown(text)
        text = document.toPlainText()
    return ("…" if start else "") + " ".join(text.split())


def plain_text_lines(markdown: str) -> str:
    """A reply's Markdown as plain text, its lines kept (the conversation pane)."""
    document = QTextDocument()
    document.setMarkdown(markdown)
    return document.toPlainText()


def snippet(text: str, words: list[str], width: int = 200) -> str:
    """``text`` from a little before the first of ``words`` it holds (… where cut), at most ``width`` long."""
    lowered = text.lower()
    found = [i for i in (lowered.find(w.lower()) for w in words if w) if i >= 0]
    start = max(0, min(found) - SNIPPET_BEFORE) if found else 0
    piece = text[start:start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(text) else "")


def part_with(text: str, words: list[str], shown: str, hidden: int) -> tuple[str, int]:
    """``shown`` (a bubble's part of ``text``, ``hidden`` characters left out), or, when the first of ``words`` lies
    past it, as long a part from a little before them ("…" where cut) and what that leaves out."""
    pattern = "|".join(re.escape(w) for w in words if w)
    found = re.search(pattern, text, re.I) if pattern and hidden else None
    if found is None or found.end() <= len(shown):
        return shown, hidden
    start = max(0, min(found.start() - SNIPPET_BEFORE * 5, len(text) - len(shown)))  # as long, to the end at most
    part = text[start:start + len(shown)]
    return "…" + part, len(text) - len(part)


def highlighted(text: str, words: list[str], style: str) -> str:
    """``text`` escaped for HTML, each of ``words`` (any case) in a span with ``style``."""
    words = [w for w in words if w]
    if not words:
        return html.escape(text)
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.I)
    out, last = [], 0
    for match in pattern.finditer(text):
        out += [html.escape(text[last:match.start()]), f'<span style="{style}">{html.escape(match.group())}</span>']
        last = match.end()
    return "".join(out + [html.escape(text[last:])])


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
        self.words: list[str] = []  # the words last searched for: highlighted in the conversation
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
                          on_finished=lambda found: self._show_results(
                              found[0], arg(self.tr("%1: %n message(s)", "", len(found[0])), day), found[1]),
                          on_failed=self._failed)

    # ---- search ------------------------------------------------------------
    def run_search(self) -> None:
        query = self.query.text().strip()
        if not query:
            self.status.setText(self.tr("Type a word or part of a sentence to look for."))
            return
        self.search_button.setEnabled(False)
        self.words = query.split()
        search = self.search
        self.runner.start("search", lambda _report: search.search(query), on_finished=self._searched,
                          on_failed=self._failed)

    def _searched(self, hits) -> None:
        if not alive(self):
            return
        self.search_button.setEnabled(True)
        note = "" if self.search.indexed() else "\n" + self.tr(
            "This SQLite has no full-text index for Japanese (FTS5 trigram); the archive was scanned instead.")
        self._show_results(hits, self.tr("%n message(s) found, newest first.", "", len(hits)) + note)

    def replaced_mark(self) -> str:
        """Before a message the user edited away (or a reply asked for again): no flush reads it."""
        return self.tr("[replaced]") + " "

    def mark(self, message, replaced: set[str]) -> str:
        """What sets a message apart in the list: replaced, stopped by the user, or cut off."""
        if getattr(message, "replaced", False) or message.id in replaced:
            return self.replaced_mark()
        status = getattr(message, "status", ReplyStatus.OK)
        return {ReplyStatus.STOPPED: self.tr("[stopped]") + " ",
                ReplyStatus.PARTIAL: self.tr("[cut off]") + " "}.get(status, "")

    def _show_results(self, found, summary: str, replaced: set[str] = frozenset()) -> None:
        if not alive(self):
            return
        self.results.clear()
        self.conversation.clear()
        for m in found:
            text = plain_text(m, self.words)  # a line of a list: never a 50 MB split (4,000 characters of it)
            mark = self.mark(m, replaced)
            item = QTreeWidgetItem(self.results, [self.when(m), self.persona_name(m.persona), self.who(m),
                                                  mark + snippet(text, self.words)])
            if mark:  # set apart: drawn dimmer, as text no flush reads or a reply that did not finish
                item.setForeground(3, self.results.palette().color(QPalette.ColorRole.PlaceholderText))
            item.setToolTip(3, text[:2000])
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
        found_style = (f"background-color: {palette.color(QPalette.ColorRole.Highlight).name()}; "
                       f"color: {palette.color(QPalette.ColorRole.HighlightedText).name()}; font-weight: bold;")
        parts = []
        here, anchor = "found-here", message_id  # the pane scrolls to the words in the found message, else to it
        for m in messages:
            mark = mark_style if m.id == message_id else ""
            name = self.who(m) if m.role == "user" else self.persona_name(m.persona)
            # The found message is all highlight already: its words are underlined instead.
            style = "text-decoration: underline; font-weight: bold;" if mark else found_style
            shown, hidden = shown_part(m.text)  # a huge message: a part and a note, never laid out whole
            if mark:  # from a little before the words when they lie past the part a bubble shows
                shown, hidden = part_with(m.text, self.words, shown, hidden)
            text = shown if m.role == "user" else plain_text_lines(shown)
            body = (html.escape(self.mark(m, replaced)) + highlighted(text, self.words, style)).replace("\n", "<br>")
            if mark and "<span" in body:
                body = body.replace("<span", f'<a name="{here}"></a><span', 1)
                anchor = here
            if hidden:
                body += f"<br><i>{html.escape(hidden_note(hidden))}</i>"
            parts.append(f'<a name="{html.escape(m.id)}"></a><p{mark}><b>{html.escape(name)}</b> '
                         f'{html.escape(self.when(m))}<br>{body}</p>')
        self.conversation.setHtml("".join(parts))
        self.conversation.scrollToAnchor(anchor)
        self.conversation_shown.emit(message_id)
