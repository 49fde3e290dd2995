"""Chat goes first: how long a chat reply takes during a flush, against a one-call-at-a-time stand-in model.

The stand-in (``tests/support/one_at_a_time.py``) serves one call at a time in the order calls reach it, each
taking ``call_s``, as a local model or a one-slot server does. A flush with two calls in flight runs; half a
call into it, a chat turn is sent. ``chat_during_flush_ratio`` is that reply's time over one call's
(``chat_during_flush_baseline_call_s``, a chat turn with nothing else running): about 1.5 when the reply waits
only for the running call (half of it left, then its own), far more when it waits behind the flush.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.types import Message, content_message_id, format_ts
from tests.support.one_at_a_time import OneAtATime

SIZES = {"smoke": (0.05, 4), "quick": (0.2, 8), "full": (0.5, 16)}  # (seconds a call, messages flushed)


def _timed_turn(app, text: str) -> float:
    started = time.perf_counter()
    app.chat.send(text, persona_id="hana")
    return time.perf_counter() - started


def measure(size: str = "full") -> dict:
    call_s, messages = SIZES[size]
    with tempfile.TemporaryDirectory(prefix="monchat-bench-chat-first-") as home:
        model = OneAtATime(seconds=call_s)
        app = build_app(home, pinned_backend=model)
        app.settings.flush.parallel = 2  # a second flush call is always waiting for the model
        start = datetime.now(timezone.utc) - timedelta(days=1)
        for n in range(messages):
            ts = format_ts(start + timedelta(minutes=10 * n))
            text = f"message {n}: coffee in the morning, a walk after lunch"
            app.logbook.append(Message(id=content_message_id(ts, "user", text, "hana"), ts=ts, role="user",
                                       text=text, persona="hana"))
        _timed_turn(app, "the first turn (reads and counts the window)")
        alone = _timed_turn(app, "a turn with nothing else running")
        flush = threading.Thread(target=app.flush.run)
        flush.start()
        while "json" not in model.order:
            time.sleep(0.005)
        time.sleep(call_s / 2)
        during = _timed_turn(app, "a turn during the flush")
        flush.join(600)
        served = model.order[model.order.index("json"):]
        return {"chat_during_flush_ratio": round(during / alone, 2),
                "chat_during_flush_baseline_call_s": round(alone, 3),
                "chat_during_flush_s": round(during, 3),
                "flush_calls_after_the_chat_turn": len(served) - 1 - served.index("chat"),
                "flush_calls": served.count("json")}


if __name__ == "__main__":
    print(measure(sys.argv[1] if len(sys.argv) > 1 else "quick"))
