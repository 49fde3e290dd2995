"""One message in the conversation: the persona's avatar, a card with time and author, the text.

Replies render as Markdown with their line breaks kept and code blocks coloured, labelled and copyable
(``chat/markdown.py``); a reply cut off (an error, the length limit) says so in its card; the
user's own words stay plain text, on the right, in a card tinted with the highlight colour, so who
said what is clear at a glance. Colours come from the palette (light and dark both work) and are
taken again when the palette changes. A long message paints only its first part, with a note of how much
is left out and "Show all", which opens the reader (``long_message.py``): never a 5 MB layout.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDateTime, QEvent, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QPixmap, QTextCursor, QTextFormat
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QSizePolicy, QTextBrowser, QToolButton, QVBoxLayout,
                               QWidget)

from ...core.vocabulary.states import ReplyStatus
from ...core.types import Message
from .long_message import hidden_note, shown_part
from .markdown import copy_index, decorate_code, keep_line_breaks
from .rating_buttons import RatingButtons

RENDER_DELAY_MS = 40  # streamed text is re-rendered at most this often
COPIED_MS = 1500  # how long a copy button says "Copied"
AVATAR_PX = 36
USER_INDENT_PX = 64  # the user's cards start this far right; replies leave as much room on the right


def mix(a: QColor, b: QColor, share: float) -> QColor:
    """``a`` with ``share`` of ``b`` mixed in."""
    return QColor(*(round(x * (1 - share) + y * share) for x, y in
                    zip(a.getRgb()[:3], b.getRgb()[:3])))


class MessageBody(QTextBrowser):
    """A message's text, as tall as its content, inside the conversation's own scroll area.

    A QTextDocument lays out once per change; a rich-text QLabel lays out again for every
    height-for-width question, which froze the window for tens of ms on long replies.
    """

    def __init__(self, markdown: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.markdown = markdown
        self.setFrameShape(QFrame.Shape.NoFrame)
        # A click is only a request: the window checks the scheme and shows where it goes first.
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setAutoFillBackground(False)  # the card's palette shows through
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().setDocumentMargin(2)
        self.decorate = True  # colour and label code blocks (not while a reply streams)
        self.copied = -1  # the code block whose Copy link says "Copied" for now
        self.code = []  # the code blocks shown, what their Copy links copy

    def show_text(self, text: str) -> None:
        if self.markdown:
            self.setMarkdown(keep_line_breaks(text))
            self._tint_code()
            if self.decorate:
                self.code = decorate_code(self.document(), self.palette(), self.tr("Copy"), self.tr("Copied"),
                                          self.tr("code"), self.copied)
        else:
            self.setPlainText(text)
        self._fit()

    def _tint_code(self) -> None:
        """A background behind code blocks and inline code, from the palette."""
        palette = self.palette()
        shade = mix(palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text), 0.08)
        block = self.document().begin()
        while block.isValid():
            cursor = QTextCursor(block)
            if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeLanguage):
                fmt = block.blockFormat()
                fmt.setBackground(shade)
                cursor.setBlockFormat(fmt)
            else:
                iterator = block.begin()
                while not iterator.atEnd():
                    fragment = iterator.fragment()
                    char = fragment.charFormat()
                    if char.fontFixedPitch() or "mono" in ",".join(char.fontFamilies() or []).lower():
                        cursor.setPosition(fragment.position())
                        cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                        char.setBackground(shade)
                        cursor.setCharFormat(char)
                    iterator += 1
            block = block.next()

    def _fit(self) -> None:
        self.document().setTextWidth(max(self.viewport().width(), 50))
        height = int(self.document().size().height()) + self.frameWidth() * 2
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit()

    def wheelEvent(self, event) -> None:  # noqa: N802 (Qt override)
        event.ignore()  # nothing to scroll here: let the conversation scroll


def format_time(dt: datetime, now: datetime | None = None) -> str:
    """Time today, date and time otherwise, in the UI language's short format."""
    now = now or datetime.now().astimezone()
    local = dt.astimezone()
    qdt = QDateTime.fromSecsSinceEpoch(int(local.timestamp()))
    locale = QLocale()
    if local.date() == now.astimezone().date():
        return locale.toString(qdt.time(), QLocale.FormatType.ShortFormat)
    return locale.toString(qdt, QLocale.FormatType.ShortFormat)


