"""A reply's 👍/👎 in the chat: asked by the bubble, applied by ``Feedback`` on a worker, shown when done.

The same ``Feedback.rate_message`` that ``monchat rate MESSAGE_ID up|down|none`` calls. A refused rating
(a database that cannot be written, say) puts the bubble back as it was and says why in the status bar.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject

from .view import ChatView
from ..failures import headline
from ..kit.lifetime import alive
from ..translation import arg
from ..kit.workers import Failure, TaskRunner


class ReplyRatings(QObject):
    def __init__(self, feedback, runner: TaskRunner, chat_view: ChatView, say: Callable[[str, int], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent or chat_view)
        self.feedback = feedback  # core/memory/feedback.py (App.feedback)
        self.runner = runner
        self.chat_view = chat_view
        self.say = say
        self._latest: dict[str, int] = {}  # message id → the number of its last request (older answers are stale)
        chat_view.rating_of = self.rating_of
        chat_view.rating_requested.connect(self.rate)

    def rating_of(self, message_id: str) -> str:
        return self.feedback.rating("message", message_id)

    def rate(self, message_id: str, rating: str) -> None:
        feedback = self.feedback
        before = self.rating_of(message_id)
        number = self._latest[message_id] = self._latest.get(message_id, 0) + 1
        self.runner.start("rate reply", lambda _report: feedback.rate_message(message_id, rating),
                          on_finished=lambda result: self._rated(message_id, number, result),
                          on_failed=lambda failure: self._refused(message_id, number, before, failure))

    def _show(self, message_id: str, number: int, rating: str) -> None:
        """Show an answer's rating, unless a later click on the same reply is still to be answered."""
        bubble = self.chat_view.bubble(message_id)
        if bubble is not None and alive(bubble) and self._latest.get(message_id) == number:
            bubble.rating.set_rating(rating)

    def _rated(self, message_id: str, number: int, result: dict) -> None:
        if not alive(self.chat_view):
            return
        self._show(message_id, number, result["rating"])
        if result["rating"]:
            self.say(arg(self.tr("Rated. Memories the reply relied on that changed: %1"), len(result["relied_on"])),
                     8000)

    def _refused(self, message_id: str, number: int, before: str, failure: Failure) -> None:
        if alive(self.chat_view):
            self._show(message_id, number, before)
            self.say(headline(failure), 15000)
