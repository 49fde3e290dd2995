"""Layer 3 as it is sent: the recent messages that fit the backend's context, trimmed in steps.

Every turn re-sends the window, and a backend's prefix cache (Ollama's, llama.cpp's KV cache,
Gemini's implicit cache) is reused only while the start of the request stays the same. So the
window is trimmed in steps, not one message at a time:

- **Time.** The window starts ``window_hours`` back, rounded down to a quarter of the window
  (12 hours → a 3-hour step): the messages that age out leave in groups, four times a window.
- **Tokens.** System prompt + history + the new message + room for the reply must fit the
  context. Step boundaries are laid from the window's first message, each step at most half the
  history budget and only ever before a user message (a turn is never cut). The history starts at
  the earliest boundary that fits; adding messages never moves a boundary, so the start changes
  once per half a budget of conversation instead of on every turn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable

from ..types import Message

MESSAGE_FRAME = 8  # tokens a chat template adds around one message (role markers): an upper bound
REPLY_TOKENS = 1024  # room kept free for the reply (at most a quarter of a small context)
TIME_STEPS = 4  # the window's start moves in steps of window_hours / TIME_STEPS


def window_start(now: datetime, window_hours: float) -> float:
    """The epoch the window starts at: ``window_hours`` back, rounded down to a step."""
    step = window_hours * 3600 / TIME_STEPS
    cutoff = (now - timedelta(hours=window_hours)).timestamp()
    return math.floor(cutoff / step) * step


def reply_room(context_length: int) -> int:
    return min(REPLY_TOKENS, context_length // 4)


@dataclass
class FittedWindow:
    sent: list[Message]  # the history sent, oldest first (the new message is not part of it)
    left_out: list[Message] = field(default_factory=list)  # older messages of the window not sent
    sent_tokens: int = 0
    budget: int = 0  # tokens for history and the new message


def fit_window(history: list[Message], count: Callable[[str], int], budget: int,
               new_tokens: int = 0) -> FittedWindow:
    """The longest stable suffix of ``history`` that fits ``budget`` with ``new_tokens`` beside it.

    Args:
        history: the window before the new message, oldest first.
        count: tokens of a text as the backend's model counts it.
        budget: tokens for the history and the new message together.
        new_tokens: the new message's tokens (0 for the context meter between turns).
    """
    costs = [count(m.text) + MESSAGE_FRAME for m in history]
    total = sum(costs)
    if total + new_tokens <= budget:
        return FittedWindow(list(history), [], total, budget)
    step = max(budget // 2, 1)
    boundaries, run = [0], 0
    for i, (message, cost) in enumerate(zip(history, costs)):
        if run + cost > step and message.role == "user" and i > boundaries[-1]:
            boundaries.append(i)
            run = 0
        run += cost
    # Too little room for a whole step: any user message may start the history.
    fallback = [i for i, m in enumerate(history) if m.role == "user" and i not in boundaries]
    suffix = [0] * (len(history) + 1)
    for i in range(len(history) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + costs[i]
    start = next((b for b in boundaries + fallback if suffix[b] + new_tokens <= budget), len(history))
    return FittedWindow(history[start:], history[:start], suffix[start], budget)