class CopyButton(QToolButton):
    """A flat button that copies a text and says "Copied" for a moment."""

    def __init__(self, label: str, tip: str, text, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        self.copied_text = text  # a callable giving what to copy
        self.setText(label)
        self.setToolTip(tip)
        self.setAutoRaise(True)
        self.clicked.connect(self.copy)
        self.back = QTimer(self)  # a child: it dies with the button, so it never fires on a deleted one
        self.back.setSingleShot(True)
        self.back.setInterval(COPIED_MS)
        self.back.timeout.connect(lambda: self.setText(self.label))

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.copied_text())
        self.setText(self.tr("Copied"))
        self.back.start()


class MessageBubble(QWidget):
    """One message: an avatar and a card (replies), or a card on the right (the user's words).

    Signals:
        link_clicked(str): a link in the text was clicked (not opened).
        rated(str, str): a reply's 👍/👎 was clicked: (message id, "up" | "down" | "none").
        delete_requested(str): Delete was clicked (the window asks first): the message id.
    """

    link_clicked = Signal(str)
    rated = Signal(str, str)
    delete_requested = Signal(str)
    show_all_requested = Signal(object)  # "Show all" under a long message: this bubble

    def __init__(self, role: str, author: str, when: str, text: str = "", *,
                 message_id: str = "", epoch: float | None = None, status: str = ReplyStatus.OK, persona: str = "",
                 avatar: QPixmap | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.persona = persona
        self.message_id = message_id
        self.epoch = epoch
        self.status = status
        self._text = text
        self._render_pending = False
        self._painting = False
        self.setObjectName(f"bubble_{role}")
        self.card = QFrame(self)
        self.card.setObjectName(f"card_{role}")
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.card.setAutoFillBackground(True)

        self.header = QLabel(self.card)
        self.header.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.copy_button = CopyButton(self.tr("Copy"), self.tr("Copy this message"), self.text, self.card)
        self.body = MessageBody(markdown=role == "assistant", parent=self.card)
        self.body.anchorClicked.connect(self._anchor_clicked)
        self.copied_back = QTimer(self, singleShot=True, interval=COPIED_MS, timeout=self._uncopied)
        self.cut_label = QLabel(self.card)  # "cut off": the reply ended early (an error, the length limit)
        self.cut_label.setObjectName("cut_off")
        self.cut_label.setWordWrap(True)
        self.cut_label.hide()
        self.wait_label = QLabel(self.card)  # a reply waiting for the model (a flush's call runs): how long
        self.wait_label.setObjectName("reply_wait")
        self.wait_label.setWordWrap(True)
        self.wait_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.wait_label.hide()
        self.hidden_label = QLabel(self.card)  # how much of a long message is not painted
        self.hidden_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.show_all_button = QToolButton(self.card)
        self.show_all_button.setText(self.tr("Show all"))
        self.show_all_button.setToolTip(self.tr("Read the whole message, a page at a time"))
        self.show_all_button.clicked.connect(lambda: self.show_all_requested.emit(self))
        hidden_row = QHBoxLayout()
        hidden_row.setContentsMargins(0, 0, 0, 0)
        hidden_row.addWidget(self.hidden_label, 1)
        hidden_row.addWidget(self.show_all_button)
        self.hidden_label.hide()
        self.show_all_button.hide()

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.header, 1)
        self.rating = RatingButtons(self.card)  # replies only, once they are logged (they have an id)
        self.rating.rated.connect(lambda rating: self.rated.emit(self.message_id, rating))
        self.rating.setVisible(role == "assistant" and bool(message_id) and status != "streaming")
        top.addWidget(self.rating)
        top.addWidget(self.copy_button)
        self.delete_button = QToolButton(self.card)  # once logged (it has an id): the window asks before it deletes
        self.delete_button.setText(self.tr("Delete"))
        self.delete_button.setToolTip(self.tr("Delete this message for good (you are asked first)"))
        self.delete_button.setAutoRaise(True)
        self.delete_button.clicked.connect(lambda: self.delete_requested.emit(self.message_id))
        self.delete_button.setVisible(bool(message_id) and status != "streaming")
        top.addWidget(self.delete_button)
        inner = QVBoxLayout(self.card)
        inner.setContentsMargins(10, 6, 10, 8)
        inner.setSpacing(2)
        inner.addLayout(top)
        inner.addWidget(self.wait_label)
        inner.addWidget(self.body)
        inner.addLayout(hidden_row)
        inner.addWidget(self.cut_label)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        self.avatar = QLabel(self)
        self.avatar.setObjectName("avatar")
        self.avatar.setFixedSize(AVATAR_PX, AVATAR_PX)
        if role == "assistant":
            if avatar is not None:
                self.avatar.setPixmap(avatar)
            row.addWidget(self.avatar, 0, Qt.AlignmentFlag.AlignTop)
            row.addWidget(self.card, 1)
            row.addSpacing(USER_INDENT_PX - AVATAR_PX)
        else:
            self.avatar.hide()
            row.addSpacing(USER_INDENT_PX)
            row.addWidget(self.card, 1)
        self._author, self._when = author, when
        self._apply_colours()
        self._update_header()
        self._render()

    # ---- colours -------------------------------------------------------
    def _apply_colours(self) -> None:
        """The card's fill: the alternate base for replies, a highlight tint for the user's words."""
        self._painting = True
        palette = QPalette(self.palette())
        base = palette.color(QPalette.ColorRole.Base)
        fill = (palette.color(QPalette.ColorRole.AlternateBase) if self.role == "assistant"
                else mix(base, palette.color(QPalette.ColorRole.Highlight), 0.18))
        palette.setColor(QPalette.ColorRole.Window, fill)
        self.card.setPalette(palette)
        self.card.setBackgroundRole(QPalette.ColorRole.Window)
        self._painting = False

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and not self._painting:
            self._apply_colours()
            self._render()

    # ---- content -------------------------------------------------------
    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        self._text = text
        self._render()

    def append(self, piece: str) -> None:
        """Add streamed text; rendering is coalesced so a fast stream never floods the GUI."""
        self._text += piece
        self.wait_label.hide()  # the reply began
        if not self._render_pending:
            self._render_pending = True
            QTimer.singleShot(RENDER_DELAY_MS, self._render)

    def set_waiting(self, words: str) -> None:
        """Say above the empty reply why it has not begun (hidden by its first piece)."""
        self.wait_label.setText(words)
        self.wait_label.setVisible(not self._text)

    def finish(self, message: Message | None, status: str) -> None:
        """The reply ended: take its logged id and status."""
        self.wait_label.hide()
        if message is not None:
            self.message_id = message.id
            self.epoch = message.dt.timestamp()
            self._text = message.text
        self.status = status
        self.rating.setVisible(self.role == "assistant" and bool(self.message_id) and status != "streaming")
        self.delete_button.setVisible(bool(self.message_id) and status != "streaming")
        self._update_header()
        self._render()

    def _render(self) -> None:
        self._render_pending = False
        shown, hidden = shown_part(self._text)
        self.body.decorate = self.status != "streaming"
        self.body.show_text(shown if shown else "…")
        self.hidden_label.setText(hidden_note(hidden) if hidden else "")
        self.hidden_label.setVisible(bool(hidden))
        self.show_all_button.setVisible(bool(hidden) and self.status != "streaming")
        if self.status == ReplyStatus.PARTIAL:
            self.mark_cut_off(self.tr("Cut off: an error ended this reply before it was complete."))

    def mark_cut_off(self, why: str) -> None:
        """Say in the card that this reply is not whole, and why."""
        self.cut_label.setText("✂ " + why)
        self.cut_label.show()

    def _anchor_clicked(self, url) -> None:
        """A code block's Copy link copies the block; any other link goes to the window (which asks first)."""
        index = copy_index(url.toString())
        if index is None:
            self.link_clicked.emit(url.toString())
        elif index < len(self.body.code):
            QGuiApplication.clipboard().setText(self.body.code[index].text)
            self.body.copied = index
            self._render()
            self.copied_back.start()

    def _uncopied(self) -> None:
        self.body.copied = -1
        self._render()

    def _update_header(self) -> None:
        marks = {ReplyStatus.STOPPED: self.tr("(stopped)"), ReplyStatus.PARTIAL: self.tr("(cut off)"),
                 "streaming": self.tr("(writing…)")}
        parts = [f"<b>{_escape(self._author)}</b>", _escape(self._when)]
        if self.status in marks:
            parts.append(_escape(marks[self.status]))
        self.header.setText(" · ".join(parts))

    def copy_to_clipboard(self) -> None:
        self.copy_button.copy()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
