"""Running a set: every session into a scratch data folder at its own time, then the end state scored.

The runner never opens the user's data folder: ``make_app(home, clock)`` builds a monchat in ``home`` (a
scratch folder, or ``--keep DIR``) whose every "now" is ``clock`` (``core/clock.py``). Each session is imported
with its timestamps and flushed at the time of its last message; every item the flush leaves for review is
approved as proposed and counted. Then, at ``now``, the facts are scored by program (``score.py``) and each
question is asked as one chat turn with the end-state memory (the chat's own system prompt and Layer 3 window,
nothing logged), its reply scored by program and, with a judge, by the judge too, side by side.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from ..clock import SetClock, system_now
from ..errors import InputError
from ..flush.service import LINE_ID_KEY
from ..types import Turn, format_ts
from .score import Memory, reply_right, score_facts
from .sets import EvalSet, Question

MakeApp = Callable[[Path, SetClock], Any]
Judge = Callable[[Question, str], "bool | None"]
Progress = Callable[[str], None]


def default_now(eval_set: EvalSet) -> datetime:
    """``--now`` when none is given: an hour after the set's last line."""
    return eval_set.last_said + timedelta(hours=1)


def scratch_home(keep: Path | None) -> tuple[Path, bool]:
    """The folder a run builds its monchat in, and whether it is removed after."""
    if keep is None:
        return Path(tempfile.mkdtemp(prefix="monchat-eval-")), True
    if keep.exists() and (not keep.is_dir() or any(keep.iterdir())):
        raise InputError(f"--keep {keep}: the folder is not empty.", "Give a new or empty folder.")
    keep.mkdir(parents=True, exist_ok=True)
    return keep, False


class EvalCancelled(Exception):
    """``cancel`` was set: the run stopped between two steps (its scratch folder removed all the same)."""


def run_set(eval_set: EvalSet, make_app: MakeApp, *, now: datetime | None = None, keep: Path | None = None,
            judge: Judge | None = None, progress: Progress | None = None,
            cancel: threading.Event | None = None) -> dict:
    """The result (docs/eval.md): names as issue 42 gives them. Raises EvalCancelled when ``cancel`` is set."""
    say = progress or (lambda line: None)
    now = now or default_now(eval_set)
    started, clock_started = format_ts(system_now()), time.monotonic()
    folder, remove = scratch_home(keep)
    sessions = sorted(eval_set.sessions, key=lambda s: s.ends)
    clock = SetClock(sessions[0].ends)
    app = make_app(folder / "home", clock)
    try:
        if app.settings.flush.seed < 0:
            app.settings.flush.seed = 0  # the filter personas a flush picks, the same every run
        # the line ids the filters see, the same every run (a scratch folder's secret guards nothing)
        app.store.set_state(LINE_ID_KEY, hashlib.sha256(eval_set.name.encode()).hexdigest()[:32])
        calls = tokens = queued = 0
        for n, session in enumerate(sessions, 1):
            stop_if(cancel)
            clock.set(session.ends)
            path = folder / f"session-{n:03}.jsonl"
            path.write_text("".join(json.dumps({"ts": m.ts, "role": m.role, "text": m.text}, ensure_ascii=False)
                                    + "\n" for m in session.messages), encoding="utf-8")
            app.transfer.import_history(path)
            report = app.flush.run(accept_partial=True)
            calls, tokens = calls + report.llm_calls, tokens + report.tokens
            waiting = approve_all(app)
            queued += waiting
            say(f"session {n}/{len(sessions)} ({session.date}): {report.llm_calls} call(s), {waiting} approved")
        clock.set(now)
        scored = score_facts(eval_set.facts, end_state(app, now))
        asked: list[dict] = []
        for question in eval_set.questions:
            stop_if(cancel)
            reply, used = ask(app, question.question)
            calls, tokens = calls + 1, tokens + used
            entry = {"id": question.id, "reply": reply, "right": reply_right(question, reply, eval_set.language)}
            if judge is not None:
                entry["judge"] = judge(question, reply)
            asked.append(entry)
            say(f"question {question.id}: {'right' if entry['right'] else 'wrong'}")
        backend = app.backends.default()
        result = {"set": eval_set.name, "backend": backend.name, "model": backend.model, "now": format_ts(now),
                  "present": scored["present"], "retired": scored["retired"], "never": scored["never"],
                  "invented": scored["invented"],
                  "questions": {"right": sum(bool(a["right"]) for a in asked), "of": len(asked), "asked": asked},
                  "review": {"queued": queued, "flushes": len(sessions)}, "calls": calls, "tokens": tokens,
                  "elapsed_s": round(time.monotonic() - clock_started, 1), "started": started,
                  "finished": format_ts(system_now()),
                  "facts": scored["facts"]}
        return result
    finally:
        app.close()
        if remove:
            shutil.rmtree(folder, ignore_errors=True)


def stop_if(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise EvalCancelled()


def approve_all(app) -> int:
    """Approve every open review item as proposed; how many there were. One approval may close others (a
    near-duplicate), so the queue is read again after each."""
    approved = 0
    while True:
        items = app.memory.queue()
        if not items:
            return approved
        app.memory.approve(str(items[0].id))
        approved += 1


def end_state(app, now: datetime) -> list[Memory]:
    """Every memory, any state, as scoring reads it."""
    now_epoch = now.timestamp()
    memories = []
    for record in app.memory.list(all=True):
        evidence = app.memory.memories.evidence_messages(record.id)
        memories.append(Memory(record.id, record.text, str(record.state), record.layer(now_epoch) in (1, 2),
                               any(row["role"] == "user" for row in evidence)))
    return sorted(memories, key=lambda m: m.id)


def ask(app, question: str) -> tuple[str, int]:
    """One chat turn at the clock's now, with the memory as it ended; nothing is logged. The reply and its tokens."""
    chat = app.chat
    persona = chat.persona()
    backend = chat.backend_for(persona)
    system = chat.system_prompt(persona)
    fitted = chat.fit(backend, system, chat.window(off_record=False), question)
    reply = backend.stream(system, chat.turns_of(fitted.sent) + [Turn("user", question)])
    text = "".join(reply)
    return text.strip(), (reply.usage.prompt_tokens or 0) + (reply.usage.output_tokens or 0)
