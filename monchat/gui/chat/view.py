"""The conversation: message bubbles (``chat/bubble.py``), notices, markers where the persona changes.

It shows the Layer 3 window and asks for older archived messages when scrolled
to the top (``older_requested``); the main window answers with
``prepend_older()``. Colours come from the palette, so dark and light both work;
on a wide window the messages keep to a readable column in the middle.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from PySide6.QtCore import QDate, QLocale, Qt, Signal
from PySide6.QtGui import QPalette, QPixmap
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from ...core.types import Message
from .bubble import MessageBubble, format_time
from ..translation import arg

MAX_COLUMN_PX = 860  # wider windows keep the conversation a readable column in the middle


class ChatView(QScrollArea):
    """The message list.

    Signals:
        older_requested(float): the user scrolled to the top; the epoch of the oldest shown message.
        link_requested(str): a link in a message was clicked; the window decides whether to open it.
    """

    older_requested = Signal(float)
    link_requested = Signal(str)
    rating_requested = Signal(str, str)  # a reply's 👍/👎: (message id, "up" | "down" | "none")
    delete_requested = Signal(str)  # a message's Delete: its id (the window asks, then deletes)
    show_all_requested = Signal(object)  # "Show all" under a long message: its bubble (long_message.py)

    def __init__(self, persona_name: Callable[[str], str], parent: QWidget | None = None,
                 persona_avatar: Callable[[str], QPixmap | None] = lambda _persona_id: None) -> None:
        super().__init__(parent)
        self.persona_name = persona_name
        self.persona_avatar = persona_avatar
        self.bubbles: list[MessageBubble] = []
        self.rating_of: Callable[[str], str] = lambda _message_id: ""  # a reply's stored rating (gui/chat/reply_ratings.py)
        self._replaced: set[str] = set()
        self.no_more_older = False
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.container = QWidget(self)
        self.container.setBackgroundRole(QPalette.ColorRole.Window)
        self.column = QVBoxLayout(self.container)
        self.column.setContentsMargins(12, 8, 12, 8)
        self.column.setSpacing(8)
        self.column.addStretch(1)
        self.older_button = QPushButton(self.tr("Show older messages"), self.container)
        self.older_button.setFlat(True)
        self.older_button.clicked.connect(self.request_older)
        self.column.addWidget(self.older_button, 0, Qt.AlignmentFlag.AlignHCenter)
        self.welcome = QLabel(self.container)
        self.welcome.setObjectName("welcome")
        self.welcome.setWordWrap(True)
        self.welcome.setTextFormat(Qt.TextFormat.RichText)
        self.welcome.setFrameShape(QFrame.Shape.StyledPanel)
        self.welcome.setContentsMargins(12, 8, 12, 8)
        self.welcome.hide()
        self.column.addWidget(self.welcome)
        self.greeting = QLabel(self.container)
        self.greeting.setWordWrap(True)
        self.greeting.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.greeting.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.column.addWidget(self.greeting)
        self._first_bubble_index = self.column.count()
        self.setWidget(self.container)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._range_changed)
        self._stick_to_bottom = True
        self._keep_from_bottom: int | None = None
        self.markers: list[QLabel] = []
        self.day_markers: list[QLabel] = []  # a date line where a multi-day conversation passes into another day
        self.current_persona = ""

    # ---- building bubbles ----------------------------------------------
    def _author(self, message: Message) -> str:
        return self.tr("You") if message.role == "user" else self.persona_name(message.persona)

    def _bubble_for(self, message: Message) -> MessageBubble:
        bubble = MessageBubble(message.role, self._author(message), format_time(message.dt), message.text,
                               message_id=message.id, epoch=message.dt.timestamp(), status=message.status,
                               persona=message.persona, parent=self.container,
                               avatar=self.persona_avatar(message.persona) if message.role == "assistant" else None)
        bubble.link_clicked.connect(self.link_requested)
        bubble.rated.connect(self.rating_requested)
        bubble.delete_requested.connect(self.delete_requested)
        bubble.show_all_requested.connect(self.show_all_requested)
        if message.role == "assistant":
            bubble.rating.set_rating(self.rating_of(message.id))
        return bubble

    def bubble(self, message_id: str) -> MessageBubble | None:
        return next((b for b in self.bubbles if message_id and b.message_id == message_id), None)

    def set_messages(self, messages: list[Message]) -> None:
        """Show exactly these messages (the Layer 3 window), oldest first.

        Bubbles already showing one of them are kept (only their text and status are
        updated), so showing the window again after a turn or a flush costs almost nothing.
        """
        wanted = {m.id for m in messages}
        for bubble in [b for b in self.bubbles if b.message_id not in wanted]:
            self.bubbles.remove(bubble)
            self.column.removeWidget(bubble)
            bubble.deleteLater()
        self.clear_notices()
        kept = {b.message_id: b for b in self.bubbles}
        if [b.message_id for b in self.bubbles] != [m.id for m in messages[:len(self.bubbles)]]:
            for bubble in self.bubbles:  # the order changed: build again
                self.column.removeWidget(bubble)
                bubble.deleteLater()
            self.bubbles, kept = [], {}
        self._replaced = {m.replaces for m in messages if m.replaces}
        for message in messages:
            bubble = kept.get(message.id)
            if bubble is None:
                self._append_bubble(self._bubble_for(message))  # after the kept ones (checked above)
                continue
            bubble.show()  # it may have been hidden while a regeneration or an edit was running
            if bubble.text() != message.text or bubble.status != message.status:
                bubble.finish(message, message.status)
        self._update_greeting_visibility()
        self.scroll_to_bottom()

    def prepend_older(self, messages: list[Message]) -> int:
        """Add older messages above the shown ones; returns how many were added."""
        shown = {b.message_id for b in self.bubbles}
        self._replaced |= {m.replaces for m in messages if m.replaces}
        fresh = [m for m in messages if m.id not in shown and m.id not in self._replaced and m.text.strip()]
        if not messages:
            self.no_more_older = True
            self.older_button.setEnabled(False)
            self.older_button.setText(self.tr("No older messages"))
            return 0
        bar = self.verticalScrollBar()
        self._keep_from_bottom = bar.maximum() - bar.value()
        self._stick_to_bottom = False
        for offset, message in enumerate(fresh):
            bubble = self._bubble_for(message)
            self.column.insertWidget(self._first_bubble_index + offset, bubble)
            self.bubbles.insert(offset, bubble)
        self._update_greeting_visibility()
        return len(fresh)

    def add_message(self, message: Message) -> MessageBubble:
        bubble = self._bubble_for(message)
        self._append_bubble(bubble)
        self._update_greeting_visibility()
        self.scroll_to_bottom()
        return bubble

    def start_reply(self, persona_id: str) -> MessageBubble:
        """An empty reply bubble that streamed text goes into."""
        bubble = MessageBubble("assistant", self.persona_name(persona_id), format_time(datetime.now().astimezone()),
                               status="streaming", persona=persona_id, avatar=self.persona_avatar(persona_id),
                               parent=self.container)
        bubble.link_clicked.connect(self.link_requested)
        bubble.rated.connect(self.rating_requested)
        bubble.delete_requested.connect(self.delete_requested)
        bubble.show_all_requested.connect(self.show_all_requested)
        self._append_bubble(bubble)
        self._update_greeting_visibility()
        self.scroll_to_bottom()
        return bubble

    def add_notice(self, text: str, action_text: str = "", action: Callable[[], None] | None = None) -> QLabel:
        """A line that is not a message (an error, a stop), shown in the flow; with a button when given."""
        box = QFrame(self.container)
        box.setObjectName("notice_box")
        box.setFrameShape(QFrame.Shape.StyledPanel)
        label = QLabel(text, box)
        label.setObjectName("notice")
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout(box)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(label, 1)
        if action is not None:
            button = QPushButton(action_text, box)
            button.setObjectName("notice_action")
            button.clicked.connect(action)
            row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        from ..kit.notice import colour_notice  # imported at the first notice, not before the first paint
        colour_notice(box)  # a tinted frame with an icon, text checked for contrast (gui/kit/notice.py)
        self.column.addWidget(box)
        self.scroll_to_bottom()
        return label

    def notices(self) -> list[QFrame]:
        return self.container.findChildren(QFrame, "notice_box")

    def clear_notices(self) -> None:
        """Remove the errors and stop notes shown (a new turn is under way or went through)."""
        for box in self.notices():
            self.column.removeWidget(box)
            box.hide()
            box.deleteLater()

    def remove_bubble(self, bubble: MessageBubble) -> None:
        if bubble in self.bubbles:
            self.bubbles.remove(bubble)
            self.column.removeWidget(bubble)
            bubble.deleteLater()
        self._update_greeting_visibility()

    def last_bubble(self, role: str) -> MessageBubble | None:
        return next((b for b in reversed(self.bubbles) if b.role == role), None)

    def set_greeting(self, text: str) -> None:
        """The persona's greeting, shown while there is no message yet (never logged)."""
        self.greeting.setText(text)
        self._update_greeting_visibility()

    def _append_bubble(self, bubble: MessageBubble) -> None:
        self.column.addWidget(bubble)
        self.bubbles.append(bubble)

    def set_welcome(self, text: str) -> None:
        """The first start's explanation, shown above the greeting while there is no message ("" hides it)."""
        self.welcome.setText(text)
        self._update_greeting_visibility()

    def set_older_available(self, available: bool) -> None:
        """Whether older messages exist beyond those shown (an empty chat never offers to show more)."""
        self.no_more_older = not available
        self.older_button.setVisible(available)
        self.older_button.setEnabled(available)
        self.older_button.setText(self.tr("Show older messages"))

    def _update_greeting_visibility(self) -> None:
        self.greeting.setVisible(bool(self.greeting.text()) and not self.bubbles)
        self.welcome.setVisible(bool(self.welcome.text()) and not self.bubbles)
        self._show_days()
        self._show_persona_changes()

    def _show_days(self) -> None:
        """When the shown messages span several days (in this computer's zone, as each bubble's time is shown), the
        date above each day's first message: a multi-day chat says when each part was said (issue 45)."""
        for marker in self.day_markers:
            self.column.removeWidget(marker)
            marker.deleteLater()
        self.day_markers = []
        days = [datetime.fromtimestamp(b.epoch).date() if b.epoch else None for b in self.bubbles]
        if len({d for d in days if d}) < 2:
            return
        for n, (bubble, day) in enumerate(zip(self.bubbles, days)):
            if day is None or (n and days[n - 1] in (day, None)):
                continue
            marker = QLabel(QLocale().toString(QDate(day.year, day.month, day.day), QLocale.FormatType.LongFormat),
                            self.container)
            marker.setObjectName("day_marker")
            marker.setAlignment(Qt.AlignmentFlag.AlignCenter)
            marker.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            self.column.insertWidget(self.column.indexOf(bubble), marker)
            self.day_markers.append(marker)

    def set_current_persona(self, persona_id: str) -> None:
        """Who answers next: a change since the last message is marked at the end of the conversation."""
        self.current_persona = persona_id
        self._show_persona_changes()

    def _show_persona_changes(self) -> None:
        """A line where the persona changes between messages, and at the end when it changed since."""
        for marker in self.markers:
            self.column.removeWidget(marker)
            marker.deleteLater()
        self.markers = []
        wanted = [(n, b.persona) for n, b in enumerate(self.bubbles)
                  if n and b.persona and self.bubbles[n - 1].persona and b.persona != self.bubbles[n - 1].persona]
        if self.bubbles and self.current_persona and self.bubbles[-1].persona not in ("", self.current_persona):
            wanted.append((len(self.bubbles), self.current_persona))
        for position, persona in reversed(wanted):
            marker = QLabel(arg(self.tr("— now talking with %1 —"), self.persona_name(persona)), self.container)
            marker.setObjectName("persona_marker")
            marker.setAlignment(Qt.AlignmentFlag.AlignCenter)
            marker.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            anchor = self.bubbles[position] if position < len(self.bubbles) else None
            index = self.column.indexOf(anchor) if anchor is not None else self._after_last_bubble()
            self.column.insertWidget(index, marker)
            self.markers.append(marker)

    def _after_last_bubble(self) -> int:
        return self.column.indexOf(self.bubbles[-1]) + 1

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        side = 12 + max(0, (self.viewport().width() - MAX_COLUMN_PX) // 2)
        self.column.setContentsMargins(side, 8, side, 8)

    # ---- scrolling -----------------------------------------------------
    def oldest_epoch(self) -> float | None:
        epochs = [b.epoch for b in self.bubbles if b.epoch is not None]
        return min(epochs) if epochs else None

    def request_older(self) -> None:
        if self.no_more_older:
            return
        epoch = self.oldest_epoch()
        self.older_requested.emit(epoch if epoch is not None else datetime.now().timestamp())

    def scroll_to_bottom(self) -> None:
        self._stick_to_bottom = True
        self._keep_from_bottom = None
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick_to_bottom = value >= bar.maximum() - 4
        if value == bar.minimum() and bar.maximum() > 0 and self._keep_from_bottom is None:
            self.request_older()

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        bar = self.verticalScrollBar()
        if self._keep_from_bottom is not None:
            # Older messages went in above: keep the same messages in view.
            bar.setValue(maximum - self._keep_from_bottom)
            self._keep_from_bottom = None
        elif self._stick_to_bottom:
            bar.setValue(maximum)
