"""The flush through the real embedded model (SmolLM2-135M, llama.cpp): time, CPU, calls, cut-off answers.

Run: .venv/bin/python benchmarks/bench_flush_embedded.py [MESSAGES ...]    (default: 35)
     .venv/bin/python benchmarks/bench_flush_embedded.py --history DAYS   (a long imported history)
     add --no-baseline to skip the baseline, --one-thread-too to run the tuned backend on 1 thread as well,
     --no-background to turn off the background track's LLM stages (reflect, the diary): the filters alone.

Each figure comes with its baseline from the same run: the same flush with the
embedded backend as it was before the flush was tuned (1 thread, 1,024 tokens
kept for every answer).
``cpu_s`` (this process's CPU time) says what the flush costs on a machine others
share; ``seconds`` is wall time, with the load average before and after.
``--history DAYS`` imports DAYS days of 60 short messages each with ``import_jsonl``
(what ``monchat import`` runs) and flushes them: every message must be archived and
the gate open. Nothing here asserts a time (timed tests flake); a run takes minutes.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.paths import Paths
from monchat.core.settings import load_settings, save_settings, set_value
from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.transfer.importers import import_jsonl
from monchat.core.types import Message, content_message_id, format_ts
from tests.test_flush_evening_embedded import SAYINGS  # the evening the tests plan


class CountingEmbedded(EmbeddedBackend):
    """The real backend, counting cut-off answers."""

    cut_off = 0

    def _complete_json(self, system, turns, schema, temperature):
        try:
            return super()._complete_json(system, turns, schema, temperature)
        except Exception as exc:
            if "cut off" in str(exc):
                self.cut_off += 1
            raise


class BeforeTuning(CountingEmbedded):
    """The backend as it was: one thread here (half the logical cores), 1,024 tokens kept per answer."""

    def json_answer_reserve(self) -> int:
        return min(self.n_ctx // 2, 1024)


def evening(app, messages: int) -> None:
    start = datetime(2026, 11, 30, 18, 0, tzinfo=timezone.utc)
    for n in range(messages):
        role, text = SAYINGS[n % len(SAYINGS)]
        ts = format_ts(start + timedelta(minutes=n))
        text = f"{text} ({n})"
        app.logbook.append(Message(id=content_message_id(ts, role, text, "hana"), ts=ts, role=role,
                                   text=text, persona="hana"))


def history(app, days: int, home: str) -> int:
    """``days`` evenings of 60 messages, imported as ``monchat import`` imports a JSONL file."""
    path = Path(home) / "history.jsonl"
    start = datetime(2026, 11, 20, 19, 0, tzinfo=timezone.utc)
    with path.open("w", encoding="utf-8") as out:
        for day in range(days):
            for n in range(60):
                role, text = SAYINGS[n % len(SAYINGS)]
                ts = start + timedelta(days=day, minutes=n)
                out.write(json.dumps({"ts": ts.isoformat(), "role": role, "text": f"{text} (day {day}, {n})"},
                                     ensure_ascii=False) + "\n")
    report = import_jsonl(path, app.logbook, app.archive, default_persona="hana", now=app.clock())
    return report.imported


def flush_once(messages: int, order: str = "chunk-major", *, before: bool = False, days: int = 0,
               threads: int = 0, background: bool = True, model_path: str = "") -> dict:
    """One flush of ``messages`` (or ``days`` of imported history); ``before``: the untuned backend;
    ``order="persona-major"``: personas one after another (no prefix shared between neighbours);
    ``model_path``: another GGUF than the bundled SmolLM2 (benchmarks/bench_models.py)."""
    kind = BeforeTuning if before else CountingEmbedded
    with tempfile.TemporaryDirectory() as home:
        backend = kind(model_path, n_ctx=4096, threads=1 if before else threads)
        if not background:
            paths = Paths.from_env(home).ensure()
            settings, _ = load_settings(paths.settings_path)
            set_value(settings, "background.reflect", "false")
            set_value(settings, "background.diary", "false")
            save_settings(settings, paths.settings_path)
        app = build_app(home, pinned_backend=backend, tz=timezone.utc)
        messages = history(app, days, home) if days else (evening(app, messages) or messages)
        backend.load()  # loading is not the flush's time
        app.flush.chunk_major = order == "chunk-major"
        load_before = os.getloadavg()[0]
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        started = time.monotonic()
        report = app.flush.run(seed=7)
        seconds = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_SELF)
        gate = app.chat.gate().state
        usage = report.usage
        result = {"messages": messages, "backend": "before" if before else "now", "order": order,
                  "background": background,
                  "threads": backend.thread_count(), "answer_room": backend.json_answer_reserve(),
                  "seconds": round(seconds, 1),
                  "cpu_s": round(after.ru_utime - cpu.ru_utime + after.ru_stime - cpu.ru_stime, 1),
                  "load": [round(load_before, 1), round(os.getloadavg()[0], 1)],
                  "calls": report.llm_calls, "cut_off_answers": backend.cut_off,
                  "prompt_tokens": usage.prompt_tokens, "cached_tokens": usage.cached_tokens,
                  "output_tokens": usage.output_tokens,
                  "archived": report.messages_archived, "gate": gate, "errors": len(report.errors),
                  "error_texts": [str(e)[:160] for e in report.errors],
                  "items": sum(len(v) for v in report.items.values())}
        backend.close()
        app.close()
        return result


def main(argv: list[str]) -> None:
    baseline = "--no-baseline" not in argv
    one_thread = "--one-thread-too" in argv  # also the tuned backend on one thread (apart from the cores)
    background = "--no-background" not in argv
    argv = [a for a in argv if a not in ("--no-baseline", "--one-thread-too", "--no-background")]
    runs = [(0, int(argv[1]))] if argv[:1] == ["--history"] else [(int(a), 0) for a in argv] or [(35, 0)]
    for messages, days in runs:
        if one_thread:
            print(json.dumps(flush_once(messages, days=days, threads=1, background=background),
                             ensure_ascii=False), flush=True)
        now = flush_once(messages, days=days, background=background)
        if baseline:
            before = flush_once(messages, before=True, days=days, background=background)
            now["vs_before"] = round(now["seconds"] / max(before["seconds"], 0.1), 2)
            now["cpu_vs_before"] = round(now["cpu_s"] / max(before["cpu_s"], 0.1), 2)
            print(json.dumps(before, ensure_ascii=False), flush=True)
        print(json.dumps(now, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
