"""Delete message in the chat: asked by a bubble, confirmed by the user, done by ``MessageDeletion``.

The same ``core/memory/takeback.py`` service ``monchat message delete ID`` calls. What deleting would do is read on a
worker (the message, its earlier versions, the memories resting on it), the question says it in words, and on
Yes the deletion runs on a worker; the conversation is shown again when it is done. A refusal (a flush running,
a disk that cannot be written) is said in the status bar and nothing is lost.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from .view import ChatView
from ..kit.confirm import ask_yes_no
from ..failures import headline
from ..kit.lifetime import alive
from ..translation import arg
from ..kit.workers import Failure, TaskRunner


class MessageDeletions(QObject):
    """Signals:
        asked(QMessageBox): the question is open (tests click it).
        deleted(object): a message was deleted: the ``Deleted`` record.
        failed(object): planning or deleting failed: the ``Failure``.
    """

    asked = Signal(object)
    deleted = Signal(object)
    failed = Signal(object)

    def __init__(self, deletion, runner: TaskRunner, chat_view: ChatView, say: Callable[[str, int], None],
                 reload: Callable[[], None], busy: Callable[[], bool] = lambda: False) -> None:
        """``busy``: whether a reply is being written (the conversation is not shown again under it)."""
        super().__init__(chat_view)
        self.busy = busy
        self.deletion = deletion  # core/memory/takeback.py (App.messages)
        self.runner = runner
        self.chat_view = chat_view
        self.say = say
        self.reload = reload
        self.box: QMessageBox | None = None
        chat_view.delete_requested.connect(self.ask)

    def ask(self, message_id: str) -> None:
        """Read what deleting ``message_id`` would do, then ask."""
        if not message_id:
            return
        if self.busy():
            self.say(self.tr("A reply is being written: wait for it or stop it first."), 10000)
            return
        deletion = self.deletion
        self.runner.start("plan deletion", lambda _report: deletion.plan(message_id),
                          on_finished=self._confirm, on_failed=self._failed)

    def question(self, plan) -> str:
        """What deleting does to memory, in words."""
        if plan.message.role == "assistant":
            text = self.tr("Delete this reply for good? It leaves the logs and the archive, with its rating. "
                           "Memory is never built on replies, so no memory changes.")
        else:
            text = self.tr("Delete this message for good? It leaves the logs and the archive, and no flush will "
                           "read it.")
            if plan.retracted:
                text += " " + self.tr("%n memory(ies) that rest only on it will be taken back.", "",
                                     len(plan.retracted))
            if plan.weakened:
                text += " " + self.tr("%n memory(ies) that rest on other messages too will lose it as evidence.", "",
                                     len(plan.weakened))
        if len(plan.versions) > 1:
            text += " " + self.tr("The %n earlier version(s) it replaced go too.", "", len(plan.versions) - 1)
        return text + " " + self.tr("This cannot be undone.") + " " + self.tr(
            "Backups you made before now still hold these words.")

    def _confirm(self, plan) -> None:
        if not alive(self.chat_view):
            return
        self.box = ask_yes_no(self.chat_view.window(), QMessageBox.Icon.Warning, self.tr("Delete message"),
                              self.question(plan), lambda: self._delete(plan.message.id))
        self.asked.emit(self.box)

    def _delete(self, message_id: str) -> None:
        if self.busy():  # a message was sent while the question was open
            self.say(self.tr("A reply is being written: wait for it or stop it first."), 10000)
            return
        deletion = self.deletion
        self.runner.start("delete message", lambda _report: deletion.delete(message_id),
                          on_finished=self._deleted, on_failed=self._failed)

    def _deleted(self, done) -> None:
        if alive(self.chat_view):
            self.reload()
            self.say(arg(self.tr("Deleted. Memories taken back: %1; memories that lost it as evidence: %2."),
                         len(done.memory.retracted), len(done.memory.weakened)), 10000)
        self.deleted.emit(done)

    def _failed(self, failure: Failure) -> None:
        if alive(self.chat_view):
            self.say(headline(failure), 15000)
        self.failed.emit(failure)
