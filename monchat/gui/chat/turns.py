"""Chat turns in flight: a send, a regeneration or an edit, from the click to the logged reply.

Each turn is one ``ChatService`` call on the task runner. While it streams, the user's words
show as a draft bubble, the reply grows as its pieces arrive and the bubbles the turn replaces
are hidden. When it ends the bubbles are settled (the logged messages replace the drafts, the
replaced bubbles go); after a failure the conversation shows what is on disk. The main window
owns the controller and connects its signals to the gate, the meter and the actions.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QObject, Signal

from ...core.chat.service import ChatService, TurnResult
from ...core.logs.files import FlushGate
from ...core.records.long_text import left_out
from ...core.vocabulary.states import GateState, ReplyStatus
from ...core.types import Message, format_ts, local_now
from .view import ChatView, MessageBubble
from .composer import Composer
from .reply_wait import ReplyWait, report_wait, wait_words
from ..failures import backend_note, explanation, headline
from ..kit.workers import Failure, TaskRunner

# Failures raised before the user's message was logged: the composer gets the text back. A full
# disk is among them (the append was undone); other storage failures may come after it was logged.
CUT_OFF = ("cut_at_length", "ended_early")  # a backend's notes that a reply is not whole
NOTHING_LOGGED = ("gate_closed", "input", "storage_full", "storage_read_only")
# Failures a second try cannot mend (the user must act first): no Retry button.
NO_RETRY = ("gate_closed", "input", "storage_corrupt", "storage_newer_schema", "storage_read_only")


@dataclass
class StreamingTurn:
    """A chat turn in flight, as the chat view shows it (``core.types.Turn`` is a message sent to a backend)."""

    kind: str  # send | regenerate | edit
    text: str
    stop: threading.Event
    reply: MessageBubble
    user: MessageBubble | None = None
    removed: list[MessageBubble] = field(default_factory=list)


class ChatTurns(QObject):
    """Starts chat turns, streams them into the chat view and settles them.

    Signals:
        busy_changed(bool): a turn started (True) or ended (False).
        finished(TurnResult): a reply ended (complete or stopped); the bubbles are settled.
        failed(Failure): a turn failed; the conversation shows what is on disk, with a notice.
    """

    busy_changed = Signal(bool)
    finished = Signal(object)
    failed = Signal(object)

    def __init__(self, chat: ChatService, runner: TaskRunner, chat_view: ChatView, composer: Composer,
                 persona_id: Callable[[], str], read_gate: Callable[[], FlushGate],
                 may_send: Callable[[Callable[[], None]], bool] = lambda _then: True,
                 parent: QObject | None = None) -> None:
        """Args:
            persona_id: who answers (the window's persona picker).
            read_gate: reads the gate again and shows it; a turn starts only while it is not ``stop``.
            may_send: True when the turn may go to its backend now; otherwise it has asked the user
                (the cloud question) and calls the given function once they agree.
        """
        super().__init__(parent)
        self.chat = chat
        self.runner = runner
        self.chat_view = chat_view
        self.composer = composer
        self.persona_id = persona_id
        self.read_gate = read_gate
        self.may_send = may_send
        self.current: StreamingTurn | None = None
        self.editing = False

    def _allowed(self) -> bool:
        # At "stop" only off the record goes on: what is said there adds nothing to the flush's backlog.
        return self.current is None and (self.read_gate().state != GateState.STOP
                                         or self.chat.off_record(self.persona_id()))

    # ---- starting a turn ---------------------------------------------------
    def send(self, text: str) -> None:
        """Send (or, in edit mode, replace the last message with) ``text``."""
        if not text.strip() or not self._allowed():
            return
        if not self.may_send(lambda: self.send(text)):
            return  # asked first; sent once the user agrees (the text stays in the box meanwhile)
        chat, persona_id, stop = self.chat, self.persona_id(), threading.Event()
        removed = []
        if self.editing:
            kind = "edit"
            last_user = self.chat_view.last_bubble("user")
            if last_user is not None:
                start = self.chat_view.bubbles.index(last_user)
                removed = self.chat_view.bubbles[start:]
                for bubble in list(removed):
                    bubble.hide()

            def work(report):
                report_wait(chat, persona_id, report)
                return chat.edit_last(text, persona_id=persona_id, on_chunk=report, stop=stop)
        else:
            kind = "send"

            def work(report):
                report_wait(chat, persona_id, report)
                return chat.send(text, persona_id=persona_id, on_chunk=report, stop=stop)
        draft = Message(id="", ts=format_ts(local_now()), role="user", text=text, persona=persona_id)
        user = self.chat_view.add_message(draft)
        reply = self.chat_view.start_reply(persona_id)
        self.current = StreamingTurn(kind, text, stop, reply, user, removed)
        self.composer.clear()
        self._set_editing(False)
        self._start(work)

    def regenerate(self) -> None:
        """Ask again for the last reply; the new one replaces it (after a failed reply: the first one)."""
        last = self.chat_view.bubbles[-1] if self.chat_view.bubbles else None
        if last is None or not self._allowed():
            return
        if not self.may_send(self.regenerate):
            return
        chat, persona_id, stop = self.chat, self.persona_id(), threading.Event()
        replaced = [last] if last.role == "assistant" else []
        for bubble in replaced:
            bubble.hide()
        reply = self.chat_view.start_reply(persona_id)
        self.current = StreamingTurn("regenerate", "", stop, reply, None, replaced)

        def work(report):
            report_wait(chat, persona_id, report)
            return chat.regenerate(persona_id=persona_id, on_chunk=report, stop=stop)
        self._start(work)

    def begin_edit_last(self) -> None:
        """Put the last message in the composer; sending it replaces that message and its reply."""
        last_user = self.chat_view.last_bubble("user")
        if last_user is None or not self._allowed():
            return
        if left_out(last_user.text()):  # the window read it cut: editing that part would drop the rest
            self.chat_view.add_notice(self.tr("This message is too long to edit here; it stays as it is, whole. "
                                              "Send a new message instead."))
            return
        self._set_editing(True, last_user.text())

    def cancel_edit(self, keep_text: bool = False) -> None:
        """Leave edit mode; the text goes unless ``keep_text`` (chat paused mid-edit: the words stay)."""
        self._set_editing(False)
        if not keep_text:
            self.composer.clear()

    def _set_editing(self, editing: bool, text: str = "") -> None:
        self.editing = editing
        self.composer.set_editing(editing, text)

    def stop(self) -> None:
        """Stop the streaming reply (the backend checks the event between pieces)."""
        if self.current is not None:
            self.current.stop.set()
            self.composer.stop_button.setEnabled(False)

    def _start(self, work) -> None:
        self.chat_view.clear_notices()  # the last error is answered by this turn; a new one shows if it fails
        self.composer.set_streaming(True)
        self.composer.stop_button.setEnabled(True)
        self.busy_changed.emit(True)
        self.runner.start("chat turn", work, on_progress=self._on_chunk,
                          on_finished=self._on_finished, on_failed=self._on_failed)

    # ---- while it streams and when it ends ---------------------------------
    def _on_chunk(self, piece: str | ReplyWait) -> None:
        if self.current is None:
            return
        if isinstance(piece, ReplyWait):  # the model is busy with a flush's call: the reply goes next
            self.current.reply.set_waiting(wait_words(piece))
        else:
            self.current.reply.append(piece)

    def _end(self) -> StreamingTurn | None:
        turn, self.current = self.current, None
        self.composer.set_streaming(False)
        self.busy_changed.emit(False)
        return turn

    def _on_finished(self, result: TurnResult) -> None:
        turn = self._end()
        if turn is None:
            return
        for bubble in turn.removed:
            self.chat_view.remove_bubble(bubble)
        if turn.user is not None:
            turn.user.finish(result.user, ReplyStatus.OK)
        if result.reply is None:
            self.chat_view.remove_bubble(turn.reply)
            self.chat_view.add_notice(self.tr("Stopped before the reply began."))
        else:
            turn.reply.finish(result.reply, ReplyStatus.STOPPED if result.stopped else result.reply.status)
            for warning in result.warnings:  # the backend ended it early: said in the card, not only the status bar
                if getattr(warning, "code", "") in CUT_OFF:
                    turn.reply.mark_cut_off(backend_note(warning))
        self.finished.emit(result)

    def _on_failed(self, failure: Failure) -> None:
        turn = self._end()
        if turn is not None and failure.code in NOTHING_LOGGED and turn.kind in ("send", "edit"):
            self.composer.restore(turn.text)
        # What is on disk now is the truth: the user's words are logged, a partial reply is marked.
        self.chat_view.set_messages(self.chat.window())
        retry = self._retry_for(turn, failure) if turn is not None else None
        self.chat_view.add_notice(f"{headline(failure)}\n{explanation(failure)}", self.tr("Retry"), retry)
        self.failed.emit(failure)

    def _retry_for(self, turn: StreamingTurn, failure: Failure) -> Callable[[], None] | None:
        """What Retry does: send the words again when they were not logged, else ask for the reply again."""
        if failure.code in NO_RETRY:
            return None
        if failure.code in NOTHING_LOGGED and turn.kind in ("send", "edit"):
            def resend() -> None:
                self._set_editing(turn.kind == "edit", turn.text)
                self.send(turn.text)
            return resend
        return self.regenerate
