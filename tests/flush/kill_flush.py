"""A flush in its own process that can SIGKILL itself at a chosen point (for test_kill.py).

    MONCHAT_HOME=… python -m tests.flush.kill_flush prepare
    MONCHAT_HOME=… python -m tests.flush.kill_flush flush [--at ISO] [--kill-at POINT]

``prepare`` logs a first day, flushes it and logs the rest of the week;
``flush`` flushes the rest at ``--at`` (default ``FLUSHED_AT``), dying at the
point named. The backend is the deterministic oracle with the scenario below,
the clock is fixed per process, the slots are JST and the seed is the same
every time, so an uninterrupted run and a killed-then-rerun one must end in
the same state.

Points before the commit: ``llm2`` (the second LLM call), ``consolidate``
(the transaction open, nothing consolidated), ``rebuild`` (consolidated and
pruned, the prompt not compiled), ``recorded`` (the prompt saved and the run
recorded: everything written, not committed). After the commit: ``committed``
(memory.md not rewritten, no log removed), ``memory_md`` (the new memory.md
written to its temporary file, not renamed into place), ``logs`` (one log file
removed, the rest not). The last two are found with audit hooks on the
``os.rename`` and ``os.remove`` events, so nothing in monchat is patched.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from datetime import datetime, timedelta, timezone

from monchat.app import build_app
from monchat.core.types import Message, content_message_id, format_ts, parse_ts
from tests.support.oracle import Judgement, Oracle, Rule

JST = timezone(timedelta(hours=9))
SEED = 11
PREPARED_AT = "2026-11-23T23:00:00+09:00"
FLUSHED_AT = "2026-11-29T21:00:00+09:00"
RERUN_AT = "2026-11-29T23:40:00+09:00"  # a rerun comes later: its clock is not the killed run's
BEFORE_COMMIT = ("llm2", "consolidate", "rebuild", "recorded")
AFTER_COMMIT = ("committed", "memory_md", "logs")
KILL_POINTS = BEFORE_COMMIT + AFTER_COMMIT

FIRST_DAY = [
    ("2026-11-23T21:00:00+09:00", "user", "今夜はギターを1時間練習した"),
    ("2026-11-23T21:10:00+09:00", "user", "覚えておいて：仙台に住んでる"),
    ("2026-11-23T21:11:00+09:00", "assistant", "了解、仙台だね"),
]
REST_OF_WEEK = [
    ("2026-11-24T12:00:00+09:00", "assistant", "犬を飼ってるよね？"),
    ("2026-11-24T12:01:00+09:00", "user", "え、飼ってないよ？"),
    ("2026-11-24T21:00:00+09:00", "user", "Rustを勉強したいんだよね"),
    ("2026-11-25T12:00:00+09:00", "user", "ご飯のたびに緑茶を飲んでる"),
    ("2026-11-25T20:30:00+09:00", "user", "夕飯のあとまたギター"),
    ("2026-11-27T21:00:00+09:00", "user", "やっぱりRustの話はやめる"),
    ("2026-11-28T10:00:00+09:00", "user", "今日は朝ギター"),
    ("2026-11-28T12:00:00+09:00", "user", "最近は麦茶に切り替えた"),
    ("2026-11-29T19:00:00+09:00", "user", "先週引っ越して、今は金沢にいる"),
]
RULES = [
    Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9),
    Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9),
    Rule("金沢", "金沢に住んでいる", "home/city", "explicit", 0.9),
    Rule("犬を飼って", "犬を飼っている", "pets/dog", "fact", 0.9, roles=("assistant",)),
    Rule("緑茶", "毎食緑茶を飲む", "drink/daily", "habit", 0.8, persona="lifestyle"),
    Rule("麦茶", "麦茶に切り替えた", "drink/daily", "habit", 0.8, persona="lifestyle"),
    Rule("Rustを勉強", "Rustを勉強したい", "study/language", "fact", 0.8, persona="project"),
    Rule("Rustの話はやめる", "Rustの勉強はやめる", "study/language", "retraction", 0.8, persona="project"),
]
JUDGEMENTS = {
    ("仙台に住んでいる", "金沢に住んでいる"): Judgement("SUPERSEDE", 0.9),
    ("毎食緑茶を飲む", "麦茶に切り替えた"): Judgement("SUPERSEDE", 0.9),
    ("Rustを勉強したい", "Rustの勉強はやめる"): Judgement("SUPERSEDE", 0.9),
}


def kill_self() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def build(now: str, kill_at: str | None = None):
    def on_call(n: int, kind: str) -> None:
        if kill_at == "llm2" and n == 2:
            kill_self()

    oracle = Oracle(RULES, JUDGEMENTS, on_call=on_call)
    clock = lambda: datetime.fromisoformat(now)  # noqa: E731 - a fixed clock
    return build_app(None, pinned_backend=oracle, clock=clock, tz=JST)


def log(app, lines) -> None:
    for when, role, text in lines:
        ts = format_ts(parse_ts(when))
        app.logbook.append(Message(id=content_message_id(ts, role, text, "hana"), ts=ts, role=role, text=text,
                                   persona="hana"))


def progress_killer(kill_at: str | None):
    def progress(p) -> None:
        if kill_at == "consolidate" and p.stage == "consolidate":
            kill_self()  # inside the transaction, before any consolidation
        if kill_at == "rebuild" and p.stage == "rebuild" and p.message != "committed":
            kill_self()  # inside the transaction, everything written but not committed
        if kill_at == "committed" and p.message == "committed":
            kill_self()  # committed, memory.md not rewritten, log files not removed
    return progress


def kill_after_the_run_record(flusher) -> None:
    """Die right after the run row is written: everything is in the transaction, nothing committed."""
    add_run = flusher.memories.add_run

    def add_run_then_die(row: dict) -> int:
        add_run(row)
        kill_self()
        return 0  # pragma: no cover

    flusher.memories.add_run = add_run_then_die


def kill_in_the_clean_up(kill_at: str) -> None:
    """Die inside the clean-up after the commit, at a file operation (audit events, no patching)."""
    removed: list[str] = []

    def hook(event: str, args: tuple) -> None:
        if kill_at == "memory_md" and event == "os.rename" and str(args[1]).endswith("memory.md"):
            kill_self()  # the new memory.md is in its temporary file, not yet in place
        if kill_at == "logs" and event == "os.remove" and str(args[0]).endswith(".jsonl"):
            removed.append(str(args[0]))
            if len(removed) == 2:
                kill_self()  # one log file removed, the second about to be

    sys.addaudithook(hook)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("action", choices=("prepare", "flush"))
    parser.add_argument("--kill-at", choices=KILL_POINTS)
    parser.add_argument("--at", default=FLUSHED_AT, help="the clock of this flush (ISO with offset)")
    args = parser.parse_args(argv)
    if args.action == "prepare":
        app = build(PREPARED_AT)
        log(app, FIRST_DAY)
        app.flush.run(seed=SEED)
        log(app, REST_OF_WEEK)
        return 0
    app = build(args.at, args.kill_at)
    if args.kill_at == "recorded":
        kill_after_the_run_record(app.flush)
    if args.kill_at in ("memory_md", "logs"):
        kill_in_the_clean_up(args.kill_at)
    report = app.flush.run(seed=SEED, progress=progress_killer(args.kill_at))
    print(json.dumps({"run_id": report.run_id, "nothing_to_flush": report.nothing_to_flush,
                      "messages_archived": report.messages_archived}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
