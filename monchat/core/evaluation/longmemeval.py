"""LongMemEval's published JSON (``--format longmemeval``): each question in its own scratch folder, its haystack
imported by date, the question asked at ``question_date``, scored by program where the answer is a short string.

Read: ``question_id``, ``question_type``, ``question``, ``answer``, ``question_date``, ``haystack_dates``,
``haystack_sessions`` (each turn's ``role`` and ``content``); ids ending ``_abs`` are abstentions. **Never read:**
``answer_session_ids`` and each turn's ``has_answer`` — the gold labels the field's high scores leak into the run.
They are dropped as the file is parsed (``without_gold``), so nothing after can read them.
"""

from __future__ import annotations

import json
import re
import time
from datetime import datetime, timezone
from pathlib import Path

from ..clock import system_now
from ..errors import InputError
from ..types import format_ts
from .runner import MakeApp, Progress, run_set
from .sets import EvalSet, Question, Session, SetMessage

GOLD = frozenset({"answer_session_ids", "has_answer"})
SHORT_ANSWER_WORDS = 4  # an answer of at most this many words is scored by program; a longer one is not scored
DATE = re.compile(r"^(\d{4})/(\d{2})/(\d{2})(?: \(\w+\))? (\d{2}):(\d{2})$")


def without_gold(obj: dict) -> dict:
    """``json.loads``'s object hook: every object without the gold labels."""
    return {k: v for k, v in obj.items() if k not in GOLD}


def parse_date(text: str) -> datetime:
    found = DATE.match(str(text).strip())
    if not found:
        raise InputError(f"A LongMemEval date {text!r} is not like 2023/05/20 (Sat) 02:21.", "Give the published file.")
    y, mo, d, h, mi = map(int, found.groups())
    return datetime(y, mo, d, h, mi, tzinfo=timezone.utc)


def read_questions(path: Path, types: str | None = None, ids: Path | None = None, limit: int | None = None) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_hook=without_gold)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path} cannot be read as LongMemEval JSON: {exc}", "Give the published file.") from None
    if not isinstance(data, list) or not all(isinstance(q, dict) and "question" in q for q in data):
        raise InputError(f"{path} is not a LongMemEval file (a list of questions).", "Give the published file.")
    wanted_types = {t.strip() for t in types.split(",")} if types else None
    wanted_ids = set(ids.read_text(encoding="utf-8").split()) if ids else None
    chosen = [q for q in data if (wanted_types is None or q.get("question_type") in wanted_types)
              and (wanted_ids is None or str(q.get("question_id")) in wanted_ids)]
    return chosen[:limit] if limit is not None else chosen


def as_set(entry: dict) -> tuple[EvalSet, datetime, bool]:
    """One question as a set of its haystack; its time; whether it is scored by program."""
    qid = str(entry.get("question_id", "q"))
    sessions = []
    for date, turns in zip(entry.get("haystack_dates", []), entry.get("haystack_sessions", [])):
        start = parse_date(date)
        messages = tuple(SetMessage(format_ts(start.replace(second=min(i, 59))), t["role"], str(t["content"]))
                         for i, t in enumerate(turns) if t.get("role") in ("user", "assistant")
                         and str(t.get("content", "")).strip())
        if messages:
            sessions.append(Session(format_ts(start), messages))
    answer = str(entry.get("answer", "")).strip()
    abstain = qid.endswith("_abs")
    scored = abstain or 0 < len(answer.split()) <= SHORT_ANSWER_WORDS
    question = Question(qid, str(entry["question"]), () if abstain else (answer,), abstain)
    if not sessions:
        raise InputError(f"LongMemEval question {qid} has no haystack.", "Give the published file.")
    return EvalSet(qid, "en", tuple(sessions), (), (question,)), parse_date(entry["question_date"]), scored


def run_longmemeval(path_text: str, make_app: MakeApp, *, types: str | None = None, ids: Path | None = None,
                    limit: int | None = None, progress: Progress | None = None) -> dict:
    path = Path(path_text)
    if not path.is_file():
        raise InputError(f"No LongMemEval file {path}.", "Download it yourself (docs/eval.md); it is not shipped.")
    started, clock_started = format_ts(system_now()), time.monotonic()
    say = progress or (lambda line: None)
    per_type: dict[str, dict] = {}
    each, calls, tokens, queued, flushes, backend, model = [], 0, 0, 0, 0, "", ""
    for entry in read_questions(path, types, ids, limit):
        eval_set, now, scored = as_set(entry)
        result = run_set(eval_set, make_app, now=now)
        asked = result["questions"]["asked"][0]
        kind = str(entry.get("question_type", "?"))
        row = per_type.setdefault(kind, {"right": 0, "of": 0, "not_scored": 0})
        if scored:
            row["right"] += int(bool(asked["right"]))
            row["of"] += 1
        else:
            row["not_scored"] += 1
        each.append({"id": eval_set.name, "type": kind, "reply": asked["reply"],
                     "right": asked["right"] if scored else None})
        calls, tokens = calls + result["calls"], tokens + result["tokens"]
        queued, flushes = queued + result["review"]["queued"], flushes + result["review"]["flushes"]
        backend, model = result["backend"], result["model"]
        say(f"{eval_set.name} ({kind}): {'right' if asked['right'] else 'wrong'}{'' if scored else ' (not scored)'}")
    return {"set": path.stem, "format": "longmemeval", "backend": backend, "model": model, "now": None,
            "present": {"kept": 0, "of": 0}, "retired": {"retired": 0, "of": 0}, "never": {"clean": 0, "of": 0},
            "invented": 0,
            "questions": {"right": sum(r["right"] for r in per_type.values()),
                          "of": sum(r["of"] for r in per_type.values()), "asked": each},
            "types": per_type, "review": {"queued": queued, "flushes": flushes}, "calls": calls, "tokens": tokens,
            "elapsed_s": round(time.monotonic() - clock_started, 1), "started": started,
            "finished": format_ts(system_now()), "facts": []}
