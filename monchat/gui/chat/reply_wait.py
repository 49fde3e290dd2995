"""The reply bubble's words while its turn waits for the model (a flush's call running: chat goes next).

The worker asks how long before the task starts (``core/chat/waiting.py``) and reports a ``ReplyWait``; the
bubble shows these words until the reply's first piece arrives.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from ...core.chat.service import ChatService
from ...core.chat.waiting import reply_wait
from ..translation import arg


@dataclass(frozen=True)
class ReplyWait:
    """A chat turn waits ``seconds`` (0.0: how long is not known yet) for the flush's current call."""

    seconds: float


def report_wait(chat: ChatService, persona_id: str, report) -> None:
    """Report a ``ReplyWait`` when a reply asked now must wait for the model (on the worker's thread)."""
    seconds = reply_wait(chat, persona_id)
    if seconds is not None:
        report(ReplyWait(seconds))


def wait_words(wait: ReplyWait) -> str:
    """"Answering after the flush's current step, about 40 s", rounded as a person would say it."""
    if wait.seconds <= 0:
        return QCoreApplication.translate(
            "ReplyWait", "Answering after the flush's current step (the model does one thing at a time).")
    if wait.seconds < 90:
        return arg(QCoreApplication.translate("ReplyWait", "Answering after the flush's current step, about %1 s."),
                   max(5, round(wait.seconds / 5.0) * 5))
    return arg(QCoreApplication.translate("ReplyWait", "Answering after the flush's current step, about %1 min."),
               round(wait.seconds / 60.0))
